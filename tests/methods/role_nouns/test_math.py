"""Hand calculations for the role-noun probe (paper 004, section 3): stimuli, P(C|V), the Bayes
posterior, state averaging, participant log-likelihoods and their bootstrap."""

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import pytest

from biascheck.errors import ConfigError
from biascheck.methods import role_nouns as m
from biascheck.models.base import LanguageModel, ModelInfo

STATES = ["Utah", "Alabama", "Ohio", "Texas", "Maine", "Iowa"]
SETS = pd.DataFrame(
    [
        ("firefighter", 3, "fem", "firewoman", "a"),
        ("firefighter", 3, "masc", "fireman", "a"),
        ("firefighter", 3, "neut", "firefighter", "a"),
        ("police officer", 3, "fem", "policewoman", "a"),
        ("police officer", 3, "masc", "policeman", "a"),
        ("police officer", 3, "neut", "police officer", "a"),
        ("actor", 2, "fem", "actress", "an"),
        ("actor", 2, "masc", "actor", "an"),
    ],
    columns=["set", "split", "category", "variant", "article"],
)
NAMES = pd.DataFrame({"name": ["Sally", "David"], "name_gender": ["female", "male"]})


def test_select_states_is_deterministic_and_spread():
    assert m.select_states(STATES, None) == sorted(STATES)
    assert m.select_states(STATES, 2) == ["Alabama", "Utah"]  # first and last alphabetically
    assert m.select_states(STATES, 3) == ["Alabama", "Maine", "Utah"]  # indices 0, 2.5->2, 5
    assert m.select_states(STATES, 99) == sorted(STATES)


@pytest.mark.parametrize(("raw", "expected"), [("", 5), ("all", 6), ("2", 2), ("default", 5)])
def test_states_from_env(raw, expected):
    assert len(m.states_from_env(STATES, {m.STATES_ENV: raw})) == min(expected, len(STATES))


@pytest.mark.parametrize("raw", ["0", "five", "-1"])
def test_states_from_env_rejects_bad_values(raw):
    with pytest.raises(ConfigError, match=m.STATES_ENV):
        m.states_from_env(STATES, {m.STATES_ENV: raw})


def test_build_stimuli_sentence_and_variant_span():
    stim = m.build_stimuli(SETS, NAMES, ["Utah"])
    assert len(stim) == 8 * 2
    row = stim[(stim["variant"] == "police officer") & (stim["name"] == "Sally")].iloc[0]
    assert row["sentence"] == "Sally is a police officer from Utah."
    assert row["sentence"][row["v_start"] : row["v_end"]] == "police officer"
    assert stim[stim["variant"] == "actress"]["sentence"].iloc[0] == "Sally is an actress from Utah."


def test_context_scores_leave_out_every_word_of_the_variant():
    # "Sally is a police officer from Utah." words and made-up log-probs
    words = [
        ("Sally", 0, 5, -1.0),
        ("is", 6, 8, -2.0),
        ("a", 9, 10, -0.5),
        ("police", 11, 17, -3.0),
        ("officer", 18, 25, -4.0),
        ("from", 26, 30, -0.25),
        ("Utah.", 31, 36, -5.0),
    ]
    span = (11, 25)
    assert m.context_scores([words], [span], include_variant=False)[0] == pytest.approx(-1 - 2 - 0.5 - 0.25 - 5)
    assert m.context_scores([words], [span], include_variant=True)[0] == pytest.approx(-15.75)


@pytest.mark.parametrize(
    ("likelihood", "prior", "expected"),
    [
        ((0.2, 0.1), (0.5, 0.5), (2 / 3, 1 / 3)),  # flat prior: the likelihoods decide
        ((0.2, 0.1), (0.25, 0.75), (0.4, 0.6)),  # .05 vs .075
        ((0.1, 0.1), (0.9, 0.1), (0.9, 0.1)),  # equal likelihoods: the prior decides
    ],
)
def test_posterior_is_bayes_rule_within_a_set(likelihood, prior, expected):
    frame = pd.DataFrame(
        {
            "set": "actor",
            "name": "Sally",
            "state": "Utah",
            "variant": ["actress", "actor"],
            "score": np.log(likelihood),
            "log_prior": np.log(prior),
        }
    )
    assert m.posterior(frame).tolist() == pytest.approx(list(expected))


