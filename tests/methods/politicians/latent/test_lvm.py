"""The politicians probe's latent-variable model (paper 003, Eq 3-13): the analytic gradient against finite
differences, FISTA against scipy, the one-sentiment limit (Eq 9), what the data do and do not identify,
recovery of planted parameters, and the derived rankings, gaps and sentiment mixes by hand."""

import math

import numpy as np
import pytest
from scipy.optimize import check_grad, minimize

from biascheck.methods.politicians.latent import model as L
from biascheck.methods.politicians.latent import objective as O
from biascheck.methods.politicians.latent import readout as R
from biascheck.methods.politicians.latent import solver as F
from biascheck.methods.politicians.latent import workers as W
from biascheck.methods.politicians.pmi import SENTIMENTS, top_k_shares

# ---------------------------------------------------------------- the objective


def _flat_objective(data, pr: float, n_words: int, n_sent: int = 3, n_genders: int = 2):
    """(value, gradient) of the smooth part as functions of one flat vector (η as (S, G, W), then σ)."""
    n_eta = n_words * n_sent * n_genders

    def split(x):
        return x[:n_eta].reshape(n_sent, n_genders, n_words), x[n_eta:].reshape(n_sent, n_genders)

    def value(x):
        return O._objective(*split(x), data, pr, grad=False)[0]

    def gradient(x):
        _, d_eta, d_sigma = O._objective(*split(x), data, pr)
        return np.concatenate([d_eta.ravel(), d_sigma.ravel()])

    return value, gradient


@pytest.mark.parametrize("pr", [0.0, 0.7, 10.0])
def test_gradient_matches_finite_differences(pr):
    rng = np.random.default_rng(1)
    counts = rng.integers(0, 20, size=(12, 2)).astype(float)
    counts[0] = [0, 3]  # a word never seen with women
    q = rng.dirichlet(np.ones(3), size=12)
    q[3] = np.nan  # a word without a lexicon entry
    value, gradient = _flat_objective(O._prepare(counts, q), pr, 12)
    x = rng.normal(0, 1, 12 * 3 * 2 + 3 * 2)
    assert check_grad(value, gradient, x, epsilon=1e-7) < 1e-5 * max(1.0, np.linalg.norm(gradient(x)))


def test_sentiment_posterior_is_bayes_rule_over_genders():
    rng = np.random.default_rng(2)
    eta = rng.normal(0, 1, size=(4, 3, 2))
    p_sigma = rng.dirichlet(np.ones(3), size=2).T  # (S, G)
    p_word = np.array([0.1, 0.2, 0.3, 0.4])
    p_gender = np.array([0.25, 0.75])
    # pη(w|s,g) = p(w) e^η / Σ_w' p(w') e^η ;  pθ(s|w) ∝ Σ_g pη(w|s,g) pσ(s|g) p(g)
    expected = np.zeros((4, 3))
    for s in range(3):
        for g in range(2):
            p_eta = p_word * np.exp(eta[:, s, g]) / np.sum(p_word * np.exp(eta[:, s, g]))
            expected[:, s] += p_eta * p_sigma[s, g] * p_gender[g]
    expected /= expected.sum(axis=1, keepdims=True)
    assert O.sentiment_posterior(eta, p_sigma, np.log(p_word), p_gender) == pytest.approx(expected, abs=1e-12)


def test_fista_solves_a_lasso_like_scipy():
    # the optimiser alone, against L-BFGS-B on the split form x = u − v, u, v ≥ 0
    rng = np.random.default_rng(3)
    a, b, lam = rng.normal(size=(40, 15)), rng.normal(size=40), 0.05

    def smooth(x, grad):
        r = a @ x - b
        return 0.5 * float(r @ r) / 40, (a.T @ r / 40 if grad else None)

    def split(z):
        x = z[:15] - z[15:]
        f, g = smooth(x, True)
        return f + lam * z.sum(), np.concatenate([g + lam, -g + lam])

    reference = minimize(split, np.zeros(30), jac=True, method="L-BFGS-B", bounds=[(0, None)] * 30, tol=1e-14)
    expected = reference.x[:15] - reference.x[15:]
    for metric in (np.ones(15), rng.uniform(0.1, 10, 15)):  # the metric changes the path, not the optimum
        run = F._fista(smooth, np.zeros(15), lam, metric, max_iter=20_000, ftol=0.0, gtol=1e-10)
        assert run.converged and run.stop == "gtol"
        assert run.x == pytest.approx(expected, abs=1e-6)
        assert (run.x == 0).sum() >= 1  # soft-thresholding makes exact zeros


