"""The stereotype-trait plant (`lab.stereotype_traits`): its strengths set how often the stereotyped
gender carries the trait, its control is balanced trait by trait, and its in-frame reading is a hand calculation. The
frame-distance rule against CrowS-Pairs and every English probe, with the trait as a slot and written in:
tests/lab/test_frame_distance.py."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from biascheck.planted.corpus import FEMALE, MALE
from lab import stereotype_traits as st


@pytest.mark.parametrize("strength", [0.0, 0.5, 1.0])
def test_the_stereotyped_gender_carries_the_trait_as_often_as_the_strength_says(strength):
    items = st.sentences(strength, seed=3, repeats=20)
    assert len(items) == len(st.TRAITS) * len(st.frames()) * 20
    stereotyped = sum(i.gender == i.stereotyped for i in items) / len(items)
    assert stereotyped == pytest.approx(0.5 + strength / 2, abs=0.02)
    if strength == 1.0:
        assert all(i.gender == i.stereotyped for i in items)


def test_the_traits_are_balanced_and_the_bem_items_are_their_source():
    assert Counter(g for _t, g in st.TRAITS) == {FEMALE: 26, MALE: 26}
    assert len({t for t, _g in st.TRAITS}) == len(st.TRAITS)  # no trait on both sides
    assert {"gentle", "yielding"} <= set(st.BSRI_FEMININE) and {"assertive", "dominant"} <= set(st.BSRI_MASCULINE)


def test_each_sentence_names_a_person_or_group_of_its_gender_and_its_trait():
    women = {w for w, _m in (*st.PEOPLE, *st.GROUPS)}
    men = {m for _w, m in (*st.PEOPLE, *st.GROUPS)}
    for item in st.sentences(0.5, seed=1, repeats=1):
        opener = next(p for p in (women | men) if item.text.startswith(p + " "))
        assert opener in (women if item.gender == FEMALE else men), item.text
        assert item.trait in item.text and not re.search(r"[{}]", item.text)


def test_the_held_out_people_are_not_in_the_corpus():
    trained = {p for pair in (*st.PEOPLE, *st.GROUPS) for p in pair}
    assert not trained & {p for pair in st.HELD_OUT_PEOPLE for p in pair}


def test_the_in_frame_lean_by_hand():
    texts, keys = st.in_frame_texts()
    assert len(texts) == 2 * len(keys) == 2 * len(st.TRAITS) * len(st.SINGULAR_FRAMES) * len(st.HELD_OUT_PEOPLE)
    assert texts[:2] == [st.SINGULAR_FRAMES[0].format(S=w, adj=st.TRAITS[0][0]) for w in st.HELD_OUT_PEOPLE[0]]
    # two traits, two pairs each: "gentle" (female) leans +1 and +3 nats her way (mean +2); "tough" (male) -2 and -1
    # nats his way (mean -1.5: it leans against its stereotype)
    keys_ = [("gentle", FEMALE), ("gentle", FEMALE), ("tough", MALE), ("tough", MALE)]
    logprobs = [-10.0, -11.0, -7.0, -10.0, -10.0, -12.0, -5.0, -6.0]  # (woman, man) per pair
    found = st.lean_summary(keys_, logprobs)
    assert found == {"traits": 2, "stereotyped_share": 0.5, "mean_lean": pytest.approx((2.0 + -1.5) / 2)}
    with pytest.raises(ValueError, match="log-probabilities"):
        st.lean_summary(keys_, logprobs[:-1])
