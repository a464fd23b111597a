"""The role-noun shares figure (paper Figures 1 and 3)."""

from biascheck.methods.role_nouns import figures
from biascheck.methods.role_nouns import math as m
from biascheck.methods.role_nouns.math import RoleNounScores
from biascheck.methods.role_nouns.spec import PROBE
from biascheck.settings import settings_of

from .common import TRIALS, predictions, reference

PANELS = ["progressive", "moderate", "conservative", "model", "frequency prior"]


def test_shares_figure_has_three_groups_model_and_prior():
    human = m.human_shares(TRIALS)
    model = m.category_shares(predictions())
    fig = figures.shares_figure(human, model, model, 2, "test")
    assert [ax.get_title() for ax in fig.axes] == PANELS


def test_task_shares_figure_uses_the_task_split_and_title():
    scored = RoleNounScores(predictions(), "causal-sentence-posterior", ["Utah"])
    fig = figures.task_shares_figure("two_way", scored, reference(TRIALS, predictions(0.5, 0.5)), "t")
    assert [ax.get_title() for ax in fig.axes] == PANELS and fig._suptitle.get_text() == "t"
    # the model panel: P(FEM) for women's names (first bar of the first category)
    assert fig.axes[3].patches[0].get_height() == 0.7


def test_draw_gives_one_figure_per_task_titled_with_the_model():
    scored = RoleNounScores(predictions(), "causal-sentence-posterior", ["Utah"])
    (artifact,) = figures.draw("three_way", scored, reference(), settings_of(PROBE), "gpt2")
    assert artifact.name == "shares-three_way" and not artifact.once
    assert artifact.figure._suptitle.get_text().startswith("gpt2: 3-way role nouns")
