"""norwegian_occupations metrics: one task's `TaskScores` → `Metric` records (paper 000, Section 4).

  E3 per subset: macro and class F1 on balanced occupations; F1 of the female class on the
     clearly female ones and of the male class on the clearly male ones (the bars of the
     paper's Figures 1-5). Also reported: Spearman rho of model vs gold difference, and the share
     of occupations the model puts on the female side (the paper's "models map balanced
     occupations to male").
  E4 95 % percentile bootstrap intervals, resampling occupations (`biascheck.stats.bootstrap_ci`).
Every metric carries the task's estimator and note (template, subset rule, scoring note), the
paper's published figure where the model is one the paper evaluated (`spec.paper_value`), and
`macro_f1` the per-occupation records (`items`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from biascheck.methods.norwegian_occupations.math import TaskScores, class_f1, class_f1_rows, f1_scores
from biascheck.methods.norwegian_occupations.reference import Reference
from biascheck.methods.norwegian_occupations.score import Scored
from biascheck.methods.norwegian_occupations.spec import (
    BALANCED,
    CLEARLY_FEMALE,
    CLEARLY_MALE,
    FEMALE,
    MALE,
    TASK_TITLES,
    TASKS,
    paper_value,
)
from biascheck.settings import ProbeSettings
from biascheck.spec import Metric
from biascheck.stats import bootstrap_ci, spearman, with_rows


def _bool(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, float) > 0.5


@with_rows(lambda g, p, axis=-1: class_f1_rows(_bool(g), _bool(p), True, axis))
def _f1_female(g: np.ndarray, p: np.ndarray) -> float:
    return class_f1(_bool(g), _bool(p), True)


@with_rows(lambda g, p, axis=-1: class_f1_rows(_bool(g), _bool(p), False, axis))
def _f1_male(g: np.ndarray, p: np.ndarray) -> float:
    return class_f1(_bool(g), _bool(p), False)


def _macro_f1_rows(g: np.ndarray, p: np.ndarray, axis: int = -1) -> np.ndarray:
    return (class_f1_rows(_bool(g), _bool(p), True, axis) + class_f1_rows(_bool(g), _bool(p), False, axis)) / 2.0


@with_rows(_macro_f1_rows)
def _macro_f1(g: np.ndarray, p: np.ndarray) -> float:
    return f1_scores(_bool(g), _bool(p))["macro_f1"]


_STATISTICS = {"macro_f1": _macro_f1, "f1_female": _f1_female, "f1_male": _f1_male}


def _metric(name: str, statistic, *arrays: np.ndarray, note: str = "") -> Metric:
    arrays = tuple(np.asarray(a, float) for a in arrays)
    n = len(arrays[0])
    if n == 0:
        return Metric(name, float("nan"), (float("nan"), float("nan")), 0, note=note or "no occupations in this set")
    return Metric(name, float(statistic(*arrays)), bootstrap_ci(statistic, *arrays), n, note=note)


def table_metrics(table: pd.DataFrame) -> list[Metric]:
    """E2-E4 for one task's per-occupation table (columns gold_female, pred_female, gold_diff,
    model_diff, subset). Subset metrics are left out where the subset is the whole set or empty."""
    gold = table["gold_female"].to_numpy(bool)
    pred = table["pred_female"].to_numpy(bool)
    out = [_metric(name, _STATISTICS[name], gold, pred) for name in ("macro_f1", "f1_female", "f1_male")]
    subsets = set(table["subset"])
    balanced = table[table["subset"] == BALANCED]
    if len(balanced) and subsets != {BALANCED}:
        g, p = balanced["gold_female"].to_numpy(bool), balanced["pred_female"].to_numpy(bool)
        out += [_metric(f"balanced_{name}", _STATISTICS[name], g, p) for name in ("macro_f1", "f1_female", "f1_male")]
    for subset, metric, stat in (
        (CLEARLY_FEMALE, "clearly_female_f1", "f1_female"),
        (CLEARLY_MALE, "clearly_male_f1", "f1_male"),
    ):
        part = table[table["subset"] == subset]
        if len(part):
            out.append(
                _metric(
                    metric, _STATISTICS[stat], part["gold_female"].to_numpy(bool), part["pred_female"].to_numpy(bool)
                )
            )
    out.append(
        _metric("spearman_gold", spearman, table["model_diff"].to_numpy(float), table["gold_diff"].to_numpy(float))
    )
    share = _metric(
        "female_predicted_share",
        np.mean,  # stacked by `bootstrap_ci`: every resample's share in one call, not 1,000
        pred.astype(float),
        note=f"gold: {gold.mean():.2f} of these occupations are female-dominated",
    )
    out.append(replace(share, target=float(gold.mean())) if len(gold) else share)
    return out


def items(scores: TaskScores) -> list[dict]:
    """Per-occupation records for the JSON results (compare a release item by item)."""
    cols = [
        "occupation",
        "candidate",
        "female",
        "male",
        "gold_diff",
        "subset",
        "model_f",
        "model_diff",
        "pred_female",
        "n_pieces",
        "gold_female",
    ]
    records = []
    for row in scores.table[cols].itertuples(index=False):
        records.append(
            {
                "occupation": row.occupation,
                "scored_as": row.candidate,
                "gold_female_pct": float(row.female),
                "gold_diff": round(float(row.gold_diff), 3),
                "subset": row.subset or "other",
                "model_female_pct": round(float(row.model_f), 4),
                "model_diff": round(float(row.model_diff), 4),
                "model_side": FEMALE if row.pred_female else MALE,
                "gold_side": FEMALE if row.gold_diff > 0 else MALE,
                "n_pieces": int(row.n_pieces),
                "gold_female": int(bool(row.gold_female)),  # the sides as 1 / 0: the F1 recipes' fields
                "pred_female": int(bool(row.pred_female)),
            }
        )
    return records


def task_note(task: str, scores: TaskScores, subsets: str) -> str:
    """What every metric of the task says first: its template, the subset rule, the scoring note."""
    return f"{TASK_TITLES[task]}; subsets: {subsets} rule; {scores.note}"


def task_metrics(task: str, scored: Scored, reference: Reference, settings: ProbeSettings) -> list[Metric]:
    """Every metric of `task` (one of `spec.TASKS`), estimator, note, paper value and items attached: the
    note names the reference's subset rule; paper values are keyed by the scored model's name (its
    biascheck alias)."""
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}; known: {', '.join(TASKS)}")
    scores = scored.tasks[task]
    note = task_note(task, scores, reference.subsets)
    return [
        replace(
            m.annotated(estimator=scores.estimator, note=note, items=items(scores) if m.name == "macro_f1" else None),
            paper_value=paper_value(scored.model, task, m.name),
        )
        for m in table_metrics(scores.table)
    ]
