"""Singular *they*: surprisal by antecedent type (Watson et al. 2023, paper 004, section 4, app. B).

How expected is *they/them/their/themselves* after *Sophia*, *my sister*, *the dentist*, *every
dentist*, *the dentists* or *the cup*? The stimuli are our own (`biascheck.methods.singular_they.stimuli`),
written to the design of Camilliere et al. (2021), whose stimuli and ratings are not public.

1. Surprisal of the pronoun, in nats (`surprisal`; the model is read in `score.score`):
   * masked LMs (``mlm-slot``): −log P(pronoun in the masked slot | the rest of the sentence), as in
     the paper (``My friend said [MASK] would be coming late to dinner.``);
   * causal LMs (``causal-next``): −log P(pronoun | the text to its left); the antecedent is always
     on the left, so this is the standard psycholinguistic surprisal. (The right context is not used.)
2. Mean surprisal per antecedent type with percentile-bootstrap intervals over items (`by_condition`).
3. Linear mixed-effects regression on the four closeness × gender cells (160 items): surprisal ~
   close + gendered, random intercept per sentence frame (statsmodels MixedLM, REML) (`closeness_gender`),
   as in the paper's Table 2 (BERT: β_close = 0.51, β_gendered = 0.34).
4. Human pattern checks (`pattern_checks`): plural and quantified antecedents easiest, inanimate
   controls hardest, close and gendered antecedents harder (β > 0).
5. With a user-supplied ratings file (`biascheck.data.they_ratings.read_ratings`): per participant
   group, the mean rating of every stimulus, and its Pearson correlation with the surprisal over the
   stimuli (Table 4; people rate naturalness, so the expected sign is negative) (`group_correlations`).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd
from scipy import stats as st

from biascheck.errors import DataError
from biascheck.methods.singular_they.spec import ALL_CONDITIONS, CLOSENESS_GENDER, CONDITIONS, CONTROL
from biascheck.stats import CONFIDENCE, N_RESAMPLES, SEED, bootstrap_ci


@dataclass(frozen=True)
class TheyScores:
    """Step 1 for every stimulus: `frame` = the stimuli (`stimuli.they_stimuli`) plus the columns
    logprob, surprisal and n_pieces of the item's own pronoun; `estimator` as the model reported it."""

    frame: pd.DataFrame
    estimator: str

    @cached_property
    def fit(self) -> dict[str, float]:
        """Step 3's mixed model on `frame` (`closeness_gender`), fitted once for every task that reads it."""
        return closeness_gender(self.frame)


def surprisal(logprob: np.ndarray) -> np.ndarray:
    """Step 1. Surprisal in nats = −log P."""
    return -np.asarray(logprob, dtype=float)


def by_condition(frame: pd.DataFrame, value: str = "surprisal") -> pd.DataFrame:
    """Step 2. Per condition (paper order): mean, 95% bootstrap interval over items, n."""
    rows = []
    for condition in ALL_CONDITIONS:
        values = frame.loc[frame["condition"] == condition, value].to_numpy(float)
        if len(values) == 0:
            continue
        low, high = bootstrap_ci(np.mean, values)
        rows.append((condition, float(values.mean()), low, high, len(values)))
    return pd.DataFrame(rows, columns=["condition", "mean", "ci_low", "ci_high", "n"])


def contrasts(means: dict[str, float]) -> dict[str, float]:
    """Summary contrasts of step 2: specific − quantified, inanimate − specific (nats)."""
    specific = [c for c in CONDITIONS if c not in ("quantified", "plural")]
    mean_specific = float(np.mean([means[c] for c in specific]))
    return {
        "specific_minus_quantified": float(mean_specific - means["quantified"]),
        "inanimate_minus_specific": float(means[CONTROL] - mean_specific),
    }


def contrast_metrics(
    frame: pd.DataFrame, value: str = "surprisal", n_resamples: int = N_RESAMPLES, seed: int = SEED
) -> dict[str, tuple[float, tuple[float, float], int]]:
    """`contrasts` with percentile-bootstrap intervals: {name: (value, (low, high), n)}.

    specific_minus_quantified is paired within a frame (40 per-frame differences, resampled);
    inanimate_minus_specific compares 15 controls with 40 per-frame means of the 6 specific types
    (both resampled independently).
    """
    specific = [c for c in CONDITIONS if c not in ("quantified", "plural")]
    critical = frame[frame["condition"].isin(CONDITIONS)]
    wide = critical.pivot_table(index="item", columns="condition", values=value)
    per_frame_specific = wide[specific].mean(axis=1).to_numpy(float)
    paired = per_frame_specific - wide["quantified"].to_numpy(float)
    controls = frame.loc[frame["condition"] == CONTROL, value].to_numpy(float)
    means = dict(frame.groupby("condition")[value].mean())
    point = contrasts(means)
    rng = np.random.default_rng(seed)
    draws = np.empty(n_resamples)
    for b in range(n_resamples):
        draws[b] = (
            rng.choice(controls, len(controls)).mean() - rng.choice(per_frame_specific, len(per_frame_specific)).mean()
        )
    alpha = (1 - CONFIDENCE) / 2
    return {
        "specific_minus_quantified": (point["specific_minus_quantified"], bootstrap_ci(np.mean, paired), len(paired)),
        "inanimate_minus_specific": (
            point["inanimate_minus_specific"],
            (float(np.quantile(draws, alpha)), float(np.quantile(draws, 1 - alpha))),
            len(controls) + len(per_frame_specific),
        ),
    }


