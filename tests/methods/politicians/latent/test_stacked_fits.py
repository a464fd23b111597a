"""The latent model's grid fitted side by side (`model.fit_stack`, `solver._fista_batch`, the stacked
`objective._objective`): each fit's numbers are its lone run's, bit for bit, whatever stack it is in."""

import numpy as np
import pytest

from biascheck.methods.politicians.latent import compiled as C
from biascheck.methods.politicians.latent import model as L
from biascheck.methods.politicians.latent import objective as O
from biascheck.methods.politicians.latent import solver as F


@pytest.fixture(autouse=True, params=["numpy", "numba"])
def kernel(request, monkeypatch):
    """Every test on both solvers: numpy's stacks and the compiled loop a fit (`latent.compiled`)."""
    if request.param == "numba":
        pytest.importorskip("numba")
    monkeypatch.setenv(C.KERNEL_ENV, request.param)
    return request.param


def _data(seed: int = 0, n_words: int = 25):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 30, size=(n_words, 2)).astype(float) + np.array([0.0, 1.0])
    q = rng.dirichlet(np.ones(3), size=n_words)
    q[[2, 7]] = np.nan  # words without a lexicon entry
    return counts, q


def _same(a: L.LvmFit, b: L.LvmFit) -> bool:
    fields = ("l1", "pr", "objective", "posterior_kl", "posterior_kl_words", "converged", "stop", "iterations")
    fields += ("grad_map",)
    return [getattr(a, k) for k in fields] == [getattr(b, k) for k in fields] and bool(
        np.array_equal(a.eta, b.eta) and np.array_equal(a.p_sigma, b.p_sigma)
    )


def test_the_stacked_objective_is_each_rows_lone_objective_bit_for_bit():
    counts, q = _data()
    data = O._prepare(counts, q)
    rng = np.random.default_rng(1)
    eta, sigma = rng.normal(size=(4, 3, 2, 25)), rng.normal(size=(4, 3, 2))
    prs = np.array([0.0, 0.1, 10.0, 0.0])  # regularised and unregularised rows mixed
    values, d_eta, d_sigma = O._objective(eta, sigma, data, prs)
    for k in range(4):
        value, e, s = O._objective(eta[k], sigma[k], data, prs[k])
        assert values[k] == value and np.array_equal(d_eta[k], e) and np.array_equal(d_sigma[k], s)
        assert O._objective(eta[k], sigma[k], data, prs[k], grad=False)[0] == value


def test_a_stack_of_fits_is_each_fits_lone_run_bit_for_bit():
    counts, q = _data()
    pairs = [(0.0, 1e-5), (1e-4, 0.0), (1e-3, 10.0), (1e-5, 100.0), (1e-2, 0.1)]
    stacked = L.fit_stack(counts, q, pairs, max_iter=1_500)
    assert len({f.iterations for f in stacked}) > 1 and any(f.converged for f in stacked)  # they stop apart
    for fit, (l1, pr) in zip(stacked, pairs, strict=True):
        assert _same(fit, L.fit_one(counts, q, l1, pr, max_iter=1_500))
    reordered = L.fit_stack(counts, q, pairs[::-1], max_iter=1_500)  # a fit does not depend on its neighbours
    assert all(_same(a, b) for a, b in zip(stacked, reordered[::-1], strict=True))


def test_a_stack_cut_short_reports_every_fit_unconverged():
    counts, q = _data(seed=2)
    fits = L.fit_stack(counts, q, [(1e-5, 1.0), (0.0, 0.1)], max_iter=3)
    assert [(f.converged, f.stop, f.iterations) for f in fits] == [(False, "max_iter", 3)] * 2
    pairs = [(1e-5, 1.0), (0.0, 0.1)]
    assert all(_same(a, L.fit_one(counts, q, *p, max_iter=3)) for a, p in zip(fits, pairs, strict=True))


@pytest.mark.parametrize("workers", [1, 3])
def test_the_grid_dealt_into_stacks_comes_back_in_grid_order(workers):
    counts, q = _data(seed=3, n_words=15)
    grid = [(1e-5, 0.1), (1e-4, 1.0), (0.0, 10.0), (1e-3, 1e-3)]
    (fits,) = L._run_fits([(counts, q)], grid, workers, (300, L.FTOL, L.GTOL))
    assert [(f.l1, f.pr) for f in fits] == grid
    assert all(_same(f, L.fit_one(counts, q, *p, max_iter=300)) for f, p in zip(fits, grid, strict=True))


