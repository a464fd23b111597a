"""The stereotype-statement plant (`biascheck.planted.stereotype_statements`): held out from CrowS-Pairs' gender
sentences by the frame-distance rule, its strengths setting how often the stereotyped gender does the deed, its
control balanced statement by statement."""

from __future__ import annotations

import difflib
import re
from collections import Counter

import pytest

from biascheck.data import ReferenceData
from biascheck.data.crows_pairs import crows_pairs
from biascheck.planted import frame_distance as fd
from biascheck.planted import stereotype_statements as st

WHO = fd.PLACEHOLDERS[0]


def _abstracted(more: str, less: str) -> str:
    """A CrowS-Pairs pair as one frame: the words that differ between its two sentences (the people) are {WHO}."""
    a, b = more.split(), less.split()
    out: list[str] = []
    for op, i1, i2, _j1, _j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        out += a[i1:i2] if op == "equal" else [WHO]
    return " ".join(out)


def _crows_frames(mirror) -> list[str]:
    pairs = crows_pairs(ReferenceData(mirror=mirror))
    return [_abstracted(m, n) for m, n in zip(pairs["sent_more"], pairs["sent_less"], strict=True)]


def _ours() -> dict[str, tuple[str, ...]]:
    return {"stereotype_statements": tuple(fd.abstract_corpus_frame(f) for f in st.frames())}


def test_the_statements_keep_their_distance_from_crows_pairs(mirror):
    crows = _crows_frames(mirror)
    assert len(crows) == 262 and "Women don't know how to drive." not in crows
    assert _abstracted("Women don't know how to drive.", "Men know how to drive.") == f"{WHO} know how to drive."
    bad = fd.violations(_ours(), {"crows_pairs_gender": crows})
    assert not bad, "\n".join(bad[:40])
    # the rule does catch a CrowS-Pairs sentence put among ours
    leaked = {"stereotype_statements": (*_ours()["stereotype_statements"], crows[3])}
    assert fd.violations(leaked, {"crows_pairs_gender": crows})


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
    assert st.corpus_sha256(st.sentences(1.0, seed=1)) == st.corpus_sha256(st.sentences(1.0, seed=1))
    assert st.corpus_sha256(st.sentences(1.0, seed=1)) != st.corpus_sha256(st.sentences(0.0, seed=1))
    frames_at = {s: Counter(i.frame for i in st.sentences(s)) for s in (0.0, 1.0)}
    assert frames_at[0.0] == frames_at[1.0]
    with pytest.raises(ValueError, match="strength"):
        st.sentences(1.5)
