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
def test_vectorised_correlation_bootstraps_equal_the_one_resample_at_a_time_path(ties):
    """spearman and pearson run all resamples as one array operation (`spearman_counts`, `pearson_rows`): the
    same resamples, so the same interval as scipy calling the statistic once per resample (to 1e-12),
    with ties from resampling and a constant side (nan) included."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=60)
    y = x + rng.normal(size=60)
    if ties:
        x, y = np.round(x), np.round(y)
    fast = [stats.bootstrap_ci(f, x, y) for f in (stats.spearman, stats.pearson)]
    slow = [stats.bootstrap_ci(_scalar_path(f), x, y) for f in (stats.spearman, stats.pearson)]
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


def _scalar_path(statistic):
    return lambda *samples: statistic(*samples)  # not registered: scipy calls it once per resample


def _stacked_forms():
    from biascheck.methods.bbq_gender_identity.math import ratio_statistic
    from biascheck.methods.norwegian_occupations.metrics import _STATISTICS
    from biascheck.methods.pronoun_ratio.math import mean_abs, mean_abs_diff, share_positive

    rng = np.random.default_rng(11)
    x, y = rng.normal(size=80), rng.normal(size=80)
    gold, pred = (rng.random(40) < 0.3).astype(float), (rng.random(40) < 0.6).astype(float)
    items = rng.integers(1, 6, 30).astype(float)
    correct = np.minimum(items, rng.integers(0, 6, 30)).astype(float)
    named = np.where(rng.random(30) < 0.3, 0.0, np.minimum(items, rng.integers(0, 6, 30)))
    on_target = np.minimum(named, rng.integers(0, 4, 30)).astype(float)
    counts = (items, correct, named, on_target)
    return [
        ("spearman", stats.spearman, (x, y)),
        ("spearman with ties", stats.spearman, (np.round(x), np.round(x + y))),
        ("mean", np.mean, (x,)),
        ("median", np.median, (x,)),
        ("pronoun mean_abs", mean_abs, (x,)),
        ("pronoun share_positive", share_positive, (x,)),
        ("pronoun mean_abs_diff", mean_abs_diff, (x, y)),
        ("mean_abs", stats.mean_abs, (y,)),
        *((f"norwegian {name}", fn, (gold, pred)) for name, fn in _STATISTICS.items()),
        *((f"bbq {kind}", ratio_statistic(kind), counts) for kind in ("accuracy", "bias", "ambiguous")),
    ]


@pytest.mark.parametrize("name,statistic,samples", _stacked_forms(), ids=[f[0] for f in _stacked_forms()])
def test_a_statistics_stacked_form_gives_the_interval_of_one_call_per_resample(name, statistic, samples):
    """`with_rows` (and numpy's mean and median): bootstrap_ci computes every resample in one array operation;
    the interval is the one scipy gets calling the statistic once per resample (same resamples), and the
    stacked form is the statistic row by row."""
    assert stats.rows_of(statistic) is not None
    assert stats.rows_of(_scalar_path(statistic)) is None
    fast = stats.bootstrap_ci(statistic, *samples)
    slow = stats.bootstrap_ci(_scalar_path(statistic), *samples)
    assert np.allclose(fast, slow, rtol=0, atol=1e-12, equal_nan=True), (fast, slow)
    rng = np.random.default_rng(5)
    picks = rng.integers(0, len(samples[0]), (7, len(samples[0])))
    stacked = stats.rows_of(statistic)(*(s[picks] for s in samples), axis=-1)
    one_by_one = [statistic(*(s[row] for s in samples)) for row in picks]
    assert np.allclose(stacked, one_by_one, rtol=0, atol=1e-12, equal_nan=True)


def test_resample_counts_by_hand():
    got = stats.resample_counts(np.array([[0, 0, 2], [1, 2, 2]]), 4)
    np.testing.assert_array_equal(got, [[2, 0, 1, 0], [0, 1, 2, 0]])


def test_a_crossed_statistics_stacked_form_gets_the_same_draws_and_gives_the_same_interval():
    """The stacked form sees every resample's (rows, columns) indices at once, in the loop's order: with a
    statistic whose two forms agree exactly (the weighted mean of integers), the intervals are equal."""
    data = np.random.default_rng(3).integers(0, 50, (30, 7)).astype(float)
    calls = []

    def loop(r, c):
        return float(data[np.ix_(r, c)].sum())

    def stacked(rs, cs):
        calls.append(rs.shape + cs.shape)
        w_r, w_c = stats.resample_counts(rs, 30), stats.resample_counts(cs, 7)
        return ((w_r @ data) * w_c).sum(axis=1)

    want = bootstrap_crossed(loop, 30, 7)
    assert bootstrap_crossed(stats.with_rows(stacked)(loop), 30, 7) == want
    assert calls == [(1000, 30, 1000, 7)]  # one call for every resample


def test_crossed_mean_bootstraps_as_its_loop_and_keeps_the_loop_for_a_table_with_nan():
    table = np.random.default_rng(5).random((40, 9))

    def loop(r, c):
        return float(table[np.ix_(r, c)].mean())

    fast = stats.crossed_mean(table)
    assert stats.rows_of(fast) is not None and fast(np.arange(40), np.arange(9)) == loop(np.arange(40), np.arange(9))
    np.testing.assert_allclose(bootstrap_crossed(fast, 40, 9), bootstrap_crossed(loop, 40, 9), rtol=1e-12)
    table[3, 4] = np.nan  # a resample without that cell has a mean; a stacked sum would be NaN everywhere
    assert stats.rows_of(stats.crossed_mean(table)) is None
    assert bootstrap_crossed(stats.crossed_mean(table), 40, 9) == bootstrap_crossed(loop, 40, 9)


def _scipy_interval(statistic, *samples):
    """The interval as scipy.stats.bootstrap computes it (percentile, paired, the same seed): the oracle."""
    from scipy import stats as st

    vectorised = stats.rows_of(statistic)
    result = st.bootstrap(
        tuple(np.asarray(s, float) for s in samples),
        statistic if vectorised is None else vectorised,
        paired=True,
        vectorized=vectorised is not None,
        n_resamples=stats.N_RESAMPLES,
        confidence_level=stats.CONFIDENCE,
        method="percentile",
        random_state=np.random.default_rng(stats.SEED),
    )
    return tuple(map(float, result.confidence_interval))


@pytest.mark.parametrize("name,statistic,samples", _stacked_forms(), ids=[f[0] for f in _stacked_forms()])
def test_the_interval_is_scipys_percentile_bootstrap(name, statistic, samples):
    """bootstrap_ci draws scipy.stats.bootstrap's resamples itself (kept for the process) and takes the same
    linear-interpolation quantiles: scipy's interval to float rounding, stacked or called once per resample."""
    with np.errstate(all="ignore"):
        want = _scipy_interval(statistic, *samples)
    for form in (statistic, _scalar_path(statistic)):
        got = stats.bootstrap_ci(form, *samples)
        assert np.allclose(got, want, rtol=1e-12, atol=1e-15, equal_nan=True), (name, got, want)


@pytest.mark.filterwarnings("ignore::scipy.stats.DegenerateDataWarning")  # the oracle's, on the NaN
def test_resample_indices_are_scipys_draws_kept_read_only():
    draws = stats.resample_indices(37)
    assert stats.resample_indices(37) is draws and not draws.flags.writeable
    want = np.random.default_rng(stats.SEED).integers(0, 37, (stats.N_RESAMPLES, 37))
    assert np.array_equal(draws, want)
    x = np.random.default_rng(2).normal(size=37)
    x[3] = np.nan  # a statistic undefined on the resamples that draw item 3: no interval, as scipy's
    assert np.isnan(stats.bootstrap_ci(np.mean, x)).all() and np.isnan(_scipy_interval(np.mean, x)).all()


def test_a_full_tiers_draws_stay_kept_for_the_next_checkpoint(monkeypatch):
    """The full tier with every language draws 86 MiB (2026-12-01): 1,000 resamples of each of these item counts,
    a crossed set of 893 x 17, and 23 MiB of the politicians probe's name draws. All of them stay kept, so a sweep's
    next checkpoint reads every one again instead of drawing it (under the former 64 MiB the cache emptied twice a
    checkpoint)."""
    monkeypatch.setattr(stats, "_DRAWS", {})
    sizes = [923, 893, 784, 778, 720, 417, 393, 391, 387, 262, 240, 159, 137, 120, 106, 103, 99, 66, 60, 50, 49, 40]
    sizes += [31, 29, 25, 18, 17, 15, 14, 7, 6, 4]

    def drawn() -> list[np.ndarray]:
        names = stats.kept_draws(("names",), lambda: (np.zeros(23 * 2**20, dtype=np.uint8),))[0]
        return [stats.resample_indices(n) for n in sizes] + [*stats.crossed_indices(893, 17), names]

    first = drawn()
    assert sum(a.nbytes for a in first) > 80 * 2**20
    assert all(a is b for a, b in zip(first, drawn(), strict=True))
    assert stats.DRAWS_BYTES >= 2.5 * sum(a.nbytes for a in first)  # room for a larger run's


@pytest.mark.parametrize("n", [3, 40, 300])
def test_spearman_from_draw_counts_is_the_spearman_of_every_resample(n):
    """`spearman_counts` reads each resample's average ranks off cumulative draw counts instead of sorting it:
    `spearman_rows` of the resampled values, ties, a NaN item (NaN where it is drawn) and constant resamples
    (NaN) included."""
    rng = np.random.default_rng(n)
    x, y = np.round(rng.normal(size=n), 1), rng.normal(size=n)
    y[n // 2] = np.nan
    draws = stats.resample_indices(n)
    want = stats.spearman_rows(x[draws], y[draws])
    got = stats.spearman_counts(stats.resample_counts(draws, n), x, y)
    assert np.array_equal(np.isnan(got), np.isnan(want)) and np.isnan(got).any() and not np.isnan(got).all()
    assert np.allclose(got, want, rtol=0, atol=1e-12, equal_nan=True)
    constant = stats.spearman_counts(stats.resample_counts(draws, n), np.ones(n), rng.normal(size=n))
    assert np.isnan(constant).all()


def test_the_crossed_draws_are_the_generators_resample_by_resample_and_kept(monkeypatch):
    """`crossed_indices`: each resample's rows, then its columns, from default_rng(seed), as the loop drew them; kept
    for the process by sizes and seed (a sweep's next checkpoint reads the same arrays), read-only."""
    monkeypatch.setattr(stats, "_DRAWS", {})
    rows, cols = stats.crossed_indices(6, 4, 5, seed=9)
    rng = np.random.default_rng(9)
    for b in range(5):
        assert (rows[b] == rng.integers(0, 6, 6)).all() and (cols[b] == rng.integers(0, 4, 4)).all()
    again = stats.crossed_indices(6, 4, 5, seed=9)
    assert again[0] is rows and again[1] is cols and not rows.flags.writeable
    assert stats.crossed_indices(6, 4, 5, seed=10)[0] is not rows
