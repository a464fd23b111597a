"""Singular *they*: surprisal by antecedent type (Watson et al. 2023, paper 004, section 4, app. B).

How expected is *they/them/their/themselves* after *Sophia*, *my sister*, *the dentist*, *every
dentist*, *the dentists* or *the cup*? The stimuli are our own (`biascheck.methods.they_stimuli`),
written to the design of Camilliere et al. (2021), whose stimuli and ratings are not public.

1. Surprisal of the pronoun, in nats (`surprisal`):
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
5. With a user-supplied ratings file (`read_ratings`): per participant group, the mean rating of
   every stimulus, and its Pearson correlation with the surprisal over the stimuli (Table 4; people
   rate naturalness, so the expected sign is negative) (`group_correlations`).
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as st

from biascheck.errors import DataError
from biascheck.methods.they_stimuli import ALL_CONDITIONS, CLOSENESS_GENDER, CONDITIONS, CONTROL, LABELS
from biascheck.spec import MetricSpec, ProbeSpec
from biascheck.stats import CONFIDENCE, N_RESAMPLES, SEED, bootstrap_ci

RATINGS_ENV = "BIASCHECK_THEY_RATINGS"
RATING_COLUMNS = ("item", "condition", "group", "rating")
# Participant groups of the paper's Table 4 (metric r_<group>) with BERT's correlations.
PAPER_GROUPS = {
    "non_innovators": -0.62,
    "innovators": -0.57,
    "super_innovators": -0.38,
    "low_acceptance": -0.59,
    "med_acceptance": -0.60,
    "high_acceptance": -0.43,
}
PAPER_BETA = {"close": 0.51, "gendered": 0.34}
TASKS = ("antecedents", "closeness_gender", "human_ratings")

PROBE = ProbeSpec(
    name="singular_they",
    title=(
        "Singular they: pronoun surprisal by antecedent type, closeness and gender (Watson "
        "et al. 2023; design of Camilliere et al. 2021)"
    ),
    paper="004",
    language="en",
    tasks=TASKS,
    metrics=(
        *(
            MetricSpec(
                f"surprisal_{c}", f"mean surprisal (nats) of the pronoun, antecedent: {LABELS[c]}", None, "model"
            )
            for c in ALL_CONDITIONS
        ),
        MetricSpec(
            "specific_minus_quantified",
            "mean surprisal over the 6 specific singular antecedent types − quantified: >0 = they is harder for a "
            "specific person than for 'every dentist' (the non-innovative pattern)",
            None,
            "model",
        ),
        MetricSpec(
            "inanimate_minus_specific",
            "surprisal(inanimate) − mean over the 6 specific singular types: >0 = the model "
            "rejects they for things more than for people",
            None,
            "model",
        ),
        MetricSpec(
            "pattern_checks",
            "share of the paper's 4 human-pattern checks the model shows (plural/quantified easiest, "
            "inanimate hardest, close harder, gendered harder)",
            None,
            "model",
        ),
        MetricSpec(
            "beta_close", "mixed-model effect of a socially close antecedent on surprisal (nats)", None, "model"
        ),
        MetricSpec(
            "beta_gendered",
            "mixed-model effect of a gendered antecedent on surprisal (nats): how much gender cues lower P(they)",
            False,
            "model",
        ),
        MetricSpec("p_close", "p-value of beta_close", None, "model"),
        MetricSpec("p_gendered", "p-value of beta_gendered", None, "model"),
        *(
            MetricSpec(
                f"r_{g}", f"Pearson r of surprisal with the mean rating of group {g} (user ratings file)", None, "human"
            )
            for g in PAPER_GROUPS
        ),
        MetricSpec(
            "r_all",
            "Pearson r of surprisal with the mean rating over all participants (user ratings file)",
            None,
            "human",
        ),
    ),
)


def surprisal(logprob: np.ndarray) -> np.ndarray:
    """Step 1. Surprisal in nats = −log P."""
    return -np.asarray(logprob, dtype=float)


def score_model(lm: Any, stimuli: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """Step 1 with one engine call: every pronoun form scored in every stimulus, the item's own
    form kept. Masked: `fill_slot` on the templates; causal: `next_token` on the left contexts.

    Returns (stimuli + columns logprob, surprisal, n_pieces; estimator).
    """
    forms = sorted(set(stimuli["pronoun"]))
    if lm.family == "masked":
        scores = lm.fill_slot(stimuli["template"].tolist(), forms)
    else:
        scores = lm.next_token(stimuli["prompt"].tolist(), forms)
    rows = np.arange(len(stimuli))
    cols = np.array([forms.index(p) for p in stimuli["pronoun"]])
    logprob = np.asarray(scores.logprob, dtype=float)[rows, cols]
    out = stimuli.assign(
        logprob=logprob, surprisal=surprisal(logprob), n_pieces=np.asarray(scores.n_pieces)[rows, cols]
    )
    return out, scores.estimator


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


def _normal_group(name: str) -> str:
    return "_".join(str(name).strip().lower().replace("-", " ").split())


def read_ratings(path: str | Path) -> pd.DataFrame:
    """Step 5 input. A CSV with columns item, condition, group, rating (one row per rating).

    item: F01-F40 / C01-C15 as in `they_stimuli`; condition: one of the 9 condition names;
    group: a participant group of the paper's Table 4 (non-innovators, innovators,
    super-innovators, low/med/high acceptance; spaces, hyphens and case are free); rating: a number
    (higher = more natural). Extra columns are ignored.
    """
    path = Path(path).expanduser()
    if not path.is_file():
        raise DataError(f"{RATINGS_ENV}={str(path)!r}: no such file.")
    frame = pd.read_csv(path)
    missing = [c for c in RATING_COLUMNS if c not in frame.columns]
    if missing:
        raise DataError(f"{path}: missing columns {missing}; expected {list(RATING_COLUMNS)}.")
    frame = frame[list(RATING_COLUMNS)].copy()
    frame["group"] = frame["group"].map(_normal_group)
    unknown = sorted(set(frame["group"]) - set(PAPER_GROUPS))
    if unknown:
        raise DataError(f"{path}: unknown participant group(s) {unknown}; known: {', '.join(PAPER_GROUPS)}.")
    bad = sorted(set(frame["condition"]) - set(ALL_CONDITIONS))
    if bad:
        raise DataError(f"{path}: unknown condition(s) {bad}; known: {', '.join(ALL_CONDITIONS)}.")
    frame["rating"] = pd.to_numeric(frame["rating"], errors="coerce")
    if frame["rating"].isna().any():
        raise DataError(f"{path}: {int(frame['rating'].isna().sum())} rating(s) are not numbers.")
    return frame


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


def surprisal_figure(table: pd.DataFrame, title: str, ratings: pd.DataFrame | None = None):  # noqa: ANN201
    """The paper's Figure 4: (a) mean rating per group if given, (b) mean surprisal per antecedent type, 95% CIs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = 2 if ratings is not None else 1
    fig, axes = plt.subplots(1, panels, figsize=(7 * panels, 4), squeeze=False)
    ax = axes[0][-1]
    x = np.arange(len(table))
    err = np.vstack([table["mean"] - table["ci_low"], table["ci_high"] - table["mean"]])
    ax.bar(x, table["mean"], yerr=err, color="#4477aa", capsize=3)
    ax.set_xticks(x, [LABELS[c] for c in table["condition"]], rotation=45, ha="right")
    ax.set_ylabel("surprisal (nats; higher = less expected)")
    ax.set_title("model")
    if ratings is not None:
        ax0 = axes[0][0]
        groups = list(dict.fromkeys(ratings["group"]))
        width = 0.8 / max(len(groups), 1)
        for k, group in enumerate(groups):
            part = ratings[ratings["group"] == group].groupby("condition")["rating"].mean()
            values = [float(part.get(c, np.nan)) for c in table["condition"]]
            ax0.bar(x + (k - (len(groups) - 1) / 2) * width, values, width, label=group)
        ax0.set_xticks(x, [LABELS[c] for c in table["condition"]], rotation=45, ha="right")
        ax0.set_ylabel("mean rating (higher = more natural)")
        ax0.set_title("participants")
        ax0.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    return fig
