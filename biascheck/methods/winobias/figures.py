"""winobias figures (matplotlib, imported on first use)."""

from __future__ import annotations

from typing import Any

import numpy as np

from biascheck.methods.winobias.score import Scored


def diff_histogram(scored: Scored, title: str) -> Any:
    """score(pro) - score(anti) per minimal pair, type 1 and type 2 apart; right of 0 = pro preferred."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frame = scored.pairs
    diff = frame["diff"].to_numpy(dtype=float)
    bins = np.linspace(np.min(diff, initial=-1.0), np.max(diff, initial=1.0), 41)
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for kind, colour in ((1, "#cc6677"), (2, "#4477aa")):
        part = diff[(frame["type"] == kind).to_numpy()]
        share = float(np.mean(part > 0)) if len(part) else float("nan")
        ax.hist(part, bins=bins, alpha=0.6, color=colour, label=f"type {kind} (n={len(part)}, {share:.0%} > 0)")
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel("score(pro-stereotypical) - score(anti-stereotypical), nats")
    ax.set_ylabel("pairs")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    return fig
