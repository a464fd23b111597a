"""Paper 004, section 4's math: surprisal summaries, the closeness × gender mixed model, the pattern
checks and the human-ratings correlation, against hand calculations and planted effects."""

import numpy as np
import pandas as pd
import pytest

from biascheck.data.they_ratings import RATING_COLUMNS
from biascheck.errors import DataError
from biascheck.methods.singular_they import math as m
from biascheck.methods.singular_they.spec import ALL_CONDITIONS

from .common import HUMANLIKE, STIM, frame


def test_surprisal_is_minus_log_probability():
    assert m.surprisal(np.log([1.0, 0.5])) == pytest.approx([0.0, np.log(2)])


def test_by_condition_means_and_intervals():
    table = m.by_condition(frame(HUMANLIKE)).set_index("condition")
    assert list(table.index) == list(ALL_CONDITIONS)
    assert table.loc["plural", "mean"] == 1.0 and table.loc["inanimate", "n"] == 15
    noisy = m.by_condition(frame(HUMANLIKE, noise=0.5)).set_index("condition")
    assert (noisy["ci_low"] < noisy["mean"]).all() and (noisy["mean"] < noisy["ci_high"]).all()
    assert noisy.loc["plural", "mean"] == pytest.approx(1.0, abs=0.3)


def test_contrasts_by_hand():
    got = m.contrasts(HUMANLIKE)
    specific = (4.0 + 3.5 + 4.5 + 4.0 + 3.5 + 3.0) / 6  # 3.75
    assert got["specific_minus_quantified"] == pytest.approx(specific - 2.0)
    assert got["inanimate_minus_specific"] == pytest.approx(6.0 - specific)
    with_ci = m.contrast_metrics(frame(HUMANLIKE, noise=0.1), n_resamples=200)
    value, (low, high), n = with_ci["specific_minus_quantified"]
    assert low <= value <= high and value == pytest.approx(1.75, abs=0.1) and n == 40
    assert with_ci["inanimate_minus_specific"][2] == 15 + 40


def test_mixed_model_recovers_planted_effects():
    rng = np.random.default_rng(3)
    intercept = {f"F{i:02d}": rng.normal(0, 1.0) for i in range(1, 41)}
    planted = STIM.assign(
        surprisal=[
            3.0 + intercept.get(item, 0.0) + 0.5 * (close or 0) + 0.3 * (gendered or 0) + rng.normal(0, 0.05)
            for item, close, gendered in zip(
                STIM["item"], STIM["close"].fillna(0), STIM["gendered"].fillna(0), strict=False
            )
        ]
    )
    fit = m.closeness_gender(planted)
    assert fit["n"] == 160
    assert fit["beta_close"] == pytest.approx(0.5, abs=0.03)
    assert fit["beta_gendered"] == pytest.approx(0.3, abs=0.03)
    assert fit["p_close"] < 1e-6 and fit["se_close"] < 0.02


def test_wald_interval_by_hand():
    assert m.wald_interval(0.5, 0.1) == pytest.approx((0.304, 0.696))


@pytest.mark.parametrize(
    ("change", "betas", "expected"),
    [
        (
            {},
            (0.5, 0.3),
            {
                "plural_and_quantified_easiest": True,
                "inanimate_hardest": True,
                "close_harder": True,
                "gendered_harder": True,
            },
        ),
        (
            {"quantified": 3.2},
            (0.5, 0.3),
            {
                "plural_and_quantified_easiest": False,
                "inanimate_hardest": True,
                "close_harder": True,
                "gendered_harder": True,
            },
        ),
        (
            {"inanimate": 4.4},
            (-0.1, 0.3),
            {
                "plural_and_quantified_easiest": True,
                "inanimate_hardest": False,
                "close_harder": False,
                "gendered_harder": True,
            },
        ),
    ],
)
def test_pattern_checks(change, betas, expected):
    means = {**HUMANLIKE, **change}
    assert m.pattern_checks(means, {"beta_close": betas[0], "beta_gendered": betas[1]}) == expected


def test_pattern_checks_need_significant_regression_effects():
    betas = {"beta_close": 0.014, "p_close": 0.92, "beta_gendered": 1.46, "p_gendered": 1e-9}
    got = m.pattern_checks(HUMANLIKE, betas)
    assert got["close_harder"] is False and got["gendered_harder"] is True


def test_share_passed_by_hand():
    assert m.share_passed({"a": True, "b": False, "c": True, "d": True}) == 0.75


def test_group_correlations_by_hand():
    scores = frame(HUMANLIKE, noise=0.3, seed=1)
    rows = []
    for row in scores.itertuples():
        rows.append((row.item, row.condition, "non_innovators", 10 - row.surprisal))  # perfectly anti-correlated
        rows.append((row.item, row.condition, "non_innovators", 10 - row.surprisal))
        rows.append((row.item, row.condition, "super_innovators", 5 + (row.condition == "inanimate") * -3))
    table = m.group_correlations(scores, pd.DataFrame(rows, columns=list(RATING_COLUMNS))).set_index("group")
    assert table.loc["non_innovators", "r"] == pytest.approx(-1.0)
    assert table.loc["non_innovators", "n"] == 335
    expected = np.corrcoef(scores["surprisal"], [5 - 3 * (c == "inanimate") for c in scores["condition"]])[0, 1]
    assert table.loc["super_innovators", "r"] == pytest.approx(expected)
    z, half = np.arctanh(expected), 1.959963984540054 / np.sqrt(335 - 3)
    assert table.loc["super_innovators", ["ci_low", "ci_high"]].tolist() == pytest.approx(
        [np.tanh(z - half), np.tanh(z + half)]
    )
    assert "all" in table.index


def test_group_correlations_rejects_unknown_stimuli():
    ratings = pd.DataFrame([("F99", "plural", "innovators", 3.0)], columns=list(RATING_COLUMNS))
    with pytest.raises(DataError, match="not in the probe"):
        m.group_correlations(frame(HUMANLIKE), ratings)


def test_coefficients_are_sum_coded_half_differences_of_the_cell_means():
    """Paper 004 Table 2 follows Camilliere et al. (2021): factors sum-coded +-1, so with cell means
    close/distant x gendered/non-gendered of 5/3 and 4/2 (no noise, every frame alike) beta_close =
    ((5+4) - (3+2)) / 4 = 1.0 and beta_gendered = ((5+3) - (4+2)) / 4 = 0.5, half the differences
    of the levels' means (2.0 and 1.0); dummy 0/1 coding would give 2.0 and 1.0."""
    means = {"close_gendered": 5.0, "distant_gendered": 3.0, "close_nongendered": 4.0, "distant_nongendered": 2.0}
    rng = np.random.default_rng(0)
    cells = STIM[STIM["condition"].isin(list(means))]
    planted = cells.assign(surprisal=[means[c] + rng.normal(0, 1e-3) for c in cells["condition"]])
    fit = m.closeness_gender(planted)
    assert fit["beta_close"] == pytest.approx(1.0, abs=1e-3)
    assert fit["beta_gendered"] == pytest.approx(0.5, abs=1e-3)
