"""Uncertainty of the PMI sentiment gaps: step 7 of `biascheck.methods.politicians.pmi` (whose module
docstring has steps 1-6 and 8; "steps 1-6" below are those). Pure numpy.

7. Uncertainty, with names as the sampling unit (a name brings ~20 correlated samples):
* `bootstrap_gaps`: percentile bootstrap, resampling names with replacement within each gender
  (stratified: every gender keeps its number of names), recomputing steps 1-6 (counts, filter,
  PMI, top-k, gap) on every resample; the interval is stretched to hold the estimate when the
  resamples' gaps lie on one side of it (below);
* `permutation_gaps`: unpaired permutation test (the paper's [72]): the gender labels of the female
  and male names are shuffled among those names (other genders keep theirs), steps 1-6 recomputed;
  two-sided p = (1 + #{|gap*| ≥ |gap|}) / (1 + n_resamples).
What the interval is for: the gap a model shows over a set of this many names drawn like these. The
gap depends on the number of names (the distinct-names filter and the noise in the top-k selection
both do), so it is not an estimate of one number that more names would pin down: in a simulation with
a known population (`lab/scripts/politicians_coverage.py`: 900 names of 20 words, 200 replicates per effect
size), the gap at 100 times the names was 0.00-0.13 further from 0. A large gap is also pulled towards 0
under resampling (a resample's noisier PMI lets words of other sentiments into a top k), so the
resamples' gaps can lie on one side of the estimate: the percentile interval missed its own estimate in
9-15 % of replicates at gaps near ±0.3 and 28-36 % near ±0.5. Stretched to hold it, the interval held
the mean gap at the same number of names in 97.5-100 % of replicates at gaps within ±0.2, 88-92 % near
±0.3 and 76-77 % near ±0.5 (far past any gate's bound); the reflected "basic" interval, which corrects
for the resamples' bias, held it in 56-77 % throughout, so it is not used.
Both work on the sparse name × word matrix, many resamples per matrix product (1,000 resamples of
6,000 names × 20 words, 3,000 lemmas: under a second each).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from functools import partial

import numpy as np
import pandas as pd
from scipy import sparse

from biascheck.methods.politicians.pmi import (
    DEFAULTS,
    PmiOptions,
    SampleMatrix,
    _as_matrix,
    _gaps,
    _Setup,
    _setup,
    _shares_from_counts,
    names_per_word,
    pmi_gaps,
)
from biascheck.stats import CONFIDENCE, N_RESAMPLES, SEED, kept_draws
from biascheck.timing import timed

_CHUNK = 100  # resamples per matrix product (fixed: the random draws are made chunk by chunk)
_DENSE = 1 / 16  # share of nonzero (name, word) cells above which the products run on a dense array


def _operand(counts: sparse.spmatrix) -> sparse.spmatrix | np.ndarray:
    """`counts` for the resamples' products: dense where most names share a few words (a model that puts the same
    few lemmas next to every name: a tiny checkpoint's 2,006 names x 160 words were 59 % nonzero, and its bootstrap
    and permutation test took 1.7-2x as long in sparse products), else sparse. Counts and weights are whole
    numbers, so every sum is exact and both give the same numbers."""
    size = counts.shape[0] * counts.shape[1]
    return counts.toarray() if size and counts.nnz > _DENSE * size else counts


def _resample_counts(counts: sparse.spmatrix | np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Word counts under name weights: counts (n_names, n_words) (`_operand`), weights (batch, n_names) →
    (batch, n_words)."""
    return np.asarray(counts.T @ weights.T).T


def _bootstrap_weights(matrix: SampleMatrix, rng: np.random.Generator, batch: int) -> np.ndarray:
    """(batch, n_names): how often each name is drawn, drawing within each gender as many names as it has."""
    n_names = len(matrix.names)
    offset = np.arange(batch)[:, None] * n_names
    draws = []
    for g in range(len(matrix.genders)):
        idx = np.flatnonzero(matrix.name_gender == g)
        draws.append((offset + idx[rng.integers(0, len(idx), size=(batch, len(idx)))]).ravel())
    return np.bincount(np.concatenate(draws), minlength=batch * n_names).reshape(batch, n_names).astype(float)


