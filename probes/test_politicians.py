"""Probe: the words a model puts next to politicians' names, by gender (paper 003, Stańczak et al.
2023): PMI of each adjective/verb with the name's gender, the sentiment of each gender's most
associated words, and a latent-variable model of sentiment by gender. Tasks are languages (en, nb, fr,
es), each skipped on a model that does not cover it. What it measures and why its thresholds are set
where they are: biascheck/methods/politicians/README.md."""

from __future__ import annotations

import pytest

from biascheck.methods.politicians.figures import draw
from biascheck.methods.politicians.metrics import task_metrics
from biascheck.methods.politicians.reference import load
from biascheck.methods.politicians.score import score
from biascheck.methods.politicians.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata, probe_settings, kept):
    return kept("reference", lambda: load(refdata, probe_settings))


@pytest.fixture(scope="module")
def scored(lm, reference, probe_settings):
    return score(lm, reference, probe_settings)


@pytest.mark.parametrize("task", PROBE.tasks)
def test_politicians(task, scored, reference, probe_settings, bias):
    bias.record_all(task, task_metrics(task, scored, reference, probe_settings))
    if bias.draws:
        bias.save_all(draw(task, scored, reference, probe_settings, bias.model))
    bias.check()
