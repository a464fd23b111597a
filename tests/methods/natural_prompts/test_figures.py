"""The paper-style text tables and the figures of paper 002, on a fake causal LM."""

from __future__ import annotations

from biascheck.methods.natural_prompts import figures, metrics
from biascheck.methods.natural_prompts.spec import PROBE, TASKS
from biascheck.settings import settings_of


def test_tables_and_figures(scored, reference):
    by_task = {t: metrics.metrics_for(t, scored) for t in TASKS}
    text = figures.format_tables(scored, by_task)
    assert "Table 3" in text and "Table 8" in text and "The {} said that" in text and "Figure 1" in text
    limited = settings_of(PROBE, limit=2)
    assert text == figures.format_tables(
        scored, {t: metrics.task_metrics(t, scored, reference, limited) for t in TASKS}
    )
    import matplotlib.pyplot as plt

    for fig in (figures.figure_histograms(scored), figures.figure_default(scored)):
        assert len(fig.axes) >= 1
        plt.close(fig)


def test_draw_gives_figure_2_with_ns_and_figure_1_and_the_tables_with_default(scored, reference, settings):
    import matplotlib.pyplot as plt

    drawn = {t: figures.draw(t, scored, reference, settings, "m") for t in TASKS}
    assert [[a.name for a in drawn[t]] for t in TASKS] == [["histograms"], [], [], ["default-pronouns", "tables"]]
    tables = drawn["default"][1].text
    assert tables == figures.format_tables(scored, {t: metrics.metrics_for(t, scored) for t in TASKS})
    for artifacts in drawn.values():
        for artifact in artifacts:
            if artifact.figure is not None:
                plt.close(artifact.figure)


def test_every_tasks_metrics_are_computed_once_per_scored(scored):
    first = metrics.metrics_for("template", scored)
    again = metrics.metrics_for("template", scored)
    assert again == first and all(a is b for a, b in zip(again, first, strict=True)) and again is not first
