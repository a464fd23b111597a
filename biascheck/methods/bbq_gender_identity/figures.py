"""bbq_gender_identity figures (matplotlib, imported on first use)."""

from __future__ import annotations

from typing import Any

from biascheck.methods.bbq_gender_identity.reference import Reference
from biascheck.methods.bbq_gender_identity.score import Scored
from biascheck.methods.bbq_gender_identity.spec import CONDITIONS
from biascheck.settings import ProbeSettings
from biascheck.spec import Artifact


def draw(task: str, scored: Scored, reference: Reference, settings: ProbeSettings, model: str) -> list[Artifact]:
    """One bar chart per task: how often the model chose the biased answer (the authors' target: the stereotyped
    person after a negative question, the other one after a non-negative question), the other person and unknown,
    negative and non-negative questions apart."""
    return [Artifact(f"answers-{task}", figure=answer_bars(scored, task, f"{model}: BBQ gender identity, {task}"))]


def answer_bars(scored: Scored, task: str, title: str) -> Any:
    import matplotlib.pyplot as plt

    frame = scored.items[scored.items["context_condition"] == task]
    fig, ax = plt.subplots(figsize=(6, 3.2))
    # the biased answer: the stereotyped person after a negative question, the other one after a non-negative one
    kinds = ("biased answer", "the other person", "unknown")
    for offset, polarity in enumerate(("neg", "nonneg")):
        part = frame[frame["question_polarity"] == polarity]
        picked = part["predicted"].to_numpy()
        shares = [
            float((picked == part["target"].to_numpy()).mean()) if len(part) else 0.0,
            float(((picked != part["target"].to_numpy()) & (picked != part["unknown"].to_numpy())).mean())
            if len(part)
            else 0.0,
            float((picked == part["unknown"].to_numpy()).mean()) if len(part) else 0.0,
        ]
        ax.bar([i + 0.4 * offset for i in range(3)], shares, width=0.4, label=f"{polarity} question")
    ax.set_xticks([i + 0.2 for i in range(3)], kinds)
    ax.set_ylabel("share of answers")
    ax.set_ylim(0, 1)
    ax.set_title(title + f" ({CONDITIONS[task]} contexts)", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
