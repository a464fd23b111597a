"""A causal model's chain-rule reads of whole texts: every piece read at the position before it, after the context
prefix. The reads (`TermReads`) depend on the texts, the tokenizer and the prefix alone, so `causal.CausalLM`
keeps them for a sweep's next checkpoint; a model's values come back as `FlatTerms`. Pure (no torch)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import NamedTuple

import numpy as np

from biascheck.models.planning import TargetArrays


class TermReads(NamedTuple):
    """texts: distinct, in the order of `targets.seqs` (prefix ids + the text's ids); read: per piece of the texts
    laid end to end, whether it is read (a first piece with no context prefix is not); starts, lengths: each
    text's pieces there; p0: the prefix's length."""

    texts: tuple[str, ...]
    targets: TargetArrays
    read: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray
    p0: int


def term_reads(texts: Sequence[str], ids: Sequence[tuple[int, ...]], prefix_ids: tuple[int, ...]) -> TermReads:
    """The reads of every piece of every text (`ids`: each text's token ids), as arrays: no tuple per read (the
    Norwegian probe asks 1.2 million). Arrays read-only: shared with the next model."""
    lengths = np.fromiter((len(e) for e in ids), dtype=np.int64, count=len(ids))
    flat = np.fromiter(chain.from_iterable(ids), dtype=np.int64, count=int(lengths.sum()))
    starts = np.cumsum(lengths) - lengths
    text_of = np.repeat(np.arange(len(ids)), lengths)
    p0 = len(prefix_ids)
    pos = p0 + np.arange(flat.size) - starts[text_of] - 1  # piece q is read at the position before it
    read = pos >= 0
    targets = TargetArrays([prefix_ids + tuple(e) for e in ids], text_of[read], pos[read], flat[read])
    for a in (targets.seq, targets.pos, targets.target, read, starts, lengths):
        a.flags.writeable = False
    return TermReads(tuple(texts), targets, read, starts, lengths, p0)


class FlatTerms(NamedTuple):
    """The chain-rule terms of distinct texts in one flat array: text n's pieces are
    values[starts[n] : starts[n] + lengths[n]] (NaN: a first piece with no context prefix)."""

    reads: TermReads
    values: np.ndarray

    @property
    def texts(self) -> tuple[str, ...]:
        return self.reads.texts

    def of(self, n: int) -> np.ndarray:
        start = self.reads.starts[n]
        return self.values[start : start + self.reads.lengths[n]]

    def ids(self, n: int) -> tuple[int, ...]:
        return tuple(self.reads.targets.seqs[n][self.reads.p0 :])

    def sum_values(self) -> np.ndarray:
        """Per distinct text (in order), the sum of its terms, NaN left out (`np.nansum` of each, one pass)."""
        sums = np.zeros(len(self.texts))
        some = self.reads.lengths > 0
        if some.any():
            sums[some] = np.add.reduceat(np.nan_to_num(self.values, nan=0.0), self.reads.starts[some])
        return sums

    def sums(self) -> dict[str, float]:
        return dict(zip(self.texts, self.sum_values().tolist(), strict=True))
