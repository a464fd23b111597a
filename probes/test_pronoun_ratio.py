"""Probe: English pronoun ratios over 923 professions (paper 001) against US occupational gold."""
from __future__ import annotations

import pytest

from biascheck.data import professions_en
from biascheck.methods import pronoun_ratio as method

pytestmark = pytest.mark.biascheck(probe="pronoun_ratio")


@pytest.fixture(scope="module")
def reference(refdata):
    return {
        "professions": professions_en.professions_923(refdata),
        "women_share": professions_en.bls_women_share(refdata).set_index("profession")["women_share"],
        "stereotypes": professions_en.stereotyped_60(refdata),
    }


@pytest.fixture(scope="module")
def scored(lm, reference):
    return method.score_all(lm, reference["professions"])


@pytest.mark.parametrize("verb", list(method.VERBS))
def test_pronoun_ratio(verb, scored, reference, bias):
    scores = scored[verb]
    note = "" if scores.certainty is not None else "certainty P(he)+P(she) is not defined for causal-sentence scores"
    per_profession = method.items(scores, reference["women_share"], reference["stereotypes"])
    for m in method.verb_metrics(scores, reference["women_share"], reference["stereotypes"]):
        bias.record_metric(verb, m, estimator=scores.estimator, note=note,
                           items=per_profession if m.name == "mean_abs_log_n" else None)
    bias.save_figure(f"gold-{verb}", method.gold_scatter(scores, reference["women_share"], f"{bias.model}: '{method.VERBS[verb]}' template"))
    bias.check()


def test_template_sensitivity(scored, bias):
    for m in method.sensitivity_metrics(scored["is"], scored["works_as"]):
        bias.record_metric("sensitivity", m, estimator=scored["is"].estimator)
    bias.check()
