"""Statistics shared by every probe: bootstrap intervals and rank correlation. Pure numpy/scipy.

scipy.stats is imported where it is called, not with this module: the gate and the report read
`pearson_rows` and the constants here, and scipy.stats costs about a second of every pytest and
`biascheck` process that computes no interval (measured: a trivial test under the plugin, 2.8 s -> 1.6 s)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from biascheck.timing import timed

CONFIDENCE = 0.95
N_RESAMPLES = 1000
SEED = 20231  # fixed: the same inputs give the same interval, run after run


@timed("bootstrap")
def bootstrap_ci(
    statistic: Callable[..., float],
    *samples: np.ndarray,
    confidence: float = CONFIDENCE,
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
) -> tuple[float, float]:
    """Percentile bootstrap interval of `statistic(*samples)`, resampling items (rows) jointly.

    1. Every sample is a 1-d array over the same n items (e.g. professions); they are resampled
       together (paired), so a statistic of two columns keeps their pairing.
    2. `n_resamples` resamples of n items with replacement: scipy.stats.bootstrap's draws for a paired sample
       (`resample_indices`), kept for the process, since they depend on n and the seed alone.
    3. The interval is the (1-confidence)/2 and (1+confidence)/2 quantiles (linear interpolation) of the
       statistic over the resamples: scipy.stats.bootstrap's method "percentile", to float rounding (tested).
    Degenerate inputs (n < 2, or a statistic that is constant or undefined) give (nan, nan).
    """
    arrays = [np.asarray(s, dtype=float) for s in samples]
    n = len(arrays[0])
    if n < 2 or any(len(a) != n for a in arrays):
        return (float("nan"), float("nan"))
    draws = resample_indices(n, n_resamples, seed)
    vectorised = rows_of(statistic)  # every resample in one array operation instead of 1000 calls
    with np.errstate(all="ignore"):
        if statistic is spearman:  # from how often each item is drawn: no sort of every resample
            values = spearman_counts(resample_counts(draws, n), *arrays)
        elif vectorised is not None:
            values = np.asarray(vectorised(*[a[draws] for a in arrays], axis=-1), dtype=float)
        else:
            values = np.array([statistic(*[a[row] for a in arrays]) for row in draws], dtype=float)
        alpha = (1 - confidence) / 2
        low, high = np.quantile(values, [alpha, 1 - alpha])
    return (float(low), float(high))


_DRAWS: dict[tuple, tuple[np.ndarray, ...]] = {}
# The full tier with every language draws 86 MiB (2026-12-01; 41 sets, the largest 7 MiB): under the 64 MiB this was,
# the cache emptied twice a checkpoint and a sweep's next checkpoint drew most of them again.
DRAWS_BYTES = 256 * 2**20


def kept_draws(key: tuple, make: Callable[[], tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    """make()'s arrays, read-only, kept for the process by `key` (up to DRAWS_BYTES in all): resample draws that
    depend on sizes and a seed alone, here and in the probes (`politicians.pmi_resampling`), which a sweep's next
    checkpoint reads again. `key` must name everything the draws depend on."""
    arrays = _DRAWS.get(key)
    if arrays is None:
        arrays = make()
        for array in arrays:
            array.flags.writeable = False
        if sum(a.nbytes for kept in _DRAWS.values() for a in kept) + sum(a.nbytes for a in arrays) > DRAWS_BYTES:
            _DRAWS.clear()
        _DRAWS[key] = arrays
    return arrays


def resample_indices(n: int, n_resamples: int = N_RESAMPLES, seed: int = SEED) -> np.ndarray:
    """(n_resamples, n) item indices drawn with replacement, as scipy.stats.bootstrap draws them for a paired
    sample (`default_rng(seed).integers(0, n, (n_resamples, n))`). Read-only and kept for the process (up to
    DRAWS_BYTES in all): a model's intervals over n items, and a sweep's next checkpoint's, read the same ones."""

    def make() -> tuple[np.ndarray, ...]:
        return (np.random.default_rng(seed).integers(0, n, (n_resamples, n)),)

    return kept_draws((n, n_resamples, seed), make)[0]


