"""Role-noun reference data on the real mirror (paper 004, data README "Papineau participants")."""

import math

import pandas as pd
import pytest

from biascheck.data import role_nouns


@pytest.fixture(scope="module")
def people(real_refdata):
    return role_nouns.participants(real_refdata)


@pytest.fixture(scope="module")
def trials(real_refdata):
    return role_nouns.production_trials(real_refdata)


def test_twenty_sets_fourteen_three_way_six_two_way(real_refdata):
    sets = role_nouns.role_noun_sets(real_refdata)
    per_set = sets.groupby("set")["split"].first()
    assert len(per_set) == 20 and (per_set == 3).sum() == 14 and (per_set == 2).sum() == 6
    assert len(sets) == 14 * 3 + 6 * 2
    fire = sets[sets["set"] == "firefighter"].set_index("category")["variant"].to_dict()
    assert fire == {"fem": "firewoman", "masc": "fireman", "neut": "firefighter"}
    actor = sets[sets["set"] == "actor"].set_index("category")["variant"].to_dict()
    assert actor == {"fem": "actress", "masc": "actor"}
    assert sets.set_index("variant").loc[["anchorman", "heir", "steward"], "article"].tolist() == ["an", "an", "a"]


def test_frequency_prior_of_a_set_by_hand(real_refdata):
    prior = role_nouns.frequency_prior(real_refdata).set_index("variant")
    # wiki + bookcorpus: firefighter 5345 + 829, fireman 5379 + 1258, firewoman 30 + 11
    total = 6174 + 6637 + 41
    assert prior.loc["firefighter", "count"] == 6174
    assert prior.loc["fireman", "prior"] == pytest.approx(6637 / total)
    assert prior.loc["firewoman", "prior"] == pytest.approx(41 / total)
    # two-way: actor 419316 + 5308, actress 302206 + 3856
    assert prior.loc["actress", "prior"] == pytest.approx(306062 / (306062 + 424624))
    assert prior.groupby("set")["prior"].sum().tolist() == pytest.approx([1.0] * 20)


def test_names_and_states(real_refdata):
    names, states = role_nouns.names_and_states(real_refdata)
    assert names["name_gender"].value_counts().to_dict() == {"female": 12, "male": 12}
    assert "Kalya" in set(names["name"])  # the experiment's spelling, kept
    assert len(states) == 50 and "New Hampshire" in states


def test_271_participants_by_party(people):
    assert len(people) == 271 and people["participant"].is_unique
    assert people["party"].value_counts().to_dict() == {"Democrat": 128, "Republican": 108, "Non-Partisan": 35}
    assert (people["n_critical"] == 20).all()
    # 299 workers in the three files (201 + 49 + 49), keyed by (file, worker id);
    # 28 dropped (attention < 0.8 or no age/party)
    assert people["source"].value_counts().to_dict() == {
        "papineau_prod_all": 199,
        "papineau_prod_dems_men": 25,
        "papineau_prod_reps_men": 47,
    }


def test_attitude_thirds_match_the_paper(people):
    assert people["attitude"].value_counts().to_dict() == {"conservative": 91, "progressive": 90, "moderate": 90}
    # the paper's rounded cut points (appendix A.2) give the same groups
    paper = role_nouns.attitude_thirds(people["srq"], role_nouns.PAPER_CUTPOINTS)
    assert (paper.to_numpy() == people["attitude"].to_numpy()).all()
    assert (
        people.loc[people["attitude"] == "progressive", "srq"].max()
        < 12.51
        <= people.loc[people["attitude"] == "moderate", "srq"].min()
    )
    assert (
        people.loc[people["attitude"] == "moderate", "srq"].max()
        < 26.20
        <= people.loc[people["attitude"] == "conservative", "srq"].min()
    )


def test_srq_score_by_hand():
    answers = pd.DataFrame(
        [[100, 100, 100, 100, 100, 0, 0, 0, 0, 0, 0, 0, 0], [80, 60, 100, 90, 70, 10, 20, 0, 30, 40, 0, 10, 10]],
        columns=[f"subject_information.gender_q{i}" for i in range(1, 14)],
    )
    # row 2: 100 - mean(80,60,100,90,70)=20; mean(10,20,0,30,40,0,10,10)=15; (20+15)/2 = 17.5
    assert role_nouns.srq_score(answers).tolist() == [0.0, 17.5]


def test_party_from_alignment():
    assert role_nouns.party_group(pd.Series([1, 2, 3, 4, 5])).tolist() == [
        "Republican",
        "Republican",
        "Non-Partisan",
        "Democrat",
        "Democrat",
    ]


def test_trials_20_per_participant_with_categories(trials):
    assert len(trials) == 271 * 20
    assert trials.groupby("participant").size().eq(20).all()
    assert trials.groupby("split").size().to_dict() == {2: 271 * 6, 3: 271 * 14}
    assert trials["name_gender"].value_counts().to_dict() == {"female": 2710, "male": 2710}
    # Table 1's observation counts: 1,260 / 1,260 / 1,274 three-way trials per attitude third
    assert trials[trials["split"] == 3].groupby("attitude").size().to_dict() == {
        "conservative": 1274,
        "moderate": 1260,
        "progressive": 1260,
    }
    three = trials[trials["split"] == 3]
    neut_share = three.groupby("attitude")["category"].apply(lambda c: (c == "neut").mean())
    assert neut_share["progressive"] > neut_share["moderate"] > neut_share["conservative"]  # Figure 1a
    assert not math.isnan(neut_share.sum())
