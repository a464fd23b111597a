"""A text's encoding as the engines read it (`Encoded`): its token ids, character offsets, special-token marks and
token strings (`TokenNames`: looked up by id when first read)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Encoded:
    ids: tuple[int, ...]
    offsets: tuple[tuple[int, int], ...]
    special: tuple[int, ...]
    tokens: Sequence[str]  # a tuple, or `TokenNames` (looked up when read)

    def __reduce__(self) -> tuple[Any, ...]:  # pickled as its fields: the memo's store reads 70,000 of them
        return Encoded, (self.ids, self.offsets, self.special, self.tokens)


class TokenNames(Sequence[str]):
    """A text's token strings, looked up by id when first read: only error messages read them, and building
    them for every text cost a Python step per token (0.5 s per 100,000 short texts)."""

    __slots__ = ("_ids", "_lookup", "_names")

    def __init__(self, ids: tuple[int, ...], lookup: Callable[[int], str]) -> None:
        self._ids, self._lookup = ids, lookup
        self._names: tuple[str, ...] | None = None

    def __reduce__(self) -> tuple[Any, ...]:  # pickled as what it is made of, not by its slots
        return TokenNames, (self._ids, self._lookup)

    def _all(self) -> tuple[str, ...]:
        if self._names is None:
            self._names = tuple(self._lookup(i) for i in self._ids)
        return self._names

    def __getitem__(self, index):  # type: ignore[override]
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._ids)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, tuple | TokenNames) and self._all() == tuple(other)

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return repr(self._all())
