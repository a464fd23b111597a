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
from itertools import chain
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
    rows_by_host: np.ndarray  # (rows,) the rows grouped by the host that serves them, each host's ascending
    host_row_starts: np.ndarray  # (hosts + 1,) where each host's rows start in `rows_by_host`
    row_host: np.ndarray  # (rows,) per row, the host whose forward pass computes it
    row_pos: np.ndarray  # (rows,) per row, its position in that host
    target_row: np.ndarray  # (target reads,) the row each target read is answered from
    top_row: np.ndarray  # (top reads,) the row each top read is answered from
    tokens: np.ndarray  # (total tokens,) int32: the hosts' tokens end to end, in host order
    starts: np.ndarray  # (hosts + 1,) int64: where each host's tokens start in `tokens`

    def rows_of(self, hosts: Sequence[int] | np.ndarray) -> np.ndarray:
        """The rows the given hosts serve, host after host (each host's ascending). Arrays, not an array a host:
        a plan of half a million hosts is kept, and stored on disk (`memo`), without half a million small arrays."""
        hosts = np.asarray(hosts, dtype=np.int64)
        begin = self.host_row_starts[hosts]
        return self.rows_by_host[ragged_index(begin, self.host_row_starts[hosts + 1] - begin)]


# How the engine orders the distinct inputs that run: (inputs, their lengths, their tokens end to end) -> the
# indices of the inputs in run order (`sort_order`).
Order = Callable[[list[Seq], np.ndarray, np.ndarray], np.ndarray]


def laid_end_to_end(seqs: Sequence[Seq]) -> tuple[np.ndarray, np.ndarray]:
    """(lengths (n,), tokens (total,)), both int64: `seqs` laid end to end."""
    lengths = np.fromiter(map(len, seqs), np.int64, len(seqs))
    return lengths, np.fromiter(chain.from_iterable(seqs), np.int64, int(lengths.sum()))


def sort_order(lengths: np.ndarray, tokens: np.ndarray, k: int = 0, longest_first: bool = False) -> np.ndarray:
    """The indices of sequences laid end to end (`laid_end_to_end`) in the order that
    ``sorted(range(n), key=lambda i: (s[i][:k], -len(s[i]), s[i]) if longest_first else s[i])`` gives, by one numpy
    sort of a byte string a sequence: the first k tokens, the length's complement when longest_first, then every
    token, each token as the big-endian word of id + 1 (zero pads a shorter sequence, so a prefix sorts first).
    Python's sort of the tuples compares them element by element in the interpreter: 2.4-3.5 s for the masked
    full tier's 529,000 Norwegian inputs, 1.1 s here, most of it laying them end to end (tested: the same order)."""
    n = len(lengths)
    if n and int(tokens.min(initial=0)) < 0:
        raise ValueError("token ids are non-negative")
    width = int(lengths.max(initial=0))
    dtype = ">u2" if int(tokens.max(initial=0)) + 1 < 2**16 else ">u4"
    head = k + (1 if longest_first else 0)
    keys = np.zeros((n, head + width), dtype=dtype)
    keys[:, head:][np.arange(width) < lengths[:, None]] = np.add(tokens, 1, dtype=np.int64)  # int32 ids: no overflow
    shown = min(k, width)
    keys[:, :shown] = keys[:, head : head + shown]
    if longest_first:
        keys[:, k] = width - lengths
    if keys.shape[1] == 0:
        return np.arange(n)
    return np.argsort(keys.view(f"S{keys.shape[1] * keys.itemsize}").ravel(), kind="stable")


def _lexicographic(seqs: list[Seq], lengths: np.ndarray, tokens: np.ndarray) -> np.ndarray:
    return sort_order(lengths, tokens)


