"""The latent-variable model of (word, sentiment, gender) of paper 003 (Stańczak et al. 2023, section 4,
Eq 3-13, after Hoyle et al. 2019), fitted by penalised maximum likelihood over a grid of penalty weights.
Numpy; each fit compiled with numba where it is installed (`compiled`, the same algorithm).

    pθ(w, s, g) = pη(w | s, g) · pσ(s | g) · p(g),   s latent;   m_w and p(g) fixed at the data's margins
    O(θ) = L(θ) + λ_PR · Σ_w KL(q(·|w) ‖ pθ(·|w)) + λ_L1 · (‖η‖₁ + ‖σ‖₁)

`fit_one` fits one (λ_L1, λ_PR) by FISTA from a deterministic start; `fit_lvm` averages the grid's fits
(centred η, pσ with its range) in worker processes. pσ(s | g) is not identified by the data (read why
before using it). The model, the objective, what the data identify, the solver's steps and stopping rules,
the grid and the posterior-KL check, with what was measured: README.md beside this file.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from biascheck.methods.politicians.latent import compiled
from biascheck.methods.politicians.latent.objective import (
    _Data,
    _kl_per_word,
    _log_joint,
    _log_posterior,
    _lse,
    _objective,
    _prepare,
)
from biascheck.methods.politicians.latent.result import LvmFit, LvmResult
from biascheck.methods.politicians.latent.solver import _Fista, _fista_batch
from biascheck.methods.politicians.latent.workers import fit_workers, map_spawned
from biascheck.methods.politicians.pmi import SENTIMENTS
from biascheck.timing import timed

L1_DEFAULT = (1e-5, 1e-4)
PR_DEFAULT = (0.1, 1.0, 10.0)
L1_PAPER = (0.0, 1e-5, 1e-4, 1e-3, 1e-2)  # section 5 ("L1 penalty α")
PR_PAPER = (1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0)  # section 5 ("posterior regularization β")
DEFAULT_GRID: tuple[tuple[float, float], ...] = tuple(itertools.product(L1_DEFAULT, PR_DEFAULT))  # (l1, pr)
PAPER_GRID: tuple[tuple[float, float], ...] = tuple(itertools.product(L1_PAPER, PR_PAPER))  # 40 fits
GENDERS = ("female", "male")
# The gated gaps read the fits and a fit that did not converge turns them red: with the soft lexicon,
# SmolLM2's (L1 1e-4, PR 1) adjective fit on all English names needed 21,439 iterations (20,000 left it
# one short of the ftol stop, its gaps within 0.001 of the converged fit's), so the budget has room.
# Gemma 3 270M's full grid on all English names: (L1 1e-5, PR 100) and (L1 1e-3, PR 100) stop by ftol at
# 41,473 and 42,104 iterations (the other 38 at most 37,884), so 40,000 left it red; 80,000 is twice that.
MAX_ITER = 80_000
FTOL = 1e-10
GTOL = 1e-7
_METRIC_FLOOR = 1e-2
STACK_ELEMENTS = 2**20  # parameters per stack of fits: a paper grid of 2,000 words in one (README: measured)


def _initial(data: _Data, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Step 1: the maximum-likelihood point at which sentiment and gender are independent given the word,
    pθ(w, s, g) = p̂(w, g) q(s|w), with p̂ = (n + ½) / Σ(n + ½) (so no η is −∞) and, for words without a
    lexicon entry, q(s|w) = Σ_w' p̃(w') q(s|w'). There pσ(s|g) = Σ_w p̂(w|g) q(s|w) and
    η[w,s,g] = log q(s|w) + log p̂(w|g) − m_w − log pσ(s|g), both centred; the cross-entropy is at its
    (smoothed) minimum and the posterior KL is 0, so FISTA only has to trade them against the L1 norm.
    Returns η (S,G,W), σ (S,G)."""
    smoothed = counts.T + 0.5  # (G,W)
    p_w_given_g = smoothed / smoothed.sum(axis=1, keepdims=True)
    lex = data.in_lexicon > 0
    n_sent = data.q.shape[0]
    p_w = np.exp(data.m)
    fallback = data.q[:, lex] @ p_w[lex] / p_w[lex].sum() if lex.any() else np.full(n_sent, 1.0 / n_sent)
    q = np.where(lex, data.q, fallback[:, None])
    q = np.maximum(q, 1e-6)
    q = q / q.sum(axis=0, keepdims=True)  # (S,W)
    p_sigma = q @ p_w_given_g.T  # (S,G)
    eta = np.log(q)[:, None, :] + np.log(p_w_given_g)[None] - data.m - np.log(p_sigma)[:, :, None]
    sigma = np.log(p_sigma)
    return eta - eta.mean(axis=-1, keepdims=True), sigma - sigma.mean(axis=0, keepdims=True)


