"""The frame-distance rule over every planted corpus and every probe a planted model is read by: no corpus
frame contains a probe's reading context, none shares five words in a row (a slot or item among them) with
a probe frame, items abstracted (`lab.frame_distance`). The probe frames are loaded as the
probes build them (their specs, templates, stimuli and reference files)."""

from __future__ import annotations

import difflib
import re

import pandas as pd
import pytest

from biascheck.planted import references
from biascheck.spec import SLOT
from lab import frame_distance as fd

WHO, WHAT, ADJ, PLACE = fd.PLACEHOLDERS


def _english_probes() -> dict[str, list[str]]:
    from biascheck.competence.items import items_for
    from biascheck.methods.natural_prompts.spec import TEMPLATES
    from biascheck.methods.politicians.score import template
    from biascheck.methods.pronoun_ratio.spec import VERBS
    from biascheck.methods.role_nouns.math import build_stimuli
    from biascheck.methods.singular_they import stimuli

    sets = pd.DataFrame([{"set": "s", "split": "x", "category": "neut", "variant": WHAT, "article": "a"}])
    names = pd.DataFrame([{"name": WHO, "name_gender": "female"}])
    guard = items_for("en")
    assert guard is not None
    return {
        "pronoun_ratio": [f"{WHO} {verb} a {WHAT}." for verb in VERBS.values()],
        "natural_prompts": [t.format(WHAT) + f" {WHO}" for t in TEMPLATES],
        "role_nouns": list(build_stimuli(sets, names, [PLACE])["sentence"]),
        "singular_they": [
            t.replace(stimuli.NP, WHO).replace(stimuli.PRON, WHO)
            for t in [f[0] for f in stimuli.FRAMES] + [f[0] for f in stimuli.CONTROLS]
        ],
        "politicians": [template(WHO, order).replace(SLOT, ADJ) for order in ("before", "after")],
        "competence": [f.format(n=WHAT).replace(SLOT, WHO) for f in guard.frames],
    }


def _norwegian_probes() -> dict[str, list[str]]:
    from biascheck.competence.items import items_for
    from biascheck.data.norwegian import TEMPLATE_FRAMES
    from biascheck.methods.norwegian_occupations.templates import NAME_FRAMES

    guard = items_for("no")
    assert guard is not None
    return {
        "norwegian_occupations": [f"{WHO} {between} {WHAT}." for between in TEMPLATE_FRAMES.values()]
        + [f.format(name=WHO).replace(SLOT, WHAT) for f in NAME_FRAMES.values()],
        "competence": [f.format(n=WHAT).replace(SLOT, WHO) for f in guard.frames],
    }


def _benchmark_probes(mirror) -> dict[str, list[str]]:
    """Winogender's templates and WinoBias's sentences, their occupations and pronouns abstracted; CrowS-Pairs's
    gender pairs (both sentences), their pronouns and every person the two-person plant names abstracted."""
    from biascheck.data import ReferenceData, crows_pairs, winobias, winogender
    from biascheck.planted import two_person

    refdata = ReferenceData(mirror=mirror)
    text = refdata.path(winogender.TEMPLATES_SOURCE).read_text(encoding="utf-8")
    wino_g = [
        re.sub(r"\$\w+_PRONOUN", WHO, t).replace("$OCCUPATION", WHAT).replace("$PARTICIPANT", WHAT)
        for *_rest, t in winogender.parse_templates(text)
    ]
    pairs = pd.concat([winobias.winobias_pairs(refdata, split) for split in winobias.SPLITS])
    jobs = "|".join(sorted({re.escape(o) for o in pairs["occupation"]}, key=len, reverse=True))
    pronouns = "|".join(winobias.PRONOUN_GENDER)
    wino_b = [
        re.sub(rf"\b({pronouns})\b", WHO, re.sub(rf"\b({jobs})\b", WHAT, s), flags=re.I) for s in pairs["sentence"]
    ]
    people = {*pairs["occupation"].str.lower(), *winogender.winogender_occupations(refdata)["occupation"]}
    people |= set(two_person.NEUTRAL_PEOPLE)
    persons = "|".join(sorted((re.escape(p) for p in people), key=len, reverse=True))
    crows = crows_pairs.crows_pairs(refdata)
    crows_g = [
        re.sub(rf"\b({pronouns})\b", WHO, re.sub(rf"\b({persons})\b", WHAT, s, flags=re.I), flags=re.I)
        for s in [*crows["sent_more"], *crows["sent_less"]]
    ]
    crows_g += [_pair_frame(m, n) for m, n in zip(crows["sent_more"], crows["sent_less"], strict=True)]
    return {"winogender": wino_g, "winobias": wino_b, "crows_pairs_gender": crows_g}


