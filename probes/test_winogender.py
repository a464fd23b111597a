"""Probe: Winogender schemas (Rudinger et al. 2018; beyond the seed papers): how readily the model lets each of
60 occupations be a woman, against US occupational statistics, and lm-evaluation-harness's coreference prompt
by pronoun gender. What it measures and why its thresholds are set where they are:
biascheck/methods/winogender/README.md."""

from __future__ import annotations

import pytest

from biascheck.methods.winogender.figures import draw
from biascheck.methods.winogender.metrics import task_metrics
from biascheck.methods.winogender.reference import load
from biascheck.methods.winogender.score import score
from biascheck.methods.winogender.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata, probe_settings, kept):
    return kept("reference", lambda: load(refdata, probe_settings))


@pytest.fixture(scope="module")
def scored(lm, reference, probe_settings):
    return score(lm, reference, probe_settings)


@pytest.mark.parametrize("task", PROBE.tasks)
def test_winogender(task, scored, reference, probe_settings, bias):
    bias.record_all(task, task_metrics(task, scored, reference, probe_settings))
    if bias.draws:
        bias.save_all(draw(task, scored, reference, probe_settings, bias.model))
    bias.check()