def test_posterior_normalises_per_name_and_state_and_survives_huge_scores():
    frame = pd.DataFrame(
        {
            "set": "actor",
            "name": ["Sally"] * 2 + ["David"] * 2,
            "state": "Utah",
            "variant": ["actress", "actor"] * 2,
            "score": [-1000.0, -1000.0 - math.log(3), -5.0, -5.0],
        }
    )
    assert m.posterior(frame, log_prior=None).tolist() == pytest.approx([0.75, 0.25, 0.5, 0.5])


def test_average_over_states():
    frame = pd.DataFrame(
        {
            "set": "actor",
            "split": 2,
            "name": "Sally",
            "name_gender": "female",
            "category": ["fem", "masc", "fem", "masc"],
            "variant": ["actress", "actor"] * 2,
            "state": ["Utah", "Utah", "Ohio", "Ohio"],
            "p": [0.8, 0.2, 0.6, 0.4],
        }
    )
    out = m.average_over_states(frame).set_index("category")["p"]
    assert out.to_dict() == pytest.approx({"fem": 0.7, "masc": 0.3})


def _predictions(p_fem_sally=0.7, p_fem_david=0.1):
    return pd.DataFrame(
        {
            "set": "actor",
            "split": 2,
            "name": ["Sally", "Sally", "David", "David"],
            "name_gender": ["female", "female", "male", "male"],
            "category": ["fem", "masc"] * 2,
            "variant": ["actress", "actor"] * 2,
            "p": [p_fem_sally, 1 - p_fem_sally, p_fem_david, 1 - p_fem_david],
        }
    )


# Four participants, two per group; each made two choices.
TRIALS = pd.DataFrame(
    {
        "participant": ["p1", "p1", "p2", "p2", "c1", "c1", "c2", "c2"],
        "attitude": ["progressive"] * 4 + ["conservative"] * 4,
        "name": ["Sally", "David", "Sally", "David", "Sally", "David", "Sally", "David"],
        "name_gender": ["female", "male"] * 4,
        "set": "actor",
        "split": 2,
        "category": ["masc", "masc", "fem", "masc", "fem", "masc", "fem", "fem"],
    }
)


def test_trial_loglik_and_group_means_by_hand():
    ll = m.trial_loglik(TRIALS, _predictions())
    assert np.exp(ll).tolist() == pytest.approx([0.3, 0.9, 0.7, 0.9, 0.7, 0.9, 0.7, 0.1])
    table = m.group_loglik(TRIALS, ll, "attitude").set_index(["group", "names"])
    assert table.loc[("progressive", "female"), "loglik"] == pytest.approx((math.log(0.3) + math.log(0.7)) / 2)
    assert table.loc[("conservative", "male"), "loglik"] == pytest.approx((math.log(0.9) + math.log(0.1)) / 2)
    assert table.loc[("progressive", "all"), "n"] == 4 and table.loc[("progressive", "all"), "participants"] == 2


def test_trial_loglik_refuses_missing_predictions():
    with pytest.raises(ValueError, match="no prediction"):
        m.trial_loglik(TRIALS.assign(name="Zoe"), _predictions())


def test_bootstrap_point_is_the_trial_weighted_mean_and_interval_brackets_it():
    ll = m.trial_loglik(TRIALS, _predictions())
    stats = {
        "gap": lambda x: x["model"]["conservative"] - x["model"]["progressive"],
        "prog": lambda x: x["model"]["progressive"],
    }
    out = m.bootstrap_group_stats(TRIALS, {"model": ll}, "attitude", stats, n_resamples=200)
    prog = np.log([0.3, 0.9, 0.7, 0.9]).mean()
    cons = np.log([0.7, 0.9, 0.7, 0.1]).mean()
    assert out["prog"][0] == pytest.approx(prog)
    assert out["gap"][0] == pytest.approx(cons - prog)
    for value, low, high in out.values():
        assert low <= value + 1e-12 and value <= high + 1e-12
    again = m.bootstrap_group_stats(TRIALS, {"model": ll}, "attitude", stats, n_resamples=200)
    assert again == out  # fixed seed


def test_prior_predictions_ignore_the_name():
    prior = SETS.assign(prior=[0.1, 0.5, 0.4, 0.05, 0.6, 0.35, 0.4, 0.6])
    out = m.prior_predictions(prior, NAMES)
    assert len(out) == 16
    sally = out[(out["name"] == "Sally") & (out["set"] == "actor")].set_index("category")["p"]
    david = out[(out["name"] == "David") & (out["set"] == "actor")].set_index("category")["p"]
    assert sally.to_dict() == david.to_dict() == {"fem": 0.4, "masc": 0.6}


