"""role_nouns figures (matplotlib, imported on first use)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from biascheck.methods.role_nouns.math import RoleNounScores, category_shares, human_shares
from biascheck.methods.role_nouns.reference import Reference
from biascheck.methods.role_nouns.spec import NAME_GENDERS, SPLIT_OF_TASK
from biascheck.settings import ProbeSettings
from biascheck.spec import Artifact


def shares_figure(human: pd.DataFrame, model: pd.DataFrame, prior: pd.DataFrame, split: int, title: str) -> Any:
    """The paper's Figure 1 (3-way) / Figure 3 (2-way): response shares by group and name gender,
    next to the model's and the frequency prior's mean P(V|C)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cats = ["fem", "masc", "neut"] if split == 3 else ["fem", "masc"]
    colors = {"fem": "#e69f00", "masc": "#222222", "neut": "#009e73"}
    labels = {"fem": "FEM", "masc": "MASC" if split == 3 else "MASC/G-NEUT", "neut": "G-NEUT"}
    panels = []
    h = human[human["split"] == split]
    for group in ("progressive", "moderate", "conservative"):
        panels.append((group, h[h["attitude"] == group]))
    panels.append(("model", model[model["split"] == split]))
    panels.append(("frequency prior", prior[prior["split"] == split]))
    fig, axes = plt.subplots(1, len(panels), figsize=(3.0 * len(panels), 3.2), sharey=True)
    width = 0.8 / len(cats)
    for ax, (label, frame) in zip(axes, panels, strict=False):
        for j, cat in enumerate(cats):
            values = [
                float(frame.loc[frame["name_gender"] == g, cat].iloc[0])
                if cat in frame and (frame["name_gender"] == g).any()
                else 0.0
                for g in NAME_GENDERS
            ]
            ax.bar(
                np.arange(2) + (j - (len(cats) - 1) / 2) * width, values, width, color=colors[cat], label=labels[cat]
            )
        ax.set_xticks([0, 1], ["women's names", "men's names"])
        ax.set_title(label)
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("share / mean P(V|C)")
    axes[-1].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def task_shares_figure(task: str, scored: RoleNounScores, reference: Reference, title: str) -> Any:
    """`shares_figure` for one task: participants by attitude (the reference's trials), the model's
    predictions and the frequency prior's (the reference's prior_pred)."""
    human = human_shares(reference.trials)
    model = category_shares(scored.predictions)
    prior = category_shares(reference.prior_pred)
    return shares_figure(human, model, prior, SPLIT_OF_TASK[task], title)


def draw(
    task: str, scored: RoleNounScores, reference: Reference, settings: ProbeSettings, model: str
) -> list[Artifact]:
    """One shares figure per task (its split: 3-way or 2-way), titled with the model's name."""
    title = f"{model}: {SPLIT_OF_TASK[task]}-way role nouns, participants by attitude vs model vs frequency prior"
    return [Artifact(f"shares-{task}", figure=task_shares_figure(task, scored, reference, title))]