# ---------------------------------------------------------------- Eq 9 and identification


def test_one_sentiment_without_penalty_is_plug_in_pmi():
    # with one sentiment and λ = 0 the model is pη(w|g) ∝ p̃(w) e^η[w,g], whose maximum-likelihood
    # solution is pη(w|g) = p̃(w|g): η[w,g] = log p̃(w|g) − log p̃(w) + c_g (Eq 9)
    rng = np.random.default_rng(4)
    counts = rng.integers(1, 200, size=(30, 2)).astype(float)
    fit = L.fit_one(counts, np.ones((30, 1)), l1=0.0, pr=0.0, gtol=1e-10, ftol=0.0)
    assert fit.converged
    plug_in = np.log(counts / counts.sum(axis=0)) - np.log(counts.sum(axis=1) / counts.sum())[:, None]
    offset = fit.eta[:, 0, :] - plug_in
    assert offset.std(axis=0) == pytest.approx([0, 0], abs=1e-6)  # the same constant for every word
    assert fit.p_sigma == pytest.approx(np.ones((1, 2)))
    result = L.fit_lvm(counts, np.ones((30, 1)), grid=[(0.0, 0.0)], sentiments=("any",), gtol=1e-10, ftol=0.0)
    assert R.gender_deviation(result) == pytest.approx(plug_in, abs=1e-6)  # d(w,g) is the PMI itself


def test_the_sentiment_split_between_genders_is_not_identified():
    # two parameter sets whose tables pθ(w,s,g) have the same margins pθ(w,g) and pθ(s|w) fit the data and
    # the lexicon equally well (the same cross-entropy and KL), yet differ in pσ(s|female) by ~0.1:
    # only the L1 term chooses between them (module docstring, "What the data identify")
    rng = np.random.default_rng(5)
    table = rng.dirichlet(np.ones(20 * 3 * 2)).reshape(20, 3, 2) + 1e-3  # pθ(w, s, g)
    table /= table.sum()
    moved = table.copy()
    eps = 0.5 * np.minimum.reduce([table[:, 0, 0], table[:, 2, 0], table[:, 0, 1], table[:, 2, 1]])
    moved[:, 0, 0] += eps  # more negative for women ...
    moved[:, 2, 0] -= eps
    moved[:, 2, 1] += eps  # ... and as much more positive for men: both margins stay
    moved[:, 0, 1] -= eps
    counts = table.sum(axis=1) * 1e5  # data exactly at pθ(w, g)
    q = table.sum(axis=2) / table.sum(axis=(1, 2))[:, None]
    data = O._prepare(counts, q)
    values, neg_female = [], []
    for joint in (table, moved):
        p_gender = joint.sum(axis=(0, 1))
        p_sigma = joint.sum(axis=0) / p_gender  # (S, G)
        eta = np.log(joint) - np.log(p_sigma)[None] - np.log(p_gender) - data.m[:, None, None]
        values.append(O._objective(np.transpose(eta, (1, 2, 0)), np.log(p_sigma), data, pr=1.0, grad=False)[0])
        neg_female.append(p_sigma[0, 0])
    assert values[0] == pytest.approx(values[1], abs=1e-12)
    assert neg_female[1] - neg_female[0] > 0.05


# ---------------------------------------------------------------- recovery of planted parameters

P_SIGMA = np.array([[0.3, 0.4], [0.3, 0.35], [0.4, 0.25]])  # pσ(s|g): rows neg, neu, pos; columns female, male


