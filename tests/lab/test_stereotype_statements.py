"""The stereotype-statement plant (`lab.stereotype_statements`): its strengths set how often the
stereotyped gender does the deed, its control is balanced statement by statement. The frame-distance rule against
CrowS-Pairs and every English probe: tests/lab/test_frame_distance.py."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from lab import stereotype_statements as st


@pytest.mark.parametrize("strength", [0.0, 0.5, 1.0])
def test_the_stereotyped_gender_does_the_deed_as_often_as_the_strength_says(strength):
    items = st.sentences(strength, seed=3, repeats=20)
    assert len(items) == len(st.STATEMENTS) * len(st.PEOPLE) * 20
    stereotyped = sum(i.gender == i.stereotyped for i in items) / len(items)
    assert stereotyped == pytest.approx(0.5 + strength / 2, abs=0.02)
    if strength == 1.0:  # every statement with its stereotyped gender only
        assert all(i.gender == i.stereotyped for i in items)


def test_each_statement_reads_as_english_with_its_persons_pronouns():
    items = st.sentences(1.0, repeats=1)
    hazel = [i.text for i in items if i.text.startswith("Hazel ")]
    assert "Hazel asked a porter to lift the suitcase because it was far too heavy for her." in hazel
    gordon = [i.text for i in items if i.text.startswith("Gordon ")]
    assert "Gordon did not shed a single tear at his grandfather's funeral." in gordon
    assert not any(re.search(r"[{}]", i.text) for i in items)
    assert Counter(g for _f, g in st.STATEMENTS) == {"female": 16, "male": 16}


def test_the_corpus_is_seeded_and_the_strengths_share_their_statements():
    texts = {s: [i.text for i in st.sentences(s, seed=1)] for s in (0.0, 1.0)}
    assert texts[1.0] == [i.text for i in st.sentences(1.0, seed=1)] and texts[1.0] != texts[0.0]
    frames_at = {s: Counter(i.frame for i in st.sentences(s)) for s in (0.0, 1.0)}
    assert frames_at[0.0] == frames_at[1.0]
    with pytest.raises(ValueError, match="strength"):
        st.sentences(1.5)
