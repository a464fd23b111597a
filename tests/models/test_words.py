"""Word sums from piece terms (`biascheck.models.words`) against the per-sentence loop both engines ran before
(the oracle below, written out), and by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from biascheck.models.text import word_of_piece, words_of
from biascheck.models.words import piece_positions, word_layout, word_sums


def loop_words(text, offsets, special, terms):
    words = words_of(text)
    sums, seen = [0.0] * len(words), [False] * len(words)
    for q, (a, b) in enumerate(offsets):
        if special is not None and special[q]:
            continue
        w = word_of_piece(text, a, b, words)
        if w is None:
            continue
        sums[w] += float(terms[q])
        seen[w] = True
    return [(w.text, w.start, w.end, sums[n] if seen[n] else float("nan")) for n, w in enumerate(words)]


def test_by_hand():
    # "He is a firefighter." as [CLS] He Ġis Ġa Ġfire fighter . [SEP]
    text = "He is a firefighter."
    offsets = [(0, 0), (0, 2), (2, 5), (5, 7), (7, 12), (12, 19), (19, 20), (0, 0)]
    special = [1, 0, 0, 0, 0, 0, 0, 1]
    terms = np.array([np.nan, -1.0, -2.0, -0.5, -3.0, -0.25, -0.125, np.nan])
    got = word_sums(word_layout([text, text], [offsets, offsets], [special, special]), np.concatenate([terms, terms]))
    want = [("He", 0, 2, -1.0), ("is", 3, 5, -2.0), ("a", 6, 7, -0.5), ("firefighter.", 8, 20, -3.375)]
    assert got == [want, want]


def test_nan_term_and_unplaced_word():
    text = "a b"
    layout = word_layout([text], [[(0, 1)]], None)  # no piece reaches "b"
    (words,) = word_sums(layout, np.array([np.nan]))  # an unscored first piece
    assert math.isnan(words[0][3]) and math.isnan(words[1][3])
    with pytest.raises(ValueError, match="2 piece terms for a layout of 1 pieces"):
        word_sums(layout, np.zeros(2))


texts = st.lists(st.sampled_from(["he", "she", " ", "nurse", ".", "x y"]), min_size=1, max_size=6).map("".join)


@st.composite
def sentences(draw):
    """Texts cut into pieces at random character boundaries (whitespace pieces included), with special flags
    and terms (some NaN)."""
    out = []
    for _ in range(draw(st.integers(1, 4))):
        text = draw(texts)
        cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(text) - 1)), max_size=4))) | {0, len(text)})
        offsets = [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]
        special = [draw(st.booleans()) for _ in offsets]
        terms = [draw(st.one_of(st.floats(-20, 0), st.just(float("nan")))) for _ in offsets]
        out.append((text, offsets, special, terms))
    return out


@settings(max_examples=200, deadline=None)
@given(sentences(), st.booleans())
def test_equals_the_loop(sents, skip_special):
    layout = word_layout([s[0] for s in sents], [s[1] for s in sents], [s[2] for s in sents] if skip_special else None)
    got = word_sums(layout, np.array([t for s in sents for t in s[3]], dtype=np.float64))
    want = [loop_words(text, off, sp if skip_special else None, terms) for text, off, sp, terms in sents]
    assert [[w[:3] for w in ws] for ws in got] == [[w[:3] for w in ws] for ws in want]
    for ws, vs in zip(got, want, strict=True):
        for (*_, g), (*_, v) in zip(ws, vs, strict=True):
            assert (math.isnan(g) and math.isnan(v)) or g == v  # the same sums, bit for bit


@settings(max_examples=100, deadline=None)
@given(sentences())
def test_the_columns_are_the_lists_numbers(sents):
    """`WordScores.columns` (what role nouns sums per sentence) holds each list's words in order, bit for bit."""
    layout = word_layout([s[0] for s in sents], [s[1] for s in sents], [s[2] for s in sents])
    got = word_sums(layout, np.array([t for s in sents for t in s[3]], dtype=np.float64))
    rows = [(i, a, b, v) for i, ws in enumerate(got) for _, a, b, v in ws]
    c = got.columns
    assert list(zip(c.sentence.tolist(), c.start.tolist(), c.end.tolist(), strict=True)) == [r[:3] for r in rows]
    assert np.array_equal(c.logprob, np.array([r[3] for r in rows], dtype=np.float64), equal_nan=True)


@given(st.lists(st.integers(0, 4), min_size=1, max_size=5), st.lists(st.integers(0, 4), max_size=8))
def test_piece_positions_take_each_texts_pieces_in_order(lengths, picks):
    """Distinct texts' pieces laid end to end; `texts` any of them, repeated or not: the positions give the
    concatenation of their slices, as the engines' dict of slices did."""
    distinct = [f"t{i}" for i in range(len(lengths))]
    starts = np.cumsum(lengths) - np.asarray(lengths)
    flat = np.arange(int(sum(lengths)), dtype=float)
    texts = [distinct[p % len(distinct)] for p in picks]
    want = [flat[starts[distinct.index(t)] : starts[distinct.index(t)] + lengths[distinct.index(t)]] for t in texts]
    got = flat[piece_positions(distinct, starts, np.asarray(lengths), texts)]
    assert got.tolist() == (np.concatenate(want).tolist() if want else [])
