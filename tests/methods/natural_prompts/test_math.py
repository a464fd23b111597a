"""Hand calculations for paper 002's statistics (natural-sentence vs template prompts) and scipy cross-checks."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from biascheck.methods.natural_prompts import math as m
from biascheck.methods.natural_prompts.spec import FEMALE, MALE

# ---------------------------------------------------------------------------------------------
# 3. distances: hand examples
#   P(he) = (.2, .2), P(she) = (.1, .3):
#   columns a = (.5, .5), b = (.25, .75): KL = .5 ln(.5/.25) + .5 ln(.5/.75) = .5 ln 2 + .5 ln(2/3) = .5 ln(4/3)
#   EMD: sorted (.2, .2) vs (.1, .3): mean(|.1|, |.1|) = .1 ; bias = mean(.1, .1) = .1
#   P(he) = (.3, .1), P(she) = (.1, .3): columns swapped -> KL = .75 ln 3 + .25 ln(1/3) = .5 ln 3;
#   EMD = 0 (same values), bias = .2 (the EMD ignores which prompt gets which value)


@pytest.mark.parametrize(
    ("he", "she", "kl", "emd", "bias"),
    [
        ([0.2, 0.2], [0.1, 0.3], 0.5 * math.log(4 / 3), 0.1, 0.1),
        ([0.3, 0.1], [0.1, 0.3], 0.5 * math.log(3), 0.0, 0.2),
        ([0.1, 0.2], [0.05, 0.1], 0.0, 0.075, 0.075),  # she proportional to he: KL 0, level gap remains
        ([0.4], [0.4], 0.0, 0.0, 0.0),
    ],
)
def test_distances_by_hand(he, she, kl, emd, bias):
    assert m.kl_columns(np.array(he), np.array(she)) == pytest.approx(kl, abs=1e-12)
    assert m.emd(np.array(he), np.array(she)) == pytest.approx(emd, abs=1e-12)
    assert m.stereotypical_bias(np.array(he), np.array(she)) == pytest.approx(bias, abs=1e-12)


def test_kl_histogram_by_hand():
    # 2 bins on [0, 1], pseudocount 0.5: he values (.1, .2) -> counts (2, 0) -> (2.5, .5)/3;
    # she values (.1, .9) -> (1, 1) -> (1.5, 1.5)/3. KL = 5/6 ln(5/3) + 1/6 ln(1/3)
    got = m.kl_histogram(np.array([0.1, 0.2]), np.array([0.1, 0.9]), bins=2, pseudocount=0.5)
    assert got == pytest.approx(5 / 6 * math.log(5 / 3) + 1 / 6 * math.log(1 / 3))
    assert m.histogram(np.array([0.1, 0.2]), bins=2, pseudocount=0.5) == pytest.approx([5 / 6, 1 / 6])
    assert m.kl_histogram(np.array([0.31, 0.32]), np.array([0.33, 0.34])) == 0.0  # same bin


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(1e-6, 1.0), st.floats(1e-6, 1.0)), min_size=1, max_size=40))
def test_distances_agree_with_scipy(pairs):
    he, she = np.array(pairs).T
    assert m.kl_columns(he, she) == pytest.approx(stats.entropy(he, she), rel=1e-9, abs=1e-12)
    assert m.emd(he, she) == pytest.approx(stats.wasserstein_distance(he, she), rel=1e-9, abs=1e-12)
    assert m.kl_histogram(he, she) == pytest.approx(
        stats.entropy(m.histogram(he), m.histogram(she)), rel=1e-9, abs=1e-12
    )
    assert m.emd(he, she) <= m.stereotypical_bias(he, she) + 1e-12  # pairing is one transport plan


def test_emd_of_unequal_samples_uses_scipy():
    assert m.emd(np.array([0.0, 1.0]), np.array([0.5])) == pytest.approx(stats.wasserstein_distance([0, 1], [0.5]))


def test_kl_is_nan_without_mass():
    assert math.isnan(m.kl_columns(np.zeros(3), np.ones(3)))


# ---------------------------------------------------------------------------------------------
# 4-7. per-prompt statistics


@pytest.mark.parametrize(
    ("he", "she", "ratio", "share"),
    [
        ([0.2, 0.3], [0.1, 0.3], (2 + 1) / 2, [1 / 3, 0.5]),
        ([0.05], [0.15], 1 / 3, [0.75]),
    ],
)
def test_ratio_and_share_by_hand(he, she, ratio, share):
    assert m.he_she_ratio(np.array(he), np.array(she)) == pytest.approx(ratio)
    assert m.she_share(np.array(he), np.array(she)) == pytest.approx(share)


def test_certainty_by_hand():
    top = np.array([[0.5, 0.2], [0.3, 0.3]])
    assert m.certainty(top) == pytest.approx((0.4, 0.15))


def test_log_ratio_by_hand():
    probs = {"he": 0.04, "his": 0.01, "him": 0.0, "she": 0.01, "her": 0.01, "hers": 0.0}
    assert m.log_ratio(probs, ["he"], ["she"]) == pytest.approx(math.log(4))
    assert m.log_ratio(probs, MALE, FEMALE) == pytest.approx(math.log(0.05 / 0.02))
    assert math.isnan(m.log_ratio(probs, ["him"], ["she"]))


def test_template_table_by_hand():
    he = np.array([[0.3, 0.1], [0.1, 0.1]])
    she = np.array([[0.1, 0.1], [0.1, 0.05]])
    top1 = np.array([[0.5, 0.2], [0.3, 0.4]])
    rows = m.template_table(he, she, top1, ["The {} said that", "The {} ran because"])
    assert [r["template"] for r in rows] == ["The {} said that", "The {} ran because"]
    assert rows[0]["bias"] == pytest.approx(0.1) and rows[1]["bias"] == pytest.approx(0.025)
    assert rows[0]["he_she_ratio"] == pytest.approx(2.0) and rows[1]["he_she_ratio"] == pytest.approx(1.5)
    assert rows[0]["highest"] == pytest.approx(0.4) and rows[1]["highest"] == pytest.approx(0.3)


def test_gold_frame_by_hand(scored):
    # NS prompts of the fake: nurse he .1 / she .3 -> she_share .75; engineer, coach, cook: .5
    gold = m.gold_frame(scored, "ns")
    assert list(gold["profession"]) == ["coach", "cook", "engineer", "nurse"]
    assert gold["she_share"].to_numpy() == pytest.approx([0.5, 0.5, 0.5, 0.75])
    assert gold["women_share"].to_numpy() == pytest.approx([0.3, 0.4, 0.15, 0.9])


def test_kde_kl_against_scipy_gaussian_kde():
    """Independent oracle: scipy's gaussian_kde (Silverman's factor (3n/4)^(-1/5) = 1.059 n^(-1/5), ours
    1.06), reflected at 0 and 1, integrated on a fine grid."""
    rng = np.random.default_rng(0)
    he, she = rng.beta(2, 8, 800), rng.beta(3, 6, 800)
    grid = np.linspace(0, 1, 4001)

    def density(x):
        kde = stats.gaussian_kde(x, bw_method="silverman")
        f = kde(grid) + kde(-grid) + kde(2 - grid)
        return f / np.trapezoid(f, grid)

    f, g = density(he), density(she)
    oracle = np.trapezoid(f * np.log(f / g), grid)
    assert m.kl_kde(he, she) == pytest.approx(oracle, rel=0.02)


def test_kde_kl_recovers_the_kl_of_two_normals():
    """KL(N(0.4, s) || N(0.5, s)) = 0.1^2 / (2 s^2) = 2 for s = 0.05; kernel smoothing adds h^2 to both
    variances (h = 1.06 * 0.05 * 5000^(-1/5)), so the estimate is 0.01 / (2 (s^2 + h^2)) = 1.93."""
    rng = np.random.default_rng(1)
    he, she = rng.normal(0.4, 0.05, 5000), rng.normal(0.5, 0.05, 5000)
    h = 1.06 * 0.05 * 5000 ** (-1 / 5)
    assert m.kl_kde(he, she) == pytest.approx(0.01 / (2 * (0.05**2 + h**2)), rel=0.05)
    assert m.kl_kde(he, he) == pytest.approx(0.0, abs=1e-12)


def test_kl_alternatives_are_the_documented_estimators():
    he, she = np.array([0.1, 0.2, 0.3]), np.array([0.2, 0.5, 0.6])
    got = m.kl_alternatives(he, she)
    assert got["histogram_20_bins"] == m.kl_histogram(he, she, 20)
    assert got["kde_double_bandwidth"] == m.kl_kde(he, she, 2.0)
    assert list(got) == [
        "kde_half_bandwidth",
        "kde_double_bandwidth",
        "histogram_10_bins",
        "histogram_20_bins",
        "histogram_50_bins",
    ]


# ---------------------------------------------------------------------------------------------
# the kernel-density KL of every bootstrap resample at once, against `kl_kde` on the copied values


def test_kde_cells_bin_as_np_histogram_does():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.random(5000), np.arange(1025) / 1024, [0.0, 1.0, -0.2, 1.5, 0.5 - 1e-17]])
    want, _ = np.histogram(np.clip(x, 0.0, 1.0), bins=1024, range=(0.0, 1.0))
    np.testing.assert_array_equal(np.bincount(m.kde_cells(x), minlength=1024), want)


@pytest.mark.parametrize("sigma", [1.0, 2.7, 37.3, 180.0, 400.0])
def test_gaussian_filter_rows_equals_scipy_row_by_row(sigma):
    """Each row with its own σ, kernels wider than the row (400 × 6 cells over 256: reflected more than once)."""
    from scipy.ndimage import gaussian_filter1d

    rng = np.random.default_rng(1)
    counts = rng.integers(0, 30, (4, 256)).astype(float)
    sigmas = sigma * np.array([1.0, 0.5, 1.3, 0.77])
    got = m.gaussian_filter_rows(counts, np.maximum(sigmas, 1.0))
    for row, s, g in zip(counts, np.maximum(sigmas, 1.0), got, strict=True):
        want = gaussian_filter1d(row, sigma=s, mode="reflect", truncate=6.0)
        np.testing.assert_allclose(g, want, rtol=0, atol=1e-12 * row.sum())


@pytest.mark.parametrize(("n", "k"), [(893, 17), (893, 1), (12, 3), (5, 1)])
def test_kl_kde_resampled_equals_kl_kde_on_each_resample(n, k):
    """Crossed resamples (rows and columns drawn with replacement) and row resamples (k = 1), a large table and
    small ones (a wide bandwidth), against `kl_kde` on the copied values: the same numbers to rounding. The FFT
    rounds each cell to about 1e-16 of the row's total, where scipy's direct sums keep a far tail's digits; a
    density just above the 1e-12 floor (five values) then moves the KL by about 1e-10 of itself."""
    from biascheck.stats import resample_counts

    rng = np.random.default_rng(n + k)
    he, she = rng.beta(2, 5, (n, k)), rng.beta(2, 4, (n, k))
    rows, cols = rng.integers(0, n, (60, n)), rng.integers(0, k, (60, k))
    got = m.kl_kde_resampled(he, she, resample_counts(rows, n), resample_counts(cols, k))
    want = [m.kl_kde(he[np.ix_(r, c)], she[np.ix_(r, c)]) for r, c in zip(rows, cols, strict=True)]
    np.testing.assert_allclose(got, want, rtol=1e-9)


def test_kl_kde_resampled_of_constant_values_is_finite_as_kl_kde_is():
    """Values all equal in a resample: SD 0, the bandwidth floor of one cell, as in `kde_density`."""
    from biascheck.stats import resample_counts

    he, she = np.full((6, 1), 0.25), np.linspace(0.1, 0.9, 6)[:, None]
    rows = np.array([[0, 1, 2, 3, 4, 5], [2, 2, 2, 2, 2, 2]])
    got = m.kl_kde_resampled(he, she, resample_counts(rows, 6), np.ones((2, 1)))
    np.testing.assert_allclose(got, [m.kl_kde(he[r], she[r]) for r in rows], rtol=1e-10)


@pytest.mark.parametrize(("n", "k"), [(893, 17), (893, 1), (6, 3)])
def test_kl_columns_resampled_equals_kl_columns_on_each_resample(n, k):
    from biascheck.stats import resample_counts

    rng = np.random.default_rng(n * k)
    he, she = rng.beta(2, 5, (n, k)), rng.beta(2, 4, (n, k))
    he[0, 0] = 0.0  # a zero P(he) adds nothing, as in the loop
    rows, cols = rng.integers(0, n, (40, n)), rng.integers(0, k, (40, k))
    got = m.kl_columns_resampled(he, she, resample_counts(rows, n), resample_counts(cols, k))
    want = [m.kl_columns(he[np.ix_(r, c)], she[np.ix_(r, c)]) for r, c in zip(rows, cols, strict=True)]
    np.testing.assert_allclose(got, want, rtol=1e-9)


def test_kl_columns_resampled_declines_an_infinite_term_and_gives_nan_without_mass():
    from biascheck.stats import resample_counts

    he, she = np.array([[0.2], [0.3]]), np.array([[0.0], [0.4]])
    assert m.kl_columns_resampled(he, she, np.ones((2, 2)), np.ones((2, 1))) is None  # the loop answers: inf
    he = np.array([[0.0], [0.3]])
    got = m.kl_columns_resampled(
        he, np.array([[0.1], [0.4]]), resample_counts(np.array([[0, 0], [0, 1]]), 2), np.ones((2, 1))
    )
    assert math.isnan(got[0]) and got[1] == pytest.approx(m.kl_columns(he, np.array([[0.1], [0.4]])))
