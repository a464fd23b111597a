"""A model whose slot offers too few words cannot be read: the gaps are NaN with the reason, and the
gate fails closed (found on the planted known-answer models: with 131 words seen with 5 names or more,
both genders' top 100 were the same words and every gap 0). The gated gaps read the latent model, so an
unusable fit (a fit that did not converge, a posterior KL above 0.1) is NaN with its reason too."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from biascheck.methods.politicians import metrics, pmi
from biascheck.methods.politicians.latent.model import fit_lvms
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
    assert [m.name for m in few] == ["en.pmi_neg_gap", "en.pmi_neg_gap_p", "en.pmi_pos_gap", "en.pmi_pos_gap_p"]
    assert all(math.isnan(m.value) and "NOT MEASURABLE" in m.note for m in few)
    assert all(math.isnan(v) for v in p.values())
    many, _, p = metrics._pmi_metrics("en.", _samples(2 * TOP_WORDS + 20), labels, 20)
    assert all(0 < m.value <= 1 for m in many if m.name.endswith("_p")) and all(0 < v <= 1 for v in p.values())


def _fitted(n_words: int):
    matrix = pmi.sample_matrix(_samples(n_words))
    counts = pmi.gender_word_counts(matrix)[:, [matrix.gender_index(g) for g in metrics.BINARY]]
    q = np.tile([0.25, 0.5, 0.25], (len(matrix.words), 1))
    leaning = np.isin(matrix.words, [f"w{w}" for w in range(n_words // 2)])  # `_samples`' women's words
    q[leaning] = [0.6, 0.2, 0.2]  # are the negative ones
    inputs = (matrix, counts, q, list(matrix.words))
    result = fit_lvms([(counts, q, list(matrix.words))], metrics.grid_pairs("quick"))[0]
    return inputs, result, pmi.names_per_word(matrix) >= MIN_NAMES


@pytest.fixture(scope="module")
def fitted():
    return _fitted(2 * TOP_WORDS + 20)


def test_the_gated_gaps_of_a_usable_fit_have_a_value_and_an_interval(fitted):
    inputs, result, keep = fitted
    assert result.converged and result.posterior_kl <= 0.1
    neg, pos = metrics._soft_gap_metrics("", result, inputs, keep, 20, (metrics._fit_problems(result), "fit"))
    assert (neg.name, pos.name) == ("neg_gap", "pos_gap")
    assert neg.value > 0 and neg.ci[0] < neg.value < neg.ci[1] and "women vs men" in neg.note


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"posterior_kl": 0.5}, "posterior KL 0.500 > 0.1"),
        ("not converged", "1 of 1 fits did not converge (L1 1e-05 PR 1 after "),
    ],
)
def test_an_unusable_fit_makes_the_gated_gaps_nan_with_the_reason(fitted, change, reason):
    inputs, result, keep = fitted
    if change == "not converged":
        broken = dataclasses.replace(result, fits=tuple(dataclasses.replace(f, converged=False) for f in result.fits))
    else:
        broken = dataclasses.replace(result, **change)
    got = metrics._soft_gap_metrics("verb_", broken, inputs, keep, 20, (metrics._fit_problems(broken), "fit"))
    assert [m.name for m in got] == ["verb_neg_gap", "verb_pos_gap"]
    assert all(math.isnan(m.value) and m.ci is None and reason in m.note and "fails closed" in m.note for m in got)


def test_too_few_words_make_the_gated_gaps_nan():
    inputs, result, keep = _fitted(TOP_WORDS)
    got = metrics._soft_gap_metrics("", result, inputs, keep, 20, (metrics._fit_problems(result), "fit"))
    assert all(math.isnan(m.value) and f"only {TOP_WORDS} lemmas" in m.note for m in got)
