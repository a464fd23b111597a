"""natural_prompts figures (matplotlib, imported on first use) and the paper-style text tables."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from biascheck.methods.natural_prompts.math import Scored, emd
from biascheck.methods.natural_prompts.metrics import metrics_for
from biascheck.methods.natural_prompts.reference import Reference
from biascheck.methods.natural_prompts.spec import FEMALE, HIST_BINS, MALE, NEUTRAL, PRONOUNS, TASKS
from biascheck.settings import ProbeSettings
from biascheck.spec import Artifact, Metric


def draw(task: str, scored: Scored, reference: Reference, settings: ProbeSettings, model: str) -> list[Artifact]:
    """Figure 2 with the ns task; Figure 1 and the paper-style text tables with the default task, the last,
    whose tables read every task's metrics (`metrics_for`, computed once per `scored`). Titles name the
    model as it describes itself (`Scored.model`)."""
    if task == "ns":
        return [Artifact("histograms", figure=figure_histograms(scored))]
    if task == "default":
        tables = format_tables(scored, {t: metrics_for(t, scored) for t in TASKS})
        return [Artifact("default-pronouns", figure=figure_default(scored)), Artifact("tables", text=tables)]
    return []


def figure_histograms(scored: Scored) -> Any:
    """Paper Figure 2: histograms of P(he|x) and P(she|x) under NS (left) and template (right) prompts."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=False)
    edges = np.linspace(0, 1, HIST_BINS + 1)
    for ax, s, title in (
        (axes[0], scored.ns, "natural-sentence prompts"),
        (axes[1], scored.template, "template prompts"),
    ):
        he, she = s.p("he").ravel(), s.p("she").ravel()
        ax.hist(he, bins=edges, alpha=0.6, label=f"P(he)  mean {he.mean():.3f}", color="tab:blue")
        ax.hist(she, bins=edges, alpha=0.6, label=f"P(she) mean {she.mean():.3f}", color="tab:red")
        ax.set_yscale("log")
        ax.set_title(f"{title} (n={he.size}); EMD {emd(he, she):.3f}")
        ax.set_xlabel("probability as the next word")
        ax.legend(fontsize=8)
    axes[0].set_ylabel("prompts (log scale)")
    fig.suptitle(f"{scored.model}: pronoun continuation probabilities ({scored.estimator})")
    fig.tight_layout()
    return fig


def figure_default(scored: Scored) -> Any:
    """Paper Figure 1: probability of each pronoun as the first word after the bare start token (log scale)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    order = list(MALE) + list(NEUTRAL) + list(FEMALE)
    colors = ["tab:blue"] * 3 + ["tab:gray"] * 3 + ["tab:red"] * 3
    fig, ax = plt.subplots(figsize=(7, 3.6))
    x = np.arange(len(order))
    ax.bar(
        x - 0.2,
        [max(scored.default[w], 1e-12) for w in order],
        width=0.4,
        color=colors,
        alpha=0.55,
        label="' he' after the start token (paper's code)",
    )
    if scored.default_initial:
        ax.bar(
            x + 0.2,
            [max(scored.default_initial[w], 1e-12) for w in order],
            width=0.4,
            color=colors,
            edgecolor="black",
            label="'He' as the first word",
        )
    ax.set_xticks(x, order)
    ax.set_yscale("log")
    ax.set_ylabel("P(first word)")
    ax.legend(fontsize=8)
    ax.set_title(f"{scored.model}: pronouns after the bare start token ({scored.default_estimator})")
    fig.tight_layout()
    return fig


def format_tables(scored: Scored, metrics: dict[str, list[Metric]]) -> str:
    """The paper's Tables 3, 4, 6 and 8 for this model as text (value [95% CI]); metrics: task → its metrics."""

    def cell(m: Metric | None) -> str:
        if m is None:
            return "-"
        if m.ci is None or any(math.isnan(c) for c in m.ci):
            return f"{m.value:.3f}"
        return f"{m.value:.3f} [{m.ci[0]:.3f}, {m.ci[1]:.3f}]"

    by = {task: {m.name: m for m in ms} for task, ms in metrics.items()}
    lines = [f"natural_prompts (paper 002) on {scored.model}, estimator {scored.estimator}"]
    lines.append(f"  NS prompt repairs: {scored.repairs}")
    if scored.multi_piece:
        lines.append(f"  pronouns scored over several pieces (chain rule): {', '.join(scored.multi_piece)}")
    rows = [
        ("Table 3", ["kl", "kl_columns", "emd"]),
        ("Table 4", ["bias_orig", "bias_replace", "bias_delete"]),
        ("Table 6", ["certainty_top1", "certainty_gap"]),
        ("Means", ["p_he_mean", "p_she_mean", "p_they_mean", "he_she_ratio"]),
        ("Gold (BLS 2015)", ["gold_spearman", "gold_pearson"]),
    ]
    for title, names in rows:
        lines.append(f"  {title}:{'':<18}{'NS prompts':<30}{'template prompts':<30}")
        for name in names:
            lines.append(
                f"    {name:<24}{cell(by.get('ns', {}).get(name)):<30}{cell(by.get('template', {}).get(name)):<30}"
            )
    if "compare" in by:
        lines.append("  Template minus NS: " + ", ".join(f"{k} {cell(m)}" for k, m in by["compare"].items()))
    sd = by.get("template", {}).get("template_bias_sd")
    if sd is not None and sd.items:
        lines.append(f"  Table 8 (per template; sd of bias {cell(sd)}):")
        lines.append(f"    {'template':<32}{'|P(he)-P(she)|':>15}{'P(he)/P(she)':>14}{'highest':>9}")
        for r in sd.items:
            lines.append(f"    {r['template']:<32}{r['bias']:>15.3f}{r['he_she_ratio']:>14.3f}{r['highest']:>9.3f}")
    if "default" in by:
        d = scored.default
        lines.append("  Figure 1 (bare start token, ' he'): " + ", ".join(f"{w} {d[w]:.2e}" for w in PRONOUNS))
        if scored.default_initial:
            di = scored.default_initial
            lines.append("  Figure 1 (first word, 'He'):       " + ", ".join(f"{w} {di[w]:.2e}" for w in PRONOUNS))
        lines.append("    " + ", ".join(f"{k} {cell(m)}" for k, m in by["default"].items()))
    return "\n".join(lines)
