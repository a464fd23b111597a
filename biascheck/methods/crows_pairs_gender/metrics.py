"""crows_pairs_gender metrics: `Scored` -> `Metric` records per task (all pairs, stereo, antistereo).
Intervals: 95 % percentile bootstrap over pairs (`biascheck.stats.bootstrap_ci`)."""

from __future__ import annotations

import numpy as np

from biascheck.methods.crows_pairs_gender.math import prefers_more, ties
from biascheck.methods.crows_pairs_gender.reference import Reference
from biascheck.methods.crows_pairs_gender.score import Scored
from biascheck.methods.crows_pairs_gender.spec import SUBSETS
from biascheck.settings import ProbeSettings
from biascheck.spec import Metric
from biascheck.stats import bootstrap_ci, mean_abs


def task_metrics(task: str, scored: Scored, reference: Reference, settings: ProbeSettings) -> list[Metric]:
    """Every metric of `task` ('all', 'stereo' or 'antistereo'), estimator attached; per-pair items on
    stereo_share of 'all'."""
    if task not in SUBSETS:
        raise ValueError(f"unknown task {task!r}; known: {', '.join(SUBSETS)}")
    frame = scored.pairs
    if SUBSETS[task] is not None:
        frame = frame[frame["stereo_antistereo"] == SUBSETS[task]]
    more, less = frame["score_more"].to_numpy(), frame["score_less"].to_numpy()
    preferred = prefers_more(more, less, scored.decimals)
    tied = ties(more, less, scored.decimals)
    diff = more - less
    n = len(frame)
    rounding = f"scores rounded to {scored.decimals} decimals before comparing (metric.py)" if scored.decimals else ""
    note = f"{n} pairs ({task}); {int(tied.sum())} tied" + (f"; {rounding}" if rounding else "")
    items = None
    if task == "all":
        items = [
            {
                "row": int(r.row),
                "stereo_antistereo": r.stereo_antistereo,
                "score_more": round(float(r.score_more), 4),
                "score_less": round(float(r.score_less), 4),
            }
            for r in frame.itertuples()
        ]
    out = [
        Metric("stereo_share", float(preferred.mean()), bootstrap_ci(np.mean, preferred), n, note=note, items=items),
        Metric("mean_logprob_diff", float(diff.mean()), bootstrap_ci(np.mean, diff), n),
        Metric("mean_abs_logprob_diff", mean_abs(diff), bootstrap_ci(mean_abs, diff), n),
        Metric("neutral_share", float(tied.mean()), None, n),
    ]
    return [m.annotated(estimator=scored.estimator) for m in out]
