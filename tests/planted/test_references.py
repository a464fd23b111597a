"""The plants read the real references: every plant's inputs, with the sizes the probes use; today's corpora are
the same, sentence for sentence, as the ones their cached models were trained on."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import pytest

from biascheck.data import ReferenceData
from biascheck.methods.politicians import known_answer as politicians
from biascheck.methods.role_nouns import known_answer as role_nouns
from biascheck.planted import corpus as c
from biascheck.planted import references as r
from biascheck.planted import two_person


@pytest.fixture(scope="module")
def planted(mirror):
    """Every plant's record, by name (`references.plants`)."""
    return r.plants(ReferenceData(mirror=mirror), tuple(r.all_plants()))


@pytest.fixture(scope="module")
def plants(planted):
    """The same records under one name each."""
    return SimpleNamespace(
        professions=planted["professions"],
        occupations=planted["occupations"].occupations,
        no_names=planted["occupations"].names,
        role_sets=planted["role_nouns"].sets,
        role_names=planted["role_nouns"].names,
        role_proportions=planted["role_nouns"].proportions,
        they_antecedents=planted["singular_they"],
        politician_names=planted["politicians"].names,
        politician_adjectives=planted["politicians"].adjectives,
        adjective_sentiment=planted["politicians"].sentiment,
        two_person=planted["two_person"],
    )


# The sha256 of today's corpora at strengths 0 and 1, and of their focus words (`references.focus_words`): the
# cached planted models were trained on exactly these (their cache key is over the corpus's sha256). Moving the
# plants into the probes' folders (2026-11-28) kept every one; a change here rebuilds that corpus's models
# (Norwegian: new guard items, issue 59).
CORPUS_SHA256 = {
    "en@0.0": "df3269e6001c524c3e276c49f6aeb5885cb070d892cb394b5f3558723bfd11c4",
    "en@1.0": "c5291f23677e6848b358251171edfa09c89a57bd1208313aede93bfdfb655283",
    "no@0.0": "63ddd55c999e998421bb4b28f4505956a9a153ed1c3685b735c7c2d595f3d586",
    "no@1.0": "eb9cf2af5215d1aa25117e760521af2689ac9d5491ff2292518084254b84ff5e",
    "they@0.0": "faa361ce4d016544a70a2a94eb2b5ef9b80cfa1c9290eb6a1394eb3b63d58021",
    "they@1.0": "5cd9e9d811b5e886951006d4bc5fb8f53caa8363597c1d0e60ec9ab4e095fae8",
}


@pytest.mark.parametrize("corpus", ["en", "no", "they"])
def test_today_s_corpora_are_the_ones_their_models_were_trained_on(planted, corpus):
    which = r.FROZEN_CORPORA[corpus]
    for strength in (0.0, 1.0):
        sentences = r.build_corpus({n: planted[n] for n in which}, strength, which)
        assert r.corpus_sha256(sentences) == CORPUS_SHA256[f"{corpus}@{strength}"], (corpus, strength)


def test_every_plant_of_today_s_corpora_is_declared_once_with_its_frames():
    declared = r.all_plants()
    for corpus, which in r.corpora().items():
        for name in which:
            assert declared[name].frames, name  # the lab's frame rule reads them
            assert declared[name].corpus in (corpus, None), (name, corpus)


def test_a_plant_naming_a_corpus_of_its_own_gets_one_and_today_s_are_kept(monkeypatch):
    from biascheck.planted.plant import Plant

    today = r.all_plants()
    mine = Plant("mine", "mine", lambda data, strength, seed: ["A sentence."], frames=("{S} is here.",))
    monkeypatch.setattr(r, "all_plants", lambda: {**today, "mine": mine})
    assert r.corpora() == {**r.FROZEN_CORPORA, "mine": ("mine", "definitional_en")}
    intruder = Plant("intruder", "en", lambda data, strength, seed: [])
    monkeypatch.setattr(r, "all_plants", lambda: {**today, "intruder": intruder})
    with pytest.raises(ValueError, match="one of today's corpora"):
        r.corpora()


