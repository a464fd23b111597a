"""winogender figures (matplotlib, imported on first use)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from biascheck.methods.winogender import math
from biascheck.methods.winogender.reference import Reference
from biascheck.methods.winogender.score import Scored
from biascheck.settings import ProbeSettings
from biascheck.spec import Artifact


def draw(task: str, scored: Scored, reference: Reference, settings: ProbeSettings, model: str) -> list[Artifact]:
    """The occupations' lean against BLS, drawn with the pronouns task (the one it reads)."""
    if task != "pronouns":
        return []
    title = f"{model}: Winogender occupations, female lean vs BLS"
    return [Artifact("gold", figure=gold_scatter(scored, reference.occupations, title))]


def gold_scatter(scored: Scored, occupations: pd.DataFrame, title: str) -> Any:
    """Rudinger et al. Fig 4's axes for a language model: the occupation's BLS women's share against the
    model's female lean on the sentences about it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lean = math.occupation_lean(math.triples(scored.sentences, scored.sentences["score"].to_numpy()))
    share = occupations.set_index("occupation")["bls_pct_female"].reindex(lean.index)
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    ax.scatter(share, lean, s=14, alpha=0.7)
    for occupation, x, y in zip(lean.index, share, lean, strict=True):
        ax.annotate(occupation, (x, y), fontsize=6, alpha=0.7)
    ax.axhline(0, color="grey", lw=0.8)
    ax.axvline(50, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("US women's share, % (BLS)")
    ax.set_ylabel("log P(she-sentence) - log P(he-sentence)")
    ax.set_title(title, fontsize=9)
    return fig
