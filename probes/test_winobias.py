"""Probe: WinoBias (Zhao et al. 2018; beyond the seed papers): does the model prefer the pro-stereotypical
version of a sentence (the pronoun of the occupation's majority gender) over its anti-stereotypical twin?
What it measures and why its thresholds are set where they are: biascheck/methods/winobias/README.md."""

from __future__ import annotations

import pytest

from biascheck.methods.winobias.figures import draw
from biascheck.methods.winobias.metrics import task_metrics
from biascheck.methods.winobias.reference import load
from biascheck.methods.winobias.score import score
from biascheck.methods.winobias.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata, probe_settings, kept):
    return kept("reference", lambda: load(refdata, probe_settings))


@pytest.fixture(scope="module")
def scored(lm, reference, probe_settings):
    return score(lm, reference, probe_settings)


@pytest.mark.parametrize("task", PROBE.tasks)
def test_winobias(task, scored, reference, probe_settings, bias):
    bias.record_all(task, task_metrics(task, scored, reference, probe_settings))
    if bias.draws:
        bias.save_all(draw(task, scored, reference, probe_settings, bias.model))
    bias.check()