def _resampled_gaps(setup: _Setup, chunks: Sequence[np.ndarray], draw: Callable) -> dict[str, np.ndarray]:
    """The gaps of every resample, {'neg_gap': (n_resamples,), 'pos_gap': ...}, one matrix product a chunk of drawn
    resamples (`_kept_draws`): draw(chunk) -> (counts (batch, n_genders, n_words), distinct names (batch, n_words))."""
    values: dict[str, list[np.ndarray]] = {"neg_gap": [], "pos_gap": []}
    for chunk in chunks:
        counts, distinct = draw(chunk)
        for name, gap in _gaps(_shares_from_counts(counts, distinct, setup)).items():
            values[name].append(gap)
    return {name: np.concatenate(parts) for name, parts in values.items()}


def _kept_draws(kind: str, name_gender: np.ndarray, pooled: tuple[int, ...], n_resamples: int, seed: int, make):
    """The chunks of `n_resamples` draws, _CHUNK each, made by make(rng, batch) from `default_rng(seed)` chunk after
    chunk, in the smallest integer type that holds them. They depend on the names' genders, the number of resamples
    and the seed, not on the model: kept for the process (`stats.kept_draws`) by (kind, the genders' digest, pooled,
    n_resamples, seed), so that a sweep's next checkpoint, whose names are the same, reads the same ones (drawing them
    took 0.9 s of a tiny checkpoint's later full tier; the same draws, so the same numbers)."""
    codes = np.ascontiguousarray(name_gender, dtype=np.int64)
    key = (kind, hashlib.sha256(codes.tobytes()).hexdigest(), pooled, int(n_resamples), int(seed))

    def chunks() -> tuple[np.ndarray, ...]:
        rng = np.random.default_rng(seed)
        drawn = [make(rng, min(_CHUNK, n_resamples - start)) for start in range(0, n_resamples, _CHUNK)]
        return tuple(d.astype(np.min_scalar_type(int(d.max(initial=0))), copy=False) for d in drawn)

    return kept_draws(key, chunks)


def _counts_by_gender(
    counts: sparse.spmatrix | np.ndarray, n_genders: int, weights: np.ndarray, genders: np.ndarray
) -> np.ndarray:
    """(batch, n_genders, n_words): word counts of each gender's names under (batch, n_names) weights, the
    names' genders given per resample (batch, n_names) or once (n_names,); counts: the matrix's (`_operand`)."""
    return np.stack([_resample_counts(counts, weights * (genders == g)) for g in range(n_genders)], axis=1)


