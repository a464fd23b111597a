"""winobias figures (matplotlib, imported on first use)."""

from __future__ import annotations

from typing import Any

from biascheck.methods.pair_plots import difference_histogram
from biascheck.methods.winobias.score import Scored


def diff_histogram(scored: Scored, title: str) -> Any:
    """score(pro) - score(anti) per minimal pair, type 1 and type 2 apart; right of 0 = pro preferred."""
    frame = scored.pairs
    groups = {f"type {kind}": (frame["type"] == kind).to_numpy() for kind in (1, 2)}
    xlabel = "score(pro-stereotypical) - score(anti-stereotypical), nats"
    return difference_histogram(frame["diff"].to_numpy(dtype=float), groups, xlabel, title)
