"""Paper 001 sections 3.2-3.3: CV, correlations and seed correlations against numpy/scipy by hand."""

import numpy as np
import pytest
from scipy import stats

from biascheck.checkpoints import Checkpoint
from biascheck.methods.pronoun_ratio import fluctuation as fl


def test_cv_by_hand():
    N = np.array([[1.0, 2.0], [3.0, 2.0], [2.0, 5.0]])
    # column 0: mean 2, population SD sqrt(2/3); column 1: mean 3, SD sqrt((1+1+4)/3)
    assert fl.coefficient_of_variation(N) == pytest.approx([np.sqrt(2 / 3) / 2, np.sqrt(2) / 3])
    assert fl.coefficient_of_variation(N) == pytest.approx(stats.variation(N, axis=0))
    assert np.isnan(fl.coefficient_of_variation(np.array([[1.0], [-1.0]]))[0])


def test_weighted_frequency_is_the_inner_product_with_yearly_sizes():
    y = np.array([[1e-6, 2e-6], [3e-6, 0.0]])  # professions x years
    s = np.array([100.0, 1000.0])
    assert fl.weighted_frequency(y, s) == pytest.approx([1e-4 + 2e-3, 3e-4])


def test_pairwise_pearson_matches_numpy():
    rows = np.random.default_rng(0).normal(size=(4, 30))
    assert fl.pairwise_pearson(rows) == pytest.approx(np.corrcoef(rows))


def sweep(rng, seeds=("0", "1", "2"), steps=(100, 200, 300, 400), professions=40):
    base = rng.normal(0, 1, professions)
    cps, log_r, log_n, cert = [], {}, {}, {}
    for seed in seeds:
        own = base + rng.normal(0, 0.7, professions)
        for step in steps:
            name = f"s{seed}-{step}"
            cps.append(Checkpoint(name, step, seed))
            log_r[name] = own + rng.normal(0, 0.3, professions) + 0.5
            log_n[name] = log_r[name] - 0.5
            cert[name] = rng.uniform(0.1, 0.9, professions)
    return cps, log_r, log_n, cert


def test_analyse_matches_a_direct_computation():
    rng = np.random.default_rng(1)
    cps, log_r, log_n, cert = sweep(rng)
    freq = rng.uniform(1e-7, 1e-4, 40)
    profs = [f"p{i}" for i in range(40)]
    result = fl.analyse(
        list(reversed(cps)), log_r, log_n, cert, profs, after_step=200, frequency=freq, frequency_source="test"
    )
    assert [s.seed for s in result.seeds] == ["2", "1", "0"]
    seed0 = next(s for s in result.seeds if s.seed == "0")
    assert seed0.steps == [100, 200, 300, 400] and seed0.used == 3
    names = ["s0-200", "s0-300", "s0-400"]
    N = np.exp(np.array([log_n[n] for n in names]))
    R = np.exp(np.array([log_r[n] for n in names]))
    C = np.array([cert[n] for n in names])
    v = N.std(axis=0) / N.mean(axis=0)
    assert seed0.cv_n == pytest.approx(v)
    assert seed0.cv_r == pytest.approx(R.std(axis=0) / R.mean(axis=0))
    assert seed0.corr_cv_certainty_n == pytest.approx(stats.pearsonr(v, C.mean(axis=0)).statistic)
    assert seed0.corr_cv_frequency_n == pytest.approx(stats.pearsonr(v, freq).statistic)
    means = {s.seed: s.mean_n for s in result.seeds}
    i, j = [s.seed for s in result.seeds].index("0"), [s.seed for s in result.seeds].index("1")
    assert result.seed_corr_n[i, j] == pytest.approx(stats.pearsonr(means["0"], means["1"]).statistic)
    assert result.seed_corr_n[i, j] == pytest.approx(result.seed_corr_n[j, i])
    # CV from R equals CV from N here: n = r * const per checkpoint (the prior is constant), so both scale alike
    assert seed0.cv_r == pytest.approx(seed0.cv_n)
    assert seed0.checkpoint_corr_n.shape == (4, 4)


def test_analyse_without_certainty_or_frequency_reports_nan_and_tables_render():
    rng = np.random.default_rng(2)
    cps, log_r, log_n, _ = sweep(rng, seeds=("a",), steps=(1, 2, 3))
    result = fl.analyse(cps, log_r, log_n, {c.model: None for c in cps}, [f"p{i}" for i in range(40)])
    s = result.seeds[0]
    assert s.used == 3 and np.isnan(s.corr_cv_certainty_n) and np.isnan(s.corr_cv_frequency_r)
    text = fl.report_text(result)
    assert "seed" in text and "CV(n) min" in text and "Most fluctuating" in text
    assert "|" in fl.report_text(result, "github")


def test_after_step_beyond_every_checkpoint_is_an_error():
    rng = np.random.default_rng(3)
    cps, log_r, log_n, cert = sweep(rng, seeds=("0",), steps=(1, 2))
    with pytest.raises(ValueError, match="no checkpoint at or after step 5"):
        fl.analyse(cps, log_r, log_n, cert, [f"p{i}" for i in range(40)], after_step=5)


def test_figure_has_three_panels():
    rng = np.random.default_rng(4)
    cps, log_r, log_n, cert = sweep(rng)
    fig = fl.figure(fl.analyse(cps, log_r, log_n, cert, [f"p{i}" for i in range(40)]))
    assert len(fig.axes) >= 3
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_wordfreq_frequencies_when_installed():
    pytest.importorskip("wordfreq")
    f = fl.wordfreq_frequencies(["nurse", "air traffic controller", "zzzqqqxx"])
    assert f[0] > f[1] > 0 and f[2] == 0
