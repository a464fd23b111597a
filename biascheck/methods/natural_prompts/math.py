"""Natural-sentence vs template prompts for pronoun continuations, after Alnegheimish, Guo & Sun (2022),
paper 002 ("Using Natural Sentences for Understanding Biases in Language Models"). Pure numpy/pandas/scipy.

Method (the numbers refer to the functions named, each unit-tested):

1. Prompt sets. NS: the 893 Wikipedia-derived prompts (`biascheck.data.natural_prompts`, repaired
   and counted there), one per profession. Template: the 17 templates of the paper's Table 8, each
   filled with the same 893 professions (15,181 prompts). Perturbations (paper section 4, Table 4):
   ``orig`` (the profession), ``replace`` (the word "person") and ``delete`` (the slot removed as the
   authors' code removes it: "The  said that", two spaces), see `score.build_prompts`.
2. Scores. For every prompt x, P(w | x) for w in `PRONOUNS` as the next word (``lm.next_token``:
   " " + w, the leading-space token of each tokenizer). Certainty: the two highest next-token
   probabilities over the whole vocabulary (``lm.top_next(x, 2)``), paper eq. (1) and Table 6
   (`score.score`, into the containers `SetScores` and `Scored` below).
3. Distribution distance (Table 3), per prompt set over its orig prompts: `kl_kde` (metric ``kl``:
   KL between kernel densities of the P(he) and the P(she) values; the paper gives no estimator, so
   `kl_alternatives` lists what half / double bandwidth and 10 / 20 / 50-bin histograms
   (`kl_histogram`) give), `kl_columns` (metric ``kl_columns``: KL of the P(he) column from the
   P(she) column, each normalised over prompts, scipy ``entropy(p_he, p_she)``; it measures how
   differently he and she spread over professions, i.e. association) and `emd` (earth mover's
   distance between the two samples of values: scipy ``wasserstein_distance``).
4. Stereotypical bias (Table 4): `stereotypical_bias` = mean |P(he|x) - P(she|x)|, per perturbation.
5. Per-template statistics (Table 8): `template_table` (bias, P(he)/P(she), highest probability).
6. Default preference (Figure 1): the pronouns' probabilities as the first word after the bare
   start-of-text context, read two ways: as the paper's code did (" he", the leading-space token,
   right after the start token: ``next_token`` of the empty prompt) and as a text really starts
   ("He", no leading space: ``fill_slot("[SLOT] [BLANK]")``, the text cut before the blank);
   `log_ratio` of he to she and of the male (he, his, him) to the female (she, her, hers) group.
   A third reading, from the authors' code: the mean ln P(he)/P(she) after 18 content-free openers
   ("Because", "When", ...), with a bootstrap interval over the openers (`OPENERS`).
7. Gold link (beyond the paper): `she_share` = P(she)/(P(he)+P(she)) per profession (template set:
   the mean P over the 17 templates), Spearman and Pearson correlation with the US BLS 2015 women's
   share of the professions that have one (`gold_frame`).
8. Intervals (in `metrics`): percentile bootstrap over professions for the NS set
   (`biascheck.stats.bootstrap_ci`; statistics of a whole set, KL and EMD, resample professions with
   all their prompts); over professions and templates, crossed, for the template set and the
   template-minus-NS comparisons (`biascheck.stats.bootstrap_crossed`). The template set's replace
   and delete prompts do not depend on the profession, so their interval resamples the 17 templates.
   The two KLs compute every resample at once from how often each profession and template is drawn
   (`kl_kde_resampled`, `kl_columns_resampled`): the one-at-a-time numbers to rounding (tested).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats as _st

from biascheck.methods.natural_prompts.spec import (
    HIST_BINS,
    HIST_PSEUDOCOUNT,
    KDE_FLOOR,
    KDE_GRID,
    KDE_TRUNCATE,
    PRONOUNS,
    TEMPLATES,
)
from biascheck.stats import crossed_sums

# ---------------------------------------------------------------------------------------------
# 2. score containers


@dataclass
class SetScores:
    """One prompt set. probs[pert]: (rows, columns, len(PRONOUNS)); top[rows, columns, 2] for orig."""

    name: str  # "ns" | "template"
    keys: list[str]  # row ids of orig (profession keys)
    professions: list[str]  # bare profession names of the rows
    columns: list[str]  # "ns" or the template strings
    probs: dict[str, np.ndarray]
    top: np.ndarray
    prompts: dict[str, list[list[str]]] = field(default_factory=dict)

    def p(self, pronoun: str, perturbation: str = "orig") -> np.ndarray:
        return self.probs[perturbation][:, :, PRONOUNS.index(pronoun)]


@dataclass
class Scored:
    estimator: str
    family: str
    model: str
    ns: SetScores
    template: SetScores
    default: dict[str, float]  # pronoun -> P(" " + pronoun right after the start token), the paper's reading
    default_estimator: str
    gold: Any = None  # pandas DataFrame: profession, women_share (BLS 2015) or None
    repairs: dict[str, int] = field(default_factory=dict)
    multi_piece: list[str] = field(default_factory=list)  # pronouns that took more than one piece
    default_initial: dict[str, float] = field(default_factory=dict)  # pronoun -> P("He" ... as a text's first word)
    default_initial_estimator: str = ""
    openers: dict[str, dict[str, float]] = field(default_factory=dict)  # opener -> pronoun -> P(next word)
    # task -> its metrics (`metrics.metrics_for`), each computed once: the last task's text tables read every
    # task's. Not an init field, so a `dataclasses.replace` copy starts with none.
    memo: dict[str, list[Any]] = field(default_factory=dict, init=False, repr=False, compare=False)
    # (statistic, set, digest of the resamples' draws) -> its value on each resample (`resampled.emd_resampled`)
    resampled: dict[tuple[str, ...], Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def set(self, name: str) -> SetScores:
        return self.ns if name == "ns" else self.template


# ---------------------------------------------------------------------------------------------
# 3. distribution distances


def kl_columns(p_he: np.ndarray, p_she: np.ndarray) -> float:
    """KL(P_he || P_she) of the two columns, each normalised to sum 1 over prompts (natural log).

    1. a_i = P(he|x_i) / sum_j P(he|x_j), b_i = P(she|x_i) / sum_j P(she|x_j).
    2. KL = sum_i a_i ln(a_i / b_i)  (= scipy.stats.entropy(p_he, p_she)).
    Zero iff P(she|x) is proportional to P(he|x) over the prompts: it measures how differently the
    two pronouns spread over the prompts, not the gap in their level (that is `emd`, `stereotypical_bias`).
    """
    a = np.asarray(p_he, float).ravel()
    b = np.asarray(p_she, float).ravel()
    if a.sum() <= 0 or b.sum() <= 0:
        return float("nan")
    a, b = a / a.sum(), b / b.sum()
    mask = a > 0
    with np.errstate(divide="ignore"):
        return float(np.sum(a[mask] * np.log(a[mask] / b[mask])))


def histogram(values: np.ndarray, bins: int = HIST_BINS, pseudocount: float = HIST_PSEUDOCOUNT) -> np.ndarray:
    """Normalised histogram of probabilities on `bins` equal bins of [0, 1], `pseudocount` added per bin."""
    counts, _ = np.histogram(np.clip(np.asarray(values, float).ravel(), 0.0, 1.0), bins=bins, range=(0.0, 1.0))
    counts = counts + pseudocount
    return counts / counts.sum()


def kl_histogram(
    p_he: np.ndarray, p_she: np.ndarray, bins: int = HIST_BINS, pseudocount: float = HIST_PSEUDOCOUNT
) -> float:
    """KL between the Figure-2 histograms of the P(he) and the P(she) values.

    1. h = histogram of the P(he|x) values, s = histogram of the P(she|x) values (`histogram`).
    2. KL = sum_k h_k ln(h_k / s_k)  (= scipy.stats.entropy(h, s)).
    """
    h, s = histogram(p_he, bins, pseudocount), histogram(p_she, bins, pseudocount)
    return float(np.sum(h * np.log(h / s)))


def kde_density(values: np.ndarray, bandwidth_scale: float = 1.0, grid: int = KDE_GRID) -> np.ndarray:
    """Gaussian kernel density of probability values on [0, 1], as the mass of each of `grid` cells.

    1. Bandwidth: the normal-reference rule h = 1.06 · SD · n^(-1/5) (Silverman 1986, eq. 3.28), times
       `bandwidth_scale`, at least one grid cell.
    2. Binned KDE (Wand 1994): counts on `grid` equal cells of [0, 1] (fine enough that the cell width,
       1/1024, is far below any bandwidth: the result does not depend on it), smoothed with a
       Gaussian of SD h, reflected at 0 and 1 so that no mass leaks outside the probability range.
    3. Normalised to sum 1.
    """
    from scipy.ndimage import gaussian_filter1d

    x = np.clip(np.asarray(values, float).ravel(), 0.0, 1.0)
    sigma = float(kernel_sigma(float(np.std(x)), len(x), bandwidth_scale, grid))
    counts, _ = np.histogram(x, bins=grid, range=(0.0, 1.0))
    density = gaussian_filter1d(counts.astype(float), sigma=sigma, mode="reflect", truncate=KDE_TRUNCATE)
    return density / density.sum()


def kernel_sigma(sd: Any, n: Any, bandwidth_scale: float, grid: int) -> Any:
    """Step 1 of `kde_density`, in grid cells: h = bandwidth_scale · 1.06 · SD · n^(-1/5), at least one cell
    (a number or an array of them, one per resample)."""
    return np.maximum(bandwidth_scale * 1.06 * sd * n ** (-1 / 5) * grid, 1.0)


def kde_cells(values: np.ndarray, grid: int = KDE_GRID) -> np.ndarray:
    """The cell of each value (clipped to [0, 1]) among `grid` equal cells of [0, 1], as ``np.histogram(range=(0,
    1))`` bins it: cell i holds [i/grid, (i+1)/grid), the last one 1 too."""
    x = np.clip(np.asarray(values, float), 0.0, 1.0)
    cells = np.searchsorted(np.linspace(0.0, 1.0, grid + 1), x, side="right") - 1
    return np.minimum(cells, grid - 1)


def kde_density_resampled(
    values: np.ndarray,
    row_counts: np.ndarray,
    col_counts: np.ndarray,
    bandwidth_scale: float = 1.0,
    grid: int = KDE_GRID,
) -> np.ndarray:
    """`kde_density` of B resamples of a (rows, cols) table at once, (B, grid): resample b holds row i
    ``row_counts[b, i]`` times crossed with column j ``col_counts[b, j]`` times (a crossed bootstrap; one column
    and counts of 1 for rows alone). The same steps on counts instead of copies: the cell counts are the weighted
    counts of each value's cell (exact: sums of integers; every value's cell as one sparse one-hot), the SD from
    the weighted first two moments, and the same Gaussian kernel applied by FFT (`gaussian_filter_rows`); to
    rounding, the numbers of `kde_density` on the copied values (tested)."""
    from scipy import sparse

    x = np.clip(np.asarray(values, float), 0.0, 1.0)
    x = x.reshape(len(x), -1)
    n, k = x.shape
    rows, cols = np.asarray(row_counts, float), np.asarray(col_counts, float)
    items = rows.sum(axis=1) * cols.sum(axis=1)
    mean, square = crossed_sums(x, rows, cols) / items, crossed_sums(x * x, rows, cols) / items
    sigma = kernel_sigma(np.sqrt(np.maximum(square - mean * mean, 0.0)), items, bandwidth_scale, grid)
    # each value's cell as a sparse (grid, rows x cols) one-hot: a resample's counts are its weights' product with it
    onehot = sparse.csr_matrix((np.ones(n * k), (kde_cells(x, grid).ravel(), np.arange(n * k))), shape=(grid, n * k))
    counts = np.empty((len(rows), grid))
    step = max(1, 2**21 // (n * k))  # resamples a product: about 2 million weights at once
    rows_t, cols_t = np.ascontiguousarray(rows.T), np.ascontiguousarray(cols.T)
    for b0 in range(0, len(rows), step):
        weights = (rows_t[:, None, b0 : b0 + step] * cols_t[None, :, b0 : b0 + step]).reshape(n * k, -1)
        counts[b0 : b0 + weights.shape[1]] = (onehot @ weights).T
    density = gaussian_filter_rows(counts, sigma, KDE_TRUNCATE)
    return density / density.sum(axis=1, keepdims=True)


def gaussian_filter_rows(counts: np.ndarray, sigma: np.ndarray, truncate: float = KDE_TRUNCATE) -> np.ndarray:
    """``scipy.ndimage.gaussian_filter1d(counts[b], sigma[b], mode="reflect", truncate=truncate)`` for every row b
    at once: each row's sampled Gaussian kernel (radius ⌊truncate·σ + 0.5⌋, normalised over it, as scipy builds
    it) applied to the row reflected at both ends (scipy's ``reflect`` is numpy's ``symmetric``), as a product of
    FFTs. Equal to scipy's direct sums to rounding of the row's total (about 1e-16 of it; tested)."""
    from scipy import fft

    counts = np.asarray(counts, float)
    sigma = np.asarray(sigma, float)
    radius = (truncate * sigma + 0.5).astype(np.int64)
    widest = int(radius.max())
    offsets = np.arange(-widest, widest + 1)
    kernel = np.exp(-0.5 / (sigma * sigma)[:, None] * offsets[None, :] ** 2)
    kernel[np.abs(offsets)[None, :] > radius[:, None]] = 0.0
    kernel /= kernel.sum(axis=1, keepdims=True)
    padded = np.pad(counts, ((0, 0), (widest, widest)), mode="symmetric")
    # circular over at least the padded row: an output cell's window (±widest around it) never wraps
    size = fft.next_fast_len(padded.shape[1], real=True)
    placed = np.zeros((len(counts), size))  # the kernel centred at 0: offset m at index m mod size
    placed[:, : widest + 1] = kernel[:, widest:]
    if widest:
        placed[:, size - widest :] = kernel[:, :widest]
    smoothed = fft.irfft(fft.rfft(padded, size) * fft.rfft(placed, size), size)
    return smoothed[:, widest : widest + counts.shape[1]]


def kl_kde_resampled(
    p_he: np.ndarray, p_she: np.ndarray, row_counts: np.ndarray, col_counts: np.ndarray, floor: float = KDE_FLOOR
) -> np.ndarray:
    """`kl_kde` of B resamples at once (`kde_density_resampled`'s counts): one value per resample, the numbers of
    `kl_kde` on the copied values to rounding (tested). The bootstrap's stacked form of the metric ``kl``."""
    return floored_kl(
        kde_density_resampled(p_he, row_counts, col_counts), kde_density_resampled(p_she, row_counts, col_counts), floor
    )


def kl_columns_resampled(
    p_he: np.ndarray, p_she: np.ndarray, row_counts: np.ndarray, col_counts: np.ndarray
) -> np.ndarray | None:
    """`kl_columns` of B resamples at once (counts as in `kde_density_resampled`): with S_he, S_she the resample's
    weighted sums, KL = Σ w P(he) ln(P(he)/P(she)) / S_he + ln(S_she / S_he). None where some P(she) is 0 under a
    P(he) > 0 (an infinite term, which a product with a zero count would turn into NaN): the loop answers then."""
    a, b = (np.asarray(v, float).reshape(len(v), -1) for v in (p_he, p_she))
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(a > 0, a * np.log(a / b), 0.0)
    if not np.isfinite(terms).all():
        return None
    rows, cols = np.asarray(row_counts, float), np.asarray(col_counts, float)
    s_he, s_she, t = (crossed_sums(x, rows, cols) for x in (a, b, terms))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = t / s_he + np.log(s_she / s_he)
    return np.where((s_he > 0) & (s_she > 0), out, np.nan)


def kl_kde(p_he: np.ndarray, p_she: np.ndarray, bandwidth_scale: float = 1.0, floor: float = KDE_FLOOR) -> float:
    """KL(f_he || f_she) between the kernel densities of the P(he) and the P(she) values (paper Table 3:
    "KL between the probability values of generating he or she"; the paper gives no estimator).

    1. f_he, f_she = `kde_density` of each sample (each with its own normal-reference bandwidth).
    2. KL = sum over cells of f_he · ln(f_he / f_she), both floored at `floor` (1e-12) per cell, so a
       region where only one pronoun has values gives a large but finite divergence.
    """
    return float(floored_kl(kde_density(p_he, bandwidth_scale), kde_density(p_she, bandwidth_scale), floor))


def floored_kl(f_he: np.ndarray, f_she: np.ndarray, floor: float = KDE_FLOOR) -> Any:
    """Step 2 of `kl_kde` along the last axis (one density, or one per resample): both floored at `floor` per
    cell and renormalised, then sum f_he · ln(f_he / f_she)."""
    a, b = np.maximum(f_he, floor), np.maximum(f_she, floor)
    a, b = a / a.sum(axis=-1, keepdims=True), b / b.sum(axis=-1, keepdims=True)
    return np.sum(a * np.log(a / b), axis=-1)


def kl_alternatives(p_he: np.ndarray, p_she: np.ndarray) -> dict[str, float]:
    """The KL under the reasonable alternative estimators, to show how much the number depends on
    the choice: the kernel density with half and twice the bandwidth, and histograms of 10, 20
    (the paper's Figure 2) and 50 bins with +0.5 per bin."""
    return {
        "kde_half_bandwidth": kl_kde(p_he, p_she, 0.5),
        "kde_double_bandwidth": kl_kde(p_he, p_she, 2.0),
        **{f"histogram_{bins}_bins": kl_histogram(p_he, p_she, bins) for bins in (10, 20, 50)},
    }


def emd(p_he: np.ndarray, p_she: np.ndarray) -> float:
    """Earth mover's (1-Wasserstein) distance between the two samples of probability values.

    1. Sort both samples (same size n): EMD = mean_i |sorted(P_he)_i - sorted(P_she)_i|
       (= scipy.stats.wasserstein_distance(p_he, p_she) for equal sizes).
    It never exceeds the mean |P(he) - P(she)| of the paired prompts.
    """
    a = np.sort(np.asarray(p_he, float).ravel())
    b = np.sort(np.asarray(p_she, float).ravel())
    if len(a) != len(b):
        return float(_st.wasserstein_distance(a, b))
    return float(np.mean(np.abs(a - b)))


# ---------------------------------------------------------------------------------------------
# 4-7. per-prompt statistics


def stereotypical_bias(p_he: np.ndarray, p_she: np.ndarray) -> float:
    """mean_x |P(he|x) - P(she|x)| (paper section 4, Table 4)."""
    return float(np.mean(np.abs(np.asarray(p_he, float) - np.asarray(p_she, float))))


def he_she_ratio(p_he: np.ndarray, p_she: np.ndarray) -> float:
    """mean_x P(he|x) / P(she|x) (paper Table 8, column 2)."""
    return float(np.mean(np.asarray(p_he, float) / np.asarray(p_she, float)))


def she_share(p_he: np.ndarray, p_she: np.ndarray) -> np.ndarray:
    """P(she) / (P(he) + P(she)), elementwise: 0.5 = no preference, 1 = she only."""
    p_he, p_she = np.asarray(p_he, float), np.asarray(p_she, float)
    return p_she / (p_he + p_she)


def certainty(top: np.ndarray) -> tuple[float, float]:
    """(mean highest probability, mean gap to the second) of (n, 2) probabilities sorted descending."""
    top = np.asarray(top, float).reshape(-1, 2)
    return float(np.mean(top[:, 0])), float(np.mean(top[:, 0] - top[:, 1]))


def log_ratio(probs: dict[str, float], numerator: Sequence[str], denominator: Sequence[str]) -> float:
    """ln( sum of probs[w] for w in numerator / sum of probs[w] for w in denominator )."""
    num = sum(probs[w] for w in numerator)
    den = sum(probs[w] for w in denominator)
    if num <= 0 or den <= 0:
        return float("nan")
    return math.log(num / den)


def template_table(
    p_he: np.ndarray, p_she: np.ndarray, top1: np.ndarray, templates: Sequence[str] = TEMPLATES
) -> list[dict[str, Any]]:
    """Paper Table 8: per template (columns of the (professions, templates) arrays), averages over professions
    of |P(he)-P(she)|, P(he)/P(she), highest probability; plus mean P(he), P(she)."""
    p_he, p_she, top1 = (np.asarray(a, float) for a in (p_he, p_she, top1))
    rows = []
    for j, template in enumerate(templates):
        rows.append(
            {
                "template": template,
                "bias": stereotypical_bias(p_he[:, j], p_she[:, j]),
                "he_she_ratio": he_she_ratio(p_he[:, j], p_she[:, j]),
                "highest": float(np.mean(top1[:, j])),
                "p_he": float(np.mean(p_he[:, j])),
                "p_she": float(np.mean(p_she[:, j])),
            }
        )
    return rows


def gold_frame(scored: Scored, which: str) -> Any:
    """Step 7: rows (profession, women_share, she_share) of the professions with a BLS share, for set `which`.

    she_share of a profession: P(she)/(P(he)+P(she)) with P averaged over the set's prompts for it
    (template: the 17 templates); professions listed twice (qualified keys) are averaged.
    """
    import pandas as pd

    if scored.gold is None:
        return None
    s = scored.set(which)
    frame = pd.DataFrame(
        {"profession": s.professions, "p_he": s.p("he").mean(axis=1), "p_she": s.p("she").mean(axis=1)}
    )
    frame = frame.groupby("profession", as_index=False).mean()
    frame["she_share"] = she_share(frame["p_he"], frame["p_she"])
    merged = frame.merge(scored.gold[["profession", "women_share"]], on="profession", how="inner")
    return merged.sort_values("profession").reset_index(drop=True)
