"""A file larger than one device call carries (64 MiB: the default model's 98 MB GGUF) cut into parts that each fit
beside the kit, and joined again on the far side, checked against the whole file's sha256. Needs only the checkout
(`biascheck.files`: the sha256 and the whole-or-nothing write), as on the GPU machine.

    split(file, into, part_bytes)  -> writes into/<name>.partNN and into/parts.json (name, bytes, sha256, parts)
    join(folder, into)              -> into/<name>, or SystemExit naming what is missing or does not match
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from biascheck.files import atomic_write, file_sha256  # noqa: E402 - the checkout, put on the path above

MANIFEST = "parts.json"
PART_BYTES = 40 * 2**20  # a part and the 18 MB kit fit one call's 64 MiB


def split(file: Path, into: Path, part_bytes: int = PART_BYTES) -> dict:
    """Cut `file` into parts of at most `part_bytes` in `into`, with a manifest; returns the manifest."""
    parts = []
    with file.open("rb") as handle:
        for n, block in enumerate(iter(lambda: handle.read(part_bytes), b"")):
            part = into / f"{file.name}.part{n:02d}"
            atomic_write(part, block)
            parts.append(part.name)
    manifest = {"name": file.name, "bytes": file.stat().st_size, "sha256": file_sha256(file), "parts": parts}
    atomic_write(into / MANIFEST, json.dumps(manifest, indent=2))
    return manifest


def join(folder: Path, into: Path) -> Path:
    """The whole file from `folder`'s parts, written to `into` (once: a joined file that checks out is reused);
    SystemExit when a part is missing (carried in another call that has not come yet) or the sha256 differs."""
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        raise SystemExit(f"gguf_parts: {folder} has no {MANIFEST}: run `gpu_kit.py prepare --real` where the model is")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    target = into / manifest["name"]
    if target.is_file() and target.stat().st_size == manifest["bytes"] and file_sha256(target) == manifest["sha256"]:
        return target
    missing = [p for p in manifest["parts"] if not (folder / p).is_file()]
    if missing:
        raise SystemExit(f"gguf_parts: {folder} lacks {', '.join(missing)}: carry every part before the run")
    into.mkdir(parents=True, exist_ok=True)
    whole = b"".join((folder / part).read_bytes() for part in manifest["parts"])
    got = hashlib.sha256(whole).hexdigest()
    if got != manifest["sha256"]:
        raise SystemExit(f"gguf_parts: the joined {manifest['name']} has sha256 {got}, not {manifest['sha256']}")
    atomic_write(target, whole)
    return target
