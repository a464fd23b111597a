"""winobias metrics: `Scored` -> `Metric` records per task (type1, type2). Intervals: 95 % percentile
bootstrap over pairs."""

from __future__ import annotations

import numpy as np

from biascheck.methods.winobias.reference import Reference
from biascheck.methods.winobias.score import Scored
from biascheck.methods.winobias.spec import TYPES
from biascheck.settings import ProbeSettings
from biascheck.spec import Metric
from biascheck.stats import bootstrap_ci, saved_number


def _share(diff: np.ndarray) -> np.ndarray:
    return (diff > 0).astype(float)


def task_metrics(task: str, scored: Scored, reference: Reference, settings: ProbeSettings) -> list[Metric]:
    if task not in TYPES:
        raise ValueError(f"unknown task {task!r}; known: {', '.join(TYPES)}")
    frame = scored.pairs[scored.pairs["type"] == TYPES[task]]
    diff = frame["diff"].to_numpy(dtype=float)
    pro = _share(diff)
    splits = " + ".join(reference.splits)
    note = f"{len(frame)} minimal pairs ({splits}); {scored.left_out} non-minimal pairs of both types left out"
    items = [
        {
            "pair_id": r.pair_id,
            "occupation": r.occupation,
            "occupation_gender": r.occupation_gender,
            "diff": saved_number(r.diff),
        }
        for r in frame.itertuples()
    ]
    out = [
        Metric("pro_share", float(pro.mean()), bootstrap_ci(np.mean, pro), len(pro), note=note, items=items),
        Metric("mean_pro_anti", float(diff.mean()), bootstrap_ci(np.mean, diff), len(diff)),
    ]
    for gender in ("female", "male"):
        part = _share(diff[(frame["occupation_gender"] == gender).to_numpy()])
        out.append(Metric(f"pro_share_{gender}_occ", float(part.mean()), bootstrap_ci(np.mean, part), len(part)))
    return [m.annotated(estimator=scored.estimator) for m in out]
