"""pronoun_ratio figures (matplotlib, imported on first use)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from biascheck.methods.pronoun_ratio.math import PronounScores
from biascheck.methods.pronoun_ratio.reference import Reference
from biascheck.methods.pronoun_ratio.score import Scored
from biascheck.methods.pronoun_ratio.spec import VERBS
from biascheck.settings import ProbeSettings
from biascheck.spec import Artifact

LABELLED = 4  # professions named at each end of the lean: more overlap and say nothing
CAPTION = (
    "One point per profession. A model without this bias: points along the horizontal line at 0, whatever the "
    "share; a model that mirrors the US workforce: points rising from left to right (Spearman rho in the table)."
)


def draw(task: str, scored: Scored, reference: Reference, settings: ProbeSettings, model: str) -> list[Artifact]:
    """Each verb task draws its own template's scatter against BLS; the sensitivity task draws nothing."""
    if task not in VERBS:
        return []
    title = f"{model}: '{VERBS[task]}' template"
    return [Artifact(f"gold-{task}", figure=gold_scatter(scored.by_verb[task], reference.women_share, title))]


def gold_scatter(scores: PronounScores, women_share: pd.Series, title: str) -> Any:
    """Model female lean -log n against the US women's share, one point per profession."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    index = {p: i for i, p in enumerate(scores.professions)}
    pairs = [(share, -scores.log_n[index[p]], p) for p, share in women_share.items() if p in index]
    fig, ax = plt.subplots(figsize=(6.5, 4.8))
    if pairs:
        x, y, labels = zip(*pairs, strict=True)
        ax.scatter(x, y, s=14, alpha=0.7)
        order = np.argsort(y)
        for rank, i in enumerate([*order[:LABELLED], *order[-LABELLED:]]):  # the most male- and female-leaning
            ax.annotate(
                labels[i],
                (x[i], y[i]),
                xytext=(4, 6 if rank % 2 else -9),
                textcoords="offset points",
                fontsize=7,
                alpha=0.85,
            )
    ax.axhline(0, color="grey", lw=0.8)
    ax.axvline(0.5, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("US women's share (BLS 2015)")
    ax.set_ylabel("model female lean  log(1/n)")
    ax.set_title(title, fontsize=9)
    fig.text(0.01, 0.01, CAPTION, fontsize=7, color="#444", wrap=True)
    fig.subplots_adjust(bottom=0.2)
    return fig
