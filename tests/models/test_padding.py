"""Padded batches cut from the inputs laid end to end (`biascheck.models.padding`) against the engine's earlier
construction, written out input by input: the shared prefix found token by token, each row filled from its tuple."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from biascheck.models.batching import ForwardEngine
from biascheck.models.padding import descending_batches, greedy_batches, host_tokens, padded

PAD = 99
HOSTS = st.lists(st.lists(st.integers(0, 2), min_size=1, max_size=6).map(tuple), min_size=1, max_size=10)


def _definition(seqs, min_shared):
    """(ids, filled, lengths, shared prefix) as the engine built them before, one input at a time."""
    lcp = 0
    if min_shared is not None and len(seqs) > 1:
        first, shortest = seqs[0], min(len(q) for q in seqs)
        while lcp < shortest - 1 and all(q[lcp] == first[lcp] for q in seqs):
            lcp += 1
        if lcp < min_shared:
            lcp = 0
    lengths = np.array([len(q) - lcp for q in seqs], dtype=np.int64)
    ids = np.full((len(seqs), int(lengths.max())), PAD, dtype=np.int64)
    for r, q in enumerate(seqs):
        ids[r, : len(q) - lcp] = q[lcp:]
    filled = np.arange(ids.shape[1]) < lengths[:, None]
    return ids, filled, lengths, np.asarray(seqs[0][:lcp], dtype=np.int64)


@settings(max_examples=300, deadline=None)
@given(HOSTS, st.data(), st.sampled_from([None, 0, 1, 2, 3]))
def test_a_batch_is_the_inputs_padded_row_by_row(hosts, data, min_shared):
    batch = data.draw(st.lists(st.sampled_from(range(len(hosts))), min_size=1, max_size=len(hosts), unique=True))
    if data.draw(st.booleans()):  # the engine's padded batches are consecutive runs of its inputs
        start = data.draw(st.integers(0, len(hosts) - 1))
        batch = list(range(start, data.draw(st.integers(start + 1, len(hosts)))))
    got = padded(host_tokens(hosts), batch, PAD, min_shared)
    want = _definition([hosts[i] for i in batch], min_shared)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)


def test_a_shared_prefix_keeps_a_token_of_each_input():
    hosts = [(5, 6, 7), (5, 6, 7, 8), (5, 6, 9)]
    got = padded(host_tokens(hosts), [0, 1, 2], PAD, 2)
    assert got.shared.tolist() == [5, 6] and got.ids.tolist() == [[7, PAD], [7, 8], [9, PAD]]
    alone = padded(host_tokens(hosts), [0, 1], PAD, 2)  # (5, 6, 7) is shorter: its 7 stays in the batch
    assert alone.shared.tolist() == [5, 6] and alone.ids.tolist() == [[7, PAD], [7, 8]]
    assert padded(host_tokens(hosts), [0, 1, 2], PAD, 3).shared.size == 0  # below the minimum: none
    assert padded(host_tokens(hosts), [0, 1, 2], PAD, None).ids.shape == (3, 4)


@settings(max_examples=300, deadline=None)
@given(
    lengths=st.lists(st.integers(0, 40), max_size=60),
    budget=st.integers(1, 200),
    rows=st.sampled_from([None, None, 1, 3]),
    descending=st.booleans(),
)
def test_the_batches_fit_the_budget_and_the_descending_shortcut_is_the_greedy_loop(lengths, budget, rows, descending):
    """Where the lengths never grow (the masked order) a batch's first input is its longest: `descending_batches`
    steps a batch at a time and gives the greedy loop's batches; the greedy loop's fit the budget (or the row
    limit), cover every input once in order, and come longest first."""
    if descending:
        lengths = sorted(lengths, reverse=True)
    got = greedy_batches(lengths, rows, budget)
    assert sorted(i for b in got for i in b) == list(range(len(lengths)))
    for b in got:
        assert b == list(range(b[0], b[0] + len(b)))  # consecutive inputs
        assert len(b) == 1 or (len(b) <= rows if rows else len(b) * max(lengths[i] for i in b) <= budget)
    assert [max(lengths[i] for i in b) for b in got] == sorted((max(lengths[i] for i in b) for b in got), reverse=True)
    if descending and rows is None:
        assert descending_batches(lengths, budget) == got
        assert ForwardEngine._batches(lengths, None, budget) == got
