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
is built as without a memo. A model built in memory (no digest) keeps nothing."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")
MemoKey = tuple[str | None, Hashable]  # (the tokenizer's digest, what else the kept result depends on)
MEMO_TEXTS = 400_000
MEMO_CALLS = 4096  # a masked model's quick tier keeps about 220 calls' reads and as many plans; its full tier more
_ENCODINGS: dict[tuple[str, bool], dict[str, Any]] = {}  # text -> `common.Encoded`
_CALLS: dict[str, dict[Hashable, Any]] = {}


def _only(digest: str) -> None:
    """Drop what other tokenizers left."""
    for key in [k for k in _ENCODINGS if k[0] != digest]:
        del _ENCODINGS[key]
    for other in [d for d in _CALLS if d != digest]:
        del _CALLS[other]


def encodings_memo(digest: str | None, add_special_tokens: bool) -> dict[str, Any] | None:
    """The process's encodings of texts by the tokenizer with `digest`, or None when there is no digest (a model
    built in memory, whose tokenizer nothing names)."""
    if not digest:
        return None
    _only(digest)
    return _ENCODINGS.setdefault((digest, add_special_tokens), {})


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
    """Forget everything kept (tests)."""
    _ENCODINGS.clear()
    _CALLS.clear()
