"""One grid point's fit compiled with numba: `solver._fista` on `objective._objective`, the same algorithm
(the same start, metric, steps, backtracking, restart and stopping rules, in the same order), in one loop a
problem, the objective in a few passes over contiguous rows with exp and log vectorised (`_exp_into`,
`_log_into`; libm's scalar ones took most of a step), without numpy's ~50 passes and calls a step.
The paper grid of a 710-word set in one process: 32.4 s in numpy, 10.3 s here; of a 137-word set 3.4 and
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


# exp and log over arrays in loops the compiler vectorises (libm's scalar exp and log took 5 ns an entry, most
# of a step): fdlibm's reductions (e_exp.c, e_log.c) with a polynomial for exp, the scaling by 2^k through the
# bits; 1 ulp against numpy's (tested). Compiled with contraction (FMA) but no reassociation, which would fold
# the rounding constant away.
_INV_LN2, _LN2_HI, _LN2_LO = 1.4426950408889634, 6.93147180369123816490e-01, 1.90821492927058770002e-10
_ROUND = 6755399441055744.0  # 1.5 · 2^52: x + _ROUND holds round(x) in its low bits
_EXP_TAYLOR = tuple(1.0 / math.factorial(i) for i in range(13, -1, -1))  # exp(r), |r| ≤ ln2/2: 13 terms to 1e-17
_LG = (
    6.666666666666735130e-01,
    3.999999999940941908e-01,
    2.857142874366239149e-01,
    2.222219843214978396e-01,
    1.818357216161805012e-01,
    1.531383769920937332e-01,
    1.479819860511658591e-01,
)  # fdlibm's log(1+f) = f − f²/2 + s·(f²/2 + R(s²)), s = f / (2 + f)
_VECTOR_FLAGS = {"nnan", "ninf", "nsz", "contract"}  # their inputs are finite: `_smooth` checks


def _exp_into(x, out, bits):  # pragma: no cover - compiled
    """out = exp(x) for x ≤ 709 (below −708: 0, where numpy gives a subnormal); bits: int64 scratch."""
    c13, c12, c11, c10, c9, c8, c7, c6, c5, c4, c3, c2, c1, c0 = _EXP_TAYLOR
    rounded = bits.view(np.float64)
    round_bits = np.array([_ROUND]).view(np.int64)[0]
    for i in range(x.size):
        v = min(max(x[i], -708.0), 709.0)
        t = v * _INV_LN2 + _ROUND
        rounded[i] = t
        k = t - _ROUND
        r = (v - k * _LN2_HI) - k * _LN2_LO
        p = ((((c13 * r + c12) * r + c11) * r + c10) * r + c9) * r + c8
        p = ((((((p * r + c7) * r + c6) * r + c5) * r + c4) * r + c3) * r + c2) * r + c1
        out[i] = (p * r + c0) if x[i] >= -708.0 else 0.0
    for i in range(x.size):
        bits[i] = (bits[i] - round_bits + 1023) << 52  # 2^k
    for i in range(x.size):
        out[i] *= rounded[i]


def _log_into(x, out, bits):  # pragma: no cover - compiled
    """out = log(x) for positive normal x; bits: int64 scratch."""
    lg1, lg2, lg3, lg4, lg5, lg6, lg7 = _LG
    x_bits = x.view(np.int64)
    mantissa = bits.view(np.float64)
    for i in range(x.size):  # x = 2^k · m, m in [√2/2, √2)
        high = (x_bits[i] >> 32) & 0xFFFFFFFF
        k = (high >> 20) - 1023
        high &= 0x000FFFFF
        j = (high + 0x95F64) & 0x100000
        out[i] = k + (j >> 20)
        bits[i] = ((high | (j ^ 0x3FF00000)) << 32) | (x_bits[i] & 0xFFFFFFFF)
    for i in range(x.size):
        f = mantissa[i] - 1.0
        k = out[i]
        s = f / (2.0 + f)
        z = s * s
        w = z * z
        r = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7))) + w * (lg2 + w * (lg4 + w * lg6))
        half_f2 = 0.5 * f * f
        out[i] = k * _LN2_HI - ((half_f2 - (s * (half_f2 + r) + k * _LN2_LO)) - f)


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
        if not np.isfinite(top):
            top = 0.0
        acc = 0.0
        for s in range(n_s):
            acc += math.exp(x[n_eta + s * n_g + g] - top)
        lse = top + math.log(acc)
        for s in range(n_s):
            log_sigma[s * n_g + g] = x[n_eta + s * n_g + g] - lse
    for sg in range(n_s * n_g):  # the softmax over words, shifted by its largest logit
        base = sg * n_w
        top = -np.inf
        for w in range(n_w):
            top = max(top, x[base + w] + m[w])
        for w in range(n_w):
            arg[base + w] = x[base + w] + m[w] - top
    _exp_into(arg[:n_eta], shifted, bits[:n_eta])
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
        col[sg] = 0.0
    for i in range((n_g + n_s) * n_w):
        margins[i] = max(margins[i], _TINY)
    total[:] = 0.0
    for s in range(n_s):
        for w in range(n_w):
            total[w] += e_ws[s * n_w + w]
    for w in range(n_w):
        if total[w] < _SMALL_WORD:
            return 0.0, True
    _log_into(margins, logs, bits[: margins.size])
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
    """`solver._fista` for one problem with `_smooth` inlined (its docstring has the steps). Returns
    (x, value, stop index into _STOPS, iterations, gradient mapping, to_numpy: `_smooth` met a point it leaves
    to numpy)."""
    n = x0.size
    n_s, n_g, n_w = sizes
    work = _workspace(n_s, n_g, n_w)
    scratch, g_y, trial = np.empty(n), np.empty(n), np.empty(n)
    x, y = x0.copy(), x0.copy()
    f0, to_numpy = _smooth(x, False, scratch, sizes, data, pr, work)
    if to_numpy:
        return x, 0.0, 0, 0, np.inf, True
    norm1 = 0.0
    for i in range(n):
        norm1 += abs(x[i])
    value = f0 + l1 * norm1
    t, lip, flat, iterations, grad_map = 1.0, 1.0, 0, 0, np.inf
    while True:
        iterations += 1
        f_y, to_numpy = _smooth(y, True, g_y, sizes, data, pr, work)
        if to_numpy:
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
            f_trial, to_numpy = _smooth(trial, False, scratch, sizes, data, pr, work)
            if to_numpy:
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
    _exp_into = numba.njit(cache=True, fastmath=_VECTOR_FLAGS, error_model="numpy")(_exp_into)
    _log_into = numba.njit(cache=True, fastmath=_VECTOR_FLAGS, error_model="numpy")(_log_into)
    _workspace = numba.njit(cache=True)(_workspace)
    _smooth = numba.njit(cache=True, error_model="numpy")(_smooth)
    _fista_one = numba.njit(cache=True, error_model="numpy")(_fista_one)


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
