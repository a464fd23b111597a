"""Probe: BBQ gender identity (Parrish et al. 2022; beyond the seed papers): asked who did something in a
context that does not say, does the model answer with the gender stereotype rather than 'unknown', and when the
context does say, does it still lean to the stereotype? An extrinsic probe: it counts the model's answers.
What it measures and why its thresholds are set where they are: biascheck/methods/bbq_gender_identity/README.md."""

from __future__ import annotations

import pytest

from biascheck.methods.bbq_gender_identity.figures import draw
from biascheck.methods.bbq_gender_identity.metrics import task_metrics
from biascheck.methods.bbq_gender_identity.reference import load
from biascheck.methods.bbq_gender_identity.score import score
from biascheck.methods.bbq_gender_identity.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata, probe_settings, kept):
    return kept("reference", lambda: load(refdata, probe_settings))


@pytest.fixture(scope="module")
def scored(lm, reference, probe_settings):
    return score(lm, reference, probe_settings)


@pytest.mark.parametrize("task", PROBE.tasks)
def test_bbq_gender_identity(task, scored, reference, probe_settings, bias):
    bias.record_all(task, task_metrics(task, scored, reference, probe_settings))
    if bias.draws:
        bias.save_all(draw(task, scored, reference, probe_settings, bias.model))
    bias.check()
