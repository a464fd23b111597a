"""Planning a forward-pass call: which inputs run, and which hidden-state rows answer which reads.

A read is "log P(token t at position p of input s)" (a target read) or "the scores at position p of
input s" (a top read). Causal inputs are cut after their last read and an input that is a prefix of
another is served by the longer one (its *host*); a row of hidden state is keyed by the prefix it
depends on (causal: a trie node, so a shared "<bos> He is a" is projected once) or by (input,
position) (masked). Rows are numbered in the order their first read comes (target reads, then top
reads). Numpy over the reads; Python only per distinct input. `biascheck.models.batching` runs the plan.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

Seq = tuple[int, ...]
TargetRead = tuple[Seq, int, int]  # (input ids, position, target id)
TopRead = tuple[Seq, int]  # (input ids, position)


class TargetArrays(NamedTuple):
    """Target reads as arrays, for callers with many: read i is log P(target[i] at position pos[i] of
    seqs[seq[i]]). The same reads as the tuples `target_arrays` turns into it, without a tuple per read."""

    seqs: list[Seq]
    seq: np.ndarray  # (reads,) index into seqs
    pos: np.ndarray  # (reads,)
    target: np.ndarray  # (reads,) token ids


def target_arrays(reads: Sequence[TargetRead] | TargetArrays) -> TargetArrays:
    """`reads` as `TargetArrays` (returned as they are when they already are)."""
    if isinstance(reads, TargetArrays):
        return reads
    index: dict[Seq, int] = {}
    seq = np.fromiter((index.setdefault(r[0], len(index)) for r in reads), dtype=np.int64, count=len(reads))
    pos = np.fromiter((r[1] for r in reads), dtype=np.int64, count=len(reads))
    return TargetArrays(list(index), seq, pos, np.fromiter((r[2] for r in reads), dtype=np.int64, count=len(reads)))


class Plan(NamedTuple):
    hosts: list[Seq]  # the inputs that run
    host_rows: list[np.ndarray]  # per host, the read rows it serves (ascending)
    row_host: np.ndarray  # (rows,) per row, the host whose forward pass computes it
    row_pos: np.ndarray  # (rows,) per row, its position in that host
    target_row: np.ndarray  # (target reads,) the row each target read is answered from
    top_row: np.ndarray  # (top reads,) the row each top read is answered from


def plan_reads(
    target_reads: Sequence[TargetRead] | TargetArrays,
    top_reads: Sequence[TopRead],
    causal: bool,
    order: Callable[[list[Seq]], list[Seq]] = list,
) -> Plan:
    """Unique hosts (in `order`) and, per host, its unique read rows; the row of every read."""
    targets = target_arrays(target_reads)
    index: dict[Seq, int] = {}  # distinct inputs
    n_seqs, n_k = len(targets.seqs), len(top_reads)
    remap = np.fromiter((index.setdefault(s, len(index)) for s in targets.seqs), dtype=np.int64, count=n_seqs)
    top_seq = np.fromiter((index.setdefault(r[0], len(index)) for r in top_reads), dtype=np.int64, count=n_k)
    read_seq = np.concatenate([remap[targets.seq], top_seq])
    pos = np.concatenate([targets.pos, np.fromiter((r[1] for r in top_reads), dtype=np.int64, count=n_k)])
    seqs = list(index)
    used = np.zeros(len(seqs), dtype=bool)
    used[read_seq] = True
    if not used.all():  # an input no read asks of (array reads may name one) does not run
        kept = np.flatnonzero(used)
        seqs = [seqs[i] for i in kept]
        read_seq = np.cumsum(used)[read_seq] - 1
    lengths = np.array([len(s) for s in seqs], dtype=np.int64)
    outside = (pos < 0) | (pos >= lengths[read_seq]) if len(pos) else np.zeros(0, dtype=bool)
    if outside.any():
        bad = int(np.flatnonzero(outside)[0])
        raise IndexError(f"read position {pos[bad]} outside an input of length {lengths[read_seq[bad]]}")
    if causal:  # an input only needs to run up to its last read position
        need = np.full(len(seqs), -1, dtype=np.int64)
        np.maximum.at(need, read_seq, pos)
        runs = [s[: int(n) + 1] for s, n in zip(seqs, need, strict=True)]
        host_of = _longest_extension(runs)
        seq_host = [host_of[r] for r in runs]
    else:
        runs, seq_host = seqs, seqs
    hosts = order(sorted(set(seq_host)))
    host_index = {h: i for i, h in enumerate(hosts)}
    host_of_seq = np.array([host_index[h] for h in seq_host], dtype=np.int64)
    key = _prefix_keys(runs, read_seq, pos) if causal else read_seq * int(lengths.max(initial=1)) + pos
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    by_first = np.argsort(first, kind="stable")
    rank = np.empty(len(first), dtype=np.int64)
    rank[by_first] = np.arange(len(first))
    read_row = rank[inverse.reshape(-1)]
    creator = first[by_first]  # per row, the read that made it
    row_host, row_pos = host_of_seq[read_seq[creator]], pos[creator]
    by_host = np.argsort(row_host, kind="stable")
    host_rows = np.split(by_host, np.cumsum(np.bincount(row_host, minlength=len(hosts)))[:-1])
    n_t = len(targets.seq)
    return Plan(hosts, host_rows, row_host, row_pos, read_row[:n_t], read_row[n_t:])


def _longest_extension(runs: Sequence[Seq]) -> dict[Seq, Seq]:
    """Per distinct input, the longest input it is a prefix of (itself if none). A sequence that is a
    prefix of another is a prefix of its lexicographic successor."""
    unique = sorted(set(runs))
    host_of: dict[Seq, Seq] = {}
    for i in range(len(unique) - 1, -1, -1):
        s = unique[i]
        if i + 1 < len(unique):
            nxt = unique[i + 1]
            if len(nxt) >= len(s) and nxt[: len(s)] == s:
                host_of[s] = host_of[nxt]
                continue
        host_of[s] = s
    return host_of


def _prefix_keys(runs: Sequence[Seq], read_seq: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """Per read, a key of the prefix runs[seq][:pos + 1] it depends on: equal keys, equal prefixes.

    The inputs in lexicographic order, as rows of a padded matrix: the prefix of length p + 1 of the
    i-th is shared with the (i-1)-th exactly when their longest common prefix is longer than p; the
    key is (the first input in that order with this prefix, p)."""
    n, width = len(runs), max((len(r) for r in runs), default=1)
    ranked = sorted(range(n), key=runs.__getitem__)
    place = np.empty(n, dtype=np.int64)
    place[ranked] = np.arange(n)
    tokens = np.full((n, width), -1, dtype=np.int64)
    for i, j in enumerate(ranked):
        tokens[i, : len(runs[j])] = runs[j]
    same = tokens[1:] == tokens[:-1]
    shared = np.where(same.all(axis=1), width, np.argmin(same, axis=1))  # common prefix with the one before
    new = np.ones((n, width), dtype=bool)
    new[1:] = np.arange(width)[None, :] >= shared[:, None]
    owner = np.maximum.accumulate(np.where(new, np.arange(n)[:, None], 0), axis=0)
    return owner[place[read_seq], pos] * width + pos


class ReadsByRow:
    """The reads of a plan grouped by row, to find those a chunk of rows answers without a Python loop
    over rows: per kind (target, top), the reads sorted by row and each row's slice of them."""

    def __init__(self, plan: Plan, target_ids: np.ndarray) -> None:
        self.target_ids = target_ids
        n_rows = len(plan.row_host)
        self._target = _by_row(plan.target_row, n_rows)
        self._top = _by_row(plan.top_row, n_rows)

    def targets(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(position in `rows`, read index) of every target read the rows answer."""
        return _gather(*self._target, rows)

    def tops(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(position in `rows`, read index) of every top read the rows answer."""
        return _gather(*self._top, rows)


def _by_row(read_row: np.ndarray, n_rows: int) -> tuple[np.ndarray, np.ndarray]:
    """(reads sorted by row, per row the start of its run in that order; n_rows + 1 entries)."""
    order = np.argsort(read_row, kind="stable")
    return order, np.concatenate([[0], np.cumsum(np.bincount(read_row, minlength=n_rows))])


def _gather(order: np.ndarray, start: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    counts = start[rows + 1] - start[rows]
    local = np.repeat(np.arange(len(rows)), counts)
    offset = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    return local, order[start[rows][local] + offset]
