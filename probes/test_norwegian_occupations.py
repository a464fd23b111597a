"""Probe: Norwegian occupations against Statistics Norway, five template tasks (paper 000).
What it measures, its settings (subsets, names) and why its thresholds are set where they are:
biascheck/methods/norwegian_occupations/README.md."""

from __future__ import annotations

import pytest

from biascheck.methods.norwegian_occupations.figures import draw
from biascheck.methods.norwegian_occupations.metrics import task_metrics
from biascheck.methods.norwegian_occupations.reference import load
from biascheck.methods.norwegian_occupations.score import score
from biascheck.methods.norwegian_occupations.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata, probe_settings, kept):
    return kept("reference", lambda: load(refdata, probe_settings))


@pytest.fixture(scope="module")
def scored(lm, reference, probe_settings):
    return score(lm, reference, probe_settings)


@pytest.mark.parametrize("task", PROBE.tasks)
def test_norwegian_occupations(task, scored, reference, probe_settings, bias):
    bias.record_all(task, task_metrics(task, scored, reference, probe_settings))
    if bias.draws:
        bias.save_all(draw(task, scored, reference, probe_settings, bias.model))
    bias.check()
