"""History across saved runs: a table (terminal or Markdown) and a plot of each metric over releases.

Input: `ResultStore.metric_rows()` (one dict per metric of every current run, in save order).
A run of several models (a sweep of checkpoints) shows the mean over its models, marked "x̄".
"""

from __future__ import annotations

import fnmatch
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from tabulate import tabulate


def key(row: Mapping[str, Any]) -> str:
    """A row's metric key, probe.task.metric (as in thresholds, baselines and results.json)."""
    return f"{row['probe']}.{row['task']}.{row['metric']}"


def select(
    rows: list[dict[str, Any]], metric: str | None = None, model: str | None = None, last: int | None = None
) -> list[dict[str, Any]]:
    """Keep metric keys matching the glob `metric` (probe.task.metric), models matching `model`, the last runs."""
    out = [
        r
        for r in rows
        if (metric is None or fnmatch.fnmatch(key(r), metric)) and (model is None or fnmatch.fnmatch(r["model"], model))
    ]
    if last:
        runs = list(dict.fromkeys(r["run"] for r in out))[-last:]
        out = [r for r in out if r["run"] in runs]
    return out


def gated(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of the metrics that a threshold gated in at least one run (`passed` not None); all rows when
    none was gated (rows from before the store recorded it, or a report-only profile)."""
    keys = {key(r) for r in rows if r.get("passed") is not None}
    return [r for r in rows if key(r) in keys] if keys else rows


def series(
    rows: list[dict[str, Any]],
) -> tuple[list[str], dict[str, dict[str, tuple[float, float | None, float | None, int]]]]:
    """Runs in order, and per metric key per run: (value, ci_low, ci_high, number of models averaged)."""
    runs = list(dict.fromkeys(r["run"] for r in rows))
    grouped: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for r in rows:
        grouped.setdefault(key(r), {}).setdefault(r["run"], []).append(r)
    out: dict[str, dict[str, tuple[float, float | None, float | None, int]]] = {}
    for metric_key, per_run in grouped.items():
        out[metric_key] = {}
        for run, members in per_run.items():
            values = [m["value"] for m in members if m["value"] is not None]
            value = float(np.mean(values)) if values else math.nan
            if len(members) == 1:
                out[metric_key][run] = (value, members[0]["ci_low"], members[0]["ci_high"], 1)
            else:
                out[metric_key][run] = (value, None, None, len(members))
    return runs, out


def _cell(point: tuple[float, float | None, float | None, int] | None) -> str:
    if point is None:
        return "—"
    value, low, high, count = point
    text = "—" if math.isnan(value) else f"{value:.3f}"
    if count > 1:
        return f"x̄ {text} ({count})"
    return text if low is None or high is None else f"{text} [{low:.3f}, {high:.3f}]"


def table(rows: list[dict[str, Any]], fmt: str = "simple") -> str:
    """Rows: metric keys; columns: runs in save order; cells: value [95 % interval]."""
    runs, data = series(rows)
    body = [[name, *(_cell(per_run.get(run)) for run in runs)] for name, per_run in data.items()]
    return tabulate(body, headers=["metric", *runs], tablefmt=fmt, disable_numparse=True)


def markdown(rows: list[dict[str, Any]], store: str) -> str:
    runs, data = series(rows)
    return "\n".join(
        [
            f"## biascheck history ({len(runs)} runs, {len(data)} metrics, store `{store}`)",
            "",
            table(rows, "github"),
            "",
        ]
    )


def figure(rows: list[dict[str, Any]], columns: int = 3) -> object:
    """One small panel per metric key: value over runs with its 95 % interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs, data = series(rows)
    keys = list(data)
    count = max(1, len(keys))
    ncols = min(columns, count)
    nrows = math.ceil(count / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.6 * ncols, 3.0 * nrows), squeeze=False)
    x = np.arange(len(runs))
    for ax, name in zip(axes.flat, keys, strict=False):
        points = [data[name].get(run) for run in runs]
        y = np.array([np.nan if p is None else p[0] for p in points], float)
        low = np.array([np.nan if p is None or p[1] is None else p[0] - p[1] for p in points], float)
        high = np.array([np.nan if p is None or p[2] is None else p[2] - p[0] for p in points], float)
        ax.errorbar(x, y, yerr=np.nan_to_num(np.vstack([low, high])), marker="o", ms=4, capsize=3)
        ax.set_title(name, fontsize=8)
        ax.set_xticks(x, runs, rotation=30, ha="right", fontsize=7)
    for ax in list(axes.flat)[len(keys) :]:
        ax.axis("off")
    fig.tight_layout()
    return fig
