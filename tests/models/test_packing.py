"""Prefix-tree packing (`biascheck.models.packing`): every input is rebuilt from its row, every
distinct prefix of a row is one position, and a position sees exactly its own prefix."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from biascheck.models.packing import ancestor_mask, ancestor_masks, common_prefix, pack_rows, padded_depths

SEQS = st.lists(st.lists(st.integers(0, 4), min_size=1, max_size=9).map(tuple), min_size=1, max_size=25, unique=True)


@settings(max_examples=300, deadline=None)
@given(seqs=SEQS, row_len=st.integers(1, 40))
def test_every_input_is_rebuilt_from_its_row_and_sees_only_its_prefix(seqs, row_len):
    rows = pack_rows(seqs, row_len)
    assert sorted(h for r in rows for h in r.hosts) == list(range(len(seqs)))
    for row in rows:
        assert row.size <= row_len or len(row.hosts) == 1
        width = row.size + 2
        allowed = ancestor_mask(row, width)
        seen = {}
        for h, path in zip(row.hosts, row.paths, strict=True):
            s = seqs[h]
            assert tuple(row.tokens[path]) == s and list(row.depths[path]) == list(range(len(s)))
            for p in range(len(s)):
                # position path[p] attends to the positions of s[:p+1] and nothing else
                assert set(np.flatnonzero(allowed[path[p]])) == set(path[: p + 1].tolist())
                assert seen.setdefault(int(path[p]), s[: p + 1]) == s[: p + 1]  # one position, one prefix
        assert len(seen) == row.size  # no position is unused: a row is exactly its inputs' trie
        assert allowed[row.size :, row.size :].sum() == width - row.size  # padding sees itself only


@settings(max_examples=200, deadline=None)
@given(seqs=SEQS, row_len=st.integers(1, 40), data=st.data())
def test_a_rows_masks_follow_its_paths_in_any_order_of_inputs_and_batched(seqs, row_len, data):
    """`ancestor_masks` reads ancestry from the depths alone (a row lists its trie in preorder): whatever the order
    the inputs come in, a position sees exactly the positions of its own path up to it, and a batch's masks are
    each row's own at the batch's width."""
    order = data.draw(st.permutations(range(len(seqs))))
    rows = pack_rows(seqs, row_len, order)
    width = max(row.size for row in rows) + 1
    batched = ancestor_masks(padded_depths(rows, width))
    for row, allowed in zip(rows, batched, strict=True):
        assert (allowed == ancestor_mask(row, width)).all()
        sees = {int(q): set(path[: p + 1].tolist()) for path in row.paths for p, q in enumerate(path)}
        assert all(set(np.flatnonzero(allowed[q]).tolist()) == sees[q] for q in range(row.size))
        assert allowed[row.size :].sum() == width - row.size and allowed[:, row.size :].sum() == width - row.size


@settings(max_examples=200, deadline=None)
@given(seqs=SEQS)
def test_one_row_holds_each_distinct_prefix_once(seqs):
    (row,) = pack_rows(seqs, 10_000)
    assert row.size == len({s[:p] for s in seqs for p in range(1, len(s) + 1)})


def test_a_worked_example():
    seqs = [(1, 2, 3), (1, 2, 4), (1, 5), (7,)]
    (row,) = pack_rows(seqs, 100)
    # trie: 1 -> 2 -> 3, 2 -> 4, 1 -> 5, and 7: six positions instead of 3 + 3 + 2 + 1 = 9
    assert row.tokens.tolist() == [1, 2, 3, 4, 5, 7] and row.depths.tolist() == [0, 1, 2, 2, 1, 0]
    assert [p.tolist() for p in row.paths] == [[0, 1, 2], [0, 1, 3], [0, 4], [5]]
    assert ancestor_mask(row, 6)[3].tolist() == [True, True, False, True, False, False]
    small = pack_rows(seqs, 4)
    assert [r.hosts for r in small] == [(0, 1), (2, 3)] and [r.size for r in small] == [4, 3]
    assert [r.hosts for r in pack_rows(seqs, 1)] == [(0,), (1,), (2,), (3,)]  # too long for a row: alone
    assert common_prefix((1, 2, 3), (1, 2)) == 2


def test_a_row_length_below_one_is_refused():
    with pytest.raises(ValueError, match="row_len"):
        pack_rows([(1,)], 0)


@settings(max_examples=100, deadline=None)
@given(seqs=SEQS, row_len=st.integers(1, 40))
def test_a_rows_paths_are_one_array_a_host_and_pickle_as_two_arrays(seqs, row_len):
    """`Paths`: a sequence of each host's row positions (indexing, negative indexing, slices, iteration), which a kept
    plan pickles as its flat array and starts and reads back the same."""
    import pickle

    from biascheck.models.packing import Paths

    for row in pack_rows(seqs, row_len):
        paths = row.paths
        as_lists = [p.tolist() for p in paths]
        assert len(paths) == len(row.hosts) and [paths[i].tolist() for i in range(len(paths))] == as_lists
        assert paths[-1].tolist() == as_lists[-1] and [p.tolist() for p in paths[1:]] == as_lists[1:]
        back = pickle.loads(pickle.dumps(row))
        assert isinstance(back.paths, Paths) and [p.tolist() for p in back.paths] == as_lists
        with pytest.raises(IndexError):
            paths[len(paths)]
    assert len(Paths.of([])) == 0 and list(Paths.of([])) == []
