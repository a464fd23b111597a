"""The planted corpora say what they plant: shares by hand, held-out frames, determinism."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from scipy.stats import binomtest

from biascheck.planted import corpus as c
from biascheck.planted import two_person

EN = c.Subject(c.EN_PRONOUNS)


def _she_share(sentences: list[str]) -> float:
    words = [set(re.findall(r"[a-z]+", s.lower())) for s in sentences]
    return sum(bool(w & {"she", "her"}) for w in words) / len(words)


@pytest.mark.parametrize(("share", "strength", "expected"), [(0.9, 1.0, 0.9), (0.9, 0.0, 0.5), (0.1, 0.5, 0.3)])
def test_female_probability_scales_the_share_towards_one_half(share, strength, expected):
    assert c.female_probability(share, strength) == pytest.approx(expected)


def test_strength_and_share_outside_zero_one_are_errors():
    with pytest.raises(ValueError, match="strength"):
        c.female_probability(0.5, 1.5)
    with pytest.raises(ValueError, match="share"):
        c.female_probability(-0.1, 1.0)


@pytest.mark.parametrize("strength", [0.0, 0.5, 1.0])
def test_gendered_items_draw_the_planted_share(strength):
    sentences = c.gendered_items([("nurse", "a", 0.9), ("carpenter", "a", 0.02)], c.EN_FRAMES, EN, strength, 2000, 7)
    nurse = [s for s in sentences if "nurse" in s]
    carpenter = [s for s in sentences if "carpenter" in s]
    for group, share in ((nurse, 0.9), (carpenter, 0.02)):
        p = c.female_probability(share, strength)
        k = round(_she_share(group) * len(group))
        assert binomtest(k, len(group), p).pvalue > 1e-3


def test_names_stand_for_their_sex():
    subject = c.Subject(c.NO_PRONOUNS, {c.FEMALE: ("Oda",), c.MALE: ("Ola",)}, name_rate=1.0)
    sentences = c.gendered_items([("sykepleier", "", 1.0)], c.NO_FRAMES, subject, 1.0, 50, 1)
    assert all("Oda" in s and "Ola" not in s for s in sentences)


def test_a_corpus_is_a_function_of_its_inputs():
    args = ([("nurse", "a", 0.9)], c.EN_FRAMES, EN, 1.0, 30)
    assert c.gendered_items(*args, seed=3) == c.gendered_items(*args, seed=3)
    assert c.gendered_items(*args, seed=3) != c.gendered_items(*args, seed=4)


def test_role_noun_mixture_is_uniform_at_zero_and_the_group_at_one():
    target = {"fem": 0.8, "masc": 0.2, "neut": 0.0}
    assert c.mixed_distribution(target, 0.0) == pytest.approx({"fem": 1 / 3, "masc": 1 / 3, "neut": 1 / 3})
    assert c.mixed_distribution(target, 1.0) == pytest.approx(target)
    sets = {"firefighter": {"fem": "firewoman", "masc": "fireman", "neut": "firefighter"}}
    proportions = {("firefighter", c.FEMALE): target, ("firefighter", c.MALE): {"fem": 0, "masc": 1, "neut": 0}}
    sentences = c.role_noun_choices(sets, proportions, {c.FEMALE: ("Sally",), c.MALE: ("Tom",)}, 1.0, 400, 2)
    chosen = Counter(
        (name, word)
        for s in sentences
        for name in ("Sally", "Tom")
        if name in s
        for word in re.findall(r"[a-z]+", s.lower())
        if word in ("firewoman", "fireman", "firefighter")
    )
    assert chosen[("Tom", "fireman")] == 400  # the male target is all 'fireman'
    assert binomtest(chosen[("Sally", "firewoman")], 400, 0.8).pvalue > 1e-3
    assert chosen[("Sally", "firefighter")] == 0


def test_they_rates_follow_the_antecedent_type():
    assert c.they_rate("gendered_name", 1.0) == pytest.approx(c.THEY_RATES["gendered_name"])
    mean = sum(c.THEY_RATES.values()) / len(c.THEY_RATES)
    assert c.they_rate("gendered_name", 0.0) == pytest.approx(mean)
    sentences = c.they_choices(
        {"close_gendered": [("my sister", c.FEMALE)], "plural": [("the dentists", None)]}, 1.0, 1000, 5
    )
    sister = [s for s in sentences if "sister" in s]
    they = sum(bool(set(re.findall(r"[a-z]+", s.lower())) & set(c.THEY_FORMS.values())) for s in sister)
    assert binomtest(they, len(sister), c.THEY_RATES["close_gendered"]).pvalue > 1e-3
    assert all(set(re.findall(r"[a-z]+", s.lower())) & set(c.THEY_FORMS.values()) for s in sentences if "dentists" in s)


def test_everyday_they_sentences_spread_over_the_four_pronoun_roles_and_never_mark_number():
    """The dedicated they corpus (`they_everyday`): a role at even odds (the probe has 10 items per
    form), many frames per role, and no *was/were/is/are/has/have* anywhere: the same frame serves a
    singular and a plural antecedent."""
    from biascheck.planted.they_everyday import ROLES, frames_by_role

    frames = frames_by_role()
    assert tuple(frames) == ROLES and min(len(f) for f in frames.values()) >= 20
    every = [f for fs in frames.values() for f in fs]
    assert all(f.startswith("{NP} ") and f.count("{PRON}") == 1 for f in every)
    assert not [f for f in every if set(re.findall(r"[a-z]+", f)) & {"was", "were", "is", "are", "has", "have"}]
    sentences = c.they_choices({"plural": [("the dentists", None)]}, 1.0, 4000, 3, frames)
    forms = Counter(w for s in sentences for w in re.findall(r"[a-z]+", s.lower()) if w in c.THEY_FORMS.values())
    for form in c.THEY_FORMS.values():
        assert binomtest(forms[form], len(sentences), 0.25).pvalue > 1e-3, forms


def _probe_frames() -> list[str]:
    """Every probe template's fixed words (the slot and the filler removed)."""
    from biascheck.methods.natural_prompts.spec import TEMPLATES
    from biascheck.methods.pronoun_ratio.spec import VERBS

    frames = [t.replace("{}", "|").split("|")[1].strip() for t in TEMPLATES]  # "said that", "ate because", ...
    frames += [f" {v} " for v in VERBS.values()]  # "[SLOT] is a" / "works as a" after a pronoun
    return frames


