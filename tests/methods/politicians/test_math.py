"""politicians.math by hand: candidates, casings, one token per (form, token), top-k lemmas, the name subset."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from biascheck.methods.politicians.math import (
    candidate_forms,
    casing_layout,
    casing_variants,
    distinct_tokens,
    first_k,
    folded,
    lemma_codes,
    samples_frame,
    spread_subset,
    top_lemmas,
)


def _lists(probs, lemmas, k, codes=None):
    """`top_lemmas` per row as a list of (lemma, log-probability), most probable first."""
    rows, forms, logs = top_lemmas(probs, lemmas, k, codes)
    out = [[] for _ in range(len(probs))]
    for r, c, lp in zip(rows.tolist(), forms.tolist(), logs.tolist(), strict=True):
        out[r].append((lemmas[c], lp))
    return out


def _frame_of_lists(names, lemmas_per_name):
    """The samples frame built a tuple per sample: the reference `samples_frame` is held to."""
    rows = [
        (name, gender, lemma, rank, logprob)
        for (name, gender), lemmas in zip(
            names[["name", "gender"]].itertuples(index=False), lemmas_per_name, strict=True
        )
        for rank, (lemma, logprob) in enumerate(lemmas)
    ]
    return pd.DataFrame(rows, columns=["name", "gender", "lemma", "rank", "logprob"])


def test_candidate_forms_keep_one_word_forms_of_the_lemmas():
    lemmatizer = {"Better": "good", "best": "good", "left": "leave", "ex-wife": "ex-wife", "2nd": "2nd", "ran": "run"}
    assert candidate_forms(lemmatizer, {"good", "left"}) == {
        "best": "good",
        "better": "good",
        "good": "good",
        "left": "left",
    }


def test_casing_variants_and_fold():
    strings, owner = casing_variants(["former", "ölig"])
    assert strings == ["former", "Former", "ölig", "Ölig"] and owner.tolist() == [0, 0, 1, 1]
    got = folded(np.array([[0.1, 0.2, 0.3, 0.0]]), casing_layout(owner, 2), np.arange(2))
    np.testing.assert_allclose(got, [[0.3, 0.3]])


def test_distinct_tokens_counts_a_token_once_per_form():
    owner = np.array([0, 0, 1, 1, 2, 2])
    pieces = np.array([1, 1, 1, 1, 2, 1])
    ids = np.array([7, 7, 8, 9, -1, 11])  # form 0: an uncased vocabulary; form 2: only "Capitalised" is one token
    assert distinct_tokens(pieces, ids, owner).tolist() == [0, 2, 3, 5]
    assert distinct_tokens(pieces, None, owner).tolist() == [0, 1, 2, 3, 5]


def test_top_lemmas_by_hand():
    probs = np.array([[0.1, 0.4, 0.3, 0.0, 0.2], [0.25, 0.25, 0.0, 0.0, 0.0]])
    lemmas = ["good", "good", "old", "new", "young"]  # forms: best, better, old, new, young
    got = _lists(probs, lemmas, 2)
    assert [[lemma for lemma, _ in row] for row in got] == [["good", "old"], ["good"]]
    assert got[0][0][1] == np.log(0.4) and got[0][1][1] == np.log(0.3)
    assert [lemma for lemma, _ in _lists(probs, lemmas, 5)[0]] == ["good", "old", "young"]  # p = 0 is never taken
    rows, forms, logs = top_lemmas(probs, lemmas, 2)
    names = pd.DataFrame({"name": ["A", "B"], "gender": ["female", "male"]})
    frame = samples_frame(names, rows, np.asarray(lemmas, dtype=object)[forms], logs)
    assert frame[["name", "lemma", "rank"]].values.tolist() == [["A", "good", 0], ["A", "old", 1], ["B", "good", 0]]


@given(st.integers(0, 2**32 - 1), st.integers(0, 6), st.integers(1, 3))
@settings(max_examples=60, deadline=None)
def test_the_samples_frame_from_arrays_is_the_one_from_lists(seed, k, chunks):
    """The probe builds its samples from `top_lemmas` chunk by chunk (`score.score_language`): the frame
    equals one built a tuple per sample, dtypes and order included, with ties, zeros and empty rows."""
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(0, 7)) * chunks, int(rng.integers(1, 9))
    probs = np.round(rng.uniform(-0.2, 1.0, (n, m)), 1).clip(0.0)  # ties and zeros
    lemmas = [f"l{int(i)}" for i in rng.integers(0, max(1, m - 1), m)]  # forms sharing a lemma
    names = pd.DataFrame({"name": [f"n{i}" for i in range(n)], "gender": rng.choice(["female", "male"], n)})
    want = _frame_of_lists(names, _lists(probs, lemmas, k))
    size = max(1, n // chunks)
    parts = [top_lemmas(probs[start : start + size], lemmas, k) for start in range(0, n, size)]
    rows = np.concatenate([r + start for (r, _, _), start in zip(parts, range(0, n, size), strict=True)] or [[]])
    forms = np.concatenate([f for _, f, _ in parts] or [[]]).astype(np.int64)
    logs = np.concatenate([lp for _, _, lp in parts] or [[]])
    got = samples_frame(names, rows.astype(np.int64), np.asarray(lemmas, dtype=object)[forms], logs)
    pd.testing.assert_frame_equal(got, want)


def test_spread_subset_takes_evenly_spaced_names_per_gender():
    women = [f"w{i:02d}" for i in range(10)]
    names = pd.DataFrame({"name": women + ["m1", "m2"], "gender": ["female"] * 10 + ["male"] * 2})
    got = spread_subset(names, 4)
    assert got["name"].tolist() == ["w00", "w03", "w06", "w09", "m1", "m2"]
    assert len(spread_subset(names, None)) == 12


def _top_lemmas_full_sort(probs, lemmas, k):
    """The definition: a full stable sort of each row by probability, descending."""
    out = []
    for row in probs:
        order = np.lexsort((np.arange(row.size), -row))[: min(k, row.size)]
        best: dict[str, float] = {}
        for j in order[row[order] > 0]:
            best.setdefault(lemmas[j], float(np.log(row[j])))
        out.append(list(best.items()))
    return out


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_top_lemmas_partial_sort_equals_a_full_sort(data):
    n = data.draw(st.integers(1, 30))
    # few distinct values, so that ties (also at the k-th place) and zeros are common; 1-5 rows, each its own
    value = st.sampled_from([0.0, 0.1, 0.2, 0.25, 0.5, float("nan")])
    rows = np.array(data.draw(st.lists(st.lists(value, min_size=n, max_size=n), min_size=1, max_size=5)))
    lemmas = [data.draw(st.sampled_from("abcdef")) for _ in range(n)]
    k = data.draw(st.integers(0, n + 2))
    assert _lists(rows, lemmas, k) == _top_lemmas_full_sort(rows, lemmas, k)
    assert _lists(rows, lemmas, k, lemma_codes(lemmas)) == _top_lemmas_full_sort(rows, lemmas, k)  # the probe's call


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_top_lemmas_on_a_block_of_distinct_values_equals_a_full_sort(seed, k):
    """Distinct values (no ties at the k-th place), so the partial partition decides alone: 40 names x 50
    forms, a third of them 0 (not one token)."""
    rng = np.random.default_rng(seed)
    rows = rng.random((40, 50)) * (rng.random((40, 50)) > 1 / 3)
    lemmas = [f"l{j % 17}" for j in range(50)]  # several forms per lemma
    assert _lists(rows, lemmas, k) == _top_lemmas_full_sort(rows, lemmas, k)
    assert _lists(rows, lemmas, k, lemma_codes(lemmas)) == _top_lemmas_full_sort(rows, lemmas, k)  # the probe's call


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 45))
def test_first_k_mixes_clear_rows_and_tied_rows_as_a_full_sort_orders_them(seed, k):
    """A block whose rows take both of `first_k`'s paths: distinct values (torch's topk decides), values rounded
    so that the k-th place ties, zeros among the largest, a NaN, three equal largest; every row's entries equal a
    full stable sort's."""
    rng = np.random.default_rng(seed)
    rows = rng.random((24, 40))
    kind = rng.integers(0, 5, size=24)
    rows[kind == 1] = np.round(rows[kind == 1], 1)  # ties, also at the k-th place
    for r in np.flatnonzero(kind == 4):  # a tie among the largest, none at the k-th place
        rows[r, rng.choice(40, size=3, replace=False)] = 2.0
    rows[kind == 2] *= rng.random((int((kind == 2).sum()), 40)) > 0.7  # most of the row 0
    rows[kind == 3, rng.integers(0, 40)] = np.nan
    got_rows, got_cols, got_values = first_k(rows, min(k, 40))
    for r, row in enumerate(rows):
        order = np.lexsort((np.arange(row.size), -row))[: min(k, 40)]
        order = order[row[order] > 0]
        assert got_cols[got_rows == r].tolist() == order.tolist()
        assert np.array_equal(got_values[got_rows == r], row[order])
    assert np.all(np.diff(got_rows) >= 0)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(0, 40), st.integers(1, 12))
def test_folded_adds_as_np_add_at_does(seed, n_names, n_strings, n_forms):
    """Bit for bit the sums of `np.add.at`, one string after another, whatever the owners' order and
    however many strings a form has (the probe's are 1 or 2 casings)."""
    rng = np.random.default_rng(seed)
    owner = rng.integers(0, n_forms, n_strings)
    probs = rng.random((n_names, n_strings)) * 10.0 ** rng.integers(-8, 1, (n_names, n_strings))
    want = np.zeros((n_names, n_forms))
    np.add.at(want.T, owner, probs.T)
    every = folded(probs, casing_layout(owner, n_forms), np.arange(n_forms))
    assert every.tobytes() == want.tobytes()
    columns = rng.permutation(n_forms)[: rng.integers(0, n_forms + 1)]  # the probe's: one part of speech's forms
    got = folded(probs, casing_layout(owner, n_forms), columns)
    assert got.shape == (n_names, columns.size) and got.tobytes() == want[:, columns].tobytes()