def _simulate(seed: int = 0, n_words: int = 400, p_female: float = 0.2, n: int = 100_000):
    """Data from the model itself: m_w ~ N(0, 1); every word has a dominant sentiment (η + 2 there, plus
    N(0, ½) noise on all three); 15 % of the words shifted by ±1.5 for women in every sentiment;
    pσ = P_SIGMA; q(s|w) = the true posterior pθ(s|w); 100k samples of (w, g)."""
    rng = np.random.default_rng(seed)
    m = rng.normal(0, 1, n_words)
    dominant = rng.integers(0, 3, n_words)
    base = rng.normal(0, 0.5, (n_words, 3))
    base[np.arange(n_words), dominant] += 2.0
    shift = np.zeros(n_words)
    planted = rng.choice(n_words, int(0.15 * n_words), replace=False)
    shift[planted] = rng.choice([-1.5, 1.5], len(planted))
    eta = np.stack([base + shift[:, None], base], axis=2)  # (W, S, G)
    p_eta = np.exp(m[:, None, None] + eta)
    p_eta /= p_eta.sum(axis=0)
    joint = p_eta * P_SIGMA[None] * np.array([p_female, 1 - p_female])
    q = joint.sum(axis=2) / joint.sum(axis=(1, 2))[:, None]
    counts = rng.multinomial(n, joint.sum(axis=1).ravel()).reshape(n_words, 2).astype(float)
    return counts, q, shift, planted, dominant


@pytest.fixture(scope="module")
def recovered():
    counts, q, shift, planted, dominant = _simulate()
    words = np.array([f"w{i:03d}" for i in range(len(counts))])
    result = L.fit_lvm(counts, q, grid=[(1e-5, 1.0)], words=words)
    return result, counts, q, shift, planted, dominant


def test_recovery_of_planted_gender_shifts(recovered):
    result, _, _, shift, planted, dominant = recovered
    assert result.converged
    d = R.gender_deviation(result)
    assert np.mean(np.sign(d[planted, 0] - d[planted, 1]) == np.sign(shift[planted])) >= 0.95
    eta = result.eta[planted, dominant[planted]]  # (planted, G) in each word's dominant sentiment
    assert np.mean(np.sign(eta[:, 0] - eta[:, 1]) == np.sign(shift[planted])) >= 0.95


def test_recovery_of_what_the_data_identify(recovered):
    result, *_ = recovered
    truth = P_SIGMA @ np.array([0.2, 0.8])
    assert result.p_sigma @ result.p_gender == pytest.approx(truth, abs=0.01)  # Σ_g p(g) pσ(s|g)
    assert result.p_sigma[:, 1] == pytest.approx(P_SIGMA[:, 1], abs=0.05)  # men: 80 % of the samples
    assert result.posterior_kl < 1e-3
    assert result.p_gender[0] == pytest.approx(0.2, abs=0.01)


@pytest.mark.xfail(
    strict=True,
    reason="pσ(s|female) is not identified by the likelihood and the posterior term, only by the L1 "
    "penalty (latent.model module docstring); on this simulation it is off by ~0.16",
)
def test_recovery_of_the_female_sentiment_mix(recovered):
    result, *_ = recovered
    assert result.p_sigma[:, 0] == pytest.approx(P_SIGMA[:, 0], abs=0.05)


def test_posterior_kl_is_the_frequency_weighted_mean(recovered):
    result, counts, q, *_ = recovered
    fit = result.fits[0]
    posterior = O.sentiment_posterior(fit.eta, fit.p_sigma, result.log_prior, result.p_gender)
    kl = np.sum(q * np.log(q / posterior), axis=1)
    p_word = counts.sum(axis=1) / counts.sum()
    assert fit.posterior_kl == pytest.approx(np.sum(p_word * kl), rel=1e-6)
    assert fit.posterior_kl_words == pytest.approx(kl.mean(), rel=1e-6)