def _metric(eta: np.ndarray, sigma: np.ndarray, data: _Data, pr: float) -> np.ndarray:
    """The diagonal metric D (step 2): the diagonal of the Fisher information at the start, for η
    p̃(w,g) r(1−r) + λ_PR u(1−u) with r = pθ(s|w,g), u = pθ(s,g|w), and for σ[s,g] the sum of its words';
    scaled so the largest η entry is 1 and floored at 1e-2 (a global σ sees every word, so its curvature is
    ~|W| times an η's: without D one step size for both makes η crawl)."""
    joint, _, _ = _log_joint(eta, sigma, data.m, data.log_pg)
    r = np.exp(joint - _lse(joint, -3))
    u = np.exp(joint - _lse(joint, (-3, -2)))
    c_eta = data.p_wg * r * (1 - r) + pr * data.in_lexicon * u * (1 - u)
    c_sigma = c_eta.sum(axis=-1)
    top = max(float(c_eta.max()), 1e-300)
    return np.maximum(np.concatenate([c_eta.ravel(), c_sigma.ravel()]) / top, _METRIC_FLOOR)


def fit_one(
    counts: np.ndarray,
    q: np.ndarray,
    l1: float,
    pr: float,
    max_iter: int = MAX_ITER,
    ftol: float = FTOL,
    gtol: float = GTOL,
) -> LvmFit:
    """Fit θ = (η, σ) at one (λ_L1, λ_PR) by FISTA (module docstring, steps 1-4).

    counts: (W, G) samples per word and gender; q: (W, S) lexicon q(s|w), rows sum to 1 or all NaN.
    Returns an `LvmFit` (η centred per (s, g)).
    """
    return fit_stack(counts, q, [(l1, pr)], max_iter, ftol, gtol)[0]


