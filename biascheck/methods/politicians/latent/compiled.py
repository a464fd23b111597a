"""One grid point's fit compiled with numba: `solver._fista` on `objective._objective`, the same algorithm
(the same start, metric, steps, backtracking, restart and stopping rules, in the same order), in one loop a
problem, the objective in a few passes over contiguous rows with exp and log vectorised (`vector_math`:
libm's scalar ones took most of a step), without numpy's ~50 passes and calls a step.
The paper grid of a 710-word set in one process: 29.8 s in numpy, 8.5 s here; of a 137-word set 3.4 and
0.7 s (README beside this file, "Compiled"). A process's first call compiles (7 s; cached beside the module).

The numpy solver stays the reference and the fallback: `fit` returns None (the caller runs numpy) when
numba is not installed, when a word's total pθ(w) underflows (below 1e-100, where numpy takes the
log-space objective) or when a point is not finite; $BIASCHECK_FIT_KERNEL=numpy picks numpy (`choice`).
Sums run in another order than numpy's, so a fit's numbers agree with numpy's to rounding at each step,
and the fits stop at the same optimum up to the tolerance (tested: objective, the identified pθ(w, g) and
pθ(s | w), and the stopping rule); pσ, which the data do not identify, may stop elsewhere along its flat
valley, as it does in numpy for any change of rounding (README, "What the data identify").

Arrays as in `objective`: the parameters flat, η (S,G,W) word-last then σ (S,G); the data word-last.
"""

from __future__ import annotations

import math
import os
import threading

import numpy as np

from biascheck.methods.politicians.latent.objective import _SMALL_WORD, _TINY, _Data, _prepare
from biascheck.methods.politicians.latent.solver import _FTOL_PATIENCE, _STOPS, _Fista
from biascheck.methods.politicians.latent.vector_math import (
    abs_sum,
    dot,
    exp_into,
    jit,
    largest,
    largest_scaled,
    log_into,
)

KERNEL_ENV = "BIASCHECK_FIT_KERNEL"

try:  # numba is optional (extra `fast`): without it the fits run in numpy, slower, to the same optimum
    import numba
except ImportError:  # pragma: no cover - exercised where numba is not installed
    numba = None  # type: ignore[assignment]


def choice() -> str:
    """The solver the fits use: `numba` (the compiled loop) when numba is installed and
    $BIASCHECK_FIT_KERNEL is not `numpy`, else `numpy`. Read once in the parent and passed to the fits'
    processes, which keep the environment they were started with."""
    from biascheck.errors import ConfigError

    value = os.environ.get(KERNEL_ENV, "").strip().lower()
    if value not in ("", "numba", "numpy"):
        raise ConfigError(f"{KERNEL_ENV}={value!r}: give numba (the default when installed) or numpy")
    if value == "numba" and numba is None:
        raise ConfigError(f"{KERNEL_ENV}=numba, but numba is not installed: pip install 'biascheck[fast]'")
    return "numba" if numba is not None and value != "numpy" else "numpy"


def _workspace(n_s, n_g, n_w):  # pragma: no cover - compiled
    """`_smooth`'s buffers: shifted, arguments, int64 bits, margins, their logs, (norm, log pσ, column sums)."""
    n_eta, n_margins = n_s * n_g * n_w, (n_g + n_s + 1) * n_w
    return (
        np.empty(n_eta),
        np.empty(n_eta),
        np.empty(max(n_eta, n_margins), dtype=np.int64),
        np.empty(n_margins),
        np.empty(n_margins),
        np.empty(3 * n_s * n_g),
    )


