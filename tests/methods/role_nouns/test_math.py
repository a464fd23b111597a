"""Hand calculations for the role-noun probe's math (paper 004, section 3): state selection, P(C|V),
the Bayes posterior, state averaging, participant log-likelihoods and their bootstrap."""

import math

import numpy as np
import pandas as pd
import pytest

from biascheck.errors import ConfigError
from biascheck.methods.role_nouns import math as m
from biascheck.methods.role_nouns.spec import PROBE, STATES_ENV
from biascheck.settings import resolve

from .common import NAMES, SETS, STATES, TRIALS, predictions


def test_select_states_is_deterministic_and_spread():
    assert m.select_states(STATES, None) == sorted(STATES)
    assert m.select_states(STATES, 2) == ["Alabama", "Utah"]  # first and last alphabetically
    assert m.select_states(STATES, 3) == ["Alabama", "Maine", "Utah"]  # indices 0, 2.5->2, 5
    assert m.select_states(STATES, 99) == sorted(STATES)


@pytest.mark.parametrize(("raw", "expected"), [("", 5), ("all", 6), ("2", 2), ("default", 5)])
def test_states_setting_from_env(raw, expected):
    states = resolve({PROBE.name: PROBE}, environ={STATES_ENV: raw})[PROBE.name].states
    assert len(m.select_states(STATES, states)) == min(expected, len(STATES))


@pytest.mark.parametrize(("raw", "expected"), [("all", None), ("2", 2), ("default", 5), (" 7 ", 7)])
def test_states_setting_parses(raw, expected):
    assert PROBE.setting("states").value(raw) == expected


@pytest.mark.parametrize("raw", ["0", "five", "-1"])
def test_states_setting_rejects_bad_values(raw):
    with pytest.raises(ValueError):
        PROBE.setting("states").value(raw)
    with pytest.raises(ConfigError, match=STATES_ENV):
        resolve({PROBE.name: PROBE}, environ={STATES_ENV: raw})


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


def _loop_context_scores(word_scores, spans, include_variant):
    """The per-word loop `context_scores` replaced (an unscored word counting 0), as an oracle."""
    out = []
    for words, (start, end) in zip(word_scores, spans, strict=True):
        total = 0.0
        for _w, a, b, lp in words:
            if (include_variant or not (a < end and b > start)) and not np.isnan(lp):
                total += lp
        out.append(total)
    return out


@pytest.mark.parametrize("include_variant", [True, False])
def test_context_scores_equal_the_loop_with_unscored_and_empty_sentences(include_variant):
    rng = np.random.default_rng(5)
    sentences, spans = [], []
    for n in [3, 0, 5, 1, 7, 2]:
        at = np.cumsum(rng.integers(1, 6, size=2 * n + 1))
        lps = rng.normal(-3, 2, size=n)
        lps[rng.random(n) < 0.2] = np.nan
        sentences.append([("w", int(at[2 * i]), int(at[2 * i + 1]), float(lps[i])) for i in range(n)])
        spans.append((int(at[1]), int(at[3])) if n > 1 else (0, 1))
    got = m.context_scores(sentences, spans, include_variant)
    assert got.tolist() == _loop_context_scores(sentences, spans, include_variant)  # bit for bit
    assert m.context_scores([[], []], [(0, 1), (0, 1)], include_variant).tolist() == [0.0, 0.0]


@pytest.mark.parametrize("include_variant", [True, False])
def test_context_scores_of_an_engines_word_scores_read_its_columns_and_equal_the_loop(include_variant):
    """The engines' `word_logprobs` gives `words.WordScores`: the sums come from its arrays, the loop's numbers."""
    from biascheck.models.words import word_layout, word_sums

    texts = ["Kim is a chair from Ohio.", "Kim is a chairperson from Ohio.", ""]
    offsets = [[(a, b) for a, b in zip(range(len(t)), range(1, len(t) + 1), strict=True)] for t in texts]
    terms = np.random.default_rng(3).normal(-2, 1, sum(map(len, texts)))
    terms[[4, 17]] = np.nan
    scores = word_sums(word_layout(texts, offsets, None), terms)
    spans = [(9, 14), (9, 20), (0, 0)]
    got = m.context_scores(scores, spans, include_variant)
    assert got.tolist() == _loop_context_scores([list(s) for s in scores], spans, include_variant)  # bit for bit
    scores.columns = None  # the same call without the arrays: the tuples' path
    assert m.context_scores(scores, spans, include_variant).tolist() == got.tolist()


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


def test_trial_loglik_and_group_means_by_hand():
    ll = m.trial_loglik(TRIALS, predictions())
    assert np.exp(ll).tolist() == pytest.approx([0.3, 0.9, 0.7, 0.9, 0.7, 0.9, 0.7, 0.1])
    table = m.group_loglik(TRIALS, ll, "attitude").set_index(["group", "names"])
    assert table.loc[("progressive", "female"), "loglik"] == pytest.approx((math.log(0.3) + math.log(0.7)) / 2)
    assert table.loc[("conservative", "male"), "loglik"] == pytest.approx((math.log(0.9) + math.log(0.1)) / 2)
    assert table.loc[("progressive", "all"), "n"] == 4 and table.loc[("progressive", "all"), "participants"] == 2


