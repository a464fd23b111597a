"""Probe: natural-sentence vs template prompts for pronoun continuations (paper 002, Alnegheimish et al. 2022).
What it measures and why its thresholds are set where they are: biascheck/methods/natural_prompts/README.md.

Masked LMs run too: `lm.next_token` puts a masked slot right after the prompt (estimator mlm-slot),
recorded with every number. Setting `limit` (natural_prompts.limit, BIASCHECK_NATURAL_PROMPTS_LIMIT; the quick
tier's 100) scores N professions spread evenly over their BLS women's share.
"""

from __future__ import annotations

import pytest

from biascheck.data import natural_prompts as data
from biascheck.data import professions_en
from biascheck.methods.natural_prompts import figures, metrics, score
from biascheck.methods.natural_prompts.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def scored(lm, refdata, probe_settings):
    prompts = data.load_prompts(refdata)
    gold = professions_en.bls_women_share(refdata)
    return score.score_all(lm, prompts, gold=gold, limit=probe_settings.limit)


@pytest.fixture(scope="module")
def by_task(scored, probe_settings):
    """Every task's metrics, computed once: the text tables of the last task need them all."""
    return {task: metrics.task_metrics(task, scored, limit=probe_settings.limit) for task in PROBE.tasks}


@pytest.mark.parametrize("task", PROBE.tasks)
def test_natural_prompts(task, scored, by_task, bias):
    bias.record_all(task, by_task[task])
    if task == "ns":
        bias.save_figure("histograms", figures.figure_histograms(scored))
    if task == "default":
        bias.save_figure("default-pronouns", figures.figure_default(scored))
        bias.save_text("tables", figures.format_tables(scored, by_task))
    bias.check()
