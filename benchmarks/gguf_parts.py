"""A file larger than one device call carries (64 MiB: the default model's 98 MB GGUF) cut into parts that each fit
beside the kit, and joined again on the far side, checked against the whole file's sha256. Standard library only
(the GPU machine runs it from the checkout).

    split(file, into, part_bytes)  -> writes into/<name>.partNN and into/parts.json (name, bytes, sha256, parts)
    join(folder, into)              -> into/<name>, or SystemExit naming what is missing or does not match
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

MANIFEST = "parts.json"
PART_BYTES = 40 * 2**20  # a part and the 18 MB kit fit one call's 64 MiB


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(2**20), b""):
            digest.update(block)
    return digest.hexdigest()


def split(file: Path, into: Path, part_bytes: int = PART_BYTES) -> dict:
    """Cut `file` into parts of at most `part_bytes` in `into`, with a manifest; returns the manifest."""
    into.mkdir(parents=True, exist_ok=True)
    parts = []
    with file.open("rb") as handle:
        for n, block in enumerate(iter(lambda: handle.read(part_bytes), b"")):
            part = into / f"{file.name}.part{n:02d}"
            part.write_bytes(block)
            parts.append(part.name)
    manifest = {"name": file.name, "bytes": file.stat().st_size, "sha256": _sha256(file), "parts": parts}
    (into / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return manifest


def join(folder: Path, into: Path) -> Path:
    """The whole file from `folder`'s parts, written to `into` (once: a joined file that checks out is reused);
    SystemExit when a part is missing (carried in another call that has not come yet) or the sha256 differs."""
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        raise SystemExit(f"gguf_parts: {folder} has no {MANIFEST}: run `gpu_kit.py prepare --real` where the model is")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    target = into / manifest["name"]
    if target.is_file() and target.stat().st_size == manifest["bytes"] and _sha256(target) == manifest["sha256"]:
        return target
    missing = [p for p in manifest["parts"] if not (folder / p).is_file()]
    if missing:
        raise SystemExit(f"gguf_parts: {folder} lacks {', '.join(missing)}: carry every part before the run")
    into.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".joining")
    with partial.open("wb") as out:
        for part in manifest["parts"]:
            out.write((folder / part).read_bytes())
    got = _sha256(partial)
    if got != manifest["sha256"]:
        partial.unlink()
        raise SystemExit(f"gguf_parts: the joined {manifest['name']} has sha256 {got}, not {manifest['sha256']}")
    partial.replace(target)
    return target