def test_trial_loglik_refuses_missing_predictions():
    with pytest.raises(ValueError, match="no prediction"):
        m.trial_loglik(TRIALS.assign(name="Zoe"), predictions())


def test_bootstrap_point_is_the_trial_weighted_mean_and_interval_brackets_it():
    ll = m.trial_loglik(TRIALS, predictions())
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
    shares = m.category_shares(predictions(0.7, 0.1)).set_index("name_gender")
    assert shares.loc["female", "fem"] == pytest.approx(0.7) and shares.loc["male", "masc"] == pytest.approx(0.9)


def test_per_set_shares_and_mean_p_by_hand():
    # TRIALS: Sally (a woman's name) got masc once and fem three times
    shares = m.per_set_shares(predictions(0.7, 0.1), TRIALS, "masc", "female")
    assert shares.loc["actor", "model"] == pytest.approx(0.3) and shares.loc["actor", "people"] == pytest.approx(0.25)
    none_chosen = m.per_set_shares(predictions(0.7, 0.1), TRIALS, "neut", "female")
    assert none_chosen.loc["actor"].tolist() == [0.0, 0.0]
    assert m.mean_p_per_set(predictions(0.7, 0.1), "fem", "male").tolist() == pytest.approx([0.1])
    fem = m.fem_by_name_gender(predictions(0.7, 0.1))
    assert fem.loc["actor"].to_dict() == pytest.approx({"female": 0.7, "male": 0.1})


@pytest.mark.parametrize("names", ["all", "female", "male"])
def test_participant_sums_are_pandas_groups(names):
    """`_participant_sums` by codes and bincounts: pandas' groupby (groups in order of appearance, participants
    sorted), sums to rounding (pandas sums with compensation), counts exactly."""
    rng = np.random.default_rng(4)
    trials = pd.DataFrame(
        {
            "participant": rng.choice([f"p{i:02d}" for i in range(40)], 400),
            "attitude": rng.choice(["progressive", "moderate", "conservative"], 400),
            "name_gender": rng.choice(["female", "male"], 400),
        }
    )
    loglik = np.log(rng.uniform(0.05, 0.95, 400))
    frame = trials.assign(_ll=loglik)
    frame = frame if names == "all" else frame[frame["name_gender"] == names]
    want = {
        str(group): part.groupby("participant")["_ll"].agg(["sum", "size"])
        for group, part in frame.groupby("attitude", sort=False)
    }
    got = m._participant_sums(trials, loglik, "attitude", names)
    assert list(got) == list(want)
    for group, per in want.items():
        np.testing.assert_allclose(got[group][0], per["sum"].to_numpy(float), rtol=1e-13)
        assert got[group][1].tolist() == per["size"].to_numpy(float).tolist()


def test_the_bootstrap_takes_every_resample_at_once_with_the_numbers_of_one_at_a_time():
    """bootstrap_group_stats computes the group means of all resamples as arrays; the same draws, one resample
    at a time (written out here: steps 1-4 of its docstring), give the same intervals."""
    rng = np.random.default_rng(3)
    trials = pd.DataFrame(
        {
            "participant": np.repeat(np.arange(60), 5),
            "attitude": np.repeat(rng.choice(["progressive", "moderate", "conservative"], 60), 5),
            "name_gender": rng.choice(["female", "male"], 300),
        }
    )
    logliks = {"model": np.log(rng.uniform(0.05, 0.95, 300)), "prior": np.log(rng.uniform(0.05, 0.95, 300))}
    statistics = {
        "gap": lambda x: x["model"]["conservative"] - x["model"]["progressive"],
        "excess": lambda x: (x["model"]["moderate"] - x["prior"]["moderate"]) * 2.0,
        "prog": lambda x: x["prior"]["progressive"],
    }
    got = m.bootstrap_group_stats(trials, logliks, "attitude", statistics, n_resamples=300, seed=9)

    sums = {k: m._participant_sums(trials, v, "attitude", "all") for k, v in logliks.items()}
    groups = list(sums["model"])
    draw_rng, values = np.random.default_rng(9), {name: [] for name in statistics}
    for _ in range(300):
        draw = {g: draw_rng.integers(0, len(sums["model"][g][0]), len(sums["model"][g][0])) for g in groups}
        means = {k: {g: float(s[draw[g]].sum() / c[draw[g]].sum()) for g, (s, c) in v.items()} for k, v in sums.items()}
        for name, fn in statistics.items():
            values[name].append(fn(means))
    for name in statistics:
        low, high = np.quantile(values[name], 0.025), np.quantile(values[name], 0.975)
        assert got[name][1:] == pytest.approx((low, high), abs=1e-12)


def test_the_stratified_draws_are_drawn_once_for_the_process_read_only_in_the_streams_order():
    """Every interval of a model (and the next checkpoint's) with the same group sizes reads the same draws."""
    draws = m.stratified_draws((3, 5), 10, 1)
    assert m.stratified_draws((3, 5), 10, 1) is draws and not any(d.flags.writeable for d in draws)
    rng = np.random.default_rng(1)
    for b in range(10):  # one resample at a time, every group in turn
        assert draws[0][b].tolist() == rng.integers(0, 3, 3).tolist()
        assert draws[1][b].tolist() == rng.integers(0, 5, 5).tolist()
