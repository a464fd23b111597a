"""Probe: CrowS-Pairs' 262 gender pairs (Nangia et al. 2020; beyond the seed papers): does the model score
the more stereotyping sentence of a pair higher? Masked LMs by the authors' metric (the pseudo-log-likelihood
of the tokens both sentences share), causal LMs by sentence log-likelihood. What it measures and why its
thresholds are set where they are: biascheck/methods/crows_pairs_gender/README.md."""

from __future__ import annotations

import pytest

from biascheck.data.crows_pairs import crows_pairs
from biascheck.methods.crows_pairs_gender import figures, metrics, score
from biascheck.methods.crows_pairs_gender.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def scored(lm, refdata):
    return score.score_pairs(lm, crows_pairs(refdata, "gender"))


@pytest.mark.parametrize("task", PROBE.tasks)
def test_crows_pairs_gender(task, scored, bias):
    bias.record_all(task, metrics.task_metrics(task, scored))
    if task == "all":
        title = f"{bias.model}: CrowS-Pairs gender, more vs less stereotyping sentence"
        bias.save_figure("differences", figures.difference_histogram(scored, title))
    bias.check()
