"""Files written whole or not at all: a temporary name in the target directory, then a rename, so a reader
(or an interrupted run) sees the old file or the new one, never a part; a cache file with its sha256 beside it,
used only when the two agree (`write_checked`, `read_checked`); and a file's sha256, read in blocks.
Imports nothing of biascheck."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path


def default_cache_dir() -> Path:
    """biascheck's user cache: $BIASCHECK_CACHE_DIR, else $XDG_CACHE_HOME/biascheck, else ~/.cache/biascheck."""
    env = os.environ.get("BIASCHECK_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "biascheck"


def file_sha256(path: Path) -> str:
    """The sha256 of the file at `path`, read a mebibyte at a time."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def umask() -> int:
    """The process's umask (read by setting it and setting it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: Path, data: str | bytes) -> None:
    """Write `data` (text as UTF-8, or bytes) to `path` atomically, creating its directory. The file gets the
    mode a plain write would (0666 less the umask; `mkstemp` alone makes it 0600, which others in a CI job or
    a shared folder cannot read)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    binary = isinstance(data, bytes)
    try:
        with os.fdopen(handle, "wb" if binary else "w", encoding=None if binary else "utf-8") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp_name, 0o666 & ~umask())
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


def checksum_path(path: Path) -> Path:
    """Where `write_checked` keeps the sha256 of `path`: beside it, suffix .sha256."""
    return path.with_suffix(".sha256")


def write_checked(path: Path, data: bytes) -> None:
    """`data` written whole to `path` and its sha256 beside it (`checksum_path`), for `read_checked`."""
    atomic_write(path, data)
    atomic_write(checksum_path(path), hashlib.sha256(data).hexdigest() + "\n")


def read_checked(path: Path) -> bytes | None:
    """The bytes at `path` when they match the sha256 `write_checked` put beside them; None when either file is
    missing or unreadable, or they differ (a partial or damaged cache file is never used)."""
    try:
        data = path.read_bytes()
        expected = checksum_path(path).read_text(encoding="utf-8").strip()
    except (OSError, ValueError):
        return None
    return data if hashlib.sha256(data).hexdigest() == expected else None


def replace_dir(new: Path, target: Path) -> None:
    """Put directory `new` in the place of `target`: the old `target` is moved aside, `new` renamed in, then
    the old one removed, so a reader finds the old directory or the new one, never a mix of both. A `new`
    that does not exist means nothing new: `target` is removed."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(target, old)
    if new.exists():
        os.replace(new, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def offline() -> bool:
    """BIASCHECK_OFFLINE is set (1, true, yes, any case): nothing is fetched, neither reference data nor a model
    or its card from the hub. The one reading of the variable (`data.resolve`, `models.loading`, `languages`)."""
    return os.environ.get("BIASCHECK_OFFLINE", "").lower() in ("1", "true", "yes")
