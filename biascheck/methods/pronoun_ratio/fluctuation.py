"""Bias fluctuation over checkpoints and seeds, after Tang & Jiang (2023), sections 3.2-3.3 (paper 001).

Notation of the paper: for one pre-training run (one seed), rows m are checkpoints sorted by
training step and columns t are professions; R[m, t] = r = P(he)/P(she), N[m, t] = n (the ratio
normalised by the prior template), C[m, t] = c = P(he) + P(she).

Section 3.2, for each seed, over the checkpoints at or after step k (rows k:b):
1. CV per profession: v_t = SD(N[k:b, t]) / AM(N[k:b, t]) (SD with ddof = 0, as scipy.stats.variation;
   the paper does not say which, and with ddof = 1 every v_t scales by sqrt(b' / (b' - 1))).
2. Mean certainty c_t = AM(C[k:b, t]); Pearson correlation of v with c.
3. Averaged ratio n_t = AM(N[k:b, t]); for every pair of seeds, Pearson correlation of their n.
4. Steps 1-3 again with R instead of N (v and r).
Section 3.3:
5. Corpus frequency f_t = s · y(t): yearly relative frequencies y(t) of profession t weighted by the
   yearly corpus sizes s (Google Ngram in the paper); Pearson correlation of v with f. Without
   yearly data (wordfreq gives one blended frequency per word) the sum has one term, f_t = y(t);
   Pearson correlation does not change under a common scale, so the weights then do not matter.
Section 4, RQ4:
6. Pearson correlation between the rows N[m1, :] and N[m2, :] for every pair of checkpoints.

Everything here is pure (numpy in, numbers out); `analyse` runs steps 1-6 over several seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from tabulate import tabulate

from biascheck.stats import pearson


class Checkpoint(Protocol):
    """One model of a sweep as the analysis reads it (`biascheck.checkpoints.Checkpoint` is one): declared
    here, not imported, so the probe's math does not depend on where the sweep's model lists are read."""

    @property
    def model(self) -> str: ...

    @property
    def step(self) -> int | None: ...

    @property
    def seed(self) -> str | None: ...


def coefficient_of_variation(matrix: np.ndarray) -> np.ndarray:
    """Step 1: CV of every column, SD (ddof = 0) over AM; nan where the mean is 0."""
    matrix = np.asarray(matrix, float)
    mean = matrix.mean(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(mean != 0, matrix.std(axis=0, ddof=0) / mean, np.nan)


def weighted_frequency(yearly_frequencies: np.ndarray, yearly_sizes: np.ndarray) -> np.ndarray:
    """Step 5: f_t = s · y(t) for every profession (rows of `yearly_frequencies` are professions)."""
    return np.asarray(yearly_frequencies, float) @ np.asarray(yearly_sizes, float)


def pairwise_pearson(rows: np.ndarray) -> np.ndarray:
    """Steps 3 and 6: Pearson correlation between every pair of rows (a symmetric matrix, 1 on the diagonal)."""
    rows = np.asarray(rows, float)
    size = len(rows)
    out = np.eye(size)
    for i in range(size):
        for j in range(i + 1, size):
            out[i, j] = out[j, i] = pearson(rows[i], rows[j])
    return out


def wordfreq_frequencies(professions: Sequence[str], lang: str = "en") -> np.ndarray | None:
    """Step 5 without yearly data: wordfreq's blended frequency of each profession (phrases too);
    None when wordfreq is not installed (pip install wordfreq)."""
    try:
        import wordfreq
    except ImportError:
        return None
    return np.array([wordfreq.word_frequency(p, lang) for p in professions], float)


@dataclass(frozen=True)
class SeedAnalysis:
    """Steps 1, 2, 4 and 5 for one seed (one pre-training run)."""

    seed: str
    steps: list[int | None]  # every checkpoint of the run, sorted
    used: int  # checkpoints at or after step k
    cv_n: np.ndarray  # v from N, per profession
    cv_r: np.ndarray  # v from R
    mean_n: np.ndarray  # averaged n per profession
    mean_r: np.ndarray
    mean_certainty: np.ndarray | None
    corr_cv_certainty_n: float
    corr_cv_certainty_r: float
    corr_cv_frequency_n: float
    corr_cv_frequency_r: float
    checkpoint_corr_n: np.ndarray  # step 6 over all checkpoints of the run
    n_matrix: np.ndarray  # N, checkpoints (sorted by step) x professions


@dataclass(frozen=True)
class FluctuationAnalysis:
    professions: list[str]
    after_step: int | None
    seeds: list[SeedAnalysis]
    seed_corr_n: np.ndarray  # step 3: seeds x seeds
    seed_corr_r: np.ndarray
    frequency_source: str


def analyse_seed(
    seed: str,
    steps: Sequence[int | None],
    log_r: np.ndarray,
    log_n: np.ndarray,
    certainty: np.ndarray | None,
    after_step: int | None,
    frequency: np.ndarray | None,
) -> SeedAnalysis:
    """Steps 1, 2, 4, 5 and 6 for one seed. Matrices: checkpoints x professions, rows in `steps` order."""
    order = np.argsort([(-1 if s is None else s) for s in steps], kind="stable")
    sorted_steps = [steps[i] for i in order]
    R, N = np.exp(np.asarray(log_r, float)[order]), np.exp(np.asarray(log_n, float)[order])
    C = None if certainty is None else np.asarray(certainty, float)[order]
    keep = np.array([after_step is None or (s is not None and s >= after_step) for s in sorted_steps])
    if not keep.any():
        raise ValueError(f"seed {seed}: no checkpoint at or after step {after_step} (steps: {sorted_steps})")
    cv_n, cv_r = coefficient_of_variation(N[keep]), coefficient_of_variation(R[keep])
    mean_c = None if C is None else C[keep].mean(axis=0)
    nan = float("nan")
    return SeedAnalysis(
        seed=seed,
        steps=sorted_steps,
        used=int(keep.sum()),
        cv_n=cv_n,
        cv_r=cv_r,
        mean_n=N[keep].mean(axis=0),
        mean_r=R[keep].mean(axis=0),
        mean_certainty=mean_c,
        corr_cv_certainty_n=nan if mean_c is None else pearson(cv_n, mean_c),
        corr_cv_certainty_r=nan if mean_c is None else pearson(cv_r, mean_c),
        corr_cv_frequency_n=nan if frequency is None else pearson(cv_n, frequency),
        corr_cv_frequency_r=nan if frequency is None else pearson(cv_r, frequency),
        checkpoint_corr_n=pairwise_pearson(N),
        n_matrix=N,
    )


def analyse(
    checkpoints: Sequence[Checkpoint],
    log_r: dict[str, np.ndarray],
    log_n: dict[str, np.ndarray],
    certainty: dict[str, np.ndarray | None],
    professions: list[str],
    after_step: int | None = None,
    frequency: np.ndarray | None = None,
    frequency_source: str = "none",
) -> FluctuationAnalysis:
    """Steps 1-6 over a sweep: checkpoints grouped by seed (None = one run), per-model vectors by model name."""
    by_seed: dict[str, list[Checkpoint]] = {}
    for cp in checkpoints:
        by_seed.setdefault(cp.seed or "-", []).append(cp)
    seeds = []
    for seed, members in by_seed.items():
        has_c = all(certainty.get(cp.model) is not None for cp in members)
        seeds.append(
            analyse_seed(
                seed,
                [cp.step for cp in members],
                np.array([log_r[cp.model] for cp in members]),
                np.array([log_n[cp.model] for cp in members]),
                np.array([certainty[cp.model] for cp in members]) if has_c else None,
                after_step,
                frequency,
            )
        )
    return FluctuationAnalysis(
        professions=list(professions),
        after_step=after_step,
        seeds=seeds,
        seed_corr_n=pairwise_pearson(np.array([s.mean_n for s in seeds])),
        seed_corr_r=pairwise_pearson(np.array([s.mean_r for s in seeds])),
        frequency_source=frequency_source,
    )


def _f(x: float) -> str:
    return "—" if x is None or not np.isfinite(x) else f"{x:.3f}"


def summary_table(result: FluctuationAnalysis, fmt: str = "simple") -> str:
    """Per seed: checkpoints used, min / median / max CV (N and R), correlations with certainty and frequency."""
    rows = []
    for s in result.seeds:
        rows.append(
            [
                s.seed,
                f"{s.used}/{len(s.steps)}",
                _f(np.nanmin(s.cv_n)),
                _f(np.nanmedian(s.cv_n)),
                _f(np.nanmax(s.cv_n)),
                _f(np.nanmin(s.cv_r)),
                _f(np.nanmedian(s.cv_r)),
                _f(np.nanmax(s.cv_r)),
                _f(s.corr_cv_certainty_n),
                _f(s.corr_cv_certainty_r),
                _f(s.corr_cv_frequency_n),
                _f(s.corr_cv_frequency_r),
            ]
        )
    headers = [
        "seed",
        "ckpts ≥ k",
        "CV(n) min",
        "median",
        "max",
        "CV(r) min",
        "median",
        "max",
        "ρ(v_n,c)",
        "ρ(v_r,c)",
        "ρ(v_n,f)",
        "ρ(v_r,f)",
    ]
    return tabulate(rows, headers=headers, tablefmt=fmt, disable_numparse=True)


def seed_table(result: FluctuationAnalysis, fmt: str = "simple") -> str:
    """Pairwise Pearson correlation of the averaged ratios between seeds: n above the diagonal, r below."""
    names = [s.seed for s in result.seeds]
    rows = []
    for i, a in enumerate(names):
        row = [a]
        for j in range(len(names)):
            row.append("1" if i == j else _f(result.seed_corr_n[i, j] if j > i else result.seed_corr_r[i, j]))
        rows.append(row)
    return tabulate(rows, headers=["n ↗ / r ↙", *names], tablefmt=fmt, disable_numparse=True)


def top_table(result: FluctuationAnalysis, count: int = 10, fmt: str = "simple") -> str:
    """The professions that fluctuate most (CV of n, averaged over seeds)."""
    cv = np.nanmean(np.array([s.cv_n for s in result.seeds]), axis=0)
    order = np.argsort(-np.nan_to_num(cv, nan=-np.inf))[:count]
    mean_n = np.mean(np.array([s.mean_n for s in result.seeds]), axis=0)
    rows = [[result.professions[i], _f(cv[i]), _f(mean_n[i])] for i in order]
    return tabulate(
        rows, headers=["profession", "CV(n), mean over seeds", "mean n"], tablefmt=fmt, disable_numparse=True
    )


def report_text(result: FluctuationAnalysis, fmt: str = "simple") -> str:
    k = "all checkpoints" if result.after_step is None else f"checkpoints at step ≥ {result.after_step}"
    heading = (lambda s: f"### {s}") if fmt == "github" else (lambda s: s)
    return "\n".join(
        [
            heading(f"Fluctuation (paper 001 §3.2-3.3) over {k}; frequency: {result.frequency_source}"),
            summary_table(result, fmt),
            "",
            heading("Seed-to-seed Pearson correlation of averaged ratios"),
            seed_table(result, fmt),
            "",
            heading("Most fluctuating professions"),
            top_table(result, fmt=fmt),
            "",
        ]
    )


def figure(result: FluctuationAnalysis, n_lines: int = 6) -> object:
    """Three panels: CV(n) against mean certainty per seed (paper Fig. 2), the seed correlation
    matrix (Fig. 4), and n over training steps for the most fluctuating professions (Fig. 1)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.3))
    for s in result.seeds:
        x = s.mean_certainty if s.mean_certainty is not None else s.mean_n
        axes[0].scatter(x, s.cv_n, s=6, alpha=0.5, label=f"seed {s.seed}")
    axes[0].set_xlabel("mean certainty c" if all(s.mean_certainty is not None for s in result.seeds) else "mean n")
    axes[0].set_ylabel("CV of n over checkpoints")
    axes[0].ticklabel_format(axis="both", style="sci", scilimits=(-2, 3))
    axes[0].legend(fontsize=7)
    names = [s.seed for s in result.seeds]
    image = axes[1].imshow(result.seed_corr_n, vmin=-1, vmax=1, cmap="coolwarm")
    axes[1].set_xticks(range(len(names)), names)
    axes[1].set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            axes[1].text(j, i, _f(result.seed_corr_n[i, j]), ha="center", va="center", fontsize=8)
    axes[1].set_title("seed-to-seed Pearson r of averaged n", fontsize=9)
    fig.colorbar(image, ax=axes[1], fraction=0.046)
    first = result.seeds[0]
    cv = np.nan_to_num(first.cv_n, nan=-np.inf)
    steps = [np.nan if st is None else st for st in first.steps]
    for i in np.argsort(-cv)[:n_lines]:
        axes[2].plot(steps, first.n_matrix[:, i], marker="o", ms=3, label=result.professions[i])
    axes[2].set_xlabel(f"training step (seed {first.seed})")
    axes[2].set_ylabel("n")
    axes[2].set_yscale("log")
    axes[2].legend(fontsize=7)
    fig.suptitle("Bias fluctuation over checkpoints and seeds (Tang & Jiang 2023)", fontsize=10)
    fig.tight_layout()
    return fig
