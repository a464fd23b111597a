"""Parsed reference data, cached on disk so that no run parses a slow file twice.

A parsed table is stored in the user cache as ``parsed/<source>-<sha256[:16]>-v<version>.csv`` with a
``.json`` beside it holding the columns' dtypes and the CSV's own sha256. The key is the *source's*
checksum (the file that was parsed, verified on every resolution) and the parser's version, so a new
file or a changed parser never reads an old table; the CSV's checksum is verified on every read, and a
table that fails it is parsed again and rewritten. Files are written whole (`biascheck.files.atomic_write`).
A cache that cannot be written is not an error: the table is parsed and used.

Floats are written with 17 significant digits, so a table read back equals the parsed one exactly.
Only tables whose text columns have no missing values are cached (an empty CSV field reads back as a
missing number, but as an empty string in a text column).

What is derived from several sources and is not a table (e.g. the politicians probe's word forms, from a
treebank or a lemma table) is stored the same way as JSON (`cached_json`): ``parsed/<name>-<key>-v<version>.json``,
the key a digest of the sha256s of everything it was derived from, its own sha256 in a ``.sha256`` beside it.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.data.sources import SOURCES
from biascheck.files import atomic_write, read_checked, write_checked


def table_path(refdata: ReferenceData, name: str, version: int) -> Path:
    return refdata.cache / "parsed" / f"{name}-{SOURCES[name].sha256[:16]}-v{version}.csv"


def _cacheable(frame: pd.DataFrame) -> bool:
    text = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    return not frame[text].isna().any().any()


def store(path: Path, frame: pd.DataFrame) -> bool:
    """Write `frame` as the cached table `path`; False when it cannot be cached (nothing written)."""
    if not _cacheable(frame):
        return False
    data = frame.to_csv(index=False, float_format="%.17g").encode("utf-8")
    meta = {
        "dtypes": {c: str(t) for c, t in frame.dtypes.items()},
        "sha256": hashlib.sha256(data).hexdigest(),
        "rows": len(frame),
    }
    try:
        atomic_write(path, data)
        atomic_write(path.with_suffix(".json"), json.dumps(meta, indent=1))
    except OSError:
        return False
    return True


def read(path: Path) -> pd.DataFrame | None:
    """The cached table at `path`, or None when it is absent, incomplete or does not match its checksum."""
    try:
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        data = path.read_bytes()
    except (OSError, ValueError):
        return None
    if hashlib.sha256(data).hexdigest() != meta.get("sha256"):
        return None
    dtypes = meta["dtypes"]
    numeric = [c for c, t in dtypes.items() if t.startswith(("int", "float", "Int", "Float"))]
    frame = pd.read_csv(
        io.BytesIO(data),
        dtype={c: (str if t in ("str", "object") else t) for c, t in dtypes.items()},
        keep_default_na=False,
        na_values={c: [""] for c in numeric},
    )
    return frame if len(frame) == meta.get("rows") else None


def cached_table(
    refdata: ReferenceData, name: str, version: int, parse: Callable[[Path], pd.DataFrame]
) -> pd.DataFrame:
    """`parse(path of source name)`, from the cache when this source file and parser version were parsed
    before. Bump `version` whenever `parse` changes what it returns."""
    source_path = refdata.path(name)  # verified by sha256, and recorded as used
    path = table_path(refdata, name, version)
    frame = read(path)
    if frame is None:
        frame = parse(source_path)
        store(path, frame)
    return frame


def json_path(refdata: ReferenceData, name: str, sources: Sequence[str], version: int) -> Path:
    key = hashlib.sha256("\n".join(sorted(sources)).encode("utf-8")).hexdigest()[:16]
    return refdata.cache / "parsed" / f"{name}-{key}-v{version}.json"


def cached_json(
    refdata: ReferenceData, name: str, sources: Sequence[str], version: int, build: Callable[[], Any]
) -> Any:
    """`build()` (a JSON value), from the cache when it was built before from the same `sources` (the sha256
    of every file it reads) and `version`; a stored value that fails its checksum is built again. Bump
    `version` whenever `build` changes what it returns."""
    return cached_json_at(json_path(refdata, name, sources, version), build)


def cached_json_in(cache: Path, name: str, keys: Sequence[str], version: int, build: Callable[[], Any]) -> Any:
    """`cached_json` in the cache folder `cache` (`biascheck.files.default_cache_dir`) for a value derived from
    what `keys` name (digests of everything it depends on) rather than from reference files."""
    key = hashlib.sha256("\n".join(sorted(keys)).encode("utf-8")).hexdigest()[:16]
    return cached_json_at(cache / "parsed" / f"{name}-{key}-v{version}.json", build)


def cached_json_at(path: Path, build: Callable[[], Any]) -> Any:
    """`build()` stored as JSON at `path` with its sha256 beside it, or read from there when it checks out."""
    data = read_checked(path)
    if data is not None:
        try:
            return json.loads(data)
        except ValueError:
            pass
    value = build()
    data = json.dumps(value, ensure_ascii=False, sort_keys=True).encode("utf-8")
    try:
        write_checked(path, data)
    except OSError:
        pass  # a cache that cannot be written is not an error
    return value
