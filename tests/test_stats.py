"""The shared statistics: the crossed (two-way) bootstrap against hand-built cases and the row bootstrap."""

import numpy as np
import pytest
from scipy import stats as st

from biascheck import stats
from biascheck.stats import bootstrap_ci, bootstrap_crossed


def _data(template_sd: float, profession_sd: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return 0.5 + rng.normal(0, profession_sd, (200, 1)) + rng.normal(0, template_sd, (1, 17))


def _width(interval):
    return interval[1] - interval[0]


def test_template_variance_widens_only_the_crossed_interval():
    """Paper 002: the template choice moves the result. With a template effect and no profession
    effect, resampling professions alone sees no uncertainty at all; the crossed bootstrap sees it."""
    data = _data(template_sd=0.1, profession_sd=0.0)
    rows_only = bootstrap_ci(np.mean, data.mean(axis=1))
    crossed = bootstrap_crossed(lambda r, c: float(data[np.ix_(r, c)].mean()), *data.shape)
    assert _width(rows_only) < 1e-9
    # the mean over 17 templates has SD 0.1 / sqrt(17) = 0.024: a 95 % interval about 0.095 wide
    assert _width(crossed) == pytest.approx(2 * 1.96 * data[0].std() / np.sqrt(17), rel=0.25)


def test_without_template_variance_the_crossed_interval_matches_the_row_bootstrap():
    data = _data(template_sd=0.0, profession_sd=0.1)
    rows_only = bootstrap_ci(np.mean, data.mean(axis=1))
    crossed = bootstrap_crossed(lambda r, c: float(data[np.ix_(r, c)].mean()), *data.shape)
    assert _width(crossed) == pytest.approx(_width(rows_only), rel=0.15)


def test_crossed_bootstrap_is_deterministic_and_degenerate_cases_are_nan():
    data = _data(0.1, 0.1)
    stat = lambda r, c: float(data[np.ix_(r, c)].mean())  # noqa: E731
    assert bootstrap_crossed(stat, *data.shape) == bootstrap_crossed(stat, *data.shape)
    assert all(np.isnan(bootstrap_crossed(stat, 200, 1)))
    assert bootstrap_crossed(lambda r, c: 3.0, 5, 5) == (3.0, 3.0)


@pytest.mark.parametrize("ties", [False, True])
def test_vectorised_correlation_bootstraps_equal_the_one_resample_at_a_time_path(monkeypatch, ties):
    """spearman and pearson run all resamples as one array operation (`spearman_rows`, `pearson_rows`): the
    same resamples, so the same interval as scipy calling the statistic once per resample (to 1e-12),
    with ties from resampling and a constant side (nan) included."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=60)
    y = x + rng.normal(size=60)
    if ties:
        x, y = np.round(x), np.round(y)
    fast = [stats.bootstrap_ci(f, x, y) for f in (stats.spearman, stats.pearson)]
    monkeypatch.setattr(stats, "_VECTORISED", {})
    slow = [stats.bootstrap_ci(f, x, y) for f in (stats.spearman, stats.pearson)]
    assert np.allclose(fast, slow, rtol=0, atol=1e-12)
    assert np.isnan(stats.bootstrap_ci(stats.spearman, x, np.ones_like(x))).all()


def test_row_correlations_match_scipy():
    rng = np.random.default_rng(3)
    x, y = rng.normal(size=(5, 30)), rng.normal(size=(5, 30))
    want = [st.spearmanr(a, b).statistic for a, b in zip(x, y, strict=True)]
    assert np.allclose(stats.spearman_rows(x, y), want, atol=1e-12)
    assert np.isnan(stats.pearson_rows(np.ones((1, 4)), np.arange(4.0)[None]))[0]


@pytest.mark.parametrize(
    "value, saved",
    [(0.123456, 0.1235), (-2.0, -2.0), (0.0, 0.0), (2e-5, 2e-5), (-3.14159e-5, -3.14e-5), (4.9e-5, 4.9e-5)],
)
def test_a_saved_number_keeps_four_places_and_never_loses_its_sign(value, saved):
    from biascheck.stats import saved_number

    assert saved_number(value) == saved
    assert np.sign(saved_number(value)) == np.sign(value)
