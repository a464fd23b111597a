"""A generic solver for min_x f(x) + l1·‖x‖₁ with f smooth: proximal gradient, FISTA (Beck & Teboulle
2009), with backtracking, a fixed diagonal metric and momentum restart (`_fista`). It knows nothing of
the model: the politicians probe's latent-variable model (`model.fit_one`) passes its objective, its
starting point and its metric. Pure numpy. `_fista_batch` runs K such problems side by side in
lockstep (one call of the objective per step for all of them; each problem's numbers are its lone run's,
bit for bit); `_fista` is the batch of one.

One iteration, from the extrapolated point y (x: the last iterate; D: the caller's diagonal metric):
1. a gradient step and soft-thresholding (`_soft`, the proximal map of the L1 norm) in the metric D:
   x⁺ = soft(y − ∇f(y) / (L·D), l1 / (L·D)), i.e. FISTA in the rescaled coordinates D^½·x;
   backtracking: L doubles until f(x⁺) ≤ f(y) + ∇f(y)·(x⁺ − y) + ½ L ‖x⁺ − y‖²_D, and is divided by 1.25
   before each iteration so the step can grow back;
2. momentum restart (O'Donoghue & Candès 2015): if the objective went up, drop the momentum and step
   again from the last iterate (the objective never increases);
3. stop ('gtol') when the gradient mapping ‖L·D·(y − x⁺)‖_∞ ≤ gtol (the proximal analogue of a zero
   gradient), or ('ftol') when the relative objective change is ≤ ftol for _FTOL_PATIENCE (10)
   consecutive iterations: both count as converged; ('max_iter') not converged after max_iter
   iterations.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

_FTOL_PATIENCE = 10


def _soft(x: np.ndarray, threshold: np.ndarray | float) -> np.ndarray:
    """Soft-thresholding, the proximal map of threshold·|x| (per coordinate): x − clip(x, −t, t), i.e.
    x ∓ t beyond ±t and 0 within (threshold ≥ 0)."""
    return x - np.clip(x, -threshold, threshold)


@dataclass(frozen=True)
class _Fista:
    x: np.ndarray
    value: float
    converged: bool
    stop: str
    iterations: int
    grad_map: float


def _fista(
    smooth: Callable[[np.ndarray, bool], tuple[float, np.ndarray | None]],
    x0: np.ndarray,
    l1: float,
    metric: np.ndarray,
    max_iter: int,
    ftol: float,
    gtol: float,
) -> _Fista:
    """Minimise smooth(x) + l1·‖x‖₁ by FISTA with backtracking, momentum restart and a fixed diagonal
    metric D (FISTA on z = D^½ x: the step is −∇f / (L·D), the soft-threshold l1 / (L·D)).

    smooth(x, grad) → (value, gradient or None). Stops when the gradient mapping ‖L·D·(y − x⁺)‖_∞ ≤ gtol
    ('gtol'), when the relative objective change is ≤ ftol for _FTOL_PATIENCE iterations in a row
    ('ftol'), or after max_iter iterations ('max_iter', not converged). One problem of `_fista_batch`.
    """

    def stacked(rows: np.ndarray, xs: np.ndarray, grad: bool) -> tuple[np.ndarray, np.ndarray | None]:
        value, gradient = smooth(xs[0], grad)
        return np.array([value]), (None if gradient is None else gradient[None])

    return _fista_batch(stacked, x0[None], np.array([l1], dtype=float), metric[None], max_iter, ftol, gtol)[0]


def _fista_batch(
    smooth: Callable[[np.ndarray, np.ndarray, bool], tuple[np.ndarray, np.ndarray | None]],
    x0: np.ndarray,
    l1: np.ndarray,
    metric: np.ndarray,
    max_iter: int,
    ftol: float,
    gtol: float,
) -> list[_Fista]:
    """`_fista` for K independent problems side by side, in lockstep: x0 and metric (K, n), l1 (K,).

    smooth(rows, xs, grad) → (values (k,), gradients (k, n) or None) for the problems `rows` (indices
    into the K) at the points xs (k, n). An iteration makes one call for the problems still running and
    one per backtracking round for those still backtracking; a problem that stops leaves the stack. Each
    problem sees the operations of a lone run in the same order (per-row dot products, element-wise
    updates), so its numbers are a lone run's, bit for bit; stacking only saves the per-call overhead
    that dominates a small problem.
    """
    x = np.array(x0, dtype=float)
    count = len(x)
    rows = np.arange(count)  # the problems still running, in the order of the state's rows
    value = _total(x, smooth(rows, x, False)[0], l1)
    y, t, lip = x.copy(), np.ones(count), np.ones(count)
    flat, iterations = np.zeros(count, dtype=int), np.zeros(count, dtype=int)
    l1_a, metric_a = l1, metric
    done: dict[int, _Fista] = {}
    if max_iter <= 0:
        rows = rows[:0]
        done = {i: _Fista(x[i].copy(), float(value[i]), False, "max_iter", 0, np.inf) for i in range(count)}
    while rows.size:
        iterations += 1
        f_y, g_y = smooth(rows, y, True)
        assert g_y is not None
        lip = np.maximum(lip / 1.25, 1e-12)  # let the step grow back
        x_new, f_new, scale = _backtrack(smooth, rows, y, f_y, g_y, lip, l1_a, metric_a)
        grad_map = np.max(np.abs(scale * (x_new - y)), axis=1)
        new_value = _total(x_new, f_new, l1_a)
        restart = (new_value > value) & (t > 1.0)
        y[restart], t[restart] = x[restart], 1.0  # step again from the last iterate
        moved = ~restart
        change = (value[moved] - new_value[moved]) / np.maximum(1.0, np.abs(new_value[moved]))
        t_new = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t[moved] * t[moved]))
        if moved.all():  # the common step: every row moves, no copies
            np.subtract(x_new, x, out=y)
            y *= ((t - 1.0) / t_new)[:, None]
            y += x_new
            x, value, t = x_new, new_value, t_new
        else:
            y[moved] = x_new[moved] + ((t[moved] - 1.0) / t_new)[:, None] * (x_new[moved] - x[moved])
            x[moved], value[moved], t[moved] = x_new[moved], new_value[moved], t_new
        flat[moved] = np.where(np.abs(change) <= ftol, flat[moved] + 1, 0)
        stop = np.zeros(len(rows), dtype=int)  # an index of _STOPS
        stop[moved & (grad_map <= gtol)] = _STOPS.index("gtol")
        stop[moved & (grad_map > gtol) & (flat >= _FTOL_PATIENCE)] = _STOPS.index("ftol")
        ends = (stop != 0) | (iterations >= max_iter)
        if ends.any():
            for j in np.flatnonzero(ends):
                done[int(rows[j])] = _Fista(
                    x[j].copy(), float(value[j]), stop[j] != 0, _STOPS[stop[j]], int(iterations[j]), float(grad_map[j])
                )
            keep = ~ends
            rows, x, y, t, lip, value = rows[keep], x[keep], y[keep], t[keep], lip[keep], value[keep]
            flat, iterations, l1_a, metric_a = flat[keep], iterations[keep], l1_a[keep], metric_a[keep]
    return [done[i] for i in range(count)]


_STOPS = ("max_iter", "gtol", "ftol")


def _backtrack(smooth, rows, y, f_y, g_y, lip, l1, metric) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The accepted proximal step of every running problem (`rows`, their state's rows aligned with y, f_y,
    g_y, lip, l1 and metric): (x⁺, f(x⁺), L·D) per row; doubles a problem's L (`lip`, updated in place)
    until the quadratic upper bound in the metric holds at its x⁺. The first round takes every row (no
    copies); later rounds only the rows still backtracking."""
    x_new, f_new, scale = None, None, None
    pending = np.arange(len(rows))
    while pending.size:
        every = x_new is None
        p = slice(None) if every else pending
        y_p, g_p, f_p = (y, g_y, f_y) if every else (y[pending], g_y[pending], f_y[pending])
        trial_scale = lip[p][:, None] * metric[p]
        trial = _soft(y_p - g_p / trial_scale, l1[p][:, None] / trial_scale)
        trial_step = trial - y_p
        f_trial = smooth(rows[p], trial, False)[0]
        bound = (
            f_p + _row_dot(g_p, trial_step) + 0.5 * _row_dot(trial_scale * trial_step, trial_step) + 1e-15 * np.abs(f_p)
        )
        holds = f_trial <= bound
        if every:
            x_new, f_new, scale = trial, f_trial, trial_scale  # rows that fail are overwritten below
        else:
            assert x_new is not None and f_new is not None and scale is not None  # set by the first round
            done = pending[holds]
            x_new[done], f_new[done], scale[done] = trial[holds], f_trial[holds], trial_scale[holds]
        lip[pending[~holds]] *= 2.0
        pending = pending[~holds]
    assert x_new is not None and f_new is not None and scale is not None  # len(rows) > 0: one round ran
    return x_new, f_new, scale


def _total(x: np.ndarray, smooth_values: np.ndarray, l1: np.ndarray) -> np.ndarray:
    """The objective per row: smooth + l1·‖x‖₁."""
    return smooth_values + l1 * np.abs(x).sum(axis=1)


def _row_dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a[i] @ b[i] per row (…, n) → (…): numpy's pairwise sum along each row, the same numbers for a row
    alone or in a stack."""
    return (a * b).sum(axis=-1)
