"""politicians figures (matplotlib, imported on first use) and text tables, per task (a language): Fig 4 / 6
(sentiment of each gender's highest-PMI words), Tab 3 (top PMI differences), Tab 4 (largest η) and, en,
Fig 3 (supersenses), all read from the task's analysis (`metrics.analysed`, made once per task)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from biascheck.methods.politicians.metrics import Analysis, analysed
from biascheck.methods.politicians.reference import Reference
from biascheck.methods.politicians.score import Scored
from biascheck.methods.politicians.spec import TOP_WORDS
from biascheck.settings import ProbeSettings
from biascheck.spec import Artifact

_GENDERS = (("female", "#cc6677"), ("male", "#4477aa"))


def draw(task: str, scored: Scored, reference: Reference, settings: ProbeSettings, model: str) -> list[Artifact]:
    """The task's sentiment figure, its Tab 3 and Tab 4 texts and, en, its supersense text and figure."""
    analysis = analysed(task, scored, reference, settings)
    title = f"{model}: sentiment of the words most associated with women's / men's names ({task})"
    out = [
        Artifact(f"sentiment-{task}", figure=sentiment_figure(analysis, title)),
        Artifact(f"top-pmi-{task}", text=top_table(analysis.tables["adj"]).to_string(index=False)),
    ]
    for pos, table in analysis.eta_tables.items():
        out.append(Artifact(f"top-eta-{pos}-{task}", text=table.to_string(index=False)))
    if analysis.supersenses:
        title = f"{model}: supersenses of the words with the largest η, by gender ({task})"
        out.append(Artifact(f"supersenses-{task}", text=supersense_text(analysis.supersenses)))
        out.append(Artifact(f"supersenses-{task}", figure=supersense_figure(analysis, title)))
    return out


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


def top_table(table: pd.DataFrame, k: int = 15) -> pd.DataFrame:
    """Tab 3: the k lemmas with the largest PMI_female - PMI_male and the k with the smallest."""
    ranked = table.dropna(subset=["pmi_diff"]).sort_values(["pmi_diff", "lemma"], ascending=[False, True])
    cols = ["lemma", "pmi_diff", "sentiment", "names"]
    female = ranked.head(k)[cols].reset_index(drop=True)
    male = ranked.tail(k).iloc[::-1][cols].reset_index(drop=True)
    return pd.concat([female.add_prefix("female_"), male.add_prefix("male_")], axis=1)


def supersense_text(tables: dict[str, pd.DataFrame]) -> str:
    """The Fig 3 tables as text: per part of speech, the rows of `supersense.supersense_table`."""
    parts = []
    for pos, table in tables.items():
        shown = table.round({"share_female": 3, "share_male": 3, "diff": 3, "p": 4})
        parts.append(f"{'adjectives' if pos == 'adj' else 'verbs'}\n{shown.to_string(index=False)}")
    return "\n\n".join(parts)