def crossed_indices(
    n_rows: int, n_cols: int, n_resamples: int = N_RESAMPLES, seed: int = SEED
) -> tuple[np.ndarray, np.ndarray]:
    """`bootstrap_crossed`'s draws: (n_resamples, n_rows) row and (n_resamples, n_cols) column indices, drawn
    resample after resample (its rows, then its columns) from `default_rng(seed)`. Kept like `resample_indices`:
    they depend on the sizes and the seed alone."""

    def make() -> tuple[np.ndarray, ...]:
        rng = np.random.default_rng(seed)
        rows, cols = np.empty((n_resamples, n_rows), np.int64), np.empty((n_resamples, n_cols), np.int64)
        for b in range(n_resamples):
            rows[b], cols[b] = rng.integers(0, n_rows, n_rows), rng.integers(0, n_cols, n_cols)
        return rows, cols

    rows, cols = kept_draws(("crossed", n_rows, n_cols, n_resamples, seed), make)
    return rows, cols


def saved_number(value: float, decimals: int = 4) -> float:
    """`value` rounded to `decimals` places for a saved item, except that a nonzero value never becomes 0: one that
    would keeps 3 significant digits, so its sign survives (a share of positive differences, a lean's side,
    recomputed from the saved items, is the one the run recorded)."""
    rounded = round(float(value), decimals)
    return rounded if rounded != 0 or value == 0 else float(f"{float(value):.3g}")


