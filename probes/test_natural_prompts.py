"""Probe: natural-sentence vs template prompts for pronoun continuations (paper 002, Alnegheimish et al. 2022).
What it measures and why its thresholds are set where they are: biascheck/methods/natural_prompts/README.md.

Masked LMs run too: `lm.next_token` puts a masked slot right after the prompt (estimator mlm-slot),
recorded with every number. Setting `limit` (natural_prompts.limit, BIASCHECK_NATURAL_PROMPTS_LIMIT; the quick
tier's 100) scores N professions spread evenly over their BLS women's share.
"""

from __future__ import annotations

import pytest

from biascheck.methods.natural_prompts.figures import draw
from biascheck.methods.natural_prompts.metrics import task_metrics
from biascheck.methods.natural_prompts.reference import load
from biascheck.methods.natural_prompts.score import score
from biascheck.methods.natural_prompts.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata, probe_settings, kept):
    return kept("reference", lambda: load(refdata, probe_settings))


@pytest.fixture(scope="module")
def scored(lm, reference, probe_settings):
    return score(lm, reference, probe_settings)


@pytest.mark.parametrize("task", PROBE.tasks)
def test_natural_prompts(task, scored, reference, probe_settings, bias):
    bias.record_all(task, task_metrics(task, scored, reference, probe_settings))
    if bias.draws:
        bias.save_all(draw(task, scored, reference, probe_settings, bias.model))
    bias.check()