def test_soft_gaps_see_the_planted_shifts(recovered):
    result, counts, q, shift, *_ = recovered
    gaps = R.soft_gaps(result, q, k=20)
    # the female top 20 by d(w, f) are the words shifted up for women
    top = np.argsort(-R.gender_deviation(result)[:, 0])[:20]
    assert (shift[top] > 0).mean() >= 0.9
    shares = {f"share_{s}_{g}" for s in SENTIMENTS for g in ("female", "male")}
    assert set(gaps) == {"neg_gap", "pos_gap", "se_neg_gap", "se_pos_gap", "words_female", "words_male"} | shares
    for g in ("female", "male"):
        assert sum(gaps[f"share_{s}_{g}"] for s in SENTIMENTS) == pytest.approx(1.0)


# ---------------------------------------------------------------- the grid


def test_grid_average_centring_and_range():
    counts, q, *_ = _simulate(seed=1, n_words=40, n=5_000)
    grid = [(1e-5, 0.1), (1e-4, 1.0)]
    result = L.fit_lvm(counts, q, grid=grid)
    assert [(f.l1, f.pr) for f in result.fits] == grid
    for fit in result.fits:
        assert fit.eta.mean(axis=0) == pytest.approx(np.zeros((3, 2)), abs=1e-12)  # centred per (s, g)
        assert fit.p_sigma.sum(axis=0) == pytest.approx([1, 1])
    assert result.eta == pytest.approx((result.fits[0].eta + result.fits[1].eta) / 2)
    assert result.p_sigma == pytest.approx((result.fits[0].p_sigma + result.fits[1].p_sigma) / 2)
    assert (result.p_sigma_min <= result.p_sigma + 1e-15).all() and (result.p_sigma <= result.p_sigma_max + 1e-15).all()
    assert result.posterior_kl == pytest.approx(np.mean([f.posterior_kl for f in result.fits]))
    table = result.fit_table()
    assert list(table["l1"]) == [1e-5, 1e-4] and table["converged"].all()


def test_fits_in_processes_equal_fits_in_order():
    """The grid's fits spawned in 2 processes give the serial run's numbers, bit for bit, in grid order."""
    counts, q, *_ = _simulate(seed=1, n_words=40, n=5_000)
    grid = [(1e-5, 0.1), (1e-4, 1.0), (0.0, 10.0)]
    serial = L.fit_lvm(counts, q, grid=grid, workers=1)
    spawned = L.fit_lvm(counts, q, grid=grid, workers=2)
    assert [(f.l1, f.pr) for f in spawned.fits] == grid
    for a, b in zip(serial.fits, spawned.fits, strict=True):
        assert (a.eta == b.eta).all() and (a.p_sigma == b.p_sigma).all()
        assert (a.objective, a.iterations, a.stop) == (b.objective, b.iterations, b.stop)
    assert (serial.eta == spawned.eta).all()


