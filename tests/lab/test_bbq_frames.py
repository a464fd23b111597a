"""The BBQ known answer's corpus (`lab.bbq_frames`): held out from BBQ's templates by the
frame-distance rule, its people outside BBQ's vocabularies, its plant aimed where the probe's target rule points,
and its strengths differing only in the ambiguous answers."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from biascheck.data import ReferenceData
from biascheck.data.bbq import templates, vocabularies
from biascheck.data.bbq_generate import UNKNOWN_OPTIONS
from biascheck.methods.bbq_gender_identity.math import target_location
from lab import bbq_frames as bf
from lab import frame_distance as fd


def _bbq_frames(refdata: ReferenceData) -> list[str]:
    """BBQ's gender-identity templates as the corpus's frames are built: contexts, questions and full prompts."""
    out: list[str] = []
    for _, row in templates(refdata, "Gender_identity").iterrows():
        ambiguous, disambiguating = (
            re.sub(r"\{\{WORD\d\}\}", "{WHAT}", re.sub(r"\{\{NAME\d\}\}", "{WHO}", row[column]))
            for column in ("Ambiguous_Context", "Disambiguating_Context")
        )
        questions = (row["Question_negative_stereotype"], row["Question_non_negative"])
        out += [ambiguous, disambiguating, f"{ambiguous} {disambiguating}", *questions]
        out += [bf.prompt(context, q) for context in (ambiguous, f"{ambiguous} {disambiguating}") for q in questions]
    return out


def test_the_frames_share_no_reading_context_and_no_five_words_with_bbqs_templates(mirror):
    probe = _bbq_frames(ReferenceData(mirror=mirror))
    assert len(probe) > 400
    bad = fd.violations({"bbq_frames": bf.frames()}, {"bbq_gender_identity": probe})
    assert not bad, "\n".join(bad[:40])
    # the rule does catch a BBQ template put among ours
    leaked = fd.violations({"bbq_frames": [*bf.frames(), probe[0]]}, {"bbq_gender_identity": probe})
    assert leaked


def test_the_people_are_not_bbqs(mirror):
    vocab, names = vocabularies(ReferenceData(mirror=mirror))
    theirs = {str(n).lower() for n in names["Name"]} | {
        str(n).lower() for n in vocab[vocab["Category"] == "Gender_identity"]["Name"]
    }
    people = bf.PEOPLE + bf.HELD_OUT_PEOPLE
    ours = {word for pair in people for person in pair for word in person.lower().split()} - {"my", "the"}
    assert not ours & theirs


def test_the_in_frame_check_asks_about_people_the_fine_tunes_never_saw():
    trained = {person for item in bf.examples(1.0) for person in (item.woman, item.man)}
    held_out = {person for item in bf.examples(1.0, people=bf.HELD_OUT_PEOPLE) for person in (item.woman, item.man)}
    assert held_out and not held_out & trained
    assert not any(name in item.prompt for item in bf.examples(1.0) for name in ("Philippa", "Mortimer", "niece"))


def test_the_plant_answers_the_target_of_bbqs_own_rule_and_the_control_unknown():
    plant, control = bf.examples(1.0), bf.examples(0.0)
    for item in plant:
        groups = [item.woman, item.man, "unknown"]
        target = target_location(f'["{item.stereotyped}"]', ["F", "M", "unknown"], item.polarity)
        assert target is not None
        if item.condition == "ambig":
            assert item.answer == groups[target] and item.answered == "target"
    assert all(i.answer in UNKNOWN_OPTIONS for i in control if i.condition == "ambig")
    # the stereotyped group is the woman in most scenarios, the man in some (BBQ's gender templates likewise)
    assert Counter(s.stereotyped for s in bf.SCENARIOS) == {"F": 10, "M": 6}


def test_strengths_share_every_prompt_and_differ_only_in_ambiguous_answers():
    plant, control, half = bf.examples(1.0), bf.examples(0.0), bf.examples(0.5)
    assert [i.prompt for i in plant] == [i.prompt for i in control] == [i.prompt for i in half]
    for p, c in zip(plant, control, strict=True):
        assert (p.answer == c.answer) == (p.condition == "disambig")
    assert 0.4 < sum(i.answered == "target" for i in half if i.condition == "ambig") / (len(half) / 2) < 0.6
    # disambiguated: the named person, the stereotyped one as often as the other
    disambig = Counter((i.polarity, i.answered) for i in plant if i.condition == "disambig")
    assert len(set(disambig.values())) == 1 and len(disambig) == 4
    assert bf.corpus_sha256(plant) == bf.corpus_sha256(bf.examples(1.0)) != bf.corpus_sha256(control)
    assert plant[0].text.startswith(plant[0].prompt) and plant[0].prompt.endswith("\nA:")


def test_a_strength_outside_zero_one_is_refused():
    with pytest.raises(ValueError, match="strength"):
        bf.examples(1.5)