def test_category_shares_average_over_sets_and_names():
    shares = m.category_shares(_predictions(0.7, 0.1)).set_index("name_gender")
    assert shares.loc["female", "fem"] == pytest.approx(0.7) and shares.loc["male", "masc"] == pytest.approx(0.9)


class FakeLM(LanguageModel):
    """Word log-probs from a table: a context word scores higher next to a variant that matches the
    name's gender; the variant's own words get a fixed large penalty (must not matter for masked)."""

    def __init__(self, family):
        self.info = ModelInfo("fake", "fake", "0", family, "Fake", "cpu", "float32")
        self.calls = 0

    def word_logprobs(self, sentences: Sequence[str]):
        self.calls += 1
        out = []
        for s in sentences:
            female = s.startswith("Sally")
            fem_variant = any(x in s for x in ("woman", "actress"))
            words, pos = [], 0
            for w in s.split(" "):
                start = s.index(w, pos)
                pos = start + len(w)
                lp = math.log(0.5) if (female == fem_variant) else math.log(0.25)
                if w == "from":
                    words.append((w, start, pos, lp))
                elif w in (
                    "firewoman",
                    "fireman",
                    "firefighter",
                    "actress",
                    "actor",
                    "police",
                    "officer",
                    "policewoman",
                    "policeman",
                ):
                    words.append((w, start, pos, -3.0 if fem_variant else -1.0))
                else:
                    words.append((w, start, pos, float("nan") if w == "Sally" else -1.0))
            out.append(words)
        return out

    def fill_slot(self, templates, candidates):
        raise NotImplementedError

    def next_token(self, prompts, candidates):
        raise NotImplementedError

    def top_next(self, prompts, k):
        raise NotImplementedError

    def sentence_logprob(self, sentences):
        raise NotImplementedError


def test_score_model_masked_uses_context_and_prior_in_one_call():
    prior = SETS.assign(prior=[0.2, 0.4, 0.4, 0.2, 0.4, 0.4, 0.5, 0.5])
    lm = FakeLM("masked")
    pred, estimator = m.score_model(lm, SETS, prior, NAMES, ["Utah", "Ohio"])
    assert lm.calls == 1 and estimator == m.ESTIMATOR_MASKED
    actor = pred[pred["set"] == "actor"].set_index(["name", "category"])["p"]
    # Sally: context 'from' .5 with actress, .25 with actor; flat prior -> 2/3, 1/3
    assert actor[("Sally", "fem")] == pytest.approx(2 / 3)
    assert actor[("David", "fem")] == pytest.approx(1 / 3)
    fire = pred[(pred["set"] == "firefighter") & (pred["name"] == "Sally")].set_index("category")["p"]
    # weights .5*.2, .25*.4, .25*.4 -> .1/.3
    assert fire["fem"] == pytest.approx(1 / 3)


def test_score_model_causal_uses_whole_sentence_and_no_corpus_prior():
    prior = SETS.assign(prior=[0.01, 0.01, 0.98, 0.01, 0.01, 0.98, 0.01, 0.99])
    pred, estimator = m.score_model(FakeLM("causal"), SETS, prior, NAMES, ["Utah"])
    assert estimator == m.ESTIMATOR_CAUSAL
    actor = pred[pred["set"] == "actor"].set_index(["name", "category"])["p"]
    # Sally/actress: .5 * e^-3 ; Sally/actor: .25 * e^-1
    a, b = 0.5 * math.exp(-3), 0.25 * math.exp(-1)
    assert actor[("Sally", "fem")] == pytest.approx(a / (a + b))


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


def test_task_metrics_gap_equals_direct_computation():
    trials = _synthetic_trials()
    pred = _predictions(0.8, 0.1)
    prior = _predictions(0.4, 0.4)
    got = {x.name: x for x in m.task_metrics("two_way", pred, prior, trials, n_resamples=50)}
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


def test_shares_figure_has_three_groups_model_and_prior():
    human = m.human_shares(TRIALS)
    model = m.category_shares(_predictions())
    fig = m.shares_figure(human, model, model, 2, "test")
    assert [ax.get_title() for ax in fig.axes] == [
        "progressive",
        "moderate",
        "conservative",
        "model",
        "frequency prior",
    ]