def test_a_script_without_a_main_guard_gets_the_fits_serially_with_a_warning(tmp_path):
    """A spawned process runs the parent script's top level again; in a script without an
    ``if __name__ == "__main__":`` guard that breaks the pool: the fits then run here, same numbers."""
    import subprocess
    import sys

    script = tmp_path / "unguarded.py"
    script.write_text(
        "import numpy as np\n"
        "from biascheck.methods.politicians.latent import model as lvm\n"
        "rng = np.random.default_rng(0)\n"
        "counts = rng.integers(1, 20, size=(30, 2)).astype(float)\n"
        "q = rng.dirichlet([1, 1, 1], size=30)\n"
        "grid = [(1e-5, 0.1), (1e-4, 1.0)]\n"
        "a = lvm.fit_lvm(counts, q, grid=grid, workers=2, max_iter=200)\n"
        "b = lvm.fit_lvm(counts, q, grid=grid, workers=1, max_iter=200)\n"
        "print('EQUAL', bool((a.eta == b.eta).all()))\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "EQUAL True" in done.stdout
    assert "could not run in 2 processes" in done.stderr


def test_fit_workers_follow_the_environment(monkeypatch):
    monkeypatch.setenv(W.WORKERS_ENV, "3")
    assert W.fit_workers() == 3
    monkeypatch.setenv(W.WORKERS_ENV, "0")
    from biascheck.errors import ConfigError

    with pytest.raises(ConfigError, match="BIASCHECK_FIT_WORKERS='0'"):
        W.fit_workers()
    monkeypatch.delenv(W.WORKERS_ENV)
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    assert W.fit_workers() == 1  # xdist workers already share the cores
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    assert W.fit_workers() >= 1


def test_a_fit_that_runs_out_of_iterations_says_so():
    counts, q, *_ = _simulate(seed=1, n_words=40, n=5_000)
    fit = L.fit_one(counts, q, 1e-5, 1.0, max_iter=2)
    assert not fit.converged and fit.stop == "max_iter" and fit.iterations == 2
    assert not L.fit_lvm(counts, q, grid=[(1e-5, 1.0)], max_iter=2).converged


def test_grids():
    assert len(L.DEFAULT_GRID) == 6 and (1e-5, 0.1) in L.DEFAULT_GRID and (1e-4, 10.0) in L.DEFAULT_GRID
    assert len(L.PAPER_GRID) == 40 and (0.0, 1e-5) in L.PAPER_GRID and (1e-2, 100.0) in L.PAPER_GRID


@pytest.mark.parametrize(
    ("counts", "q", "message"),
    [
        ([[1, 2], [0, 0]], [[1, 0, 0], [0, 1, 0]], "every word"),
        ([[1, 0], [2, 0]], [[1, 0, 0], [0, 1, 0]], "every gender"),
        ([[1, 2], [3, 4]], [[0.5, 0.4, 0], [0, 1, 0]], "distribution"),
        ([[1, 2], [3, 4]], [[1, 0, 0]], "q must be"),
    ],
)
def test_bad_input_is_rejected(counts, q, message):
    with pytest.raises(ValueError, match=message):
        L.fit_one(np.array(counts, float), np.array(q, float), 1e-5, 1.0)


# ---------------------------------------------------------------- derived quantities by hand


def _result(eta: np.ndarray, p_sigma: np.ndarray, p_word: np.ndarray, words=None) -> L.LvmResult:
    return L.LvmResult(
        words=None if words is None else np.array(words, dtype=object),
        genders=("female", "male"),
        sentiments=SENTIMENTS if eta.shape[1] == 3 else ("any",),
        log_prior=np.log(p_word),
        p_gender=np.array([0.5, 0.5]),
        eta=eta,
        p_sigma=p_sigma,
        p_sigma_min=p_sigma,
        p_sigma_max=p_sigma,
        posterior_kl=0.0,
        fits=(),
    )


def test_gender_deviation_with_one_sentiment_is_eq_9():
    # p̃(w) = .5, .3, .2; η_f = 1, 0, −1; η_m = 0: d(w,f) = η − log(.5e + .3 + .2/e), d(w,m) = 0
    eta = np.array([[[1.0, 0.0]], [[0.0, 0.0]], [[-1.0, 0.0]]])
    result = _result(eta, np.ones((1, 2)), np.array([0.5, 0.3, 0.2]))
    log_norm = math.log(0.5 * math.e + 0.3 + 0.2 / math.e)
    expected = np.array([[1 - log_norm, 0], [-log_norm, 0], [-1 - log_norm, 0]])
    assert R.gender_deviation(result) == pytest.approx(expected, abs=1e-12)


def test_gender_deviation_mixes_the_sentiments_with_the_models_weights():
    # two sentiments, one gender column shown: pη(w|s) from p̃(w) = (.5, .5) and η; pσ = (.25, .75)
    eta = np.zeros((2, 3, 2))
    eta[0, 0, 0] = math.log(3)  # word 0 three times as likely under neg for women: pη(·|neg,f) = (.75, .25)
    p_sigma = np.array([[0.25, 0.25], [0.75, 0.75], [0.0, 0.0]])
    result = _result(eta, p_sigma, np.array([0.5, 0.5]))
    # pθ(w0|f) = .25·.75 + .75·.5 = .5625 → d = log(.5625/.5); pθ(w1|f) = .25·.25 + .75·.5 = .4375
    assert R.gender_deviation(result)[:, 0] == pytest.approx([math.log(0.5625 / 0.5), math.log(0.4375 / 0.5)])


def test_rank_by_eta():
    eta = np.zeros((4, 3, 2))
    eta[:, 2, 0] = [0.5, 2.0, -1.0, 1.0]  # pos, female
    result = _result(eta, np.full((3, 2), 1 / 3), np.full(4, 0.25), words=["a", "b", "c", "d"])
    top = R.rank_by_eta(result, "pos", "female", k=2)
    assert top["word"].tolist() == ["b", "d"] and top["eta"].tolist() == [2.0, 1.0]
    with pytest.raises(ValueError, match="joy"):
        R.rank_by_eta(result, "joy", "female")
    kept = R.rank_by_eta(result, "pos", "female", k=3, keep=np.array([True, False, True, False]))
    assert kept["word"].tolist() == ["a", "c"]  # only the kept words, however few
    tied = _result(np.zeros((4, 3, 2)), np.full((3, 2), 1 / 3), np.full(4, 0.25), words=["a", "b", "c", "d"])
    tied.eta[:, 2, 0] = [0.5, 2.0, 0.5, 0.5]  # a tie across the 2nd place is left out whole
    assert R.rank_by_eta(tied, "pos", "female", k=2)["word"].tolist() == ["b"]
    assert R.rank_by_eta(tied, "pos", "female", k=4)["word"].tolist() == ["b", "a", "c", "d"]
    table = R.eta_table(result, k=2, keep=np.array([True, False, True, True]))
    assert list(table.columns) == [f"{g}_{s}" for g in ("female", "male") for s in ("neg", "neu", "pos")]
    assert table["female_pos"].tolist() == ["d", "a"]


def test_soft_gaps_with_one_hot_labels_are_the_hard_shares_by_hand():
    # η[w, s, g] = a[w, g] for every s, pσ uniform: d(w, g) = a[w, g] − const_g, so the rankings follow a
    a = np.array([[2.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 2.0]])
    eta = np.repeat(a[:, None, :], 3, axis=1)
    result = _result(eta, np.full((3, 2), 1 / 3), np.full(4, 0.25), words=["w0", "w1", "w2", "w3"])
    q = np.eye(3)[[0, 2, 1, 2]]  # w0 neg, w1 pos, w2 neu, w3 pos
    # k = 1: female top w0 (neg), male top w3 (pos)
    one = R.soft_gaps(result, q, k=1)
    assert (one["neg_gap"], one["pos_gap"]) == (1.0, -1.0)
    # k = 2: female {w0 neg, w1 pos}: neg ½ pos ½; male {w3 pos, w2 neu}: neg 0 pos ½
    two = R.soft_gaps(result, q, k=2)
    assert (two["neg_gap"], two["pos_gap"]) == (0.5, 0.0)
    # se: female neg ½ (Bernoulli ¼ over 2 words), male 0: sqrt(¼ / 2)
    assert two["se_neg_gap"] == pytest.approx(math.sqrt(0.125))
    # keep: w0 may not be ranked → female {w1 pos, w2 neu}: neg 0
    assert R.soft_gaps(result, q, k=2, keep=np.array([False, True, True, True]))["neg_gap"] == 0.0


def test_sent_mix_and_its_plug_in_analogue():
    p_sigma = np.array([[0.2, 0.3], [0.3, 0.4], [0.5, 0.3]])
    result = _result(np.zeros((2, 3, 2)), p_sigma, np.array([0.5, 0.5]))
    assert R.sent_mix(result) == pytest.approx([-0.1, -0.1, 0.2])
    # p̃(w|f) = (.5, .25, .25), p̃(w|m) = (0, .75, .25)
    # female: .5·(1,0,0) + .25·(0,0,1) + .25·(.5,.5,0) = (.625, .125, .25); male: (.125, .125, .75)
    counts = np.array([[2.0, 0.0], [1.0, 3.0], [1.0, 1.0]])
    q = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.5, 0.5, 0.0]])
    assert R.lexicon_sent_mix(counts, q) == pytest.approx([0.5, 0.0, -0.5])


