"""One grid point's fit compiled with numba: `solver._fista` on `objective._objective`, the same algorithm
(the same start, metric, steps, backtracking, restart and stopping rules, in the same order), fused into
one loop a problem, so a step reads the parameters a few times instead of ~50 numpy passes and calls.
The paper grid of a 710-word set in one process: 30.3 s in numpy, 17.3 s here; of a 137-word set 4.5 and
1.2 s (README beside this file, "Compiled").

The numpy solver stays the reference and the fallback: `fit` returns None (the caller runs numpy) when
numba is not installed, when $BIASCHECK_FIT_KERNEL is `numpy`, or when a word's total pθ(w) underflows
(below 1e-100, where numpy takes the log-space objective). Sums run in order, not pairwise as numpy's,
so a fit's numbers agree with numpy's to rounding at each step, and the fits stop at the same optimum
up to the tolerance (tested: objective, the identified pθ(w, g) and pθ(s | w), and the stopping rule);
pσ, which the data do not identify, may stop elsewhere along its flat valley, as it does in numpy for any
change of rounding (README, "What the data identify").

Arrays as in `objective`: the parameters flat, η (S,G,W) word-last then σ (S,G); the data word-last.
"""

from __future__ import annotations

import math
import os

import numpy as np

from biascheck.methods.politicians.latent.objective import _SMALL_WORD, _TINY, _Data
from biascheck.methods.politicians.latent.solver import _FTOL_PATIENCE, _STOPS, _Fista

KERNEL_ENV = "BIASCHECK_FIT_KERNEL"

try:  # numba is optional (extra `fast`): without it the fits run in numpy, slower, to the same optimum
    import numba
except ImportError:  # pragma: no cover - exercised where numba is not installed
    numba = None  # type: ignore[assignment]


def choice() -> str:
    """The solver the fits use: `numba` (the compiled loop) when numba is installed and
    $BIASCHECK_FIT_KERNEL is not `numpy`, else `numpy`. Read once in the parent and passed to the fits'
    processes, which keep the environment they were started with."""
    value = os.environ.get(KERNEL_ENV, "").strip().lower()
    if value not in ("", "numba", "numpy"):
        from biascheck.errors import ConfigError

        raise ConfigError(f"{KERNEL_ENV}={value!r}: give numba (the default when installed) or numpy")
    if value == "numba" and numba is None:
        from biascheck.errors import ConfigError

        raise ConfigError(f"{KERNEL_ENV}=numba, but numba is not installed: pip install 'biascheck[fast]'")
    return "numba" if numba is not None and value != "numpy" else "numpy"


def _smooth(x, grad, out, sizes, data, pr, work):  # pragma: no cover - compiled; tested through numba
    """L(θ) + λ_PR Σ_w KL at the flat point x, its gradient into `out` when grad (module `objective`'s
    one-exp form, entry by entry). Returns (value, underflow): underflow when a word's total is below
    1e-100 (the value is then not to be used)."""
    n_s, n_g, n_w = sizes
    m, log_pg, p_wg, q, in_lex, q_log_q = data
    shifted, norm, log_sigma, col = work
    n_eta = n_s * n_g * n_w
    for g in range(n_g):
        top = -np.inf
        for s in range(n_s):
            top = max(top, x[n_eta + s * n_g + g])
        if not np.isfinite(top):
            top = 0.0
        acc = 0.0
        for s in range(n_s):
            acc += math.exp(x[n_eta + s * n_g + g] - top)
        lse = top + math.log(acc)
        for s in range(n_s):
            log_sigma[s * n_g + g] = x[n_eta + s * n_g + g] - lse
    for sg in range(n_s * n_g):
        base = sg * n_w
        top = -np.inf
        for w in range(n_w):
            top = max(top, x[base + w] + m[w])
        acc = 0.0
        for w in range(n_w):
            v = math.exp(x[base + w] + m[w] - top)
            shifted[base + w] = v
            acc += v
        norm[sg] = acc
        factor = math.exp(log_sigma[sg] + log_pg[sg % n_g]) / acc
        for w in range(n_w):
            out[base + w] = shifted[base + w] * factor  # the joint pθ(w,s,g), then ∂O/∂J in place
        col[sg] = 0.0
    e_wg = np.empty(n_g)
    e_ws = np.empty(n_s)
    value = 0.0
    for w in range(n_w):
        for g in range(n_g):
            acc = 0.0
            for s in range(n_s):
                acc += out[(s * n_g + g) * n_w + w]
            e_wg[g] = max(acc, _TINY)
            value -= p_wg[g, w] * math.log(e_wg[g])
        total = 0.0
        for s in range(n_s):
            acc = 0.0
            for g in range(n_g):
                acc += out[(s * n_g + g) * n_w + w]
            e_ws[s] = max(acc, _TINY)
            total += e_ws[s]
        if total < _SMALL_WORD:
            return value, True
        omega = pr * in_lex[w]
        if in_lex[w] > 0.0:
            log_total = math.log(total)
            kl = q_log_q[w]
            for s in range(n_s):
                kl -= q[s, w] * (math.log(e_ws[s]) - log_total)
            value += omega * kl
        if grad:
            for s in range(n_s):
                for g in range(n_g):
                    k = (s * n_g + g) * n_w + w
                    d = out[k] * (omega * (in_lex[w] / total - q[s, w] / e_ws[s]) - p_wg[g, w] / e_wg[g])
                    out[k] = d
                    col[s * n_g + g] += d
    if grad:
        for sg in range(n_s * n_g):
            base = sg * n_w
            ratio = col[sg] / norm[sg]
            for w in range(n_w):
                out[base + w] -= shifted[base + w] * ratio
        for g in range(n_g):
            acc = 0.0
            for s in range(n_s):
                acc += col[s * n_g + g]
            for s in range(n_s):
                out[n_eta + s * n_g + g] = col[s * n_g + g] - math.exp(log_sigma[s * n_g + g]) * acc
    return value, False


