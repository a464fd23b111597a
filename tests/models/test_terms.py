"""A causal model's chain-rule reads of whole texts (`biascheck.models.terms`), by hand."""

import numpy as np
import pytest

from biascheck.models.terms import FlatTerms, term_reads


def test_every_piece_is_read_at_the_position_before_it_after_the_prefix():
    reads = term_reads(["a", "b"], [(7, 8, 9), (5,)], (1,))
    assert reads.targets.seqs == [(1, 7, 8, 9), (1, 5)]
    assert reads.targets.seq.tolist() == [0, 0, 0, 1] and reads.targets.pos.tolist() == [0, 1, 2, 0]
    assert reads.targets.target.tolist() == [7, 8, 9, 5] and reads.read.all()
    with pytest.raises(ValueError):
        reads.starts[0] = 3  # shared with the next checkpoint: read-only
    bare = term_reads(["a"], [(7, 8)], ())  # no prefix: the first piece has no context
    assert bare.read.tolist() == [False, True] and bare.targets.pos.tolist() == [0]


def test_flat_terms_sum_each_texts_pieces_leaving_nan_out():
    """`FlatTerms.sums` is `np.nansum` of each text's slice, a text without pieces summing to 0."""
    reads = term_reads(["a", "b", "c", "d"], [(1, 2, 3), (), (4,), (5, 6)], ())
    values = np.array([np.nan, -1.5, -2.25, -0.5, np.nan, -4.0])
    flat = FlatTerms(reads, values)
    sums = list(flat.sums().values())
    assert sums == [float(np.nansum(values[s : s + n])) for s, n in [(0, 3), (3, 0), (3, 1), (4, 2)]]
    assert flat.sums() == {"a": -3.75, "b": 0.0, "c": -0.5, "d": -4.0}
    assert np.isnan(flat.of(0)[0]) and flat.of(1).size == 0 and flat.ids(3) == (5, 6)
