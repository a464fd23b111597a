"""biascheck/models/encoding_table.py: the memo's encodings pickle as columns and read back as the same encodings,
each built when it is first read; texts added after a read, and rows never read, pickle together again."""

from __future__ import annotations

import pickle

from biascheck.models.encoded import Encoded, TokenNames
from biascheck.models.encoding_table import EncodingTable


def _encoded(ids: tuple[int, ...], names: bool = True) -> Encoded:
    offsets = tuple((3 * i, 3 * i + 2) for i in range(len(ids)))
    special = tuple(int(i == 0) for i in range(len(ids)))
    return Encoded(ids, offsets, special, TokenNames(ids, str) if names else tuple(map(str, ids)))


def _same(a: Encoded, b: Encoded) -> bool:
    return (a.ids, a.offsets, a.special, tuple(a.tokens)) == (b.ids, b.offsets, b.special, tuple(b.tokens))


TEXTS = {
    "a b": _encoded((1, 7)),
    "": _encoded(()),
    "long one": _encoded((2**31 + 5, 4, 9)),  # an id past int32: the column keeps int64
    "wrapper": _encoded((3, 3), names=False),  # token strings as a tuple: kept as an object
}


def test_a_table_pickles_as_columns_and_reads_back_the_same_encodings():
    table = EncodingTable(TEXTS)
    back = pickle.loads(pickle.dumps(table))
    assert len(back) == 4 and set(back) == set(TEXTS) and "a b" in back and "zzz" not in back
    assert list(back._index) == ["a b", "", "long one"] and list(back._added) == ["wrapper"]  # not built yet
    for text, encoded in TEXTS.items():
        assert _same(back[text], encoded)
        assert type(back[text].ids[0] if back[text].ids else 0) is int
    assert not back._index and len(back) == 4  # each built once, on its first read
    assert back["a b"] is back["a b"]


def test_texts_added_after_a_read_and_rows_never_read_pickle_together():
    back = pickle.loads(pickle.dumps(EncodingTable(TEXTS)))
    back.update({"new": _encoded((5, 6, 7))})
    back["other"] = _encoded((8,))
    assert _same(back["long one"], TEXTS["long one"])  # one stored row read, the others not
    again = pickle.loads(pickle.dumps(back))
    assert len(again) == 6 and set(again) == {*TEXTS, "new", "other"}
    for text, encoded in {**TEXTS, "new": _encoded((5, 6, 7)), "other": _encoded((8,))}.items():
        assert _same(again[text], encoded), text
    del again["new"]
    assert "new" not in again and len(again) == 5
