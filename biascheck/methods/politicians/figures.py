"""politicians figures (matplotlib, imported on first use)."""

from __future__ import annotations

from typing import Any

import numpy as np

from biascheck.methods.politicians.metrics import Analysis
from biascheck.methods.politicians.spec import TOP_WORDS

_GENDERS = (("female", "#cc6677"), ("male", "#4477aa"))


def sentiment_figure(analysis: Analysis, title: str) -> Any:
    """Fig 4 / 6: share of negative, neutral and positive lemmas among each gender's 100 highest-PMI
    lemmas, adjectives and verbs; '×' over a sentiment whose gap has permutation p < 0.05."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(analysis.shares), figsize=(5 * len(analysis.shares), 3.6), squeeze=False)
    x = np.arange(3)
    for ax, (pos, shares) in zip(axes[0], analysis.shares.items(), strict=True):
        for k, (gender, colour) in enumerate(_GENDERS):
            values = [shares.get(f"share_{s}_{gender}", np.nan) for s in ("neg", "neu", "pos")]
            ax.bar(x + (k - 0.5) * 0.38, values, 0.38, color=colour, label=gender)
        for s in ("neg", "pos"):
            p = analysis.p_values[pos].get(f"{s}_gap", np.nan)
            if np.isfinite(p) and p < 0.05:
                j = 0 if s == "neg" else 2
                top = max(shares.get(f"share_{s}_female", 0), shares.get(f"share_{s}_male", 0))
                ax.text(j, top + 0.02, "×", ha="center", fontsize=14)
        ax.set_xticks(x, ["negative", "neutral", "positive"])
        ax.set_ylim(0, 1)
        ax.set_ylabel(f"share of the top {TOP_WORDS} by PMI")
        ax.set_title("adjectives" if pos == "adj" else "verbs")
        ax.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def supersense_figure(analysis: Analysis, title: str) -> Any:
    """Fig 3: per part of speech (rows) and sentiment (columns), the share of each supersense among each
    gender's 100 largest-η words; '×' after a class whose difference is significant (Bonferroni)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tables = analysis.supersenses
    sentiments = ("neg", "neu", "pos")
    fig, axes = plt.subplots(len(tables), 3, figsize=(13, 4.2 * len(tables)), squeeze=False)
    for row, (pos, table) in zip(axes, tables.items(), strict=True):
        for ax, s in zip(row, sentiments, strict=True):
            part = table[table["sentiment"] == s].reset_index(drop=True)
            y = np.arange(len(part))
            for k, (gender, colour) in enumerate(_GENDERS):
                ax.barh(y + (k - 0.5) * 0.4, part[f"share_{gender}"], 0.4, color=colour, label=gender)
            for j, r in part.iterrows():
                if r["significant"]:
                    ax.text(max(r["share_female"], r["share_male"]) + 0.01, j, "×", va="center", fontsize=12)
            ax.set_yticks(y, part["supersense"], fontsize=8)
            ax.invert_yaxis()
            ax.set_xlabel(f"share of the top {TOP_WORDS} by η")
            ax.set_title(f"{'adjectives' if pos == 'adj' else 'verbs'}, {s}")
        row[0].legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    return fig
