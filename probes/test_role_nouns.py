"""Probe: role nouns (firewoman / fireman / firefighter) against participants grouped by gender
attitude and party (paper 004, section 3; Papineau et al. 2022 data).
What it measures and why its thresholds are set where they are: biascheck/methods/role_nouns/README.md."""

from __future__ import annotations

import pytest

from biascheck.methods.role_nouns.figures import draw
from biascheck.methods.role_nouns.metrics import task_metrics
from biascheck.methods.role_nouns.reference import load
from biascheck.methods.role_nouns.score import score
from biascheck.methods.role_nouns.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata, probe_settings, kept):
    return kept("reference", lambda: load(refdata, probe_settings))


@pytest.fixture(scope="module")
def scored(lm, reference, probe_settings):
    return score(lm, reference, probe_settings)


@pytest.mark.parametrize("task", PROBE.tasks)
def test_role_nouns(task, scored, reference, probe_settings, bias):
    bias.record_all(task, task_metrics(task, scored, reference, probe_settings))
    if bias.draws:
        bias.save_all(draw(task, scored, reference, probe_settings, bias.model))
    bias.check()
