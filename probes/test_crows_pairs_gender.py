"""Probe: CrowS-Pairs' 262 gender pairs (Nangia et al. 2020; beyond the seed papers): does the model score
the more stereotyping sentence of a pair higher? Masked LMs by the authors' metric (the pseudo-log-likelihood
of the tokens both sentences share), causal LMs by sentence log-likelihood. What it measures and why its
thresholds are set where they are: biascheck/methods/crows_pairs_gender/README.md."""

from __future__ import annotations

import pytest

from biascheck.methods.crows_pairs_gender.figures import draw
from biascheck.methods.crows_pairs_gender.metrics import task_metrics
from biascheck.methods.crows_pairs_gender.reference import load
from biascheck.methods.crows_pairs_gender.score import score
from biascheck.methods.crows_pairs_gender.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata, probe_settings, kept):
    return kept("reference", lambda: load(refdata, probe_settings))


@pytest.fixture(scope="module")
def scored(lm, reference, probe_settings):
    return score(lm, reference, probe_settings)


@pytest.mark.parametrize("task", PROBE.tasks)
def test_crows_pairs_gender(task, scored, reference, probe_settings, bias):
    bias.record_all(task, task_metrics(task, scored, reference, probe_settings))
    if bias.draws:
        bias.save_all(draw(task, scored, reference, probe_settings, bias.model))
    bias.check()
