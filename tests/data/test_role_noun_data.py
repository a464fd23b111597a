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


# --- against Watson et al.'s text (seed 004_92dc32969dee24fe.txt): what the role-noun plant copies ----------------
# The paper prints no production proportion (Figures 1a and 3a are bar charts); it prints the stimuli, the group
# sizes per split and, in prose, how the proportions are ordered. All are read through the loaders the probe and
# the role-noun plant read (`role_noun_sets`, `names_and_states`, `production_trials`).

# Appendix A.1, lines 429-456: the 24 names and the 20 role-noun sets.
A1_NAMES = {
    "male": "Andrew Austin Christopher David Jacob John Joseph Joshua Matthew Michael Nicholas William",
    "female": "Alyssa Elizabeth Emily Hannah Jessica Kalya Lauren Madison Megan Rachel Samantha Sarah",
}
A1_SETS = [
    "anchor, anchorman, anchorwoman",
    "businessman, businessperson, businesswoman",
    "camera operator, cameraman, camerawoman",
    "congressman, congressperson, congresswoman",
    "craftsman, craftsperson, craftswoman",
    "crewman, crewmember, crewwoman",
    "firefighter, fireman, firewoman",
    "flight attendant, steward, stewardess",
    "foreman, foreperson, forewoman",
    "layman, layperson, laywoman",
    "meteorologist, weatherman, weatherwoman",
    "police officer, policeman, policewoman",
    "salesman, salesperson, saleswoman",
    "stunt double, stuntman, stuntwoman",
    "actor, actress",
    "heir, heiress",
    "hero, heroine",
    "host, hostess",
    "hunter, huntress",
    "villain, villainess",
]


def test_names_and_sets_are_appendix_a1s(real_refdata):
    names, _states = role_nouns.names_and_states(real_refdata)
    assert names.groupby("name_gender")["name"].apply(set).to_dict() == {
        sex: set(listed.split()) for sex, listed in A1_NAMES.items()
    }
    sets = role_nouns.role_noun_sets(real_refdata)
    ours = {frozenset(group["variant"]) for _key, group in sets.groupby("set")}
    assert ours == {frozenset(line.split(", ")) for line in A1_SETS}
    fem = set(sets.loc[sets["category"] == "fem", "variant"])  # the feminine variant of each set, e.g. 'stewardess'
    assert fem == {v for line in A1_SETS for v in line.split(", ") if v.endswith(("woman", "ess", "ine"))}


def test_two_way_trials_per_attitude_third_are_table5s(trials):
    # Table 5 (line 508): "Num. of observations is 540, 540, and 546" (progressive, moderate, conservative)
    assert trials[trials["split"] == 2].groupby("attitude").size().to_dict() == {
        "progressive": 540,
        "moderate": 540,
        "conservative": 546,
    }


def _shares(trials, split):
    picked = trials[trials["split"] == split]
    return pd.crosstab([picked["attitude"], picked["name_gender"]], picked["category"], normalize="index")


def test_three_way_choices_are_ordered_as_section_3_3_1_describes(trials):
    """Lines 157-168: in every group "a small proportion of MASC forms for women's names ... and almost no FEM
    forms for men's names"; the two congruent forms "vary between being about equally represented, to one of the
    forms being about twice the rate of the other". Line 182: "progressives ... have roughly equal proportions of
    MASC and G-NEUT forms for men's names". The bounds on "about" (a ratio of at most 2.5; within 10 %) are ours."""
    shares = _shares(trials, 3)
    for attitude in ("progressive", "moderate", "conservative"):
        women, men = shares.loc[(attitude, "female")], shares.loc[(attitude, "male")]
        assert women.idxmin() == "masc" and men.idxmin() == "fem", attitude
        assert men["fem"] < women["masc"], attitude  # "almost no" below "a small proportion"
        for congruent in (women[["fem", "neut"]], men[["masc", "neut"]]):
            assert congruent.max() / congruent.min() <= 2.5, (attitude, congruent.to_dict())
    progressive_men = shares.loc[("progressive", "male")]
    assert abs(progressive_men["masc"] / progressive_men["neut"] - 1) < 0.1


def test_two_way_choices_are_ordered_as_appendix_a5_describes(trials):
    """Line 520: "All participant groups used more FEM variants (e.g., actress) for stimuli containing women's
    names, and more MASC/G-NEUT variants (e.g., actor) for stimuli containing men's names"; "the non-congruent FEM
    variants are rarely applied to stimuli containing men's names" (the 2-way sets' other variant is 'masc')."""
    shares = _shares(trials, 2)
    for attitude in ("progressive", "moderate", "conservative"):
        women, men = shares.loc[(attitude, "female")], shares.loc[(attitude, "male")]
        assert women["fem"] > women["masc"] and men["masc"] > men["fem"], attitude
        assert men["fem"] < min(women["fem"], women["masc"], men["masc"]), attitude