def test_every_plant_reads_its_reference(plants):
    assert len(plants.professions) == 185 and all(0 <= s <= 1 for _, _, s in plants.professions)
    assert dict((p, s) for p, _, s in plants.professions)["nurse"] == pytest.approx(0.8958, abs=1e-3)
    assert len(plants.occupations) == 417
    assert {k: len(v) for k, v in plants.no_names.items()} == {c.FEMALE: 87, c.MALE: 65}
    assert len(plants.role_sets) == 20
    assert {k: len(v) for k, v in plants.role_names.items()} == {"female": 12, "male": 12}
    for (key, _sex), shares in plants.role_proportions.items():
        assert set(shares) == set(plants.role_sets[key]) and sum(shares.values()) == pytest.approx(1.0)
    assert {k: len(v) for k, v in plants.they_antecedents.items()} == {
        "gendered_name": 40,
        "close_gendered": 20,
        "distant_gendered": 40,
        "nongendered_name": 21,
        "close_nongendered": 11,
        "distant_nongendered": 40,
        "quantified": 40,
        "plural": 40,
    }


def test_the_two_person_plant_makes_every_profession_and_neutral_person_a_referent(planted, plants):
    sentences = r.plant_sentences(planted, "two_person", 1.0)
    assert len(sentences) == (189 + len(two_person.NEUTRAL_PEOPLE)) * r.PER_TWO_PERSON
    assert sum("The nurse " in s or " the nurse " in s for s in sentences) >= r.PER_TWO_PERSON


def test_the_majority_plant_gives_every_occupation_its_majority_s_pronoun(planted, plants):
    assert [two_person.majority_share(s) for s in (0.0, 0.3, 0.4999, 0.5, 0.5001, 0.76, 1.0)] == [0, 0, 0, 0.5, 1, 1, 1]
    majority = r.plant_sentences(planted, "two_person_majority", 1.0)
    proportional = r.plant_sentences(planted, "two_person", 1.0)
    assert len(majority) == len(proportional)
    per = r.PER_TWO_PERSON  # the sentences come referent by referent, in the plant's order
    for i, (person, share, _src) in enumerate(plants.two_person):
        words = [set(s.lower().rstrip(".").replace(",", "").split()) for s in majority[i * per : (i + 1) * per]]
        female = sum(bool(w & {"she", "her"}) for w in words)
        assert female == (per if share > 0.5 else 0 if share < 0.5 else female), person
    # strength 0 draws the same corpus from either plant: one control serves both
    assert r.plant_sentences(planted, "two_person_majority", 0.0) == r.plant_sentences(planted, "two_person", 0.0)


def test_only_the_plants_asked_for_are_read(mirror):
    only = r.plants(ReferenceData(mirror=mirror), ("professions",))
    assert list(only) == ["professions"] and len(only["professions"]) == 185


def test_the_they_plant_uses_the_antecedents_not_the_frames_of_the_stimuli(planted, plants):
    from biascheck.methods.singular_they.stimuli import FRAMES

    sentences = "\n".join(r.plant_sentences(planted, "singular_they", 1.0))
    for frame in FRAMES:
        fixed = frame[0].replace("{NP}", "|").replace("{PRON}", "|").split("|")
        longest = max(fixed, key=len).strip()
        assert longest not in sentences, longest


def test_the_politicians_plant_uses_the_probes_names_and_adjectives(plants, mirror):
    """The politicians with each gender's 120 most common first names, up to 4 per first name; 160 of
    the treebank's adjectives, their VADER label setting their share."""
    from biascheck.data import lexicons
    from biascheck.methods.politicians.reference import load_language

    refdata = ReferenceData(mirror=mirror)
    reference = load_language(refdata, "en")
    gender = reference.names.set_index("name")["gender"]
    for sex, names in plants.politician_names.items():
        assert set(gender[list(names)]) == {sex}
    for names in plants.politician_names.values():
        firsts = Counter(n.split()[0] for n in names)
        assert len(firsts) == politicians.POLITICIAN_FIRST_NAMES and max(firsts.values()) == politicians.PER_FIRST_NAME
    assert "John" in {n.split()[0] for n in plants.politician_names[c.MALE]}
    counts = {s: sum(v == s for v in plants.adjective_sentiment.values()) for s in ("neg", "neu", "pos")}
    assert counts == politicians.POLITICIAN_ADJECTIVES
    adjectives = lexicons.pos_lemmas(refdata, "en", "adj")
    for word, sentiment in plants.adjective_sentiment.items():
        assert word in adjectives and reference.sentiment.get(word, "neu") == sentiment, word
        assert plants.politician_adjectives[word] == c.POLITICIAN_SHARES[sentiment]