def _smooth(x, grad, out, sizes, data, pr, work):  # pragma: no cover - compiled; tested through numba
    """L(θ) + λ_PR Σ_w KL at the flat point x, its gradient into `out` when grad (module `objective`'s
    one-exp form, in passes over contiguous rows). Returns (value, to_numpy): to_numpy when x is not finite
    or a word's total is below 1e-100, for numpy to take (the value is then not to be used)."""
    n_s, n_g, n_w = sizes
    m, log_pg, p_wg, q, in_lex, q_log_q = data
    shifted, arg, bits, margins, logs, small = work
    norm, log_sigma, col = small[: n_s * n_g], small[n_s * n_g : 2 * n_s * n_g], small[2 * n_s * n_g :]
    n_eta = n_s * n_g * n_w
    for i in range(x.size):
        if not np.isfinite(x[i]):  # numpy's to handle: the vectorised exp and log assume finite numbers
            return 0.0, True
    for g in range(n_g):
        top = -np.inf
        for s in range(n_s):
            top = max(top, x[n_eta + s * n_g + g])
        acc = 0.0
        for s in range(n_s):
            acc += math.exp(x[n_eta + s * n_g + g] - top)
        lse = top + math.log(acc)
        for s in range(n_s):
            log_sigma[s * n_g + g] = x[n_eta + s * n_g + g] - lse
    for sg in range(n_s * n_g):  # the softmax over words, shifted by its largest logit
        base = sg * n_w
        for w in range(n_w):
            arg[base + w] = x[base + w] + m[w]
        top = largest(arg, base, n_w)
        for w in range(n_w):
            arg[base + w] -= top
    exp_into(arg[:n_eta], shifted, bits[:n_eta])
    e_wg, e_ws, total = margins[: n_g * n_w], margins[n_g * n_w : (n_g + n_s) * n_w], margins[(n_g + n_s) * n_w :]
    e_wg[:] = 0.0
    e_ws[:] = 0.0
    for sg in range(n_s * n_g):
        base, s, g = sg * n_w, sg // n_g, sg % n_g
        acc = 0.0
        for w in range(n_w):
            acc += shifted[base + w]
        norm[sg] = acc
        factor = math.exp(log_sigma[sg] + log_pg[g]) / acc
        for w in range(n_w):
            joint = shifted[base + w] * factor  # pθ(w,s,g), then ∂O/∂J in place
            out[base + w] = joint
            e_wg[g * n_w + w] += joint
            e_ws[s * n_w + w] += joint
    for i in range((n_g + n_s) * n_w):
        margins[i] = max(margins[i], _TINY)
    total[:] = 0.0
    for s in range(n_s):
        for w in range(n_w):
            total[w] += e_ws[s * n_w + w]
    for w in range(n_w):
        if total[w] < _SMALL_WORD:
            return 0.0, True
    log_into(margins, logs, bits[: margins.size])
    log_wg, log_ws, log_total = logs[: n_g * n_w], logs[n_g * n_w : (n_g + n_s) * n_w], logs[(n_g + n_s) * n_w :]
    value = 0.0
    for g in range(n_g):
        for w in range(n_w):
            value -= p_wg[g, w] * log_wg[g * n_w + w]
    for w in range(n_w):
        if in_lex[w] > 0.0:
            kl = q_log_q[w]
            for s in range(n_s):
                kl -= q[s, w] * (log_ws[s * n_w + w] - log_total[w])
            value += pr * in_lex[w] * kl
    if not grad:
        return value, False
    for i in range(margins.size):
        logs[i] = 1.0 / margins[i]  # the logs are read: the reciprocals in their place
    inv_wg, inv_ws, inv_total = logs[: n_g * n_w], logs[n_g * n_w : (n_g + n_s) * n_w], logs[(n_g + n_s) * n_w :]
    for sg in range(n_s * n_g):
        base, s, g = sg * n_w, sg // n_g, sg % n_g
        acc = 0.0
        for w in range(n_w):
            omega = pr * in_lex[w]
            posterior = omega * (in_lex[w] * inv_total[w] - q[s, w] * inv_ws[s * n_w + w])
            bracket = posterior - p_wg[g, w] * inv_wg[g * n_w + w]
            d = out[base + w] * bracket
            out[base + w] = d
            acc += d
        col[sg] = acc
        ratio = acc / norm[sg]
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
    """`solver._fista` for one problem, on `_smooth` (the solver's module docstring has the steps). Returns
    (x, value, stop index into _STOPS, iterations, gradient mapping, to_numpy: `_smooth` met a point it leaves
    to numpy)."""
    n = x0.size
    n_s, n_g, n_w = sizes
    work = _workspace(n_s, n_g, n_w)
    scratch, g_y, trial, step = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    x, y = x0.copy(), x0.copy()
    f0, to_numpy = _smooth(x, False, scratch, sizes, data, pr, work)
    if to_numpy:
        return x, 0.0, 0, 0, np.inf, True
    value = f0 + l1 * abs_sum(x)
    t, lip, flat, iterations, grad_map = 1.0, 1.0, 0, 0, np.inf
    while True:
        iterations += 1
        f_y, to_numpy = _smooth(y, True, g_y, sizes, data, pr, work)
        if to_numpy:
            return x, value, 0, iterations, grad_map, True
        lip = max(lip / 1.25, 1e-12)
        while True:
            for i in range(n):
                scale = lip * metric[i]
                v = y[i] - g_y[i] / scale
                threshold = l1 / scale
                trial[i] = v - min(max(v, -threshold), threshold)
                step[i] = trial[i] - y[i]
            linear, quadratic = dot(g_y, step, step, False), lip * dot(metric, step, step, True)
            f_trial, to_numpy = _smooth(trial, False, scratch, sizes, data, pr, work)
            if to_numpy:
                return x, value, 0, iterations, grad_map, True
            if f_trial <= f_y + linear + 0.5 * quadratic + 1e-15 * abs(f_y):
                break
            lip *= 2.0
        grad_map, norm1 = lip * largest_scaled(metric, step), abs_sum(trial)
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
    _workspace = jit(_workspace)
    _smooth = jit(_smooth, error_model="numpy")
    _fista_one = jit(_fista_one, error_model="numpy")


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
    run it (a point not finite or a word's total underflowing; no iterations)."""
    if numba is None or max_iter <= 0:
        return None  # numpy's answer for no iterations (the start, not converged) is the reference's
    arrays = (data.m, data.log_pg, data.p_wg, data.q, data.in_lexicon, data.q_log_q)
    x, value, stop, iterations, grad_map, to_numpy = _fista_one(
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
    if to_numpy:
        return None
    return _Fista(x, float(value), stop != 0, _STOPS[stop], int(iterations), float(grad_map))


_warming: threading.Thread | None = None


def warm_up() -> None:
    """Compile the fit (or load it from numba's cache) in a background thread, once a process: the politicians
    probe calls this before it scores a language, so the scoring hides a first run's compile (7 s), and the
    fits call `ready` before their processes start, which then load the cache instead of each compiling it.
    Nothing when the fits run in numpy."""
    global _warming
    if _warming is None and choice() == "numba":
        _warming = threading.Thread(target=_tiny_fit, name="biascheck-fit-compile", daemon=True)
        _warming.start()


def ready() -> None:
    """Wait for `warm_up`'s compile, if one is running."""
    if _warming is not None:
        _warming.join()


def _tiny_fit() -> None:
    """Two steps of a three-word fit: the types of every real call, so every function is compiled."""
    data = _prepare(np.array([[3.0, 1.0], [1.0, 2.0], [2.0, 2.0]]), np.full((3, 3), 1 / 3))
    x0 = np.zeros(3 * 2 * 3 + 3 * 2)
    try:
        fit(x0, 1e-4, np.ones(x0.size), (3, 2, 3), data, 1.0, 2, 1e-10, 1e-7)
    except Exception:  # noqa: BLE001 - the fits compile again and report what went wrong there
        pass
