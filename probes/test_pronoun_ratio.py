"""Probe: English pronoun ratios over 923 professions (paper 001) against US occupational gold.
What it measures and why its thresholds are set where they are: biascheck/methods/pronoun_ratio/README.md."""

from __future__ import annotations

import pytest

from biascheck.data import professions_en
from biascheck.methods.pronoun_ratio import figures, metrics, score
from biascheck.methods.pronoun_ratio.spec import PROBE, VERBS

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata):
    return {
        "professions": professions_en.professions_923(refdata),
        "women_share": professions_en.bls_women_share(refdata).set_index("profession")["women_share"],
        "stereotypes": professions_en.stereotyped_60(refdata),
    }


@pytest.fixture(scope="module")
def scored(lm, reference):
    return score.score_all(lm, reference["professions"])


@pytest.mark.parametrize("task", PROBE.tasks)
def test_pronoun_ratio(task, scored, reference, bias):
    bias.record_all(task, metrics.task_metrics(task, scored, reference))
    if task in VERBS:
        title = f"{bias.model}: '{VERBS[task]}' template"
        bias.save_figure(f"gold-{task}", figures.gold_scatter(scored[task], reference["women_share"], title))
    bias.check()
