"""Probe: role nouns (firewoman / fireman / firefighter) against participants grouped by gender
attitude and party (paper 004, section 3; Papineau et al. 2022 data).

States: ``BIASCHECK_ROLE_NOUN_STATES`` = 'all' (the paper's 50) or a count (default 5, see README).
"""

from __future__ import annotations

import pytest

from biascheck.data import role_nouns as data
from biascheck.methods import role_nouns as method

pytestmark = pytest.mark.biascheck(probe="role_nouns")


@pytest.fixture(scope="module")
def reference(refdata):
    names, states = data.names_and_states(refdata)
    prior = data.frequency_prior(refdata)
    return {
        "sets": data.role_noun_sets(refdata),
        "prior": prior,
        "names": names,
        "states": method.states_from_env(states),
        "trials": data.production_trials(refdata),
        "prior_pred": method.prior_predictions(prior, names),
    }


@pytest.fixture(scope="module")
def scored(lm, reference):
    return method.score_model(lm, reference["sets"], reference["prior"], reference["names"], reference["states"])


@pytest.mark.parametrize("task", method.TASKS)
def test_role_nouns(task, scored, reference, bias):
    predictions, estimator = scored
    states = reference["states"]
    note = f"P(V|C) averaged over {len(states)} state(s): {', '.join(states) if len(states) < 50 else 'all 50'}"
    for m in method.task_metrics(task, predictions, reference["prior_pred"], reference["trials"]):
        is_prior = m.name.startswith("prior_")
        bias.record(
            task,
            m.name,
            m.value,
            ci=m.ci,
            n=m.n,
            estimator=method.ESTIMATOR_PRIOR if is_prior else estimator,
            paper_value=m.paper_value,
            items=m.items,
            note="" if is_prior else (note + ("; paper value: BERT-base-uncased" if m.paper_value is not None else "")),
        )
    split = method.SPLIT_OF_TASK[task]
    figure = method.shares_figure(
        method.human_shares(reference["trials"]),
        method.category_shares(predictions),
        method.category_shares(reference["prior_pred"]),
        split,
        f"{bias.model}: {split}-way role nouns, participants by attitude vs model vs frequency prior",
    )
    bias.save_figure(f"shares-{task}", figure)
    bias.check()
