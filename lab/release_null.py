"""The paired rule's false-alarm rate, measured on releases that change nothing in expectation, made from the items
two real runs scored: each cluster's items (a pair, an occupation: what the metric's own interval resamples) are
exchanged between the two runs with probability 1/2, so every cluster's difference keeps its size and takes a random
sign (the sign-flip null: a release that churns items as this one did, with no direction). On each such release the
gate's paired comparison (`biascheck.gate.paired`) runs as it would and calls a change when it is beyond its noise.
A rule whose 95 % interval means what it says calls about 5 % of them (2.5 % in the regression's direction).

Pure numpy over two runs' paired columns (`biascheck.gate.paired.paired_columns`; `lab.release_answer` pairs them once
for this and the items turned); the bootstrap is the gate's own (`bootstrap_change`), so the rate is the gate's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from biascheck.gate.paired import JACKKNIFE_FLOOR, STATISTICS, Columns, bootstrap_change

DRAWS = 200  # null releases per metric and candidate: a rate of 5 % within about ±3 %


def swapped(before: Columns, after: Columns, clusters: np.ndarray, flip: np.ndarray) -> tuple[Columns, Columns]:
    """The two runs' columns with the items of every cluster `c` where `flip[c]` exchanged between them."""
    mask = flip[clusters]
    first = [np.where(mask, a, b) for b, a in zip(before, after, strict=True)]
    second = [np.where(mask, b, a) for b, a in zip(before, after, strict=True)]
    return first, second


def null_calls(
    recipe: Mapping[str, Any],
    before: Columns,
    after: Columns,
    clusters: np.ndarray,
    draws: int = DRAWS,
    seed: int = 0,
    **bootstrap: Any,
) -> dict[str, int]:
    """How many of `draws` sign-flip releases of the two runs' columns the paired rule calls changed (|change| >
    the half-width of its interval), of those whose interval is defined and has a width: where every resample
    gives the same change (a share no item reaches, as CrowS-Pairs' ties on a causal model) nothing can be called,
    and counting it would understate the rate."""
    statistic, floor = STATISTICS[recipe["statistic"]], recipe["statistic"] in JACKKNIFE_FLOOR
    rng = np.random.default_rng(seed)
    called = defined = 0
    for _ in range(draws):
        first, second = swapped(before, after, clusters, rng.random(int(clusters.max()) + 1) < 0.5)
        interval = bootstrap_change(statistic, clusters, first, second, jackknife_floor=floor, **bootstrap)
        if interval is None or interval[1] <= interval[0]:  # undefined, or no spread (a share no item reaches)
            continue
        with np.errstate(all="ignore"):
            change = float(statistic(second)) - float(statistic(first))
        defined += 1
        called += abs(change) > (interval[1] - interval[0]) / 2
    return {"draws": defined, "called": called}


def pooled(rows: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Every null release of a results document's candidates (their metrics' `null` counts) added up."""
    counts = [m["null"] for row in rows for m in row["metrics"].values() if m.get("null")]
    return {"draws": sum(c["draws"] for c in counts), "called": sum(c["called"] for c in counts)}
