"""The forward-pass planner (`biascheck.models.planning.plan_reads`) against its definition, written
out read by read (the planner's earlier, per-read implementation): the same hosts, and every read
answered from the same row, numbered in the order of first reads, at the same (host, position)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from biascheck.models.padding import host_tokens
from biascheck.models.planning import TargetArrays, laid_end_to_end, plan_reads, sort_order, target_arrays

SEQS = st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=7).map(tuple), min_size=1, max_size=12)


def _definition(target_reads, top_reads, causal):
    """(hosts, row of every read, (host index, position) of every row), read by read."""
    reads = [(s, p) for s, p, _ in target_reads] + list(top_reads)
    host = {s: s for s, _ in reads}
    if causal:  # cut after the last read; a run that is a prefix of another is served by the longest
        need: dict = {}
        for s, p in reads:
            need[s] = max(need.get(s, -1), p)
        cut = {s: s[: p + 1] for s, p in need.items()}
        unique = sorted(set(cut.values()))
        served: dict = {}
        for i in range(len(unique) - 1, -1, -1):
            s, nxt = unique[i], unique[i + 1] if i + 1 < len(unique) else None
            served[s] = served[nxt] if nxt is not None and nxt[: len(s)] == s else s
        host = {s: served[c] for s, c in cut.items()}
    hosts = sorted(set(host.values()))
    rows: dict = {}
    where = []
    for s, p in reads:
        key = s[: p + 1] if causal else (s, p)
        if key not in rows:
            rows[key] = len(rows)
            where.append((hosts.index(host[s]), p))
    return hosts, [rows[s[: p + 1] if causal else (s, p)] for s, p in reads], where


@settings(max_examples=300, deadline=None)
@given(seqs=SEQS, data=st.data(), causal=st.booleans())
def test_the_plan_is_its_definition(seqs, data, causal):
    def reads(n, with_target):
        picks = data.draw(st.lists(st.integers(0, len(seqs) - 1), max_size=n))
        out = []
        for i in picks:
            p = data.draw(st.integers(0, len(seqs[i]) - 1))
            out.append((seqs[i], p, data.draw(st.integers(0, 9))) if with_target else (seqs[i], p))
        return out

    target_reads, top_reads = reads(15, True), reads(6, False)
    plan = plan_reads(target_reads, top_reads, causal)
    hosts, read_rows, where = _definition(target_reads, top_reads, causal)
    assert plan.hosts == hosts
    assert list(plan.target_row) + list(plan.top_row) == read_rows
    assert list(zip(plan.row_host.tolist(), plan.row_pos.tolist(), strict=True)) == where
    host_rows = [plan.rows_of([h]).tolist() for h in range(len(plan.hosts))]
    served = sorted(r for rows in host_rows for r in rows)
    assert served == list(range(len(where)))  # every row is served by exactly one host ...
    for h, rows in enumerate(host_rows):  # ... its own, in ascending order
        assert rows == sorted(rows) and all(plan.row_host[r] == h for r in rows)
    everyone = list(range(len(plan.hosts)))[::-1]  # several hosts at once: theirs, host after host
    assert plan.rows_of(everyone).tolist() == [r for h in everyone for r in host_rows[h]]
    # the same reads as arrays, with inputs listed twice or asked nothing (a caller's texts): the same plan
    arrays = target_arrays(target_reads)
    extra = [tuple(s) + (5,) for s in seqs[:2]]  # inputs no read asks of
    padded = TargetArrays(arrays.seqs + extra + arrays.seqs, arrays.seq + len(arrays.seqs) + len(extra), *arrays[2:])
    again = plan_reads(padded, top_reads, causal)
    assert again.hosts == plan.hosts
    assert all(np.array_equal(a, b) for a, b in zip(again[1:], plan[1:], strict=True))
    laid = host_tokens(plan.hosts)  # the hosts' tokens end to end, as the engine cuts its batches from them
    assert np.array_equal(plan.tokens, laid.tokens) and np.array_equal(plan.starts, laid.starts)


# ids around the byte and word boundaries of the sort's keys (a byte at or above 0x80, ids past 2**16)
IDS = st.sampled_from([0, 1, 2, 127, 128, 255, 256, 32767, 32768, 65534, 65535, 65536, 2**31 - 1])


@settings(max_examples=300, deadline=None)
@given(seqs=st.lists(st.lists(IDS, max_size=6).map(tuple), max_size=14), k=st.integers(0, 3), longest=st.booleans())
def test_the_numpy_sort_is_pythons_sort_of_the_tuples(seqs, k, longest):
    def key(i):
        return (seqs[i][:k], -len(seqs[i]), seqs[i]) if longest else seqs[i]

    lengths, tokens = laid_end_to_end(seqs)
    want = sorted(range(len(seqs)), key=key)  # stable: a sequence listed twice keeps its order
    assert sort_order(lengths, tokens, k, longest_first=longest).tolist() == want
    assert sort_order(lengths, tokens.astype(np.int32), k, longest_first=longest).tolist() == want  # as plans lay them


def test_a_worked_example():
    he, she = (9, 1, 2, 3), (9, 1, 2, 4)
    plan = plan_reads([(he, 3, 7), (she, 3, 7), (he, 1, 1), (she, 1, 1), (he, 3, 8)], [(she[:3], 2)], causal=True)
    assert plan.hosts == [he, she]  # the prefix read (9, 1, 2) runs inside a longer input
    assert plan.target_row.tolist() == [0, 1, 2, 2, 0]  # "9 1" is one row for both inputs; two reads of he[3]
    assert plan.top_row.tolist() == [3]
    assert plan.row_host.tolist() == [0, 1, 0, 0] and plan.row_pos.tolist() == [3, 3, 1, 2]
    masked = plan_reads([(he, 1, 5), (she, 1, 5)], [], causal=False)
    assert masked.target_row.tolist() == [0, 1]  # masked: a row per (input, position)


def test_a_read_outside_its_input_is_refused():
    with pytest.raises(IndexError, match="position 4 outside an input of length 2"):
        plan_reads([((1, 2), 4, 0)], [], causal=True)
