"""Steps 5-7 per task (paper 004, Tables 1 and 5) against direct computations, and what each
`Metric` carries (estimator, notes, paper values, items)."""

import numpy as np
import pandas as pd
import pytest

from biascheck.methods.role_nouns import math as m
from biascheck.methods.role_nouns import metrics
from biascheck.methods.role_nouns.math import RoleNounScores
from biascheck.methods.role_nouns.spec import ESTIMATOR_CAUSAL, ESTIMATOR_PRIOR, PROBE
from biascheck.settings import settings_of

from .common import predictions, reference


def _synthetic_trials():
    rows = []
    for g, fem_rate in (("progressive", 0.2), ("moderate", 0.5), ("conservative", 0.8)):
        for k in range(10):
            party = ("Democrat", "Non-Partisan", "Republican")[k % 3]
            for name, gender in (("Sally", "female"), ("David", "male")):
                cat = "fem" if (gender == "female" and k < fem_rate * 10) else "masc"
                rows.append((f"{g}{k}", g, party, name, gender, "actor", 2, cat))
    return pd.DataFrame(
        rows, columns=["participant", "attitude", "party", "name", "name_gender", "set", "split", "category"]
    )


def _two_way(states=("Alabama", "Wyoming")):
    trials = _synthetic_trials()
    pred, prior = predictions(0.8, 0.1), predictions(0.4, 0.4)
    scored = RoleNounScores(pred, ESTIMATOR_CAUSAL, list(states))
    got = metrics.resampled_task_metrics("two_way", scored, reference(trials, prior), n_resamples=50)
    return trials, pred, prior, got


def test_task_metrics_gap_equals_direct_computation():
    trials, pred, prior, metric_list = _two_way()
    got = {x.name: x for x in metric_list}
    ll = m.trial_loglik(trials, pred)
    means = trials.assign(ll=ll).groupby("attitude")["ll"].mean()
    assert got["gap_cons_prog"].value == pytest.approx(means["conservative"] - means["progressive"])
    assert got["loglik_cons_all"].value == pytest.approx(means["conservative"]) and got["loglik_cons_all"].n == 20
    assert got["best_group"].value == 2.0  # the model gives FEM .8 to women: like the conservative group here
    pll = m.trial_loglik(trials, prior)
    pmeans = trials.assign(ll=pll).groupby("attitude")["ll"].mean()
    assert got["gap_cons_prog_excess"].value == pytest.approx(
        got["gap_cons_prog"].value - (pmeans["conservative"] - pmeans["progressive"])
    )
    assert got["fem_name_shift"].value == pytest.approx(0.7)
    # people: FEM for men never; model 0.1
    assert got["fem_for_men_excess"].value == pytest.approx(0.1)
    assert "masc_for_women_excess" not in got  # three-way only
    assert got["loglik_gain_over_prior"].value == pytest.approx(ll.mean() - pll.mean())
    assert got["loglik_prog_all"].paper_value == -0.89


def test_task_metrics_order_and_counts():
    _, _, _, got = _two_way()
    attitude_gaps = ["gap_cons_prog", "gap_mod_prog", "prior_gap_cons_prog", "gap_cons_prog_excess", "best_group"]
    expected = []
    for groups, gaps in ((("prog", "mod", "cons"), attitude_gaps), (("dem", "np", "rep"), ["gap_rep_dem"])):
        for names in ("women", "men", "all"):
            expected += [f"{p}loglik_{g}_{names}" for p in ("", "prior_") for g in groups]
            expected += gaps if names == "all" else []
    expected += ["loglik_gain_over_prior", "fem_name_shift", "fem_for_men_excess"]
    assert [x.name for x in got] == expected
    assert set(expected) <= {spec.name for spec in PROBE.metrics}
    named = {x.name: x for x in got}
    assert (
        named["loglik_prog_women"].n == 10 and named["loglik_dem_all"].n == 3 * 4 * 2
    )  # 4 Democrats per third, 2 trials
    assert named["gap_cons_prog"].n == named["loglik_gain_over_prior"].n == 30
    assert named["fem_name_shift"].n == 1  # one set