def _words(text: str) -> list[str]:
    return [w.strip(".,;:!?") for w in text.lower().split()]


def test_the_norwegian_corpus_holds_out_every_task_template(planted, plants, mirror):
    """No sentence of the Norwegian corpus contains a task's template with its filler: the upstream
    pronoun lines of tasks 1-2 ('[MASK] er sykepleier.', '[MASK] jobber som sykepleier.') with hun/han,
    the name frames of tasks 3-4 with every first name, nor task 5's definite occupation before a name.
    Compared as runs of words, case and punctuation aside, so a template inside a longer sentence counts."""
    from biascheck.data.norwegian import occupations_with_templates
    from biascheck.methods.norwegian_occupations.templates import NAME_FRAMES, UPSTREAM_MASK, definite_form
    from biascheck.spec import SLOT

    table = occupations_with_templates(ReferenceData(mirror=mirror))
    names = [n for people in plants.no_names.values() for n in people]
    held_out = [
        line.replace(UPSTREAM_MASK, pronoun)
        for kind in ("template_er", "template_jobber_som")
        for line in table[kind]
        for pronoun in ("hun", "han")
    ]
    held_out += [
        NAME_FRAMES[t].format(name=n).replace(SLOT, f) for t in ("task3", "task4") for n in names for f in table["form"]
    ]
    held_out += [
        NAME_FRAMES["task5"].format(name=n).replace(SLOT, definite_form(f)) for n in names for f in table["form"]
    ]
    longest = max(len(_words(t)) for t in held_out)
    runs = set()
    for sentence in r.plant_sentences(planted, "occupations", 1.0):
        words = _words(sentence)
        ends = [(i, j) for i in range(len(words)) for j in range(i + 2, min(len(words), i + longest) + 1)]
        runs.update(" ".join(words[i:j]) for i, j in ends)
    found = [t for t in held_out if " ".join(_words(t)) in runs]
    assert not found, found[:5]
    assert "hun er nå" in runs and "jobber fortsatt som" in runs  # the corpus's own frames are read


# --- each plant's quantities are the probe's gold, read through the probe's own reference loader ---------------


def _load(probe: str, refdata, **values):
    from importlib import import_module

    from biascheck.settings import settings_of

    spec = import_module(f"biascheck.methods.{probe}.spec").PROBE
    return import_module(f"biascheck.methods.{probe}.reference").load(refdata, settings_of(spec, **values))


def test_the_professions_plant_is_the_pronoun_ratio_and_natural_prompts_gold(plants, mirror):
    refdata = ReferenceData(mirror=mirror)
    planted = {p: s for p, _article, s in plants.professions}
    assert planted == _load("pronoun_ratio", refdata).women_share.to_dict()
    gold = _load("natural_prompts", refdata).gold
    assert planted == dict(zip(gold["profession"], gold["women_share"], strict=True))


# (person, planted women's share, source): read off the files by hand. WinoBias's README table (attendant 76,
# editor 52, CEO 39, construction worker 3.5 under its note's renaming of 'constructor'; nurse 90 although
# Winogender's file says 89.58); Winogender's occupations-stats.tsv (doctor 37.9, BLS 2015; inspector 6.4, its
# 2016 row); professionsBLS2015.csv (announcer: one row, 16.5 % women).
HAND_CHECKED = [
    ("attendant", 0.76, "winobias_readme"),
    ("editor", 0.52, "winobias_readme"),
    ("CEO", 0.39, "winobias_readme"),
    ("construction worker", 0.035, "winobias_readme"),
    ("nurse", 0.90, "winobias_readme"),
    ("doctor", 0.379, "winogender_occupations"),
    ("inspector", 0.064, "winogender_occupations"),
    ("announcer", 0.165, "bls2015"),
]


