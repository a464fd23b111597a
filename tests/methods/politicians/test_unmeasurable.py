"""A model whose slot offers too few words cannot be read: the gaps are NaN with the reason, and the
gate fails closed (found on the planted known-answer models: with 131 words seen with 5 names or more,
both genders' top 100 were the same words and every gap 0)."""

from __future__ import annotations

import math

import pandas as pd

from biascheck.methods.politicians import metrics
from biascheck.methods.politicians.spec import MIN_NAMES, TOP_WORDS


def _samples(n_words: int) -> pd.DataFrame:
    """Every word predicted for MIN_NAMES women and MIN_NAMES men; women's words the first half."""
    rows = []
    for w in range(n_words):
        for i in range(MIN_NAMES):
            rows.append({"name": f"f{i}", "gender": "female", "lemma": f"w{w}"})
            rows.append({"name": f"m{i}", "gender": "male", "lemma": f"w{w}"})
        if w < n_words // 2:  # a lean: the first half is predicted for more women
            rows += [{"name": f"f{MIN_NAMES + i}", "gender": "female", "lemma": f"w{w}"} for i in range(3)]
    return pd.DataFrame(rows)


def test_no_more_words_than_the_ranked_hundred_is_not_measurable():
    assert "NOT MEASURABLE" in metrics.unmeasurable(_samples(TOP_WORDS))
    assert f"only {TOP_WORDS} lemmas" in metrics.unmeasurable(_samples(TOP_WORDS))
    assert metrics.unmeasurable(_samples(TOP_WORDS + 1)) == ""


def test_an_unmeasurable_gap_is_nan_with_the_reason_and_a_measurable_one_is_not():
    labels = {f"w{w}": ("neg" if w % 2 else "pos") for w in range(2 * TOP_WORDS + 20)}
    few, _ = metrics._gap_metrics(("neg_gap", "pos_gap"), _samples(TOP_WORDS), labels, 20)
    assert all(math.isnan(m.value) and m.ci is None and "NOT MEASURABLE" in m.note for m in few)
    many, _ = metrics._gap_metrics(("neg_gap", "pos_gap"), _samples(2 * TOP_WORDS + 20), labels, 20)
    assert all(math.isfinite(m.value) and m.ci is not None for m in many)


def test_a_nan_gap_fails_its_gate():
    from biascheck.thresholds import Threshold

    gate = Threshold(min=-0.15, max=0.15, why="", origin="default.toml")
    assert not gate.accepts(float("nan")) and gate.accepts(0.0)


def test_an_unmeasurable_gap_has_no_permutation_p_either():
    """A p of 1 beside a NaN gap would read as "measured, no difference": it is NaN with the same reason."""
    labels = {f"w{w}": ("neg" if w % 2 else "pos") for w in range(2 * TOP_WORDS + 20)}
    few, _, p = metrics._pmi_metrics("en.", _samples(TOP_WORDS), labels, 20)
    assert [m.name for m in few] == ["en.neg_gap", "en.neg_gap_p", "en.pos_gap", "en.pos_gap_p"]
    assert all(math.isnan(m.value) and "NOT MEASURABLE" in m.note for m in few)
    assert all(math.isnan(v) for v in p.values())
    many, _, p = metrics._pmi_metrics("en.", _samples(2 * TOP_WORDS + 20), labels, 20)
    assert all(0 < m.value <= 1 for m in many if m.name.endswith("_p")) and all(0 < v <= 1 for v in p.values())
