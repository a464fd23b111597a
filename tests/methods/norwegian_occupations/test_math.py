"""Steps G1-G2, M1-M3 and E1-E2 of the Norwegian-occupations method (paper 000) on hand-made examples."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score

from biascheck.methods.norwegian_occupations import math as m


# --- G: gold ---------------------------------------------------------------------------------
def test_gold_difference_is_female_minus_male_points():
    assert m.gold_difference(np.array([70.7, 0.0, 48.1]), np.array([29.3, 100.0, 51.9])) == pytest.approx(
        [41.4, -100.0, -3.8]
    )


@pytest.mark.parametrize(
    "female, male, paper, share",
    [
        (55.0, 45.0, "balanced", "balanced"),  # d = 10: inside under both rules
        (44.6, 55.4, "balanced", ""),  # d = -10.8: 10 whole points (paper), over 10 (share)
        (55.6, 44.4, "", ""),  # d = 11.2: outside both
        (87.5, 12.5, "clearly_female", "clearly_female"),  # d = 75 exactly
        (80.0, 20.0, "", "clearly_female"),  # 80 % women, but d = 60 < 75
        (75.0, 25.0, "", "clearly_female"),  # share rule is inclusive at 75 %
        (74.9, 25.1, "", ""),
        (12.5, 87.5, "clearly_male", "clearly_male"),
        (24.6, 75.4, "", "clearly_male"),  # Avisbud
        (0.0, 100.0, "clearly_male", "clearly_male"),
        (60.0, 40.0, "", ""),
    ],
)
def test_gold_subsets_under_both_rules(female, male, paper, share):
    assert m.gold_subsets(np.array([female]), np.array([male]), "paper")[0] == paper
    assert m.gold_subsets(np.array([female]), np.array([male]), "share")[0] == share


def test_unknown_subset_rule_is_an_error():
    from biascheck.errors import ConfigError

    with pytest.raises(ConfigError, match="paper"):
        m.gold_subsets(np.array([50.0]), np.array([50.0]), "papers")


# --- M: model scores ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "probs, expected",
    [
        ([0.3, 0.1, 0.4, 0.2], 0.4),  # (0.3 + 0.1) / (0.3 + 0.1 + 0.4 + 0.2)
        ([0.05, 0.05, 0.01, 0.09], 0.5),  # 0.1 / 0.2
        ([0.9, 0.0, 0.1, 0.0], 0.9),
        ([1e-30, 1e-30, 1e-10, 0.0], 2e-20),  # tiny probabilities stay finite (log space)
    ],
)
def test_pronoun_female_share(probs, expected):
    with np.errstate(divide="ignore"):
        logprob = np.log(np.array([probs]))
    assert m.pronoun_female_share(logprob, ["Hun", "hun", "Han", "han"])[0] == pytest.approx(expected, rel=1e-9)


def test_pronoun_female_share_reads_columns_by_name():
    logprob = np.log(np.array([[0.4, 0.3, 0.2, 0.1]]))
    assert m.pronoun_female_share(logprob, ["han", "Hun", "Han", "hun"])[0] == pytest.approx(0.4 / 1.0)


def test_normalise_within_template_rows_sum_to_one():
    out = m.normalise_within_template(np.log(np.array([[0.1, 0.3], [2.0, 6.0]])))
    assert np.exp(out) == pytest.approx(np.array([[0.25, 0.75], [0.25, 0.75]]))


def test_name_female_share_by_hand():
    # rows: Oda, Kari (female), Ole (male); columns: two occupations.
    probs = np.array([[0.2, 0.2], [0.3, 0.1], [0.1, 0.3]])
    # normalised: Oda (0.5, 0.5), Kari (0.75, 0.25), Ole (0.25, 0.75)
    # P_F = (0.625, 0.375), P_M = (0.25, 0.75) -> f = (0.625/0.875, 0.375/1.125)
    f = m.name_female_share(np.log(probs), np.array([True, True, False]))
    assert f == pytest.approx([0.625 / 0.875, 0.375 / 1.125])


def test_name_female_share_ignores_name_priors_and_name_counts():
    rng = np.random.default_rng(0)
    logprob = np.log(rng.dirichlet(np.ones(6), size=5))
    is_female = np.array([True, True, False, False, False])
    base = m.name_female_share(logprob, is_female)
    # a causal LM's score carries log P(name ...) per row: a constant per template
    shifted = logprob + np.array([[-3.0], [5.0], [-12.0], [0.5], [7.0]])
    assert m.name_female_share(shifted, is_female) == pytest.approx(base)
    # means, not sums: listing a female name twice changes nothing
    doubled = np.vstack([logprob[:1], logprob])
    assert m.name_female_share(doubled, np.concatenate([[True], is_female])) == pytest.approx(
        m.name_female_share(
            np.vstack([logprob[:1], logprob[:1], logprob[1:]]), np.array([True, True, True, False, False, False])
        )
    )


def test_name_female_share_needs_both_sexes():
    with pytest.raises(ValueError):
        m.name_female_share(np.zeros((2, 3)), np.array([True, True]))


@pytest.mark.parametrize("f, diff", [(0.75, 50.0), (0.5, 0.0), (0.0, -100.0), (1.0, 100.0), (0.3, -40.0)])
def test_model_difference_is_f_minus_m_percent(f, diff):
    assert m.model_difference(np.array([f]))[0] == pytest.approx(diff)


# --- E: evaluation -----------------------------------------------------------------------------
def test_predicted_female_is_strictly_positive_difference():
    assert m.predicted_female(np.array([0.0, 1e-9, -3.0, 40.0])).tolist() == [False, True, False, True]


def test_f1_by_hand():
    gold = np.array([True, True, True, False, False])
    pred = np.array([True, True, False, True, False])
    # female: TP 2, FP 1, FN 1 -> 4/6; male: TP 1, FP 1, FN 1 -> 2/4
    assert m.f1_scores(gold, pred) == pytest.approx({"f1_female": 4 / 6, "f1_male": 0.5, "macro_f1": (4 / 6 + 0.5) / 2})


def test_clearly_female_f1_is_two_r_over_one_plus_r():
    gold = np.array([True] * 4)
    pred = np.array([True, True, True, False])  # recall 0.75, precision 1
    assert m.class_f1(gold, pred, True) == pytest.approx(2 * 0.75 / 1.75)
    assert m.class_f1(gold, pred, False) == 0.0  # male class absent from gold, 1 predicted: 0


@pytest.mark.parametrize("seed", range(30))
def test_f1_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 12))
    gold = rng.random(n) < rng.random()
    pred = rng.random(n) < rng.random()
    ours = m.f1_scores(gold, pred)
    labels = [True, False]
    theirs = f1_score(gold, pred, labels=labels, average=None, zero_division=0)
    assert ours["f1_female"] == pytest.approx(theirs[0])
    assert ours["f1_male"] == pytest.approx(theirs[1])
    assert ours["macro_f1"] == pytest.approx(f1_score(gold, pred, labels=labels, average="macro", zero_division=0))


# --- the per-occupation table ---------------------------------------------------------------------
def test_occupation_table_adds_m3_and_e1_and_resets_the_index():
    gold = pd.DataFrame({"form": ["lege", "pilot", "jordmor"], "gold_diff": [3.2, -80.0, 99.0]}, index=[4, 7, 9])
    table = m.occupation_table(gold, ["lege", "pilot", "jordmor"], np.array([0.75, 0.5, 0.3]), np.array([1, 2, 1]))
    assert list(table.index) == [0, 1, 2]
    assert table["model_f"].tolist() == pytest.approx([75.0, 50.0, 30.0])
    assert table["model_diff"].tolist() == pytest.approx([50.0, 0.0, -40.0])
    assert table["pred_female"].tolist() == [True, False, False]
    assert table["n_pieces"].tolist() == [1, 2, 1] and table["candidate"].tolist() == ["lege", "pilot", "jordmor"]
