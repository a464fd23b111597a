"""winobias figures (matplotlib, imported on first use)."""

from __future__ import annotations

from typing import Any

from biascheck.methods.pair_plots import difference_histogram
from biascheck.methods.winobias.reference import Reference
from biascheck.methods.winobias.score import Scored
from biascheck.settings import ProbeSettings
from biascheck.spec import Artifact


def draw(task: str, scored: Scored, reference: Reference, settings: ProbeSettings, model: str) -> list[Artifact]:
    """One histogram of both types, drawn with the type 1 task."""
    if task != "type1":
        return []
    title = f"{model}: WinoBias, pro- vs anti-stereotypical sentence"
    return [Artifact("differences", figure=diff_histogram(scored, title))]


def diff_histogram(scored: Scored, title: str) -> Any:
    """score(pro) - score(anti) per minimal pair, type 1 and type 2 apart; right of 0 = pro preferred."""
    frame = scored.pairs
    groups = {f"type {kind}": (frame["type"] == kind).to_numpy() for kind in (1, 2)}
    xlabel = "score(pro-stereotypical) - score(anti-stereotypical), nats"
    return difference_histogram(frame["diff"].to_numpy(dtype=float), groups, xlabel, title)
