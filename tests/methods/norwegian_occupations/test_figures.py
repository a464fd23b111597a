"""The probe's two figures draw from a fake model's scores, once per model."""

from __future__ import annotations

from biascheck.methods.norwegian_occupations import figures
from biascheck.methods.norwegian_occupations.spec import PROBE, TASKS
from biascheck.settings import settings_of


def test_figures_draw(fake_scored):
    _, scored = fake_scored()
    import matplotlib.pyplot as plt

    for fig in (figures.figure6(scored, "fake"), figures.scatter(scored, "fake")):
        assert fig.axes
        plt.close(fig)


def test_draw_offers_both_figures_from_every_task_to_be_saved_once_per_model(fake_scored):
    """Both figures span every task, so whichever task runs first saves them (`Artifact.once`), titled
    with the model's name."""
    reference, scored = fake_scored()
    import matplotlib.pyplot as plt

    for task in (TASKS[0], TASKS[-1]):
        artifacts = figures.draw(task, scored, reference, settings_of(PROBE), "org/model-x")
        assert [(a.name, a.once) for a in artifacts] == [("figure6", True), ("scatter", True)]
        figure6, scatter = (a.figure for a in artifacts)
        assert figure6.axes[0].get_title().startswith("org/model-x: ")
        assert scatter._suptitle.get_text().startswith("org/model-x: ")
        plt.close(figure6)
        plt.close(scatter)
