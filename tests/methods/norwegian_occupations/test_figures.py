"""The probe's two figures draw from a fake model's scores."""

from __future__ import annotations

import pandas as pd

from biascheck.methods.norwegian_occupations import figures, score


def test_figures_draw(gold, fake_lm):
    names = pd.DataFrame({"name": ["Oda", "Ole"], "sex": ["female", "male"]})
    scored = score.score_all(fake_lm(set(gold.loc[gold["gold_female"], "form"]), {"Oda"}), gold, names)
    import matplotlib.pyplot as plt

    for fig in (figures.figure6(scored, "fake"), figures.scatter(scored, "fake")):
        assert fig.axes
        plt.close(fig)