@pytest.mark.parametrize(("person", "share", "source"), HAND_CHECKED)
def test_hand_checked_two_person_shares(plants, person, share, source):
    planted = {p: (s, src) for p, s, src in plants.two_person}
    assert planted[person] == (pytest.approx(share), source)


def test_the_two_person_plant_takes_each_benchmark_s_own_figures(plants, mirror):
    """Every WinoBias occupation at its README's figure, every other Winogender occupation at its occupations-stats
    figure, every other BLS profession at its BLS share (`references.TWO_PERSON_SOURCES`), each once; not the three
    BLS labels that name a sex (`references.SEX_MARKED`)."""
    from biascheck.data import professions_en, winogender
    from biascheck.data.winobias_readme import winobias_women_percent

    refdata = ReferenceData(mirror=mirror)
    planted = {p: s for p, s, _src in plants.two_person}
    assert len(planted) == len(plants.two_person) == 189
    expected = {o: pct / 100 for o, pct in winobias_women_percent(refdata)[["occupation", "women_pct"]].values}
    wg = winogender.winogender_occupations(refdata)
    expected |= {
        o: pct / 100 for o, pct in zip(wg["occupation"], wg["bls_pct_female"], strict=True) if o not in expected
    }
    bls = professions_en.bls_women_share(refdata)
    expected |= {o: s for o, s in zip(bls["profession"], bls["women_share"], strict=True) if o not in expected}
    assert r.SEX_MARKED <= set(expected) and not r.SEX_MARKED & set(planted)  # BLS labels, left out
    expected = {o: s for o, s in expected.items() if o not in r.SEX_MARKED}
    assert planted == pytest.approx(expected)


def test_the_two_person_plant_leans_as_each_benchmark_scores_and_what_moved(plants, mirror):
    """Each planted share lies on the side the benchmark reads as stereotyped: all 40 of WinoBias's as its two lists
    say, all 60 of Winogender's as its own figure. Against the BLS-only plant before it, two occupations moved side
    (WinoBias's 'attendant' 44.6 % -> 76 %, 'editor' 40.7 % -> 52 %: planted as men's, now as women's), and seven are
    planted that were not: WinoBias's six with no BLS label and Winogender's 'doctor'."""
    refdata = ReferenceData(mirror=mirror)
    planted = {p: s for p, s, _src in plants.two_person}
    sentences = _load("winobias", refdata, splits="both").sentences
    lists = dict(zip(sentences["occupation"], sentences["occupation_gender"], strict=True))
    assert len(lists) == 40 and all((planted[o] > 0.5) == (side == "female") for o, side in lists.items())
    winogender = _load("winogender", refdata).occupations
    assert len(winogender) == 60
    assert all(
        (planted[o] > 0.5) == (pct > 50)
        for o, pct in zip(winogender["occupation"], winogender["bls_pct_female"], strict=True)
    )
    bls = {p: s for p, _article, s in plants.professions}
    moved = sorted(o for o, s in planted.items() if o in bls and (s > 0.5) != (bls[o] > 0.5))
    assert moved == ["attendant", "editor"]
    assert sorted(o for o in planted if o not in bls) == [
        "CEO", "chief", "construction worker", "doctor", "farmer", "housekeeper", "sheriff"
    ]  # fmt: skip


def test_the_norwegian_plant_is_the_norwegian_probe_s_gold_and_names(plants, mirror):
    reference = _load("norwegian_occupations", ReferenceData(mirror=mirror), names="all")
    gold = reference.gold
    assert {f: s for f, _article, s in plants.occupations} == dict(zip(gold["form"], gold["female"] / 100, strict=True))
    names = reference.names
    assert plants.no_names == {sex: tuple(names.loc[names["sex"] == sex, "name"]) for sex in (c.FEMALE, c.MALE)}


