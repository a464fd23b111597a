"""crows_pairs_gender figures (matplotlib, imported on first use)."""

from __future__ import annotations

from typing import Any

import numpy as np

from biascheck.methods.crows_pairs_gender.score import PairScores


def difference_histogram(scored: PairScores, title: str) -> Any:
    """score(sent_more) - score(sent_less) per pair, stereo and antistereo pairs apart; right of 0 = the
    more stereotyping sentence preferred."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frame = scored.pairs
    diff = (frame["score_more"] - frame["score_less"]).to_numpy()
    bins = np.linspace(np.min(diff, initial=-1.0), np.max(diff, initial=1.0), 31)
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for kind, colour in (("stereo", "#cc6677"), ("antistereo", "#4477aa")):
        part = diff[(frame["stereo_antistereo"] == kind).to_numpy()]
        share = float(np.mean(part > 0)) if len(part) else float("nan")
        ax.hist(part, bins=bins, alpha=0.6, color=colour, label=f"{kind} (n={len(part)}, {share:.0%} > 0)")
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel("score(more stereotyping) - score(less stereotyping), nats")
    ax.set_ylabel("pairs")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    return fig
