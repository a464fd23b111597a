"""Padded batches of whole inputs, built from arrays: the engine's inputs (`planning.Plan.hosts`) laid end to end
once (`HostTokens`: the plan lays them out as it orders them, `Plan.tokens`; `host_tokens` from the tuples; kept with
the plan for the next checkpoint), and a batch's (rows, width) matrix of token ids cut from them (`padded`) without a
Python loop over its inputs or their tokens.

A tiny model's full tier runs ten thousand such batches a checkpoint; built token by token from the inputs'
tuples they cost 1.1-2.7 s of its host work (the `batching` stage). Which inputs go together: consecutive runs of
the plan's inputs that fit a token budget at their longest input's width (`greedy_batches`; `descending_batches`
where the lengths never grow). Pure numpy; `batching` runs the matrices.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from biascheck.models.planning import Seq, laid_end_to_end, ragged_index

MAX_ROWS = 2048  # at most this many sequences per batch, whatever the budget


class HostTokens(NamedTuple):
    """Every input's tokens end to end (`tokens`) and where each starts (`starts`, one more entry than inputs)."""

    tokens: np.ndarray  # (total tokens,) int32: token ids are below 2**31
    starts: np.ndarray  # (inputs + 1,) int64


def host_tokens(hosts: Sequence[Seq]) -> HostTokens:
    """The inputs laid end to end (`planning.laid_end_to_end`). Pure."""
    lengths, tokens = laid_end_to_end(hosts)
    return HostTokens(tokens.astype(np.int32), np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64))


class Padded(NamedTuple):
    """A batch as the model reads it: `ids` (rows, width) with each input's tokens after the shared prefix
    left-aligned and `pad_id` after them, `filled` where a token is, and the `shared` prefix (its tokens, empty when
    none) that every input begins with and that runs once."""

    ids: np.ndarray  # (rows, width) int64
    filled: np.ndarray  # (rows, width) bool
    lengths: np.ndarray  # (rows,) tokens of each input after the shared prefix
    shared: np.ndarray  # (lcp,) int64, the shared prefix


def padded(hosts: HostTokens, batch: Sequence[int] | np.ndarray, pad_id: int, min_shared: int | None = None) -> Padded:
    """The batch's inputs (indices into `hosts`) as a padded matrix. min_shared: with a shared-prefix path, the
    longest prefix all inputs share, cut below the shortest input's last token (each input keeps a token of its
    own), is taken out when it is at least this long and there are 2 or more inputs; None: no shared prefix.
    The same matrix, token for token, as filling each row from the input's tuple. Pure."""
    batch = np.asarray(batch, dtype=np.int64)
    begin, end = hosts.starts[batch], hosts.starts[batch + 1]
    lengths = end - begin
    width = int(lengths.max())
    filled = np.arange(width) < lengths[:, None]  # row-major: each row's tokens in order, as laid end to end
    if len(batch) > 1 and np.all(batch[1:] == batch[:-1] + 1):  # consecutive inputs: one slice
        flat = hosts.tokens[begin[0] : end[-1]]
    else:
        flat = hosts.tokens[ragged_index(begin, lengths)]
    ids = np.full((len(batch), width), pad_id, dtype=np.int64)
    ids[filled] = flat
    lcp = 0
    if min_shared is not None and len(batch) > 1:
        shortest = int(lengths.min())
        same = (ids[:, : shortest - 1] == ids[0, : shortest - 1]).all(axis=0)  # columns every input agrees on
        lcp = int(np.argmin(same)) if not same.all() else shortest - 1
        if lcp < min_shared:
            lcp = 0
    if lcp == 0:
        return Padded(ids, filled, lengths, np.zeros(0, dtype=np.int64))
    lengths = lengths - lcp
    return Padded(ids[:, lcp:].copy(), filled[:, lcp:].copy(), lengths, ids[0, :lcp].copy())


def greedy_batches(lengths: Sequence[int], rows_limit: int | None, budget: int) -> list[list[int]]:
    """`ForwardEngine._batches` input by input: a batch closes when the next input would take it past `rows_limit`
    inputs, or (no limit) past the token budget at its longest input's width or past MAX_ROWS inputs."""
    out: list[list[int]] = []
    cur: list[int] = []
    cur_len = 0
    for i, n in enumerate(lengths):
        longest = max(cur_len, n) if cur else n
        too_many = rows_limit is not None and len(cur) + 1 > rows_limit
        too_big = rows_limit is None and ((len(cur) + 1) * longest > budget or len(cur) + 1 > MAX_ROWS)
        if cur and (too_many or too_big):
            out.append(cur)
            cur, longest = [], n
        cur.append(i)
        cur_len = longest
    if cur:
        out.append(cur)
    out.sort(key=lambda b: -max(lengths[i] for i in b))  # stable: an OOM shows on the first batch
    return out


def descending_batches(lengths: Sequence[int], budget: int) -> list[list[int]]:
    """`greedy_batches` without a row limit for lengths that never grow: a batch's first input is its longest, so
    a batch from input i holds max(1, min(MAX_ROWS, budget // lengths[i])) inputs, and the batches come longest
    first already; a step a batch, not an input (a masked full tier's 529,000 Norwegian inputs)."""
    out: list[list[int]] = []
    i, n = 0, len(lengths)
    while i < n:
        width = int(lengths[i])
        take = MAX_ROWS if width == 0 else max(1, min(MAX_ROWS, budget // width))
        out.append(list(range(i, min(n, i + take))))
        i += take
    return out