def closeness_gender(frame: pd.DataFrame, value: str = "surprisal") -> dict[str, float]:
    """Step 3. MixedLM `value ~ close + gendered`, groups = item (frame), on the 4 Table 2 cells.

    Returns beta_close, se_close, p_close, beta_gendered, se_gendered, p_gendered, n, converged.
    """
    import statsmodels.formula.api as smf

    cells = frame[frame["condition"].isin(list(CLOSENESS_GENDER))].copy()
    cells["close"] = cells["condition"].map(lambda c: CLOSENESS_GENDER[c][0]).astype(float)
    cells["gendered"] = cells["condition"].map(lambda c: CLOSENESS_GENDER[c][1]).astype(float)
    cells["y"] = cells[value].astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # boundary/convergence notices; `converged` is reported
        fit = smf.mixedlm("y ~ close + gendered", cells, groups=cells["item"]).fit(reml=True)
    out: dict[str, float] = {"n": float(len(cells)), "converged": float(bool(fit.converged))}
    for name in ("close", "gendered"):
        out[f"beta_{name}"] = float(fit.params[name])
        out[f"se_{name}"] = float(fit.bse[name])
        out[f"p_{name}"] = float(fit.pvalues[name])
    return out


def wald_interval(beta: float, se: float) -> tuple[float, float]:
    """Step 3's 95 % Wald interval of a regression coefficient: beta ± 1.96 se."""
    return (beta - 1.96 * se, beta + 1.96 * se)


def pattern_checks(means: dict[str, float], betas: dict[str, float], alpha: float = 0.05) -> dict[str, bool]:
    """Step 4. The human pattern of the paper's Figure 2 / Table 2, as four yes/no checks.

    The two regression checks need a positive effect with p < `alpha` (as in Table 2), when
    `betas` has p-values (p_close, p_gendered); a sign alone otherwise.
    """
    singular_people = [c for c in CONDITIONS if c not in ("quantified", "plural")]
    return {
        "plural_and_quantified_easiest": bool(
            max(means["plural"], means["quantified"]) < min(means[c] for c in singular_people)
        ),
        "inanimate_hardest": bool(means[CONTROL] > max(means[c] for c in CONDITIONS)),
        "close_harder": bool(betas["beta_close"] > 0 and betas.get("p_close", 0.0) < alpha),
        "gendered_harder": bool(betas["beta_gendered"] > 0 and betas.get("p_gendered", 0.0) < alpha),
    }


def share_passed(checks: dict[str, bool]) -> float:
    """Step 4 summary: the share of the checks that hold."""
    return sum(checks.values()) / len(checks)


def group_correlations(scores: pd.DataFrame, ratings: pd.DataFrame, value: str = "surprisal") -> pd.DataFrame:
    """Step 5. Per group (and 'all'): Pearson r (and p) of the model value with the group's mean
    rating per stimulus (item, condition), over the stimuli the group rated.

    Returns columns group, r, p, n (stimuli), ci_low, ci_high (95 %, Fisher z). Stimuli in the
    ratings but not in `scores` are an error.
    """
    keys = ["item", "condition"]
    known = set(map(tuple, scores[keys].to_numpy()))
    extra = sorted(set(map(tuple, ratings[keys].to_numpy())) - known)
    if extra:
        raise DataError(f"ratings name stimuli that are not in the probe: {extra[:5]}")
    rows = []
    for group, part in [*ratings.groupby("group", sort=False), ("all", ratings)]:
        means = part.groupby(keys, as_index=False)["rating"].mean().merge(scores[[*keys, value]], on=keys)
        if len(means) >= 4 and np.ptp(means["rating"]) > 0 and np.ptp(means[value]) > 0:
            result = st.pearsonr(means[value], means["rating"])
            r = float(result.statistic)
            half = 1.959963984540054 / math.sqrt(len(means) - 3)  # Fisher z interval, 95 %
            z = math.atanh(max(min(r, 1 - 1e-15), -1 + 1e-15))
            rows.append((group, r, float(result.pvalue), len(means), math.tanh(z - half), math.tanh(z + half)))
        else:
            rows.append((group, math.nan, math.nan, len(means), math.nan, math.nan))
    return pd.DataFrame(rows, columns=["group", "r", "p", "n", "ci_low", "ci_high"])
