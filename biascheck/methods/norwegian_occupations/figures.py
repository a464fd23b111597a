"""norwegian_occupations figures (matplotlib, imported on first use): both span every task of a model, so
they are drawn once per model, by whichever task runs first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from biascheck.methods.norwegian_occupations.math import f1_scores
from biascheck.methods.norwegian_occupations.reference import Reference
from biascheck.methods.norwegian_occupations.score import Scored
from biascheck.methods.norwegian_occupations.spec import (
    BALANCED,
    BALANCED_POINTS,
    CLEARLY_FEMALE,
    CLEARLY_MALE,
    OTHER,
    TASK_TITLES,
    TASKS,
)
from biascheck.settings import ProbeSettings
from biascheck.spec import Artifact

# The paper's Figure 6: balanced (diplomat, doctor, associate professor, judge), female-dominated
# (midwife, secretary, nurse) and male-dominated (pilot, plumber, bricklayer) occupations.
FIGURE6 = (
    "diplomat",
    "lege",
    "førsteamanuensis",
    "dommer",
    "jordmor",
    "sekretær",
    "sykepleier",
    "pilot",
    "rørlegger",
    "murer",
)


def draw(task: str, scored: Scored, reference: Reference, settings: ProbeSettings, model: str) -> list[Artifact]:
    """Figure 6 and the scatter of every occupation, each over all tasks: saved once per model."""
    return [
        Artifact("figure6", figure=figure6(scored, model), once=True),
        Artifact("scatter", figure=scatter(scored, model), once=True),
    ]


def figure6(scored: Scored, model: str, selected: Sequence[str] = FIGURE6) -> Any:
    """Bars of gold and model f % - m % for the selected occupations, every task (paper's Figure 6
    shows task 1 for six models; a run has one model, so its tasks stand side by side)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tasks = scored.tasks
    tables = {t: tasks[t].table.set_index("form") for t in ("task1", "task2", "task3", "task4") if t in tasks}
    task5 = [tasks[t].table for t in ("task5_b", "task5_ub") if t in tasks]
    if task5:
        tables["task5"] = pd.concat(task5).set_index("form")
    titles = {**TASK_TITLES, "task5": "[occupation, definite] [name]"}
    base = next(iter(tables.values()))
    chosen = [s for s in selected if s in base.index]
    width = 0.8 / (1 + len(tables))
    fig, ax = plt.subplots(figsize=(13, 4.5))
    x = np.arange(len(chosen))
    ax.bar(x, base.loc[chosen, "gold_diff"], width, label="gold (Statistics Norway)", color="black")
    for k, (task, table) in enumerate(tables.items(), start=1):
        values = table["model_diff"].reindex(chosen)  # NaN (no bar) where task 5 leaves an occupation out
        ax.bar(x + k * width, values, width, label=f"{task}: {titles[task]}", color=f"C{k - 1}")
    ax.axhline(0, color="black", lw=0.8)
    ax.axhspan(-BALANCED_POINTS, BALANCED_POINTS, color="grey", alpha=0.15, lw=0)
    ax.set_xticks(x + width * len(tables) / 2, chosen, rotation=20)
    ax.set_ylabel("female % - male %")
    ax.set_ylim(-105, 105)
    ax.set_title(f"{model}: gold vs model for balanced and clearly gendered occupations (cf. paper Fig. 6)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def scatter(scored: Scored, model: str) -> Any:
    """Gold vs model f % - m % for every occupation, one panel per task, coloured by subset."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = {BALANCED: "tab:orange", CLEARLY_FEMALE: "tab:red", CLEARLY_MALE: "tab:blue", OTHER: "lightgrey"}
    tasks = [t for t in TASKS if t in scored.tasks]
    fig, axes = plt.subplots(2, 3, figsize=(13, 8), sharex=True, sharey=True)
    for ax, task in zip(axes.flat, tasks, strict=False):
        table = scored.tasks[task].table
        for subset, colour in colours.items():
            part = table[table["subset"] == subset]
            if len(part):
                ax.scatter(part["gold_diff"], part["model_diff"], s=8, c=colour, label=subset or "other", alpha=0.8)
        ax.axhline(0, color="black", lw=0.6)
        ax.axvline(0, color="black", lw=0.6)
        f1 = f1_scores(table["gold_diff"].to_numpy() > 0, table["pred_female"].to_numpy(bool))["macro_f1"]
        ax.set_title(f"{task} (n={len(table)}, macro F1 {f1:.2f})", fontsize=9)
    for ax in axes[-1]:
        ax.set_xlabel("gold: female % - male %")
    for ax in axes[:, 0]:
        ax.set_ylabel("model: f % - m %")
    axes.flat[0].legend(fontsize=7)
    fig.suptitle(f"{model}: every occupation, model vs Statistics Norway (quadrants I and III agree)")
    fig.tight_layout()
    return fig
