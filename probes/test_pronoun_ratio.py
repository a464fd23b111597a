"""Probe: English pronoun ratios over 923 professions (paper 001) against US occupational gold.
What it measures and why its thresholds are set where they are: biascheck/methods/pronoun_ratio/README.md."""

from __future__ import annotations

import pytest

from biascheck.methods.pronoun_ratio.figures import draw
from biascheck.methods.pronoun_ratio.metrics import task_metrics
from biascheck.methods.pronoun_ratio.reference import load
from biascheck.methods.pronoun_ratio.score import score
from biascheck.methods.pronoun_ratio.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata, probe_settings, kept):
    return kept("reference", lambda: load(refdata, probe_settings))


@pytest.fixture(scope="module")
def scored(lm, reference, probe_settings):
    return score(lm, reference, probe_settings)


@pytest.mark.parametrize("task", PROBE.tasks)
def test_pronoun_ratio(task, scored, reference, probe_settings, bias):
    bias.record_all(task, task_metrics(task, scored, reference, probe_settings))
    if bias.draws:
        bias.save_all(draw(task, scored, reference, probe_settings, bias.model))
    bias.check()
