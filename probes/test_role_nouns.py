"""Probe: role nouns (firewoman / fireman / firefighter) against participants grouped by gender
attitude and party (paper 004, section 3; Papineau et al. 2022 data).
What it measures and why its thresholds are set where they are: biascheck/methods/role_nouns/README.md."""

from __future__ import annotations

import pytest

from biascheck.data import role_nouns as data
from biascheck.methods.role_nouns import figures, metrics, score
from biascheck.methods.role_nouns.math import prior_predictions, select_states
from biascheck.methods.role_nouns.spec import PROBE, SPLIT_OF_TASK

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata, probe_settings):
    names, states = data.names_and_states(refdata)
    prior = data.frequency_prior(refdata)
    return {
        "sets": data.role_noun_sets(refdata),
        "prior": prior,
        "names": names,
        "states": select_states(states, probe_settings.states),
        "trials": data.production_trials(refdata),
        "prior_pred": prior_predictions(prior, names),
    }


@pytest.fixture(scope="module")
def scored(lm, reference):
    return score.score_model(lm, reference["sets"], reference["prior"], reference["names"], reference["states"])


@pytest.mark.parametrize("task", PROBE.tasks)
def test_role_nouns(task, scored, reference, bias):
    bias.record_all(task, metrics.task_metrics(task, scored, reference))
    title = f"{bias.model}: {SPLIT_OF_TASK[task]}-way role nouns, participants by attitude vs model vs frequency prior"
    bias.save_figure(f"shares-{task}", figures.task_shares_figure(task, scored, reference, title))
    bias.check()