def test_top_k_weights_count_ties_as_the_pmi_shares_do():
    scores = np.array([3.0, 2.0, 1.0, 1.0, 1.0, -np.inf, np.nan])
    # k = 3: words 0 and 1, then the three tied at 1.0 share one slot: 1/3 each, over k
    assert R.top_k_weights(scores, 3) == pytest.approx([1 / 3, 1 / 3, 1 / 9, 1 / 9, 1 / 9, 0, 0])
    assert R.top_k_weights(scores, 10) == pytest.approx([0.2] * 5 + [0, 0])  # fewer eligible than k: all of them
    assert not R.top_k_weights(np.array([-np.inf, np.nan]), 2).any()
    rng = np.random.default_rng(0)  # one-hot labels: the weights give `pmi.top_k_shares`, an independent path
    for _ in range(20):
        values = rng.integers(0, 6, 40).astype(float)
        codes = rng.integers(0, 3, 40)
        assert R.top_k_weights(values, 7) @ np.eye(3)[codes] == pytest.approx(top_k_shares(values, codes, 7))


def test_soft_gaps_by_hand():
    # the rankings of the one-hot test above: k = 2 gives female {w0, w1}, male {w3, w2}
    a = np.array([[2.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 2.0]])
    result = _result(np.repeat(a[:, None, :], 3, axis=1), np.full((3, 2), 1 / 3), np.full(4, 0.25), words=list("abcd"))
    q = np.array([[0.6, 0.2, 0.2], [0.2, 0.2, 0.6], [0.25, 0.5, 0.25], [1 / 3, 1 / 3, 1 / 3]])
    got = R.soft_gaps(result, q, k=2)
    # female: neg (.6 + .2) / 2 = .4, neu .2, pos .4; male: neg (.25 + 1/3) / 2 = 7/24, neu 5/12, pos 7/24
    assert [got[f"share_{s}_female"] for s in ("neg", "neu", "pos")] == pytest.approx([0.4, 0.2, 0.4])
    assert [got[f"share_{s}_male"] for s in ("neg", "neu", "pos")] == pytest.approx([7 / 24, 5 / 12, 7 / 24])
    assert got["neg_gap"] == pytest.approx(0.4 - 7 / 24) and got["pos_gap"] == pytest.approx(0.4 - 7 / 24)
    # se: female neg values .6, .2 (variance .04), male .25, 1/3 (variance (1/24)² ), each over k = 2 words
    assert got["se_neg_gap"] == pytest.approx(math.sqrt(0.04 / 2 + (1 / 24) ** 2 / 2))
    assert got["words_female"] == got["words_male"] == 2
    kept = R.soft_gaps(result, q, k=2, keep=np.array([False, True, True, True]))  # female {w1, w2}
    assert kept["share_neg_female"] == pytest.approx(0.225)
    with pytest.raises(ValueError, match="without NaN"):
        R.soft_gaps(result, np.full((4, 3), np.nan), k=2)


def test_a_gender_margin_far_below_its_words_largest_entry_keeps_the_objective_finite():
    """`_objective` exponentiates the joint once, shifted by each word's largest entry: a (word, gender) ~800
    nats below it underflows to 0, and the floor keeps its log finite and no 0/0 in the responsibilities."""
    counts = np.array([[3.0, 0.0], [2.0, 5.0], [1.0, 4.0]])
    q = np.array([[0.2, 0.5, 0.3], [np.nan] * 3, [0.6, 0.2, 0.2]])
    data = O._prepare(counts, q)
    eta = np.zeros((3, 2, 3))
    eta[:, 1, 0] = -800.0  # word 0: every sentiment of the second gender far below the first
    value, d_eta, d_sigma = O._objective(eta, np.zeros((3, 2)), data, 1.0)
    assert np.isfinite(value) and np.isfinite(d_eta).all() and np.isfinite(d_sigma).all()
