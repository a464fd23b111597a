"""History table and plot from store rows: runs as columns, sweeps averaged, filters."""

import pytest

from biascheck.gate import history


def row(run, model, metric, value, ci=None, task="is"):
    return {
        "run": run,
        "model": model,
        "probe": "pronoun_ratio",
        "task": task,
        "metric": metric,
        "value": value,
        "ci_low": None if ci is None else value - ci,
        "ci_high": None if ci is None else value + ci,
        "n": 10,
        "higher_is_better": False,
    }


ROWS = [
    row("v1", "a", "x", 1.0, 0.1),
    row("v1", "a", "y", 2.0),
    row("sweep", "c0", "x", 1.0),
    row("sweep", "c1", "x", 2.0),
    row("v2", "b", "x", 1.5, 0.2, task="works_as"),
]


def test_series_and_table():
    runs, data = history.series(ROWS)
    assert runs == ["v1", "sweep", "v2"]
    assert data["pronoun_ratio.is.x"]["sweep"] == (1.5, None, None, 2)
    text = history.table(ROWS)
    assert "1.000 [0.900, 1.100]" in text and "x̄ 1.500 (2)" in text
    assert history.markdown(ROWS, "s.sqlite").startswith("## biascheck history (3 runs, 3 metrics, store `s.sqlite`)")


def test_select_filters_metric_model_and_last_runs():
    assert {r["metric"] for r in history.select(ROWS, metric="pronoun_ratio.is.y")} == {"y"}
    assert {r["run"] for r in history.select(ROWS, model="c*")} == {"sweep"}
    assert {r["run"] for r in history.select(ROWS, last=2)} == {"sweep", "v2"}


def test_figure_has_a_panel_per_metric():
    pytest.importorskip("matplotlib")
    fig = history.figure(ROWS)
    assert sum(ax.has_data() for ax in fig.axes) == 3
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_gated_keeps_the_metrics_a_threshold_judged_or_all_when_none_was():
    rows = [{**r, "passed": 1 if r["metric"] == "x" and r["run"] == "v1" else None} for r in ROWS]
    assert {r["metric"] for r in history.gated(rows)} == {"x"}
    assert {r["task"] for r in history.gated(rows)} == {"is"}  # works_as.x was never gated
    assert history.gated(ROWS) == ROWS