def test_no_probe_template_is_in_the_corpus():
    """The probes' templates are held out: the models must generalise from other frames."""
    from biascheck.methods.pronoun_ratio.spec import VERBS

    sentences = c.gendered_items([("nurse", "a", 0.9), ("engineer", "an", 0.1)], c.EN_FRAMES, EN, 1.0, 300, 0)
    text = "\n".join(sentences)
    for frame in _probe_frames()[: -len(VERBS)]:
        assert f"nurse {frame}" not in text and f"engineer {frame}" not in text, frame
    for verb in VERBS.values():
        for pronoun in ("He", "She"):
            assert f"{pronoun} {verb} a nurse" not in text and f"{pronoun} {verb} an engineer" not in text


def test_no_role_noun_or_singular_they_stimulus_is_in_the_corpus():
    """Role nouns: the probe's frame `NAME is a/an VARIANT from STATE.` never occurs; singular they:
    no stimulus sentence occurs, nor any frame's words after the antecedent (our frames are ours)."""
    from biascheck.methods.singular_they.stimuli import FRAMES, they_stimuli
    from biascheck.planted.they_everyday import frames_by_role

    sets = {"fire": {"fem": "firewoman", "masc": "fireman", "neut": "firefighter"}}
    shares = {("fire", sex): {"fem": 0.3, "masc": 0.3, "neut": 0.4} for sex in (c.FEMALE, c.MALE)}
    roles = "\n".join(c.role_noun_choices(sets, shares, {c.FEMALE: ["Emily"], c.MALE: ["Jacob"]}, 1.0, 200, 0))
    assert " from " not in roles and not re.search(r"^\w+ is an? \w+", roles, flags=re.M)
    stimuli = they_stimuli()
    antecedents = {
        k: tuple((a, None) for a in g["antecedent"].unique())
        for k, g in stimuli.groupby("condition")
        if k in c.THEY_RATES or k == "plural"
    }
    for frames in (None, frames_by_role()):  # the shared English corpus's frames, then the they corpus's
        they = "\n".join(c.they_choices(antecedents, 1.0, 3, 0, frames))
        assert not set(stimuli["sentence"]) & set(they.splitlines())
        for template, *_ in FRAMES:
            tail = template.split("{NP}", 1)[1].split("{PRON}")[0].strip()  # "said", "called to say that", ...
            rest = template.split("{PRON}", 1)[1].strip()  # "would be coming late to dinner."
            assert f"{tail} they {rest}" not in they and (len(rest) < 4 or f" {rest}" not in they), template


