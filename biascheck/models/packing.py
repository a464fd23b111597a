"""Prefix-tree packing for causal models: every distinct prefix of a batch's inputs runs once.

The inputs of a probe share long beginnings ("<|endoftext|> He is a ..." for 923 professions; a
WinoBias pair up to its pronoun). Padded batches run every input whole; a packed row runs the
*trie* of its inputs: one position per distinct prefix, each attending only to its own ancestors,
at the position index of its depth. Causal attention makes a prefix's hidden states independent
of what follows it, so every read equals the padded run's up to float rounding.

Pure functions (numpy only); `biascheck.models.batching` runs the rows through the model. Inputs
are taken in lexicographic order, so the longest prefix an input shares with the row so far is the
one it shares with the input just before it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from biascheck.devices import device_kind

Seq = tuple[int, ...]

# Positions per packed row on a CPU: attention over a row costs its length squared, masked or not;
# measured on SmolLM2-135M (pronoun-ratio sentences, 1 thread): 128 -> 3.8 s, 256 -> 4.4 s, 512 -> 4.9 s,
# padded batches 8.4 s (benchmarks/README.md).
DEFAULT_ROW_LEN = 128
# Positions per forward pass with packed rows on a CPU (8 rows of 128), unless a token budget is given:
# measured on SmolLM2 (1 thread, 3 repeats), natural-prompts reads 10.3 s at 1024 against 10.4-10.6 s at 512
# and 1536 and 11.6-12.1 s at 2048 (the padded default); the pronoun-ratio sentences 3.2 s at every size.
CPU_TOKEN_BUDGET = 1024
# Where `CausalLM(pack="auto")` packs: the devices it was measured on. On one H200 (2026-11-30, TF32, random weights,
# the full tier) packed rows held 1.22 M tokens where padded batches ran 4.15 M: the forward stage 63.9 -> 16.8 s
# for the SmolLM2-1.7B architecture and 12.8 -> 4.7 s for the 135M, every gated verdict the same, the largest
# difference 0.097 of an interval's half-width (TF32 rounding, which the layout moves). MPS is unmeasured.
PACKING_DEVICES = ("cpu", "cuda")


def packs_by_default(device: str) -> bool:
    """Whether `pack="auto"` packs on `device` ("cpu", "cuda:0", "mps", ...)."""
    return device_kind(device) in PACKING_DEVICES


class Paths(Sequence[np.ndarray]):
    """A packed row's paths, one (len(host),) array of row positions a host, held as one flat array and where each
    path starts: a sequence of views. A plan kept on disk (`memo_store`) pickles a row's paths as two arrays, not
    one array a host (the Norwegian full tier's plan: 124,000 of them, 0.77 s of the store's read)."""

    __slots__ = ("_flat", "_starts")

    def __init__(self, flat: np.ndarray, starts: np.ndarray) -> None:
        self._flat, self._starts = flat, starts

    @classmethod
    def of(cls, paths: Sequence[np.ndarray]) -> Paths:
        lengths = np.fromiter((len(p) for p in paths), dtype=np.int64, count=len(paths))
        flat = np.concatenate(paths) if len(paths) else np.zeros(0, dtype=np.int64)
        return cls(flat.astype(np.int64, copy=False), np.concatenate([np.zeros(1, np.int64), np.cumsum(lengths)]))

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(len(self))[i]]
        n = len(self)
        if not -n <= i < n:
            raise IndexError(i)
        i %= n
        return self._flat[self._starts[i] : self._starts[i + 1]]

    def __len__(self) -> int:
        return len(self._starts) - 1

    def __iter__(self) -> Iterator[np.ndarray]:
        flat, starts = self._flat, self._starts.tolist()
        return (flat[a:b] for a, b in zip(starts[:-1], starts[1:], strict=True))

    @property
    def flat(self) -> np.ndarray:
        """Every path end to end."""
        return self._flat

    @property
    def starts(self) -> np.ndarray:
        """Where each path starts in `flat`, and the end: (len(self) + 1,)."""
        return self._starts

    def __reduce__(self) -> tuple[Any, ...]:
        return Paths, (self._flat, self._starts)


@dataclass(frozen=True)
class PackedRow:
    """One packed row: `hosts` (indices into the caller's input list) and, per host, the row
    position of each of its tokens (`paths[i][p]` is where token p of host i was computed)."""

    hosts: tuple[int, ...]
    tokens: np.ndarray  # (n,) token id per row position
    depths: np.ndarray  # (n,) position index within its input (the model's position id)
    paths: Paths  # per host, (len(host),) row positions

    @property
    def size(self) -> int:
        return int(self.tokens.shape[0])


def common_prefix(a: Seq, b: Seq) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def pack_rows(seqs: Sequence[Seq], row_len: int, order: Sequence[int] | None = None) -> list[PackedRow]:
    """Greedy packing of `seqs` (in lexicographic order, or `order`, which must be lexicographic)
    into rows of at most `row_len` trie positions; an input longer than that gets a row of its own."""
    if row_len < 1:
        raise ValueError(f"row_len must be positive, got {row_len}")
    if order is None:
        order = sorted(range(len(seqs)), key=lambda i: seqs[i])
    rows: list[PackedRow] = []
    hosts: list[int] = []
    paths: list[np.ndarray] = []
    tokens: list[int] = []
    depths: list[int] = []
    prev: Seq = ()
    prev_path = np.zeros(0, dtype=np.int64)

    def close() -> None:
        rows.append(
            PackedRow(
                tuple(hosts), np.asarray(tokens, dtype=np.int64), np.asarray(depths, dtype=np.int64), Paths.of(paths)
            )
        )

    for i in order:
        s = seqs[i]
        shared = common_prefix(s, prev)
        if hosts and len(tokens) + len(s) - shared > row_len:
            close()
            hosts, paths, tokens, depths = [], [], [], []
            shared, prev_path = 0, np.zeros(0, dtype=np.int64)
        start = len(tokens)
        path = np.concatenate([prev_path[:shared], np.arange(start, start + len(s) - shared, dtype=np.int64)])
        tokens.extend(s[shared:])
        depths.extend(range(shared, len(s)))
        hosts.append(i)
        paths.append(path)
        prev, prev_path = s, path
    if hosts:
        close()
    return rows


def ancestor_mask(row: PackedRow, width: int) -> np.ndarray:
    """(width, width) bool: position q may attend to position k iff k is q or an ancestor of q in the
    trie. Positions past the row's end (padding) attend to themselves only, so no softmax is empty."""
    return ancestor_masks(padded_depths([row], width))[0]


def padded_depths(rows: Sequence[PackedRow], width: int) -> np.ndarray:
    """(len(rows), width): each row's depths, then -1 for its padding (`ancestor_masks`' input)."""
    depths = np.full((len(rows), width), -1, dtype=np.int64)
    for b, row in enumerate(rows):
        depths[b, : row.size] = row.depths
    return depths


def ancestor_masks(depths: np.ndarray) -> np.ndarray:
    """(B, W, W) bool, [b, q, k]: position k of row b is q or an ancestor of q; depths (B, W) as `padded_depths`.

    A row lists its trie in preorder: each input's new positions follow the path it shares with the input before
    it, and once an input leaves a position's path no later input returns to it. So the positions below k are
    those after it up to the next one at its depth or shallower, and k is q's ancestor iff k <= q < that next
    position. Padding (depth -1) is shallower than every position, so it closes every subtree and attends to
    itself alone. The same masks as walking each position up its path (tested), in whole-array steps."""
    n_rows, width = depths.shape
    small = np.int16 if width < 2**15 else np.int64  # compared faster than int64
    shallow = np.full((n_rows, 1), -1, dtype=small)  # past the last position: every subtree has ended
    ext = np.concatenate([depths.astype(small), shallow], axis=1)
    order = np.arange(width + 1)
    later = order[None, :] > order[:width, None]  # [k, p]: p after k
    ends = ((ext[:, None, :] <= ext[:, :width, None]) & later).argmax(axis=2)  # [b, k]: the first p after k, not below
    at = order[:width]
    return (at[None, :] <= at[:, None])[None] & (at[None, :, None] < ends[:, None, :])  # k <= q < end of k's subtree


def sliding_window(model: Any) -> int | None:
    """The attention window of a model with sliding-window layers (Gemma 2/3, Mistral: `config.sliding_window`),
    else None. The packed path's 4-D mask replaces it: measured on Gemma 3 270M (window 512), a 676-token input
    packed gave logits equal to the model's own to 0.0 over its first 400 positions and 24 apart past 520."""
    config = getattr(model, "config", None)
    window = getattr(getattr(config, "text_config", config), "sliding_window", None)
    return int(window) if isinstance(window, int) and window > 0 else None