def fit_stack(
    counts: np.ndarray,
    q: np.ndarray,
    pairs: Sequence[tuple[float, float]],
    max_iter: int = MAX_ITER,
    ftol: float = FTOL,
    gtol: float = GTOL,
    kernel: str | None = None,
) -> tuple[LvmFit, ...]:
    """`fit_one` at every (λ_L1, λ_PR) of `pairs`: by the compiled loop a fit (`compiled`, kernel `numba`;
    default `compiled.choice()`), else side by side (`solver._fista_batch`), in stacks of at most
    STACK_ELEMENTS parameters. Either way each fit's numbers are those of its lone run, bit for bit; one
    call per step for a stack saves the per-call overhead that dominates a fit of a few hundred words."""
    for l1, pr in pairs:
        if l1 < 0 or pr < 0:
            raise ValueError(f"penalty weights must be non-negative, got l1={l1}, pr={pr}")
    data = _prepare(counts, q)
    eta0, sigma0 = _initial(data, np.asarray(counts, dtype=float))
    n_eta = eta0.size
    l1s = np.array([l1 for l1, _ in pairs], dtype=float)
    prs = np.array([pr for _, pr in pairs], dtype=float)

    def split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(η (k,S,G,W), σ (k,S,G)) from flat points (k, n)."""
        return x[:, :n_eta].reshape((len(x), *eta0.shape)), x[:, n_eta:].reshape((len(x), *sigma0.shape))

    def smooth(rows: np.ndarray, x: np.ndarray, grad: bool) -> tuple[np.ndarray, np.ndarray | None]:
        value, g_eta, g_sigma = _objective(*split(x), data, prs[rows], grad)
        value = np.asarray(value, dtype=float)
        if g_eta is None or g_sigma is None:
            return value, None
        return value, np.concatenate([g_eta.reshape(len(x), -1), g_sigma.reshape(len(x), -1)], axis=1)

    x0 = np.concatenate([eta0.ravel(), sigma0.ravel()])
    metrics = np.stack([_metric(eta0, sigma0, data, pr) for pr in prs])
    kernel = compiled.choice() if kernel is None else kernel
    runs: list[_Fista | None] = [None] * len(pairs)
    if kernel == "numba":
        for i in range(len(pairs)):
            runs[i] = compiled.fit(x0, l1s[i], metrics[i], eta0.shape, data, prs[i], max_iter, ftol, gtol)
    left = np.array([i for i, run in enumerate(runs) if run is None], dtype=int)  # the numpy solver's
    size = max(1, STACK_ELEMENTS // x0.size)
    for start in range(0, len(left), size):
        part = left[start : start + size]

        def part_smooth(rows: np.ndarray, x: np.ndarray, grad: bool, part=part):
            return smooth(part[rows], x, grad)

        stack = _fista_batch(part_smooth, np.tile(x0, (len(part), 1)), l1s[part], metrics[part], max_iter, ftol, gtol)
        for i, run in zip(part, stack, strict=True):
            runs[i] = run
    fitted = [run for run in runs if run is not None]
    assert len(fitted) == len(pairs)  # every fit ran, compiled or in numpy
    return tuple(_read_fit(run, split(run.x[None]), data, l1, pr) for run, (l1, pr) in zip(fitted, pairs, strict=True))


def _read_fit(run: _Fista, params: tuple[np.ndarray, np.ndarray], data: _Data, l1: float, pr: float) -> LvmFit:
    eta, sigma = params[0][0], params[1][0]
    joint, _, log_sigma = _log_joint(eta, sigma, data.m, data.log_pg)
    kl = _kl_per_word(data, _log_posterior(joint))
    lex = data.in_lexicon > 0
    p_w = np.exp(data.m)
    return LvmFit(
        l1=float(l1),
        pr=float(pr),
        eta=np.transpose(eta - eta.mean(axis=-1, keepdims=True), (2, 0, 1)),
        p_sigma=np.exp(log_sigma[:, :, 0]),
        objective=run.value,
        posterior_kl=float(np.sum(p_w[lex] * kl[lex]) / np.sum(p_w[lex])) if lex.any() else float("nan"),
        posterior_kl_words=float(kl[lex].mean()) if lex.any() else float("nan"),
        converged=run.converged,
        stop=run.stop,
        iterations=run.iterations,
        grad_map=run.grad_map,
    )


def _fit_job(job: tuple) -> tuple[LvmFit, ...]:
    return fit_stack(*job)


def _run_fits(
    problems: Sequence[tuple[np.ndarray, np.ndarray]],
    grid: Sequence[tuple[float, float]],
    workers: int,
    settings: tuple[int, float, float],
    kernel: str | None = None,
) -> list[tuple[LvmFit, ...]]:
    """`fit_one` at every grid point of every problem (counts, q), returned per problem in grid order.
    Each problem's grid goes in as few stacks as fill the workers (one stack a problem on 2 cores, the
    probe's two word sets; an eighth of the paper grid a stack on 16): a stack of fits that have stopped
    costs nothing, and the larger the stack the less a step's numpy calls weigh (the paper grid of the
    710-word set in one process: 40 s in stacks of 7 fits, 29 s in one). The points go heaviest first (the
    larger λ_PR, the more iterations), so that a stack holds fits that end together; all stacks go in one
    map, which the processes take as they come free (`workers.map_spawned`). Compiled fits (`compiled`) gain
    nothing from a stack: each problem's grid is dealt round-robin, heaviest first, into one share a worker,
    the largest word sets first, so the processes end together (a 329- and a 60-word set: 3.9 -> 2.4 s)."""
    grid = list(grid)
    workers = max(1, min(workers, len(grid) * len(problems)))
    heaviest = sorted(range(len(grid)), key=lambda i: (-grid[i][1], grid[i][0]))
    kernel = compiled.choice() if kernel is None else kernel  # chosen here: processes keep their start's environment
    compiled.ready()  # a compile under way here finishes first: the processes then load it from numba's cache
    if kernel == "numba":
        shares = [heaviest[k :: min(workers, len(grid))] for k in range(min(workers, len(grid)))]
        largest = sorted(range(len(problems)), key=lambda p: -len(problems[p][0]))
        jobs = [(p, share) for p in largest for share in shares]
    else:
        size = -(-len(grid) // -(-workers // len(problems)))  # each grid in as few stacks as fill the workers
        starts = range(0, len(grid), size)
        jobs = [(p, heaviest[start : start + size]) for start in starts for p in range(len(problems))]
    jobs_in = [(*problems[p], [grid[i] for i in job], *settings, kernel) for p, job in jobs]
    stacks = map_spawned(_fit_job, jobs_in, workers)
    fits: list[list] = [[None] * len(grid) for _ in problems]
    for (p, job), stack in zip(jobs, stacks, strict=True):
        for i, fit in zip(job, stack, strict=True):
            fits[p][i] = fit
    return [tuple(f) for f in fits]


def fit_lvm(
    counts: np.ndarray,
    q: np.ndarray,
    grid: Sequence[tuple[float, float]] = DEFAULT_GRID,
    words: Sequence[str] | np.ndarray | None = None,
    genders: Sequence[str] = GENDERS,
    sentiments: Sequence[str] = SENTIMENTS,
    max_iter: int = MAX_ITER,
    ftol: float = FTOL,
    gtol: float = GTOL,
    workers: int | None = None,
) -> LvmResult:
    """Fit every (λ_L1, λ_PR) of `grid` and average (module docstring).

    counts: (W, G) samples per word and gender, columns named by `genders` (the probe: female, male);
    q: (W, S) lexicon q(s|w) over `sentiments` (rows sum to 1, or all NaN: no posterior term);
    words: optional (W,) labels. Each fit starts from the same deterministic point (no warm start), so
    a fit does not depend on the order of the grid. workers: processes for the fits (default
    `fit_workers()`; 1 runs them here, one after another). Returns an `LvmResult`.
    """
    return fit_lvms([(counts, q, words)], grid, genders, sentiments, max_iter, ftol, gtol, workers)[0]


@timed("fit")
def fit_lvms(
    problems: Sequence[tuple],
    grid: Sequence[tuple[float, float]] = DEFAULT_GRID,
    genders=GENDERS,
    sentiments=SENTIMENTS,
    max_iter=MAX_ITER,
    ftol=FTOL,
    gtol=GTOL,
    workers=None,
) -> list[LvmResult]:
    """`fit_lvm` for several (counts, q, words), their fits sharing the processes; the same results as
    one `fit_lvm` each (every fit is the same computation wherever it runs)."""
    if not grid:
        raise ValueError("the grid of (l1, pr) is empty")
    problems = [(np.asarray(counts, dtype=float), q, words) for counts, q, words in problems]
    for n, (counts, q, words) in enumerate(problems):
        which = f"word set {n + 1} of {len(problems)}: " if len(problems) > 1 else ""
        if counts.ndim != 2 or counts.shape[1] != len(genders):
            raise ValueError(
                f"{which}counts must be (n_words, {len(genders)}) with columns {list(genders)}, got {counts.shape}"
            )
        if np.asarray(q).ndim != 2 or np.asarray(q).shape[1] != len(sentiments):
            raise ValueError(f"{which}q must be (n_words, {len(sentiments)}) over {list(sentiments)}")
        if words is not None and len(words) != len(counts):
            raise ValueError(f"{which}{len(words)} words for {len(counts)} rows of counts")
    workers = fit_workers() if workers is None else workers
    fitted = _run_fits([(counts, q) for counts, q, _ in problems], grid, workers, (max_iter, ftol, gtol))
    return [_average(fits, c, w, genders, sentiments) for (c, _, w), fits in zip(problems, fitted, strict=True)]


def _average(fits: tuple[LvmFit, ...], counts: np.ndarray, words, genders, sentiments) -> LvmResult:
    p_sigma = np.stack([f.p_sigma for f in fits])
    p_wg = counts / counts.sum()
    return LvmResult(
        words=None if words is None else np.asarray(words, dtype=object),
        genders=tuple(genders),
        sentiments=tuple(sentiments),
        log_prior=np.log(p_wg.sum(axis=1)),
        p_gender=p_wg.sum(axis=0),
        eta=np.mean([f.eta for f in fits], axis=0),
        p_sigma=p_sigma.mean(axis=0),
        p_sigma_min=p_sigma.min(axis=0),
        p_sigma_max=p_sigma.max(axis=0),
        posterior_kl=float(np.mean([f.posterior_kl for f in fits])),
        fits=fits,
    )


# ---------------------------------------------------------------- derived quantities
