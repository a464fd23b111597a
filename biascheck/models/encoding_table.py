"""The memo's encodings of one tokenizer (`memo`): text -> `encoded.Encoded`, a mapping that pickles as columns. On
disk (`memo_store`) a table is its texts, four flat arrays (where each text starts, ids, offsets, special marks) and
the one token lookup its texts share, not one object and its tuples a text: a causal model's full tier holds about
165,000 texts, which took 3.3-4.3 s to unpickle as objects and take 0.3-0.5 s as columns. A table read back builds a
text's `Encoded` when it is first read, and most never are: a run that meets its texts again mostly reads what its
calls became (`memo.kept`), not their encodings. Texts added later are held as objects until it is pickled again."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from itertools import chain
from typing import Any

import numpy as np

from biascheck.models.encoded import Encoded, TokenNames
from biascheck.models.planning import laid_end_to_end, ragged_index


class EncodingTable(MutableMapping[str, Encoded]):
    """text -> `Encoded`: the rows read from a store (columns, built on first read) and the encodings added since."""

    __slots__ = ("_added", "_columns", "_index")

    def __init__(self, encodings: Mapping[str, Encoded] | Iterable[tuple[str, Encoded]] = ()) -> None:
        self._added: dict[str, Encoded] = dict(encodings)
        self._index: dict[str, int] = {}  # a stored text -> its row
        self._columns: tuple[Any, ...] = ()  # (starts, ids, offsets, special, lookup) of the stored rows

    def __getitem__(self, text: str) -> Encoded:
        found = self._added.get(text)
        if found is not None:
            return found
        row = self._index[text]
        starts, ids, offsets, special, lookup = self._columns
        a, b = starts[row], starts[row + 1]
        token_ids = tuple(ids[a:b].tolist())
        pairs = offsets[2 * a : 2 * b].tolist()
        encoded = Encoded(
            token_ids,
            tuple(zip(pairs[::2], pairs[1::2], strict=True)),
            tuple(special[a:b].tolist()),
            TokenNames(token_ids, lookup),
        )
        del self._index[text]  # built once: an added text from now on (the two parts never share a text)
        self._added[text] = encoded
        return encoded

    def __contains__(self, text: object) -> bool:
        return text in self._added or text in self._index

    def __setitem__(self, text: str, encoded: Encoded) -> None:
        self._index.pop(text, None)
        self._added[text] = encoded

    def __delitem__(self, text: str) -> None:
        if text not in self:
            raise KeyError(text)
        self._added.pop(text, None)
        self._index.pop(text, None)

    def __iter__(self) -> Iterator[str]:
        yield from self._added
        yield from self._index

    def __len__(self) -> int:
        return len(self._added) + len(self._index)

    def update(self, other: Any = (), /, **kw: Encoded) -> None:  # dict's speed: the memo adds 10^5 texts at once
        added = dict(other, **kw)
        self._added.update(added)
        if self._index:
            for text in added:
                self._index.pop(text, None)

    def __reduce__(self) -> tuple[Any, ...]:
        return _restore, _columns_of(self)


def _columns_of(table: EncodingTable) -> tuple[Any, ...]:
    """(texts in columns, starts, ids, offsets, special, lookup, texts kept as objects). A table is one tokenizer's
    (`memo`), so every `TokenNames` in it looks tokens up alike: all of them go into the columns, under one lookup
    (the stored rows', else the first added one's); a text whose token strings are a tuple stays an object. Stored
    rows never read are copied column to column, not built."""
    lookup = table._columns[4] if table._columns else None
    columnar, objects = [], {}
    for text, encoded in table._added.items():
        if isinstance(encoded.tokens, TokenNames):
            lookup = encoded.tokens._lookup if lookup is None else lookup
            columnar.append((text, encoded))
        else:
            objects[text] = encoded
    lengths, ids = laid_end_to_end([e.ids for _, e in columnar])
    total = int(lengths.sum())
    pairs = chain.from_iterable(chain.from_iterable(e.offsets) for _, e in columnar)
    offsets = np.fromiter(pairs, dtype=np.int64, count=2 * total).reshape(-1, 2)
    special = np.fromiter(chain.from_iterable(e.special for _, e in columnar), dtype=np.int64, count=total)
    texts = [t for t, _ in columnar]
    if table._index:  # the stored rows not read: their slices of the old columns
        old_starts, old_ids, flat_offsets, old_special, _ = table._columns
        old_starts, old_offsets = np.asarray(old_starts, dtype=np.int64), flat_offsets.reshape(-1, 2)
        rows = np.fromiter(table._index.values(), dtype=np.int64, count=len(table._index))
        kept = old_starts[rows + 1] - old_starts[rows]
        at = ragged_index(old_starts[rows], kept)
        texts += list(table._index)
        lengths = np.concatenate([lengths, kept])
        ids = np.concatenate([ids, old_ids[at]])
        offsets = np.concatenate([offsets, old_offsets[at]])
        special = np.concatenate([special, old_special[at]])
    starts = np.concatenate([np.zeros(1, np.int64), np.cumsum(lengths, dtype=np.int64)])
    return (texts, starts, _narrow(ids), _narrow(offsets), special.astype(np.int8), lookup, objects)


def _narrow(values: np.ndarray) -> np.ndarray:
    """int32 where every value fits (token ids and character offsets do): half the bytes on disk."""
    fits = not values.size or (int(values.min()) >= -(2**31) and int(values.max()) < 2**31)
    return values.astype(np.int32) if fits else values.astype(np.int64)


def _restore(texts, starts, ids, offsets, special, lookup, objects) -> EncodingTable:  # type: ignore[no-untyped-def]
    table = EncodingTable(objects)
    table._index = {text: row for row, text in enumerate(texts)}
    table._columns = (starts.tolist(), ids, offsets.reshape(-1), special, lookup)  # Python ints where read one by one
    return table