def _fista_one(x0, l1, metric, sizes, data, pr, max_iter, ftol, gtol, patience):  # pragma: no cover - compiled
    """`solver._fista` for one problem with `_smooth` inlined (its docstring has the steps). Returns
    (x, value, stop index into _STOPS, iterations, gradient mapping, underflow)."""
    n = x0.size
    n_s, n_g, n_w = sizes
    work = (np.empty(n_s * n_g * n_w), np.empty(n_s * n_g), np.empty(n_s * n_g), np.empty(n_s * n_g))
    scratch, g_y, trial = np.empty(n), np.empty(n), np.empty(n)
    x, y = x0.copy(), x0.copy()
    f0, under = _smooth(x, False, scratch, sizes, data, pr, work)
    if under:
        return x, 0.0, 0, 0, np.inf, True
    norm1 = 0.0
    for i in range(n):
        norm1 += abs(x[i])
    value = f0 + l1 * norm1
    t, lip, flat, iterations, grad_map = 1.0, 1.0, 0, 0, np.inf
    while True:
        iterations += 1
        f_y, under = _smooth(y, True, g_y, sizes, data, pr, work)
        if under:
            return x, value, 0, iterations, grad_map, True
        lip = max(lip / 1.25, 1e-12)
        while True:
            linear, quadratic = 0.0, 0.0
            for i in range(n):
                scale = lip * metric[i]
                v = y[i] - g_y[i] / scale
                threshold = l1 / scale
                trial[i] = v - min(max(v, -threshold), threshold)
                step = trial[i] - y[i]
                linear += g_y[i] * step
                quadratic += scale * step * step
            f_trial, under = _smooth(trial, False, scratch, sizes, data, pr, work)
            if under:
                return x, value, 0, iterations, grad_map, True
            if f_trial <= f_y + linear + 0.5 * quadratic + 1e-15 * abs(f_y):
                break
            lip *= 2.0
        grad_map, norm1 = 0.0, 0.0
        for i in range(n):
            grad_map = max(grad_map, abs(lip * metric[i] * (trial[i] - y[i])))
            norm1 += abs(trial[i])
        new_value = f_trial + l1 * norm1
        stop = 0
        if new_value > value and t > 1.0:  # restart: step again from the last iterate
            for i in range(n):
                y[i] = x[i]
            t = 1.0
        else:
            change = (value - new_value) / max(1.0, abs(new_value))
            t_new = 0.5 * (1.0 + math.sqrt(1.0 + 4.0 * t * t))
            coef = (t - 1.0) / t_new
            for i in range(n):
                y[i] = (trial[i] - x[i]) * coef + trial[i]
                x[i] = trial[i]
            value, t = new_value, t_new
            flat = flat + 1 if abs(change) <= ftol else 0
            if grad_map <= gtol:
                stop = 1
            elif flat >= patience:
                stop = 2
        if stop != 0 or iterations >= max_iter:
            return x, value, stop, iterations, grad_map, False


if numba is not None:
    _smooth = numba.njit(cache=True)(_smooth)
    _fista_one = numba.njit(cache=True)(_fista_one)


def fit(
    x0: np.ndarray,
    l1: float,
    metric: np.ndarray,
    shape: tuple[int, int, int],
    data: _Data,
    pr: float,
    max_iter: int,
    ftol: float,
    gtol: float,
) -> _Fista | None:
    """One problem's `_Fista` by the compiled loop (numba installed), or None where the numpy solver is to
    run it (a word's total underflowing; no iterations)."""
    if numba is None or max_iter <= 0:
        return None  # numpy's answer for no iterations (the start, not converged) is the reference's
    arrays = (data.m, data.log_pg, data.p_wg, data.q, data.in_lexicon, data.q_log_q)
    x, value, stop, iterations, grad_map, under = _fista_one(
        np.ascontiguousarray(x0, dtype=float),
        float(l1),
        np.ascontiguousarray(metric, dtype=float),
        tuple(int(k) for k in shape),
        tuple(np.ascontiguousarray(a, dtype=float) for a in arrays),
        float(pr),
        int(max_iter),
        float(ftol),
        float(gtol),
        _FTOL_PATIENCE,
    )
    if under:
        return None
    return _Fista(x, float(value), stop != 0, _STOPS[stop], int(iterations), float(grad_map))