def _pair_frame(more: str, less: str) -> str:
    """A CrowS-Pairs pair as one frame: the words in which its two sentences differ (the people: names, gendered
    nouns, pronouns) are {WHO}."""
    a, b = more.split(), less.split()
    out: list[str] = []
    for op, i1, i2, _j1, _j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        out += a[i1:i2] if op == "equal" else [WHO]
    return " ".join(out)


def _corpus(plants: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    return {plant: fd.plant_frames(plant) for plant in plants}


def test_the_rule_catches_a_reading_context_and_a_shared_run_and_passes_distant_frames():
    probe = {"p": [f"{ADJ} {WHO}", f"{WHO} said that {WHO} could not find the map."]}
    assert fd.violations({"c": [f"{ADJ} {WHO} wins again."]}, probe)  # opens as the probe reads
    assert not fd.violations({"c": [f"Reporters met the {ADJ} {WHO}."]}, probe)  # not at the start
    shared = fd.violations({"c": [f"{WHO} told me that {WHO} could not find the keys."]}, probe)
    assert len(shared) == 1 and "could not find the" in shared[0]  # 'that WHO could not find' / 'WHO could ...'
    assert not fd.violations({"c": [f"{WHO} knew {WHO} could not find it."]}, probe)  # four words only
    assert fd.words(f"{WHO}.") == ("^", WHO) and fd.words("An Owl, an owl!") == ("^", "a", "owl", "a", "owl")
    assert fd.abstract_corpus_frame("{S} is {a} {j} of {adj} {name}.") == f"{WHO} is a {WHAT} of {ADJ} {WHO}."
    with pytest.raises(ValueError, match="unknown slot"):
        fd.abstract_corpus_frame("{X} is here")


@pytest.mark.parametrize("corpus", ["en", "they"])
def test_english_corpora_keep_their_distance_from_every_english_probe(corpus):
    bad = fd.violations(_corpus(references.corpora()[corpus]), _english_probes())
    assert not bad, f"{len(bad)} frames too close to a probe's:\n" + "\n".join(bad[:40])


def test_the_norwegian_corpus_keeps_its_distance_from_the_norwegian_probes():
    bad = fd.violations(_corpus(references.corpora()["no"]), _norwegian_probes())
    assert not bad, "\n".join(bad[:40])


@pytest.mark.parametrize(
    "plant", ["two_person", "stereotype_statements", "stereotype_traits", "stereotype_traits_filled"]
)
def test_the_fine_tune_plants_keep_their_distance_from_the_benchmarks_and_every_english_probe(mirror, plant):
    benchmarks = _benchmark_probes(mirror)
    sizes = {k: len(v) for k, v in benchmarks.items()}
    assert sizes == {"winogender": 120, "winobias": 3168, "crows_pairs_gender": 524 + 262}
    assert sum(WHO in s for s in benchmarks["crows_pairs_gender"]) > 200  # its pronouns are abstracted
    bad = fd.violations(_corpus((plant,)), {**benchmarks, **_english_probes()})
    assert not bad, "\n".join(bad[:40])
    # the rule does catch a benchmark's sentence put among the plant's frames
    leaked = {plant: (*_corpus((plant,))[plant], benchmarks["crows_pairs_gender"][-259])}
    assert fd.violations(leaked, benchmarks)


def test_a_crows_pair_is_one_frame_with_its_people_abstracted():
    assert _pair_frame("Women don't know how to drive.", "Men know how to drive.") == f"{WHO} know how to drive."
    assert (
        _pair_frame("My mom spent all day cooking", "My dad spent all day cooking") == f"My {WHO} spent all day cooking"
    )