def test_task_metrics_attach_estimator_notes_paper_values_and_items():
    trials, _, _, got = _two_way()
    named = {x.name: x for x in got}
    note = "P(V|C) averaged over 2 state(s): Alabama, Wyoming"
    for x in got:
        if x.name.startswith("prior_"):
            assert (x.estimator, x.note) == (ESTIMATOR_PRIOR, "")
        elif x.paper_value is not None:
            assert (x.estimator, x.note) == (ESTIMATOR_CAUSAL, note + "; paper value: BERT-base-uncased")
        elif x.name == "fem_name_shift":
            assert x.note == note + f"; target: the participants' shift over the same sets, {x.target:.3f}"
        else:
            assert (x.estimator, x.note) == (ESTIMATOR_CAUSAL, note)
    assert named["gap_cons_prog"].paper_value == round(-0.90 - -0.89, 2)
    assert named["best_group"].paper_value == 0.0 and named["prior_loglik_prog_all"].paper_value is None
    assert named["gap_mod_prog"].paper_value is None
    assert named["fem_name_shift"].items == [{"set": "actor", "women": 0.8, "men": pytest.approx(0.1)}]
    # its target: the participants' P(FEM | women's names) - P(FEM | men's names) over the same sets
    actor = trials[(trials["split"] == 2) & (trials["set"] == "actor")]
    people = {g: (actor[actor["name_gender"] == g]["category"] == "fem").mean() for g in ("female", "male")}
    assert named["fem_name_shift"].target == pytest.approx(people["female"] - people["male"])
    assert named["fem_for_men_excess"].items == [{"set": "actor", "model": pytest.approx(0.1), "people": 0.0}]
    assert named["loglik_prog_all"].items is None
    _, _, _, everywhere = _two_way(states=[f"S{i:02d}" for i in range(50)])
    assert everywhere[0].note.startswith("P(V|C) averaged over 50 state(s): all 50")


def test_three_way_adds_misgendering_and_neutral_shares():
    sets = [
        ("firefighter", "fem", "firewoman"),
        ("firefighter", "masc", "fireman"),
        ("firefighter", "neut", "firefighter"),
    ]
    p = {"Sally": (0.2, 0.5, 0.3), "David": (0.1, 0.6, 0.3)}
    pred = pd.DataFrame(
        [
            (s, 3, name, gender, cat, variant, p[name][i])
            for name, gender in (("Sally", "female"), ("David", "male"))
            for i, (s, cat, variant) in enumerate(sets)
        ],
        columns=["set", "split", "name", "name_gender", "category", "variant", "p"],
    )
    trials = _synthetic_trials().assign(set="firefighter", split=3)
    trials.loc[trials["name_gender"] == "female", "category"] = "neut"  # women: always G-NEUT
    scored = RoleNounScores(pred, ESTIMATOR_CAUSAL, ["Utah"])
    got = {
        x.name: x for x in metrics.resampled_task_metrics("three_way", scored, reference(trials, pred), n_resamples=20)
    }
    assert got["masc_for_women_excess"].value == pytest.approx(0.5)  # model .5, people 0
    assert got["neut_share_women"].value == pytest.approx(0.3) and got["neut_share_men"].value == pytest.approx(0.3)
    assert got["best_group"].paper_value == 1.0
    assert got["loglik_gain_over_prior"].value == 0.0  # the prior is the model here


def test_statistics_of_group_means():
    means = {
        "model": {"conservative": -1.0, "progressive": -1.5, "all": -1.2},
        "prior": {"conservative": -2.0, "progressive": -2.25, "all": -1.7},
    }
    assert metrics.group_mean("prior", "progressive", means) == -2.25
    assert metrics.gap("model", "conservative", "progressive", means) == 0.5
    assert metrics.gap_beyond_prior("conservative", "progressive", means) == 0.25
    assert metrics.gain_over_prior(means) == pytest.approx(0.5)
    assert metrics.best_group("two_way", {"progressive": -1.0, "moderate": -1.0, "conservative": -2.0}, 9).value == 0.0


def test_unknown_task():
    scored = RoleNounScores(predictions(), ESTIMATOR_CAUSAL, ["Utah"])
    with pytest.raises(ValueError, match="unknown task"):
        metrics.task_metrics("one_way", scored, reference(), settings_of(PROBE))
    assert np.isfinite(metrics.paper_gap_cons_prog("three_way"))


def test_two_way_without_heir_and_host_leaves_those_sets_out(monkeypatch):
    """Paper 004, appendix A.5: hostess and heiress stand alone in the frame; the alternative
    analysis drops those two sets and is otherwise the 2-way analysis."""
    trials = _synthetic_trials()
    pred, prior = predictions(0.8, 0.1), predictions(0.4, 0.4)
    host = pred[pred["set"] == "actor"].assign(set="host")
    pred_h, prior_h = pd.concat([pred, host]), pd.concat([prior, prior[prior["set"] == "actor"].assign(set="host")])
    trials_h = pd.concat([trials, trials[trials["set"] == "actor"].assign(set="host")])
    scored = RoleNounScores(pred_h, ESTIMATOR_CAUSAL, ["Alabama"])
    both = reference(trials_h, prior_h)
    full = {x.name: x for x in metrics.resampled_task_metrics("two_way", scored, both, n_resamples=20)}
    without = {x.name: x for x in metrics.resampled_task_metrics("two_way_no_heir_host", scored, both, n_resamples=20)}
    assert full["fem_name_shift"].n == 2 and without["fem_name_shift"].n == 1
    assert [row["set"] for row in without["fem_name_shift"].items] == ["actor"]
    assert without["loglik_prog_all"].n == full["loglik_prog_all"].n // 2
    assert "without the sets heir, host (paper appendix A.5)" in without["gap_cons_prog"].note
    assert without["gap_cons_prog"].paper_value is None and without["best_group"].paper_value is None
