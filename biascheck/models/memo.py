"""What a model's texts become before any weight is read, kept for the process by the tokenizer's digest
(`identity.tokenizer_digest`, recorded as `extra["tokenizer_sha256"]`): the next model with the same tokenizer (a
sweep's next checkpoint, the next release scored in the same process) reads it instead of building it again.

Two kinds: the encodings of texts (`encodings_memo`: a text's ids, offsets and special-token marks), and what a
call's texts become (`kept`): a masked model's slot, mask and pseudo-log-likelihood reads and a causal model's
chain-rule, filled-template and next-token reads (each with every candidate's covering pieces checked), which word
each piece belongs to (`words.WordLayout`), and the engine's plan of each. They are what the run builds anyway;
kept, they outlive the call that built them. Texts that only a kept build reads are not added to the encodings
(`EngineModel._encode(keep=False)`). One tokenizer's at a time (a sweep has one): a new digest drops the others'.
Bounded: MEMO_TEXTS texts (about 1 KB each) and MEMO_CALLS calls; past a bound nothing more is kept, and everything
is built as without a memo. A model built in memory (no digest) keeps nothing.

A run of the probes keeps it on disk too (`use_store`, `memo_store`): the first time a process meets a tokenizer it
reads what an earlier run stored for it, and at the end of the run (`save`) it stores what it holds when it added
to it."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, TypeVar

from biascheck.models.encoding_table import EncodingTable

T = TypeVar("T")
MemoKey = tuple[str | None, Hashable]  # (the tokenizer's digest, what else the kept result depends on)
MEMO_TEXTS = 400_000
MEMO_CALLS = 4096  # a masked model's quick tier keeps about 220 calls' reads and as many plans; its full tier more
_ENCODINGS: dict[tuple[str, bool], EncodingTable] = {}  # text -> `encoded.Encoded`
_CALLS: dict[str, dict[Hashable, Any]] = {}
_STORE: Path | None = None  # the on-disk store's folder (`use_store`), None: this process keeps nothing on disk
# tokenizers met since the store was set: (calls, texts) the memo held after reading or writing the store, and the
# store file's `memo_store.stamp` then
_READ: dict[str, tuple[tuple[int, int], Any]] = {}


def _only(digest: str) -> None:
    """Drop what other tokenizers left (stored first, when the store is on), and read what the store holds for
    this one the first time it is met."""
    if _STORE is not None and digest not in _READ:
        save()  # what the run added for the tokenizers about to be dropped
        _READ.clear()  # met again, they are read again
    for key in [k for k in _ENCODINGS if k[0] != digest]:
        del _ENCODINGS[key]
    for other in [d for d in _CALLS if d != digest]:
        del _CALLS[other]
    if _STORE is not None and digest not in _READ:
        _read(digest)


def use_store(folder: Path | None) -> None:
    """Keep the memo in `folder` (`memo_store`) from now on; None: stop (what it holds stays for the process)."""
    global _STORE
    _STORE = folder
    _READ.clear()


def meet(digest: str | None) -> None:
    """A model with this tokenizer was loaded: read its store now (a model's load, not its first probe, pays it)."""
    if digest:
        _only(digest)


def _read(digest: str) -> None:
    from biascheck.models.memo_store import read, stamp

    assert _STORE is not None
    _merge(digest, read(_STORE, digest))
    _READ[digest] = (_size(digest), stamp(_STORE, digest))


def _merge(digest: str, stored: Any) -> None:
    """Add what a store holds to the process's memo, within its bounds (what the process built stays)."""
    if not (isinstance(stored, dict) and isinstance(stored.get("calls"), dict)):
        return
    calls = _CALLS.setdefault(digest, {})
    for key, value in stored["calls"].items():
        if len(calls) < MEMO_CALLS:
            calls.setdefault(key, value)
    texts = _size(digest)[1]
    stored_encodings = stored.get("encodings")
    for special, encodings in stored_encodings.items() if isinstance(stored_encodings, dict) else ():
        if not isinstance(encodings, EncodingTable):
            continue
        memo = _ENCODINGS.get((digest, bool(special)))
        if not memo and texts + len(encodings) <= MEMO_TEXTS:  # a process's first read: the table as it is read
            _ENCODINGS[(digest, bool(special))] = encodings
            texts += len(encodings)
            continue
        memo = _ENCODINGS.setdefault((digest, bool(special)), EncodingTable())
        for text in encodings:
            if texts < MEMO_TEXTS and text not in memo:
                memo[text] = encodings[text]
                texts += 1


def _size(digest: str) -> tuple[int, int]:
    return len(_CALLS.get(digest, {})), sum(len(v) for k, v in _ENCODINGS.items() if k[0] == digest)


def save() -> int:
    """Store what the process holds for each tokenizer it met since `use_store`, where it added to what the store
    held (nothing else is written), with what another process stored meanwhile (a pytest-xdist worker beside this
    one, scoring other probes) merged in; the bytes written."""
    from biascheck.models.memo_store import read, stamp, write

    written = 0
    for digest, (size, seen) in list(_READ.items()):
        now = _size(digest)
        if _STORE is None or now == size or now[0] < size[0] or now[1] < size[1]:
            continue
        if stamp(_STORE, digest) != seen:  # written by another process since this one read it
            _merge(digest, read(_STORE, digest))
        encodings = {special: texts for (d, special), texts in _ENCODINGS.items() if d == digest}  # as columns
        written += write(_STORE, digest, {"calls": dict(_CALLS.get(digest, {})), "encodings": encodings})
        _READ[digest] = (_size(digest), stamp(_STORE, digest))
    return written


def encodings_memo(digest: str | None, add_special_tokens: bool) -> EncodingTable | None:
    """The process's encodings of texts by the tokenizer with `digest`, or None when there is no digest (a model
    built in memory, whose tokenizer nothing names)."""
    if not digest:
        return None
    _only(digest)
    return _ENCODINGS.setdefault((digest, add_special_tokens), EncodingTable())


def kept(digest: str | None, key: Hashable, build: Callable[[], T]) -> T:
    """`build()` once for the process per tokenizer and `key`, which must name everything else the result depends
    on. An error is raised again on every call, never kept. The result is shared: callers must not change it."""
    if not digest:
        return build()
    _only(digest)
    calls = _CALLS.setdefault(digest, {})
    if key in calls:
        return calls[key]  # type: ignore[no-any-return]
    value = build()
    if len(calls) < MEMO_CALLS:
        calls[key] = value
    return value


def clear() -> None:
    """Forget everything kept (tests); the store, if any, stays on disk."""
    _ENCODINGS.clear()
    _CALLS.clear()
    _READ.clear()