@pytest.mark.parametrize("workers", [1, 3])
def test_two_word_sets_fitted_together_are_each_fitted_alone(workers):
    """`fit_lvms` deals both sets' grids into one map (the probe's adjectives and verbs): each result is
    `fit_lvm`'s on its own set, bit for bit, in the order given."""
    (c1, q1), (c2, q2) = _data(seed=5, n_words=15), _data(seed=6, n_words=22)
    grid = [(1e-5, 0.1), (1e-4, 1.0), (0.0, 10.0)]
    words = [f"w{i}" for i in range(22)]
    together = L.fit_lvms([(c1, q1, None), (c2, q2, words)], grid, max_iter=300, workers=workers)
    for got, (counts, q, w) in zip(together, [(c1, q1, None), (c2, q2, words)], strict=True):
        alone = L.fit_lvm(counts, q, grid=grid, words=w, max_iter=300, workers=1)
        assert all(_same(a, b) for a, b in zip(got.fits, alone.fits, strict=True))
        assert np.array_equal(got.eta, alone.eta) and np.array_equal(got.p_sigma_min, alone.p_sigma_min)
        assert (got.words is None) == (w is None) and got.eta.shape[0] == len(counts)


def test_fit_lvms_names_the_bad_word_set():
    counts, q = _data()
    with pytest.raises(ValueError, match="word set 2 of 2: 3 words for 25 rows"):
        L.fit_lvms([(counts, q, None), (counts, q, ["a", "b", "c"])], [(1e-5, 0.1)])


def test_fista_on_a_stack_of_lassos_is_each_lone_run():
    rng = np.random.default_rng(4)
    a, b = rng.normal(size=(40, 15)), rng.normal(size=(3, 40))

    def lone(k):
        def smooth(x, grad):
            r = a @ x - b[k]
            return 0.5 * float(r @ r) / 40, (a.T @ r / 40 if grad else None)

        return smooth

    def stacked(rows, xs, grad):
        out = [lone(k)(x, grad) for k, x in zip(rows, xs, strict=True)]
        return np.array([v for v, _ in out]), (np.stack([g for _, g in out]) if grad else None)

    l1 = np.array([0.0, 0.05, 0.5])
    metric = rng.uniform(0.1, 10, (3, 15))
    runs = F._fista_batch(stacked, np.zeros((3, 15)), l1, metric, max_iter=5_000, ftol=0.0, gtol=1e-9)
    for k, run in enumerate(runs):
        alone = F._fista(lone(k), np.zeros(15), float(l1[k]), metric[k], max_iter=5_000, ftol=0.0, gtol=1e-9)
        assert run.converged and np.array_equal(run.x, alone.x)
        keys = ("value", "iterations", "stop", "grad_map")
        assert [getattr(run, k) for k in keys] == [getattr(alone, k) for k in keys]
    assert (runs[2].x == 0).sum() > (runs[0].x == 0).sum()  # a larger L1 weight zeroes more


def test_a_grid_cut_into_several_stacks_is_still_each_lone_run(monkeypatch):
    counts, q = _data(seed=5, n_words=10)
    pairs = [(1e-5, 0.1), (1e-4, 1.0), (0.0, 10.0), (1e-3, 1e-3), (1e-2, 100.0)]
    whole = L.fit_stack(counts, q, pairs, max_iter=400)
    monkeypatch.setattr(L, "STACK_ELEMENTS", 2 * (10 * 3 * 2 + 3 * 2))  # stacks of two fits: 2 + 2 + 1
    cut = L.fit_stack(counts, q, pairs, max_iter=400)
    assert all(_same(a, b) for a, b in zip(whole, cut, strict=True))
    assert all(_same(a, L.fit_one(counts, q, *p, max_iter=400)) for a, p in zip(cut, pairs, strict=True))


@pytest.mark.parametrize("pr", [0.0, 0.3, 10.0])
def test_the_one_exp_objective_equals_the_log_space_objective(pr):
    """`_objective` takes the joint as pη · pσ · p(g) (one exp per entry); `_objective_logspace` exponentiates
    the joint shifted by each word's largest entry. Same values and gradients to rounding."""
    counts, q = _data(seed=3, n_words=40)
    data = O._prepare(counts, q)
    rng = np.random.default_rng(4)
    eta, sigma = rng.normal(0, 2, size=(3, 3, 2, 40)), rng.normal(size=(3, 3, 2))
    fast, slow = O._objective(eta, sigma, data, pr), O._objective_logspace(eta, sigma, data, pr)
    for a, b in zip(fast, slow, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-11, atol=1e-13)
    assert np.array_equal(O._objective(eta, sigma, data, pr, grad=False)[0], fast[0])


def test_a_word_whose_total_would_underflow_is_taken_in_log_space():
    """A word ~1,000 nats below the others in every (s, g): its pθ(w) underflows in the one-exp form, so the
    objective is taken in log space, where its cross-entropy stays exact (not the floor's 690 nats)."""
    counts, q = _data(seed=5, n_words=10)
    data = O._prepare(counts, q)
    eta = np.zeros((3, 2, 10))
    eta[:, :, 4] = -1000.0
    value, d_eta, _ = O._objective(eta, np.zeros((3, 2)), data, 0.5)
    logspace_value, logspace_d_eta, _ = O._objective_logspace(eta, np.zeros((3, 2)), data, 0.5)
    assert value == logspace_value and np.array_equal(d_eta, logspace_d_eta)
    assert value > 1000.0 * data.p_wg[:, 4].sum()  # the word's −log p ≈ 1,000 nats, weighted by its share