def spread_sample(keys: Sequence[float | None], n: int) -> list[int]:
    """Indices of `n` items spread evenly over the items ordered by `keys` (a stratified, deterministic
    subsample: every part of the key's range keeps its share). Missing keys (None, nan) sort last; ties
    keep the input order; the indices come back ascending. n >= len(keys): every index.

    1. order = indices sorted by (missing, key, index);
    2. take order[round(i * (m - 1) / (n - 1))] for i = 0..n-1 (m = len(keys); n = 1 takes the median).
    """
    m = len(keys)
    if n >= m:
        return list(range(m))
    if n <= 0:
        return []

    def missing(value: float | None) -> bool:
        return value is None or (isinstance(value, float) and math.isnan(value))

    order = sorted(range(m), key=lambda i: (missing(keys[i]), 0.0 if missing(keys[i]) else keys[i], i))
    picks = [(m - 1) // 2] if n == 1 else [round(i * (m - 1) / (n - 1)) for i in range(n)]
    return sorted(order[p] for p in picks)


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman rank correlation (nan when either side is constant)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    from scipy import stats as _st

    return float(_st.spearmanr(x, y).statistic)


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson correlation (nan when either side is constant)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    from scipy import stats as _st

    return float(_st.pearsonr(x, y).statistic)


def pearson_rows(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    """`pearson` of every row pair along `axis` at once (nan where a row is constant)."""
    x, y = np.moveaxis(np.asarray(x, float), axis, -1), np.moveaxis(np.asarray(y, float), axis, -1)
    dx, dy = x - x.mean(-1, keepdims=True), y - y.mean(-1, keepdims=True)
    with np.errstate(all="ignore"):
        r = (dx * dy).sum(-1) / np.sqrt((dx * dx).sum(-1) * (dy * dy).sum(-1))
    constant = (np.ptp(x, axis=-1) == 0) | (np.ptp(y, axis=-1) == 0)
    return np.where(constant, np.nan, np.clip(r, -1.0, 1.0))


def spearman_rows(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    """`spearman` of every row pair along `axis` at once: Pearson of the average ranks."""
    from scipy import stats as _st

    return pearson_rows(_st.rankdata(x, axis=axis), _st.rankdata(y, axis=axis), axis=axis)


def spearman_counts(counts: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """`spearman_rows` of the resamples that draw item i `counts[b, i]` times, (B,), without sorting each one:
    a resample's average rank of a value is the number of drawn copies below it plus (its copies + 1) / 2, read
    off cumulative counts in the items' one sorted order, and the correlation is the Pearson of the ranks with
    each item weighted by its count. NaN where a resample draws an item whose x or y is NaN (scipy's rankdata
    propagates it) or where its x or y values are all one value."""
    x, y, counts = np.asarray(x, float), np.asarray(y, float), np.asarray(counts)
    with np.errstate(invalid="ignore", divide="ignore"):
        return _spearman_counts(counts, x, y)


def _spearman_counts(counts: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    missing = np.isnan(x) | np.isnan(y)
    rx, sx = _ranks_from_counts(counts, x, missing)
    ry, sy = _ranks_from_counts(counts, y, missing)
    total = counts.sum(axis=1, keepdims=True)
    dx = rx - (counts * rx).sum(axis=1, keepdims=True) / total
    dy = ry - (counts * ry).sum(axis=1, keepdims=True) / total
    r = (counts * dx * dy).sum(axis=1) / np.sqrt((counts * dx * dx).sum(axis=1) * (counts * dy * dy).sum(axis=1))
    undefined = (counts[:, missing] > 0).any(axis=1) | (sx < 2) | (sy < 2)
    return np.where(undefined, np.nan, np.clip(r, -1.0, 1.0))


def _ranks_from_counts(counts: np.ndarray, v: np.ndarray, missing: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per resample and item, the average rank of the item's value among the drawn copies (NaN items left out),
    and per resample how many distinct values it drew."""
    order = np.argsort(np.where(missing, np.inf, v), kind="stable")
    order = order[~missing[order]]
    sorted_v = v[order]
    new = np.r_[True, sorted_v[1:] != sorted_v[:-1]]
    per_group = np.add.reduceat(counts[:, order], np.flatnonzero(new), axis=1) if len(order) else counts[:, :0]
    below = np.cumsum(per_group, axis=1) - per_group
    ranks = np.zeros(counts.shape)
    ranks[:, order] = (below + (per_group + 1) / 2)[:, np.cumsum(new) - 1]
    return ranks, (per_group > 0).sum(axis=1)


def _mean_rows(x: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean(x, axis=axis)


def _median_rows(x: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.median(x, axis=axis)


_VECTORISED: dict[Callable[..., float], Callable[..., np.ndarray]] = {
    spearman: spearman_rows,
    pearson: pearson_rows,
    np.mean: _mean_rows,
    np.median: _median_rows,
}


def class_f1_rows(gold: np.ndarray, predicted: np.ndarray, axis: int = -1) -> np.ndarray:
    """The F1 of one class along `axis`, from whether each item is in it by gold and by prediction (booleans):
    2 TP / (2 TP + FP + FN), 0 where the class is neither in gold nor predicted. One value per row of a stack of
    resamples, or one for a single item vector (Norwegian occupations' F1 and the paired rule's)."""
    tp = np.sum(gold & predicted, axis=axis)
    denominator = 2 * tp + np.sum(~gold & predicted, axis=axis) + np.sum(gold & ~predicted, axis=axis)
    return np.where(denominator > 0, 2.0 * tp / np.maximum(denominator, 1), 0.0)


def _mean_abs_rows(x: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean(np.abs(x), axis=axis)


def with_rows(rows: Callable[..., Any]) -> Callable[[Callable[..., float]], Callable[..., float]]:
    """Decorator for a statistic of 1-d samples: ``rows(*samples, axis=-1)`` computes it for a stack of samples
    (one per row) with the same numbers, and `bootstrap_ci` calls it once for every resample instead of the
    statistic 1,000 times (a Python call each: about a third of a sweep checkpoint's bootstrap time)."""

    def mark(statistic: Callable[..., float]) -> Callable[..., float]:
        statistic.__dict__["rows"] = rows
        return statistic

    return mark


@with_rows(_mean_abs_rows)
def mean_abs(x: np.ndarray) -> float:
    """mean |x| (pronoun ratio's mean |log n|, CrowS-Pairs' mean |log-probability difference|)."""
    return float(_mean_abs_rows(np.asarray(x, float)))


def rows_of(statistic: Callable[..., float]) -> Callable[..., Any] | None:
    """The statistic's stacked form (`with_rows`, or numpy's mean, median and the correlations here), or None."""
    return getattr(statistic, "rows", None) or _VECTORISED.get(statistic)


@timed("bootstrap")
def bootstrap_crossed(
    statistic: Callable[[np.ndarray, np.ndarray], float],
    n_rows: int,
    n_cols: int,
    confidence: float = CONFIDENCE,
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
) -> tuple[float, float]:
    """Percentile interval of `statistic(rows, cols)` under a two-way (crossed) bootstrap.

    For data with two random factors (professions as rows, templates as columns: paper 002 shows
    that the choice of template moves the result, so the 17 templates are a sample too):
    1. each resample draws n_rows row indices and, independently, n_cols column indices, with
       replacement, from a generator with a fixed seed (`crossed_indices`, kept for the process);
    2. `statistic` is evaluated on those indices (e.g. on ``data[np.ix_(rows, cols)]``);
    3. the interval is the (1-confidence)/2 and (1+confidence)/2 quantiles of the resampled values.
    Resampling both factors counts both sources of variance (it is mildly conservative for crossed
    designs, McCullagh 2000, "Resampling and exchangeable arrays"). Fewer than 2 rows or columns, or
    a statistic that is undefined on every resample, give (nan, nan).
    A statistic with a stacked form (`with_rows`: ``rows(row_stack (B, n_rows), col_stack (B, n_cols))``, one
    value per resample) gets every resample's indices at once, drawn in the same order: the same interval.
    """
    if n_rows < 2 or n_cols < 2:
        return (float("nan"), float("nan"))
    row_stack, col_stack = crossed_indices(n_rows, n_cols, n_resamples, seed)
    stacked = rows_of(statistic)
    values = np.empty(n_resamples)
    if stacked is None:
        for b in range(n_resamples):
            values[b] = statistic(row_stack[b], col_stack[b])
    else:
        values[:] = stacked(row_stack, col_stack)
    values = values[np.isfinite(values)]
    if len(values) == 0:
        return (float("nan"), float("nan"))
    alpha = (1 - confidence) / 2
    return (float(np.quantile(values, alpha)), float(np.quantile(values, 1 - alpha)))


def resample_counts(indices: np.ndarray, n: int) -> np.ndarray:
    """How often each of `n` items is drawn in each resample: (B, n) counts from a (B, m) stack of indices (one
    `np.bincount` per row, in one call). A statistic of a resample is then a weighted statistic of the items."""
    indices = np.asarray(indices, dtype=np.int64)
    b = indices.shape[0]
    flat = (indices + n * np.arange(b)[:, None]).ravel()
    return np.bincount(flat, minlength=b * n).reshape(b, n)


def crossed_sums(table: np.ndarray, row_counts: np.ndarray, col_counts: np.ndarray) -> np.ndarray:
    """The sum of a (rows, cols) table over each crossed resample, (B,): row i counted ``row_counts[b, i]`` times
    crossed with column j ``col_counts[b, j]`` times, ``((row_counts @ table) * col_counts).sum(axis=1)``."""
    return ((row_counts @ table) * col_counts).sum(axis=1)


def crossed_mean(table: np.ndarray) -> Callable[[np.ndarray, np.ndarray], float]:
    """The statistic ``table[np.ix_(rows, cols)].mean()`` of a crossed resample of a (rows, cols) table, for
    `bootstrap_crossed`, with its stacked form: from how often each row and column is drawn,
    `crossed_sums` / (n_rows n_cols), the loop's numbers to rounding. A table with a
    non-finite cell gets no stacked form (a zero count times NaN would be NaN for every resample)."""
    table = np.asarray(table, dtype=float)

    def mean(rows: np.ndarray, cols: np.ndarray) -> float:
        return float(table[np.ix_(rows, cols)].mean())

    if not np.isfinite(table).all():
        return mean

    def stacked(row_stack: np.ndarray, col_stack: np.ndarray) -> np.ndarray:
        w_rows, w_cols = resample_counts(row_stack, table.shape[0]), resample_counts(col_stack, table.shape[1])
        return crossed_sums(table, w_rows, w_cols) / (row_stack.shape[1] * col_stack.shape[1])

    return with_rows(stacked)(mean)


def with_column_zero(statistic: Callable[[np.ndarray, np.ndarray], float]) -> Callable[[np.ndarray], float]:
    """A statistic of (rows, columns) indices as one of rows alone, on a one-column table (its stacked form too)."""

    def of_rows(idx: np.ndarray) -> float:
        return statistic(idx, np.zeros(1, dtype=np.int64))

    stacked = rows_of(statistic)
    if stacked is not None:
        of_rows = with_rows(lambda rs: stacked(rs, np.zeros((len(rs), 1), dtype=np.int64)))(of_rows)
    return of_rows


def bootstrap_rows(statistic: Callable[[np.ndarray], float], n_rows: int) -> tuple[float, float]:
    """Bootstrap interval of `statistic(row_indices)` resampling rows (e.g. professions, each with all its
    columns) with replacement (`bootstrap_ci` over the row indices)."""
    if n_rows < 2:
        return (float("nan"), float("nan"))

    def of(idx: np.ndarray) -> float:
        return statistic(np.asarray(idx, dtype=int))

    stacked = rows_of(statistic)  # its stacked form takes a (resamples, n_rows) stack of indices
    if stacked is not None:
        of = with_rows(lambda idx, axis=-1: stacked(np.asarray(idx, dtype=np.int64)))(of)
    return bootstrap_ci(of, np.arange(n_rows, dtype=float))
