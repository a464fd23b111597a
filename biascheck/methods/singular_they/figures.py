"""singular_they figures (matplotlib, imported on first use)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from biascheck.methods.singular_they.math import TheyScores, by_condition
from biascheck.methods.singular_they.reference import Reference
from biascheck.methods.singular_they.spec import LABELS
from biascheck.settings import ProbeSettings
from biascheck.spec import Artifact


def draw(task: str, scored: TheyScores, reference: Reference, settings: ProbeSettings, model: str) -> list[Artifact]:
    """The surprisal figure, drawn with the antecedents task (whose means it shows), beside the reference's
    ratings when there are any."""
    if task != "antecedents":
        return []
    title = f"{model}: surprisal of they/them/their/themselves ({scored.estimator})"
    return [Artifact("surprisal", figure=surprisal_figure(scored, title, reference.ratings))]


def surprisal_figure(scores: TheyScores, title: str, ratings: pd.DataFrame | None = None) -> Any:
    """The paper's Figure 4: (a) mean rating per group if given, (b) mean surprisal per antecedent type, 95% CIs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = by_condition(scores.frame)
    panels = 2 if ratings is not None else 1
    fig, axes = plt.subplots(1, panels, figsize=(7 * panels, 4), squeeze=False)
    ax = axes[0][-1]
    x = np.arange(len(table))
    err = np.vstack([table["mean"] - table["ci_low"], table["ci_high"] - table["mean"]])
    ax.bar(x, table["mean"], yerr=err, color="#4477aa", capsize=3)
    ax.set_xticks(x, [LABELS[c] for c in table["condition"]], rotation=45, ha="right")
    ax.set_ylabel("surprisal (nats; higher = less expected)")
    ax.set_title("model")
    if ratings is not None:
        ax0 = axes[0][0]
        groups = list(dict.fromkeys(ratings["group"]))
        width = 0.8 / max(len(groups), 1)
        for k, group in enumerate(groups):
            part = ratings[ratings["group"] == group].groupby("condition")["rating"].mean()
            values = [float(part.get(c, np.nan)) for c in table["condition"]]
            ax0.bar(x + (k - (len(groups) - 1) / 2) * width, values, width, label=group)
        ax0.set_xticks(x, [LABELS[c] for c in table["condition"]], rotation=45, ha="right")
        ax0.set_ylabel("mean rating (higher = more natural)")
        ax0.set_title("participants")
        ax0.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    return fig
