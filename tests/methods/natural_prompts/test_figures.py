"""The paper-style text tables and the figures of paper 002, on a fake causal LM."""

from __future__ import annotations

from biascheck.methods.natural_prompts import figures, metrics
from biascheck.methods.natural_prompts.spec import TASKS


def test_tables_and_figures(scored):
    by_task = {t: metrics.metrics_for(t, scored) for t in TASKS}
    text = figures.format_tables(scored, by_task)
    assert "Table 3" in text and "Table 8" in text and "The {} said that" in text and "Figure 1" in text
    assert text == figures.format_tables(scored, {t: metrics.task_metrics(t, scored, limit=2) for t in TASKS})
    import matplotlib.pyplot as plt

    for fig in (figures.figure_histograms(scored), figures.figure_default(scored)):
        assert len(fig.axes) >= 1
        plt.close(fig)
