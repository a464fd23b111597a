"""The process memo (`memo`) kept on disk, per machine, like the converted default model: the next run with the
same tokenizer (the next release scored by a CI job, the next checkpoint of a sweep in a new process) reads what
the texts became instead of tokenising and planning them again (the full tier's inputs on a 2-layer BERT: about
40 s of a first model's 54 s of host work; reading the store takes a few seconds).

One file a tokenizer: ``<cache>/memo/<tokenizer sha256[:24]>-<code key>.pickle``, its sha256 in a ``.sha256``
beside it, checked before it is read (a file that fails it, or does not unpickle, is ignored and written again).
The code key (`code_key`) digests every source file of biascheck and the versions of Python, numpy, tokenizers and
transformers: whatever could change what a text becomes makes a new file, and a file of other code for the same
tokenizer is removed when the new one is written. Written whole (temporary name, then a rename) and only when the
run added to what it read; not past FILE_BYTES (nothing written: the run built everything, as without a store).
Past STORE_BYTES for the whole folder the least recently read files go. A store that cannot be read or written
is never an error. Pickle: read only files this code wrote into the user's own cache (whoever can write there can
also change the converted model beside it); $BIASCHECK_MEMO_STORE=off runs without it, =/a/folder keeps it there.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import pickle
import sys
import warnings
from pathlib import Path
from typing import Any

from biascheck.files import checksum_path, default_cache_dir, read_checked, write_checked

STORE_ENV = "BIASCHECK_MEMO_STORE"
FILE_BYTES = 2 * 1024**3  # a masked model's full tier, every language: about 400 MB
STORE_BYTES = 4 * 1024**3
SUFFIX = ".pickle"


def directory() -> Path | None:
    """Where the store is: <biascheck cache>/memo ($BIASCHECK_MEMO_STORE unset or on), another folder (an absolute
    path), or None (off)."""
    from biascheck.errors import ConfigError

    value = os.environ.get(STORE_ENV, "").strip()
    if value.lower() in ("", "on", "off"):
        return None if value.lower() == "off" else default_cache_dir() / "memo"
    folder = Path(value).expanduser()
    if not folder.is_absolute():
        raise ConfigError(f"{STORE_ENV}={value!r}: give on (the default), off, or a folder's absolute path")
    return folder


@functools.cache
def code_key() -> str:
    """A digest of what the memo's contents are computed by: every biascheck source file and the versions of the
    libraries that tokenise and store them."""
    import numpy
    import tokenizers
    import transformers

    digest = hashlib.sha256()
    versions = (sys.version_info[:2], numpy.__version__, tokenizers.__version__, transformers.__version__)
    digest.update(repr(versions).encode("utf-8"))
    root = Path(__file__).resolve().parents[1]
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def path_for(folder: Path, tokenizer: str) -> Path:
    return folder / f"{tokenizer[:24]}-{code_key()}{SUFFIX}"


def read(folder: Path, tokenizer: str) -> Any | None:
    """What `write` stored for `tokenizer` by this code, or None (absent, failing its checksum, unreadable)."""
    path = path_for(folder, tokenizer)
    data = read_checked(path)
    if data is None:
        return None
    try:
        value = pickle.loads(data)
        os.utime(path)  # recently read: kept longest when the folder is pruned
    except Exception:  # noqa: BLE001 - a store that cannot be read is rebuilt, never an error
        return None
    return value


def stamp(folder: Path, tokenizer: str) -> tuple[int, int, int] | None:
    """(inode, modification time, size) of the stored file, None when there is none: another process's write, or
    read, changes it."""
    try:
        found = path_for(folder, tokenizer).stat()
    except OSError:
        return None
    return found.st_ino, found.st_mtime_ns, found.st_size


class _TooLarge(Exception):
    pass


class _Bounded(io.BytesIO):
    """A buffer that refuses to grow past `limit` bytes (the pickle stops there, not at the end)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def write(self, data: Any) -> int:
        if self.tell() + memoryview(data).nbytes > self.limit:
            raise _TooLarge
        return super().write(data)


def write(folder: Path, tokenizer: str, value: Any, limit: int = FILE_BYTES) -> int:
    """Store `value` for `tokenizer` by this code; the bytes written, 0 when nothing was (past `limit`, the folder
    cannot be written, or a value does not pickle: a warning says so). Removes the files other code left for the
    same tokenizer, then prunes."""
    path = path_for(folder, tokenizer)
    buffer = _Bounded(limit)
    try:
        pickle.dump(value, buffer, protocol=5)
    except _TooLarge:
        return 0
    except Exception as exc:  # noqa: BLE001 - a memo that cannot be stored is built again next time, never an error
        warnings.warn(
            f"biascheck: the memo's store could not be written ({exc!r}); the next run builds it again",
            RuntimeWarning,
            stacklevel=2,
        )
        return 0
    data = buffer.getbuffer()
    try:
        write_checked(path, bytes(data))
    except OSError:
        return 0
    for other in folder.glob(f"{tokenizer[:24]}-*{SUFFIX}"):
        if other != path:
            _remove(other)
    prune(folder)
    return len(data)


def prune(folder: Path, limit: int = STORE_BYTES) -> None:
    """Remove the least recently read or written files until the folder holds at most `limit` bytes."""
    try:
        files = sorted(folder.glob(f"*{SUFFIX}"), key=lambda p: p.stat().st_mtime, reverse=True)
        total = 0
        for path in files:
            total += path.stat().st_size
            if total > limit:
                _remove(path)
    except OSError:
        pass


def _remove(path: Path) -> None:
    for each in (path, checksum_path(path)):
        each.unlink(missing_ok=True)
