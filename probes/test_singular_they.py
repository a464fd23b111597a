"""Probe: singular *they* after 9 antecedent types (paper 004, section 4; our own stimuli after
Camilliere et al. 2021). Human ratings: setting ``singular_they.ratings`` (``BIASCHECK_THEY_RATINGS``)
= path to a CSV with columns item, condition, group, rating; without it the correlations are reported
as absent. What it measures and why its thresholds are set where they are:
biascheck/methods/singular_they/README.md."""

from __future__ import annotations

import pytest

from biascheck.data import they_ratings
from biascheck.methods.singular_they import figures, metrics, score
from biascheck.methods.singular_they.spec import ALL_CONDITIONS, PAPER_GROUPS, PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def ratings(probe_settings):
    if probe_settings.ratings is None:
        return None
    return they_ratings.read_ratings(probe_settings.ratings, conditions=ALL_CONDITIONS, groups=PAPER_GROUPS)


@pytest.fixture(scope="module")
def scored(lm):
    return score.score_all(lm)


def test_antecedent_types(scored, ratings, bias):
    bias.record_all("antecedents", metrics.task_metrics("antecedents", scored))
    title = f"{bias.model}: surprisal of they/them/their/themselves ({scored.estimator})"
    bias.save_figure("surprisal", figures.surprisal_figure(scored, title, ratings))
    bias.check()


def test_closeness_and_gender(scored, bias):
    bias.record_all("closeness_gender", metrics.task_metrics("closeness_gender", scored))
    bias.check()


def test_human_ratings(scored, ratings, probe_settings, bias):
    bias.record_all("human_ratings", metrics.task_metrics("human_ratings", scored, ratings, probe_settings.ratings))
    bias.check()
