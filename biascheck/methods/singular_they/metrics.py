"""singular_they metrics: `TheyScores` (+ the user's ratings) → `Metric` records per task.

Intervals: surprisal means and specific − quantified, 95 % percentile bootstrap over items;
inanimate − specific, over controls and frames independently; regression effects, Wald (β ± 1.96 se);
correlations with human ratings, Fisher z.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from biascheck.methods.singular_they.math import (
    TheyScores,
    by_condition,
    contrast_metrics,
    group_correlations,
    pattern_checks,
    share_passed,
    wald_interval,
)
from biascheck.methods.singular_they.reference import Reference
from biascheck.methods.singular_they.spec import PAPER_BETA, PAPER_GROUPS, RATINGS_ENV, TASKS
from biascheck.settings import ProbeSettings
from biascheck.spec import MLM_SLOT, Metric

NO_RATINGS = f"no human ratings given: Camilliere et al.'s ratings are not public; set {RATINGS_ENV}=ratings.csv"
REGRESSION = (
    "MixedLM surprisal ~ close + gendered (sum coding +-1: beta = half the difference of the levels, the paper's "
    "scale), random intercept per frame"
)


def antecedent_metrics(frame: pd.DataFrame, fit: dict[str, float]) -> list[Metric]:
    """Task antecedents: mean surprisal per antecedent type (paper order), the two contrasts and
    the share of the four human-pattern checks (the checks, yes/no, in its note and items); `fit`
    is `closeness_gender(frame)`."""
    table = by_condition(frame)
    out = [
        Metric(f"surprisal_{row.condition}", row.mean, (row.ci_low, row.ci_high), row.n)
        for row in table.itertuples(index=False)
    ]
    out += [Metric(name, value, ci, n) for name, (value, ci, n) in contrast_metrics(frame).items()]
    means = dict(zip(table["condition"], table["mean"], strict=False))
    checks = pattern_checks(means, fit)
    note = "; ".join(f"{k}: {'yes' if v else 'NO'}" for k, v in checks.items()) + " (regression checks need p < 0.05)"
    items = [{"check": k, "passed": bool(v)} for k, v in checks.items()]
    out.append(Metric("pattern_checks", share_passed(checks), None, len(checks), note=note, items=items))
    return out


def paper_comparable(estimator: str) -> tuple[bool, str]:
    """Whether the paper's BERT figures may stand beside ours, and the note that says so or why not.

    The paper's numbers are masked-slot surprisals (BERT-base-uncased, both contexts visible) on
    Camilliere et al.'s stimuli; a causal model's surprisal sees the left context only, a different
    quantity, so its numbers are shown without the paper's."""
    if estimator.startswith(MLM_SLOT):
        return True, "paper value: BERT-base-uncased (masked slot) on Camilliere et al.'s stimuli; ours are our own"
    return (
        False,
        f"no paper value: the paper's BERT figures are masked-slot surprisals, not comparable with {estimator}",
    )


def closeness_gender_metrics(fit: dict[str, float], estimator: str = MLM_SLOT) -> list[Metric]:
    """Task closeness_gender (paper Table 2): beta_close, p_close, beta_gendered, p_gendered, from
    `fit` = `closeness_gender(frame)`."""
    n = int(fit["n"])
    comparable, paper_note = paper_comparable(estimator)
    note = f"{REGRESSION}; converged: {bool(fit['converged'])}; {paper_note}"
    out = []
    for name in ("close", "gendered"):
        beta, se = fit[f"beta_{name}"], fit[f"se_{name}"]
        paper = PAPER_BETA[name] if comparable else None
        out.append(Metric(f"beta_{name}", beta, wald_interval(beta, se), n, paper_value=paper, note=note))
        out.append(Metric(f"p_{name}", fit[f"p_{name}"], None, n))
    return out


def rating_metrics(
    frame: pd.DataFrame, ratings: pd.DataFrame | None, source: str | Path | None, estimator: str = MLM_SLOT
) -> list[Metric]:
    """Task human_ratings (paper Table 4): r_<group> per group in the file, then r_all; without
    ratings a single r_all = nan that says why."""
    if ratings is None:
        return [Metric("r_all", math.nan, note=NO_RATINGS)]
    comparable, paper_note = paper_comparable(estimator)
    return [
        Metric(
            f"r_{row.group}",
            row.r,
            (row.ci_low, row.ci_high),
            row.n,
            paper_value=PAPER_GROUPS.get(row.group) if comparable else None,
            note=f"p = {row.p:.2g}; ratings: {source}; {paper_note}",
        )
        for row in group_correlations(frame, ratings).itertuples(index=False)
    ]


def task_metrics(task: str, scored: TheyScores, reference: Reference, settings: ProbeSettings) -> list[Metric]:
    """Every metric of `task` ('antecedents', 'closeness_gender' or 'human_ratings'), estimator attached;
    human_ratings correlates with the reference's ratings (the ``ratings`` setting's file), absent without."""
    if task == "antecedents":
        found = antecedent_metrics(scored.frame, scored.fit)
    elif task == "closeness_gender":
        found = closeness_gender_metrics(scored.fit, scored.estimator)
    elif task == "human_ratings":
        found = rating_metrics(scored.frame, reference.ratings, reference.ratings_file, scored.estimator)
    else:
        raise ValueError(f"unknown task {task!r}; known: {', '.join(TASKS)}")
    return [m.annotated(estimator=scored.estimator) for m in found]