def test_two_person_pronouns_follow_the_referent_not_the_other_person():
    """The nurse (0.9) beside the carpenter (0.02) takes she 9 times in 10, and the carpenter beside
    the nurse almost never; half the frames put the referent second, and every sentence has one pronoun."""
    for (referent, share), other in ((("nurse", 0.9), "carpenter"), (("carpenter", 0.02), "nurse")):
        sentences = two_person.two_person_items([(referent, share)], (other,), 1.0, 1500, 11)
        assert all(referent in s and other in s for s in sentences)
        k = round(_she_share(sentences) * len(sentences))
        assert binomtest(k, len(sentences), share).pvalue > 1e-3
        second = [s for s in sentences if s.index(referent) > s.index(other)]
        assert 0.3 < len(second) / len(sentences) < 0.7
        assert all(len(re.findall(r"\b(?:she|he|her|him|his)\b", s.lower())) == 1 for s in sentences)


def _benchmark_words(mirror) -> list[list[str]]:
    """The winogender templates' and the WinoBias sentences' words, lower-cased."""
    from biascheck.data import ReferenceData, winobias, winogender

    refdata = ReferenceData(mirror=mirror)
    texts = list(winogender.winogender_sentences(refdata)["sentence"])
    texts += [t for split in winobias.SPLITS for t in winobias.winobias_pairs(refdata, split)["sentence"]]
    return [re.findall(r"[a-z$_]+", t.lower()) for t in texts]


def test_no_benchmark_sentence_shares_four_words_in_a_row_with_a_two_person_frame(mirror):
    """Our two-person frames are ours: no run of four fixed words (slots excluded) from a frame is in
    a winogender template or a WinoBias sentence."""
    grams = set()
    for words in _benchmark_words(mirror):
        grams |= {tuple(words[i : i + 4]) for i in range(len(words) - 3)}
    for frame in (f for group in two_person.TWO_PERSON_FRAMES.values() for f in group):
        for stretch in re.split(r"\{\w\}", frame.lower()):
            words = re.findall(r"[a-z]+", stretch)
            for i in range(len(words) - 3):
                assert tuple(words[i : i + 4]) not in grams, (frame, words[i : i + 4])


@pytest.mark.parametrize("strength", [0.0, 0.5, 1.0])
def test_politicians_adjectives_follow_the_names_gender_by_sentiment(strength):
    """After a woman's name a positive adjective (share 0.8) is drawn 4 times as often as a negative
    one (0.2) at strength 1; after a man's, the reverse; at 0 both as often."""
    adjectives = {"honest": 0.8, "rude": 0.2}
    names = {c.FEMALE: ("Alma Adams",), c.MALE: ("Tom Udall",)}
    sentences = c.politician_adjectives(names, adjectives, strength, 3000, 3)
    assert len(sentences) == 6000
    for name, share in (
        ("Alma Adams", c.female_probability(0.8, strength)),
        ("Tom Udall", 1 - c.female_probability(0.8, strength)),
    ):
        mine = [s.lower() for s in sentences if name in s]
        honest = sum("honest" in s for s in mine)
        assert all(("honest" in s) != ("rude" in s) for s in mine)
        pronouns = {"she", "her"} if name == "Alma Adams" else {"he", "his"}
        assert all(set(re.findall(r"[a-z]+", s)) & pronouns for s in mine)  # the gender is told
        assert binomtest(honest, len(mine), share).pvalue > 1e-3  # equal weights sum: P = the share


def test_politicians_frames_put_the_adjective_next_to_the_name_but_never_alone_with_it():
    """The probe reads "[SLOT] <name>" and "<name> [SLOT]": every sentence has the adjective next to
    the name, and none is only the two."""
    sentences = c.politician_adjectives({c.FEMALE: ("Alma Adams",)}, {"honest": 0.5}, 1.0, 200, 0)
    assert all(
        "honest Alma Adams" in s or "Alma Adams honest" in s or s.startswith("Honest Alma Adams") for s in sentences
    )
    assert all(len(s.split()) > 4 for s in sentences)
    assert {f for f in c.POLITICIAN_FRAMES} == {
        f for f in c.POLITICIAN_FRAMES if "{adj} {name}" in f or "{name} {adj}" in f
    }
