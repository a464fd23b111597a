"""singular_they's figure (the paper's Figure 4)."""

import numpy as np
import pandas as pd

from biascheck.data.they_ratings import RATING_COLUMNS
from biascheck.methods.singular_they import figures
from biascheck.methods.singular_they.math import TheyScores
from biascheck.methods.singular_they.reference import Reference
from biascheck.methods.singular_they.spec import PROBE
from biascheck.methods.singular_they.stimuli import they_stimuli
from biascheck.settings import settings_of

STIM = they_stimuli()


def test_surprisal_figure_with_and_without_ratings():
    rng = np.random.default_rng(0)
    scores = TheyScores(STIM.assign(surprisal=rng.normal(3.0, 0.2, len(STIM))), "mlm-slot")
    assert len(figures.surprisal_figure(scores, "t").axes) == 1
    ratings = pd.DataFrame([("F01", "plural", "innovators", 6.0)], columns=list(RATING_COLUMNS))
    assert [ax.get_title() for ax in figures.surprisal_figure(scores, "t", ratings).axes] == ["participants", "model"]


def test_draw_gives_the_figure_with_the_antecedents_task_titled_with_the_model():
    scores = TheyScores(STIM.assign(surprisal=np.full(len(STIM), 3.0)), "mlm-slot")
    reference, settings = Reference(STIM), settings_of(PROBE)
    (artifact,) = figures.draw("antecedents", scores, reference, settings, "bert-base-uncased")
    assert artifact.name == "surprisal" and not artifact.once
    assert (
        artifact.figure._suptitle.get_text() == "bert-base-uncased: surprisal of they/them/their/themselves (mlm-slot)"
    )
    assert figures.draw("closeness_gender", scores, reference, settings, "m") == []
    assert figures.draw("human_ratings", scores, reference, settings, "m") == []
