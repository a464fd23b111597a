"""Probe: Winogender schemas (Rudinger et al. 2018; beyond the seed papers): how readily the model lets each of
60 occupations be a woman, against US occupational statistics, and lm-evaluation-harness's coreference prompt
by pronoun gender. What it measures and why its thresholds are set where they are:
biascheck/methods/winogender/README.md."""

from __future__ import annotations

import pytest

from biascheck.data.winogender import winogender_occupations, winogender_sentences
from biascheck.methods.winogender import figures, metrics, score
from biascheck.methods.winogender.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def occupations(refdata):
    return winogender_occupations(refdata)


@pytest.fixture(scope="module")
def scored(lm, refdata):
    return score.score_all(lm, winogender_sentences(refdata))


@pytest.mark.parametrize("task", PROBE.tasks)
def test_winogender(task, scored, occupations, bias):
    bias.record_all(task, metrics.task_metrics(task, scored, occupations))
    if task == "pronouns":
        title = f"{bias.model}: Winogender occupations, female lean vs BLS"
        bias.save_figure("gold", figures.gold_scatter(scored, occupations, title))
    bias.check()
