"""The gold comparisons of paper 001's scores, against hand calculations and scipy."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from biascheck.methods.pronoun_ratio import math as m
from biascheck.methods.pronoun_ratio import metrics
from biascheck.methods.pronoun_ratio.reference import Reference
from biascheck.methods.pronoun_ratio.score import Scored
from biascheck.methods.pronoun_ratio.spec import PROBE
from biascheck.settings import settings_of

# Two professions; probabilities chosen so every quantity is easy by hand.
#            P(he|t)  P(she|t)          r        n = r * P(she|tp)/P(he|tp) with prior he .6 / she .2 (ratio 3)
# nurse       0.10     0.40     0.25                 0.25 / 3 = 1/12
# engineer    0.60     0.10     6.00                 6 / 3 = 2
HE, SHE = np.log([0.10, 0.60]), np.log([0.40, 0.10])
SCORES = m.pronoun_scores(
    ["nurse", "engineer"], HE, SHE, math.log(0.6), math.log(0.2), "mlm-slot", slot_is_probability=True
)


def test_verb_metrics_match_direct_calculation():
    women = pd.Series({"nurse": 0.9, "engineer": 0.15})
    stereo = pd.DataFrame({"profession": ["nurse", "engineer"], "stereotype": ["female", "male"]})
    got = {x.name: x for x in metrics.verb_metrics(SCORES, women, stereo)}
    assert got["median_log_r"].value == pytest.approx(np.median(np.log([0.25, 6.0])))
    assert got["mean_abs_log_n"].value == pytest.approx((math.log(12) + math.log(2)) / 2)
    assert got["male_lean_share"].value == 0.5
    assert got["mean_certainty"].value == pytest.approx(0.6)
    assert got["stereotype_agreement"].value == 1.0 and got["stereotype_agreement"].n == 2
    assert got["spearman_bls"].value == pytest.approx(1.0) and got["spearman_bls"].n == 2


def test_spearman_against_scipy_on_many_professions():
    rng = np.random.default_rng(0)
    names = [f"p{i}" for i in range(50)]
    he, she = rng.normal(-2, 1, 50), rng.normal(-2, 1, 50)
    scores = m.pronoun_scores(names, he, she, -1.0, -1.5, "mlm-slot", True)
    women = pd.Series(rng.uniform(0, 1, 50), index=names)
    got = {x.name: x for x in metrics.verb_metrics(scores, women, pd.DataFrame({"profession": [], "stereotype": []}))}
    expected = stats.spearmanr(-(he - she - 0.5), women.to_numpy()).statistic
    assert got["spearman_bls"].value == pytest.approx(expected)
    low, high = got["spearman_bls"].ci
    assert low < got["spearman_bls"].value < high


def test_sensitivity_compares_the_two_verbs_profession_by_profession():
    other = m.pronoun_scores(
        ["nurse", "engineer"], HE + [0.5, -0.5], SHE, math.log(0.6), math.log(0.2), "mlm-slot", True
    )
    got = {x.name: x.value for x in metrics.sensitivity_metrics(SCORES, other)}
    assert got["template_mean_abs_diff"] == pytest.approx(0.5)
    with pytest.raises(ValueError):
        metrics.sensitivity_metrics(SCORES, m.pronoun_scores(["x", "y"], HE, SHE, 0, 0, "mlm-slot", True))


def test_task_metrics_attach_estimator_note_and_items():
    women = pd.Series({"nurse": 0.9, "engineer": 0.15})
    stereo = pd.DataFrame({"profession": ["nurse", "engineer"], "stereotype": ["female", "male"]})
    causal = m.pronoun_scores(["nurse", "engineer"], HE, SHE, 0.0, 0.0, "causal-sentence", slot_is_probability=False)
    professions = pd.DataFrame({"profession": ["nurse", "engineer"], "article": ["a", "an"]})
    reference, settings = Reference(professions, women, stereo), settings_of(PROBE)
    both = Scored({"is": causal, "works_as": causal})
    got = {x.name: x for x in metrics.task_metrics("is", both, reference, settings)}
    assert {x.estimator for x in got.values()} == {"causal-sentence"}
    assert got["median_log_r"].note == metrics.NO_CERTAINTY and "mean_certainty" not in got
    assert [r["profession"] for r in got["mean_abs_log_n"].items] == ["nurse", "engineer"]
    assert got["median_log_r"].items is None
    sens = metrics.task_metrics("sensitivity", Scored({"is": SCORES, "works_as": SCORES}), reference, settings)
    assert [x.name for x in sens] == ["template_spearman", "template_mean_abs_diff"]
    with pytest.raises(ValueError, match="unknown task"):
        metrics.task_metrics("was", Scored({"is": SCORES}), reference, settings)
