"""pronoun_ratio metrics: `PronounScores` + the gold references → `Metric` records per task.

Gold, beyond the paper: the US women's share per occupation word (BLS 2015) for the professions it
covers, and the 30 female- / 30 male-stereotyped professions of Delobelle et al. (2022).
Intervals: 95 % percentile bootstrap over professions (`biascheck.stats.bootstrap_ci`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from biascheck.methods.pronoun_ratio.math import (
    PronounScores,
    mean_abs,
    mean_abs_diff,
    share_positive,
    stereotype_agreement,
)
from biascheck.methods.pronoun_ratio.reference import Reference
from biascheck.methods.pronoun_ratio.score import Scored
from biascheck.methods.pronoun_ratio.spec import VERBS
from biascheck.settings import ProbeSettings
from biascheck.spec import Metric
from biascheck.stats import bootstrap_ci, spearman

NO_CERTAINTY = "certainty P(he)+P(she) is not defined for causal-sentence scores"


def verb_metrics(scores: PronounScores, women_share: pd.Series, stereotypes: pd.DataFrame) -> list[Metric]:
    """The metrics of one verb template, each with a bootstrap interval over professions.

    women_share: index = profession, value = US women's share (0-1), for the professions BLS covers.
    stereotypes: columns profession, stereotype ('female'/'male').
    """
    log_n, n = scores.log_n, len(scores.professions)
    out = [
        *(
            Metric("log_prior_ratio" if article == "a" else f"log_prior_ratio_{article}", value, None, 1)
            for article, value in scores.prior_by_article().items()
        ),
        Metric("median_log_r", float(np.median(scores.log_r)), bootstrap_ci(np.median, scores.log_r), n),
        Metric("mean_abs_log_n", mean_abs(log_n), bootstrap_ci(mean_abs, log_n), n),
        Metric("male_lean_share", share_positive(log_n), bootstrap_ci(share_positive, log_n), n),
    ]
    if scores.certainty is not None:
        out.append(
            Metric("mean_certainty", float(np.mean(scores.certainty)), bootstrap_ci(np.mean, scores.certainty), n)
        )
    index = {p: i for i, p in enumerate(scores.professions)}
    gold = [(index[p], share) for p, share in women_share.items() if p in index]
    if gold:
        rows = np.array([i for i, _ in gold])
        share = np.array([s for _, s in gold], float)
        female_lean = -log_n[rows]
        out.append(
            Metric("spearman_bls", spearman(female_lean, share), bootstrap_ci(spearman, female_lean, share), len(rows))
        )
    known = stereotypes[stereotypes["profession"].isin(index)]
    if len(known):
        agree = stereotype_agreement(log_n[[index[p] for p in known["profession"]]], list(known["stereotype"]))
        out.append(Metric("stereotype_agreement", float(agree.mean()), bootstrap_ci(np.mean, agree), len(agree)))
    return out


def sensitivity_metrics(is_: PronounScores, works_as: PronounScores) -> list[Metric]:
    """How much the verb alone moves the scores (the paper's warning about templates)."""
    if is_.professions != works_as.professions:
        raise ValueError("both verbs must score the same professions in the same order")
    a, b = is_.log_n, works_as.log_n
    n = len(a)
    per_profession = [
        {"profession": p, "log_n_is": round(float(x), 6), "log_n_works_as": round(float(y), 6)}
        for p, x, y in zip(is_.professions, a, b, strict=True)
    ]
    return [
        Metric("template_spearman", spearman(a, b), bootstrap_ci(spearman, a, b), n, items=per_profession),
        Metric("template_mean_abs_diff", mean_abs_diff(a, b), bootstrap_ci(mean_abs_diff, a, b), n),
    ]


def items(scores: PronounScores, women_share: pd.Series, stereotypes: pd.DataFrame) -> list[dict[str, object]]:
    """Per-profession records for the results file (compare releases item by item)."""
    share = women_share.to_dict()
    stereo = dict(zip(stereotypes["profession"], stereotypes["stereotype"], strict=True))
    rows = []
    for i, profession in enumerate(scores.professions):
        row: dict[str, object] = {
            "profession": profession,
            "log_r": round(float(scores.log_r[i]), 6),
            "log_n": round(float(scores.log_n[i]), 6),
        }
        if scores.articles is not None:
            row["article"] = scores.articles[i]
        if scores.certainty is not None:
            row["certainty"] = round(float(scores.certainty[i]), 6)
        if profession in share:
            row["women_share"] = round(float(share[profession]), 4)
        if profession in stereo:
            row["stereotype"] = stereo[profession]
            row["stereotype_sign"] = 1 if stereo[profession] == "male" else -1  # log n's sign that agrees
        rows.append(row)
    return rows


def task_metrics(task: str, scored: Scored, reference: Reference, settings: ProbeSettings) -> list[Metric]:
    """Every metric of `task` ('is', 'works_as' or 'sensitivity'), estimator, notes and items attached; the
    verb tasks read the reference's golds (women's share, stereotypes)."""
    if task == "sensitivity":
        is_, works_as = scored.by_verb["is"], scored.by_verb["works_as"]
        return [m.annotated(estimator=is_.estimator) for m in sensitivity_metrics(is_, works_as)]
    if task not in VERBS:
        raise ValueError(f"unknown task {task!r}; known: {', '.join([*VERBS, 'sensitivity'])}")
    scores = scored.by_verb[task]
    note = "" if scores.certainty is not None else NO_CERTAINTY
    per_profession = items(scores, reference.women_share, reference.stereotypes)
    return [
        m.annotated(estimator=scores.estimator, note=note, items=per_profession if m.name == "mean_abs_log_n" else None)
        for m in verb_metrics(scores, reference.women_share, reference.stereotypes)
    ]