def _bootstrap_values(matrix: SampleMatrix, setup: _Setup, n_resamples: int, seed: int) -> dict[str, np.ndarray]:
    present = _operand((matrix.counts > 0).astype(float))
    # A resample keeps every name's gender: each gender's counts come from its own names' rows alone (the other
    # rows' weights are 0 there, and adding 0 changes no sum: the same counts at a fraction of the products).
    own = [
        (rows, _operand(matrix.counts[rows]).T)
        for rows in (np.flatnonzero(matrix.name_gender == g) for g in range(len(matrix.genders)))
    ]

    def draw(drawn: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        weights = drawn.astype(float)
        distinct = np.asarray(present.T @ weights.T).T  # a name drawn twice is two names of the resample
        counts = np.stack([np.asarray(part @ weights[:, rows].T).T for rows, part in own], axis=1)
        return counts, distinct

    make = partial(_bootstrap_weights, matrix)
    chunks = _kept_draws("bootstrap", matrix.name_gender, (len(matrix.genders),), n_resamples, seed, make)
    return _resampled_gaps(setup, chunks, draw)


@timed("bootstrap")
def bootstrap_gaps(
    samples: SampleMatrix | pd.DataFrame,
    labels: Mapping[str, str] | pd.Series,
    options: PmiOptions = DEFAULTS,
    *,
    confidence: float = CONFIDENCE,
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
    hold_estimate: bool = True,
) -> dict[str, tuple[float, float, float]]:
    """Step 7. {'neg_gap': (estimate, low, high), 'pos_gap': (...)}: percentile bootstrap over names, each
    resample read with the same `options` as the estimate.

    1. Every resample draws, within each gender, as many names as it has, with replacement.
    2. Counts are the weighted sums of the drawn names' rows; a name drawn twice is two names of the
       resample (its samples count twice, and twice in the distinct-names filter), as in the ordinary
       bootstrap; steps 2-6 are recomputed over the vocabulary of the full table (a word no drawn
       name used has zero counts, smoothed as in step 2).
    3. The interval is the (1−confidence)/2 and (1+confidence)/2 quantiles of the resampled gaps
       (resamples where a gap is undefined are dropped; none left → NaN).
    4. With `hold_estimate`, an interval that misses the estimate is stretched to it (module
       docstring: the resamples of a large gap lie nearer 0); False gives the bare percentile interval.
    The same seed gives the same interval. (`biascheck.stats.bootstrap_ci` resamples items of 1-d
    arrays through scipy one statistic call at a time; here a resample is a matrix product.)
    """
    matrix = _as_matrix(samples)
    setup = _setup(matrix, labels, options)
    point = pmi_gaps(matrix, labels, options)
    values = _bootstrap_values(matrix, setup, n_resamples, seed)
    alpha = (1 - confidence) / 2
    out = {}
    for name, sample in values.items():
        sample = sample[np.isfinite(sample)]
        if len(sample) == 0:
            out[name] = (point[name], float("nan"), float("nan"))
        else:
            low, high = float(np.quantile(sample, alpha)), float(np.quantile(sample, 1 - alpha))
            if hold_estimate and np.isfinite(point[name]):
                low, high = min(low, point[name]), max(high, point[name])
            out[name] = (point[name], low, high)
    return out


def _permutation_labels(matrix: SampleMatrix, setup: _Setup, rng: np.random.Generator, batch: int) -> np.ndarray:
    """(batch, n_names) gender codes: the female and male labels shuffled among those names."""
    pooled = np.flatnonzero((matrix.name_gender == setup.female) | (matrix.name_gender == setup.male))
    labels = np.repeat(matrix.name_gender[None], batch, axis=0)
    labels[:, pooled] = rng.permuted(np.broadcast_to(matrix.name_gender[pooled], (batch, len(pooled))), axis=1)
    return labels


def _permutation_values(matrix: SampleMatrix, setup: _Setup, n_resamples: int, seed: int) -> dict[str, np.ndarray]:
    distinct = names_per_word(matrix)  # does not depend on the labels
    counts = _operand(matrix.counts)

    def draw(labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        by_gender = _counts_by_gender(counts, len(matrix.genders), np.ones(labels.shape), labels)
        return by_gender, np.broadcast_to(distinct, (len(labels), len(distinct)))

    pooled = (len(matrix.genders), int(setup.female), int(setup.male))
    make = partial(_permutation_labels, matrix, setup)
    return _resampled_gaps(setup, _kept_draws("permutation", matrix.name_gender, pooled, n_resamples, seed, make), draw)


@timed("bootstrap")
def permutation_gaps(
    samples: SampleMatrix | pd.DataFrame,
    labels: Mapping[str, str] | pd.Series,
    options: PmiOptions = DEFAULTS,
    *,
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
) -> dict[str, float]:
    """Step 7. Two-sided permutation p-values {'neg_gap': p, 'pos_gap': p}.

    1. Each resample shuffles the gender labels among the female and male names (the numbers of
       female and male names stay; names of other genders keep their labels, so p̃(w) is unchanged).
    2. Steps 2-6 on the shuffled labels (the distinct-names filter does not depend on the labels).
    3. p = (1 + #{|gap*| ≥ |gap|}) / (1 + n_resamples) (a resample with an undefined gap counts as
       not extreme; an undefined observed gap gives NaN). The same seed gives the same p.
    """
    matrix = _as_matrix(samples)
    setup = _setup(matrix, labels, options)
    point = pmi_gaps(matrix, labels, options)
    values = _permutation_values(matrix, setup, n_resamples, seed)
    out = {}
    for name, gap in values.items():
        if not np.isfinite(point[name]):
            out[name] = float("nan")
        else:  # a resample with an undefined (NaN) gap compares False: not as extreme
            out[name] = (1 + int(np.sum(np.abs(gap) >= abs(point[name]) - 1e-12))) / (1 + n_resamples)
    return out
