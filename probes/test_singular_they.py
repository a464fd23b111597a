"""Probe: singular *they* after 9 antecedent types (paper 004, section 4; our own stimuli after
Camilliere et al. 2021). Human ratings: setting ``singular_they.ratings`` (``BIASCHECK_THEY_RATINGS``)
= path to a CSV with columns item, condition, group, rating; without it the correlations are reported
as absent. What it measures and why its thresholds are set where they are:
biascheck/methods/singular_they/README.md."""

from __future__ import annotations

import pytest

from biascheck.methods.singular_they.figures import draw
from biascheck.methods.singular_they.metrics import task_metrics
from biascheck.methods.singular_they.reference import load
from biascheck.methods.singular_they.score import score
from biascheck.methods.singular_they.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata, probe_settings, kept):
    return kept("reference", lambda: load(refdata, probe_settings))


@pytest.fixture(scope="module")
def scored(lm, reference, probe_settings):
    return score(lm, reference, probe_settings)


@pytest.mark.parametrize("task", PROBE.tasks)
def test_singular_they(task, scored, reference, probe_settings, bias):
    bias.record_all(task, task_metrics(task, scored, reference, probe_settings))
    if bias.draws:
        bias.save_all(draw(task, scored, reference, probe_settings, bias.model))
    bias.check()