def plan_reads(
    target_reads: Sequence[TargetRead] | TargetArrays,
    top_reads: Sequence[TopRead],
    causal: bool,
    order: Order = _lexicographic,
) -> Plan:
    """Unique hosts (in `order`, by default sorted) and, per host, its unique read rows; the row of every read."""
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
    lengths, laid = laid_end_to_end(seqs)
    outside = (pos < 0) | (pos >= lengths[read_seq]) if len(pos) else np.zeros(0, dtype=bool)
    if outside.any():
        bad = int(np.flatnonzero(outside)[0])
        raise IndexError(f"read position {pos[bad]} outside an input of length {lengths[read_seq[bad]]}")
    if causal:  # an input only needs to run up to its last read position
        need = np.full(len(seqs), -1, dtype=np.int64)
        np.maximum.at(need, read_seq, pos)
        run_lengths = need + 1
        run_laid = _reordered(lengths, laid, np.arange(len(seqs)), run_lengths)[0]
        runs = _ranked(run_lengths, run_laid)
        serving, seq_host = np.unique(_longest_extension(runs), return_inverse=True)
        chosen = runs.ranked[serving]
        candidates = [seqs[i][: int(need[i]) + 1] for i in chosen]
        lengths_c, laid_c = run_lengths[chosen], _reordered(run_lengths, run_laid, chosen)[0]
    else:  # every input runs whole
        candidates, seq_host, lengths_c, laid_c = seqs, np.arange(len(seqs)), lengths, laid
    in_order = order(candidates, lengths_c, laid_c)
    hosts = [candidates[i] for i in in_order]
    host_of_seq = np.empty(len(in_order), dtype=np.int64)
    host_of_seq[in_order] = np.arange(len(in_order))
    host_of_seq = host_of_seq[seq_host]
    key = _prefix_keys(runs, read_seq, pos) if causal else read_seq * int(lengths.max(initial=1)) + pos
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    by_first = np.argsort(first, kind="stable")
    rank = np.empty(len(first), dtype=np.int64)
    rank[by_first] = np.arange(len(first))
    read_row = rank[inverse.reshape(-1)]
    creator = first[by_first]  # per row, the read that made it
    row_host, row_pos = host_of_seq[read_seq[creator]], pos[creator]
    by_host = np.argsort(row_host, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(np.bincount(row_host, minlength=len(hosts)))]).astype(np.int64)
    tokens, starts = _reordered(lengths_c, laid_c, in_order)
    n_t = len(targets.seq)
    return Plan(hosts, by_host, bounds, row_host, row_pos, read_row[:n_t], read_row[n_t:], tokens, starts)


def _reordered(
    lengths: np.ndarray, tokens: np.ndarray, order: np.ndarray, keep: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(tokens end to end as int32, starts) of the sequences laid end to end taken in `order`, each cut to its first
    keep[i] tokens where `keep` is given (keep ≤ lengths)."""
    begin = np.concatenate([[0], np.cumsum(lengths)])[order]
    taken = (lengths if keep is None else keep)[order]
    starts = np.concatenate([[0], np.cumsum(taken)]).astype(np.int64)
    return tokens[ragged_index(begin, taken)].astype(np.int32), starts


def ragged_index(begin: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The indices of lengths[i] consecutive entries from begin[i], for every i, end to end: where a run of
    sequences laid end to end is gathered from. Pure."""
    offset = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.repeat(begin, lengths) + offset


class _Ranked(NamedTuple):
    """Inputs in lexicographic order as the rows of a padded matrix."""

    ranked: np.ndarray  # (n,) the input on each row
    place: np.ndarray  # (n,) the row of each input
    tokens: np.ndarray  # (n, width) int32, -1 after an input's end
    lengths: np.ndarray  # (n,) the length of each row's input
    shared: np.ndarray  # (n - 1,) the common prefix of each row after the first with the row before (width: equal)


def _ranked(lengths: np.ndarray, laid: np.ndarray) -> _Ranked:
    """The sequences laid end to end (`lengths`, `laid`) as `_Ranked`."""
    ranked = sort_order(lengths, laid)
    n, width = len(lengths), int(lengths.max(initial=1))
    place = np.empty(n, dtype=np.int64)
    place[ranked] = np.arange(n)
    in_rows = lengths[ranked]
    tokens = np.full((n, width), -1, dtype=np.int32)  # int32: a BBQ prompt is hundreds of tokens, its rows 73,000
    tokens[np.arange(width) < in_rows[:, None]] = _reordered(lengths, laid, ranked)[0]
    same = tokens[1:] == tokens[:-1]
    shared = np.where(same.all(axis=1), width, np.argmin(same, axis=1))
    return _Ranked(ranked, place, tokens, in_rows, shared)


def _longest_extension(runs: _Ranked) -> np.ndarray:
    """Per input, the row of the longest input it is a prefix of (its own row if none; equal inputs, the same
    row). A sequence that is a prefix of another is a prefix of its lexicographic successor, so each row is served
    by the last row of the run of rows, from it on, that each extend the one before."""
    n = len(runs.ranked)
    extended = np.zeros(n, dtype=bool)
    extended[:-1] = runs.shared >= runs.lengths[:-1]
    last = np.minimum.accumulate(np.where(extended, n, np.arange(n))[::-1])[::-1]
    return last[runs.place]


def _prefix_keys(runs: _Ranked, read_seq: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """Per read, a key of the prefix runs[seq][:pos + 1] it depends on: equal keys, equal prefixes.

    The inputs in lexicographic order, as rows of a padded matrix: the prefix of length p + 1 of the
    i-th is shared with the (i-1)-th exactly when their longest common prefix is longer than p; the
    key is (the first input in that order with this prefix, p)."""
    n, width = runs.tokens.shape
    new = np.ones((n, width), dtype=bool)
    new[1:] = np.arange(width)[None, :] >= runs.shared[:, None]
    owner = np.maximum.accumulate(np.where(new, np.arange(n, dtype=np.int32)[:, None], np.int32(0)), axis=0)
    return owner[runs.place[read_seq], pos].astype(np.int64) * width + pos


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