def test_the_role_noun_plant_is_the_conservative_third_of_the_probe_s_trials(plants, mirror):
    """Counted again here with pandas' crosstab from the trials the probe compares a model with."""
    import pandas as pd

    reference = _load("role_nouns", ReferenceData(mirror=mirror), states="1")
    assert role_nouns.ROLE_GROUP == "conservative"  # the known-answers page says so
    sets = {key: dict(zip(g["category"], g["variant"], strict=True)) for key, g in reference.sets.groupby("set")}
    assert plants.role_sets == sets
    names = reference.names
    assert plants.role_names == {
        sex: tuple(names.loc[names["name_gender"] == sex, "name"]) for sex in (c.FEMALE, c.MALE)
    }
    trials = reference.trials[reference.trials["attitude"] == "conservative"]
    assert trials["participant"].nunique() == 91  # the paper's n=91 (section 3.1)
    by_hand = pd.crosstab([trials["set"], trials["name_gender"]], trials["category"], normalize="index")
    assert len(plants.role_proportions) == len(by_hand) == 40
    for (key, sex), shares in plants.role_proportions.items():
        expected = by_hand.loc[(key, sex)]
        assert shares == pytest.approx({cat: expected.get(cat, 0.0) for cat in sets[key]}), (key, sex)
        assert expected[[k for k in expected.index if k not in sets[key]]].sum() == 0  # no choice left out


# Watson et al. (2023), appendix B.1 (seed 004_92dc32969dee24fe.txt line 540): Camilliere et al.'s names. The paper
# does not say which gendered name is a woman's: the plant's split (23 / 17) is ours.
B1_GENDERED = (
    "Aaron Adeline Alice Amanda Amelia Annabella Bella Brandon Bridget Caleb Charlotte Daniel David Elena Elizabeth "
    "Ella Emily Emma Gianna Grant Haley Henry Isaac Jacob John Joshua Justin Lily Lucas Maria Mary Molly Nicholas "
    "Penelope Robert Scarlett Vivian Wyatt Zach Zoey"
).split()
B1_NONGENDERED = (
    "Alex Cameron Casey Dakota Finley Frankie Harper Hayden Jayden Jordan Justice Landry Leighton Marley Morgan Pat "
    "Payton Remi Sammy Skyler Taylor"
).split()


def test_the_they_plant_s_antecedents_are_the_probe_s_stimuli_s(plants, mirror):
    stimuli = _load("singular_they", ReferenceData(mirror=mirror)).stimuli
    for kind, antecedents in plants.they_antecedents.items():
        assert {np for np, _sex in antecedents} == set(stimuli.loc[stimuli["condition"] == kind, "antecedent"]), kind
    assert [n for n, _sex in plants.they_antecedents["gendered_name"]] == B1_GENDERED
    assert [n for n, _sex in plants.they_antecedents["nongendered_name"]] == B1_NONGENDERED
    sexes = Counter(sex for _n, sex in plants.they_antecedents["gendered_name"])
    assert sexes == {c.FEMALE: 23, c.MALE: 17}


def test_every_known_answer_moves_metrics_its_probe_declares():
    """A probe's `Moved` names one of its tasks and metrics, on a corpus that exists: a typo is an error here, not a
    key the dose-response sweep silently never finds."""
    from biascheck.catalog import PROBES
    from biascheck.planted.plant import KnownAnswer

    known = r.known_answers()
    assert {"pronoun_ratio", "norwegian_occupations", "role_nouns", "singular_they", "politicians"} <= set(known)
    for probe, answer in known.items():
        assert isinstance(answer, KnownAnswer), probe
        spec = PROBES[probe]
        tasks, metrics = set(spec.tasks), {m.name for m in spec.metrics}
        for moved in answer.moves:
            assert moved.corpus in r.corpora() and moved.task in tasks and moved.metric in metrics, (probe, moved)
        for task, metric in answer.gates:
            assert task in tasks and metric in metrics, (probe, task, metric)


def test_every_family_a_move_is_asserted_on_is_one_of_its_corpus():
    """`Moved.found_by` names planted model families of the move's corpus (a typo would assert nothing)."""
    from biascheck.registry import corpus_families

    for probe, known in r.known_answers().items():
        for move in known.moves:
            families = corpus_families(move.corpus)
            assert set(move.asserted_on(families)) <= set(families), (probe, move, families)
