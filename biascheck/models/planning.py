"""Planning a forward-pass call: which inputs run, and which hidden-state rows answer which reads.

A read is "log P(token t at position p of input s)" (a target read) or "the scores at position p of
input s" (a top read). Causal inputs are cut after their last read and an input that is a prefix of
another is served by the longer one (its *host*); a row of hidden state is keyed by the prefix it
depends on (causal: a trie node, so a shared "<bos> He is a" is projected once) or by (input,
position) (masked). Pure Python; `biascheck.models.batching` runs the plan.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

Seq = tuple[int, ...]
TargetRead = tuple[Seq, int, int]  # (input ids, position, target id)
TopRead = tuple[Seq, int]  # (input ids, position)


class Plan(NamedTuple):
    hosts: list[Seq]  # the inputs that run
    host_rows: list[list[int]]  # per host, the read rows it serves
    row_pos: list[tuple[int, int]]  # per row, (host index, position)
    row_targets: list[dict[int, list[int]]]  # per row, target id -> indices of the target reads it answers
    row_top: list[list[int]]  # per row, indices of the top reads it answers


def plan_reads(
    target_reads: Sequence[TargetRead],
    top_reads: Sequence[TopRead],
    causal: bool,
    order: Callable[[list[Seq]], list[Seq]] = list,
) -> Plan:
    """Unique hosts (in `order`) and, per host, its unique read rows and the reads each row answers."""
    # Causal: an input only needs to run up to its last read position.
    all_reads: list[tuple[Seq, int]] = [(s, p) for s, p, _ in target_reads] + [(s, p) for s, p in top_reads]
    for s, p in all_reads:
        if not 0 <= p < len(s):
            raise IndexError(f"read position {p} outside an input of length {len(s)}")
    if causal:
        need: dict[Seq, int] = {}
        for s, p in all_reads:
            if need.get(s, -1) < p:
                need[s] = p
        cut = {s: s[: p + 1] for s, p in need.items()}
        unique = sorted(set(cut.values()))
        # A sequence that is a prefix of another is a prefix of its lexicographic successor.
        host_of: dict[Seq, Seq] = {}
        for i in range(len(unique) - 1, -1, -1):
            s = unique[i]
            if i + 1 < len(unique):
                nxt = unique[i + 1]
                if len(nxt) >= len(s) and nxt[: len(s)] == s:
                    host_of[s] = host_of[nxt]
                    continue
            host_of[s] = s
        seq_host = {s: host_of[c] for s, c in cut.items()}
    else:
        seq_host = {s: s for s, _ in all_reads}
    hosts = order(sorted(set(seq_host.values())))
    host_index = {h: i for i, h in enumerate(hosts)}
    # A read is one row of hidden state. Causal: the row of (s, p) depends only on s[:p+1], so
    # rows are keyed by that prefix (a trie node): "<bos> He is a" is projected once for all
    # sentences that start with it. Masked: keyed by (input, position).
    trie: dict[tuple[int, int], int] = {}
    nodes: dict[Seq, list[int]] = {}

    def prefix_nodes(s: Seq) -> list[int]:
        got = nodes.get(s)
        if got is None:
            got, node = [], 0
            for tok in s:
                nxt = trie.get((node, tok))
                if nxt is None:
                    nxt = trie[(node, tok)] = len(trie) + 1
                got.append(nxt)
                node = nxt
            nodes[s] = got
        return got

    row_key: dict[Any, int] = {}
    row_targets: list[dict[int, list[int]]] = []
    row_top: list[list[int]] = []
    row_of_read_host: list[tuple[int, int]] = []

    def row_for(s: Seq, p: int) -> int:
        key: Any = prefix_nodes(s)[p] if causal else (s, p)
        r = row_key.get(key)
        if r is None:
            r = len(row_targets)
            row_key[key] = r
            row_targets.append({})
            row_top.append([])
            row_of_read_host.append((host_index[seq_host[s]], p))
        return r

    for i, (s, p, t) in enumerate(target_reads):
        row_targets[row_for(s, p)].setdefault(int(t), []).append(i)
    for i, (s, p) in enumerate(top_reads):
        row_top[row_for(s, p)].append(i)
    host_rows: list[list[int]] = [[] for _ in hosts]
    for r, (h, _p) in enumerate(row_of_read_host):
        host_rows[h].append(r)
    return Plan(hosts, host_rows, row_of_read_host, row_targets, row_top)
