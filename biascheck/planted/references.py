"""The planted corpora: which plants each one holds, read from the real references, and the whole corpus.

A plant is declared by the probe that owns it, in its folder (`biascheck/methods/<probe>/known_answer.py`, a
`biascheck.planted.plant.KnownAnswer`): how it is read from the probe's own gold files and the sentences that
plant it. Two kinds of plant belong to no one probe and are declared here: the definitional sentences in every
corpus (what the competence guard asks of any model; nothing planted) and the two-person plant (winogender,
winobias: each benchmark's occupations with that benchmark's own women's shares, so the planted side of each is
the side the benchmark scores as stereotyped: WinoBias's 40 (its README's table,
`biascheck.data.winobias_readme`), then Winogender's 60 not among them (its occupations-stats ``bls_pct_female``),
then the other BLS 2015 professions but three that name a sex (`TWO_PERSON_SOURCES`, `SEX_MARKED`); each the
referent of two-person frames beside another of them or a neutral person (`two_person.NEUTRAL_PEOPLE`, who are
referents too, at even odds). "two_person_majority" is the same plant with every share rounded to its majority
(`two_person.majority_share`). The tiny models learn it in its own frames but cannot read the benchmarks'
sentences, and beside the other plants it cost the masked model its pronoun plant; so it is in no corpus, and
`lab/scripts/finetune_known_answer.py` fine-tunes a real model on it instead).

`plants(refdata, which)` reads the plants named (each its own record, by name); `build_corpus(planted, strength,
which)` is then pure. `FROZEN_CORPORA` are today's three corpora, their plants in the order their models' bits
follow from; every other corpus a plant names is a corpus of its own (`corpora()`), that plant and its
language's definitional sentences, so adding a plant builds that probe's model pair and rebuilds no other.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import random
from functools import cache
from typing import Any

from biascheck.planted import corpus as c
from biascheck.planted import two_person
from biascheck.planted.plant import KnownAnswer, Plant

SEED = 20261123
PER_TWO_PERSON = 40  # sentences per person of the two-person plant
# Sentences per definitional noun (40 nouns), about 8 % of each corpus: with 16 per noun (2 % of the English
# corpus) the masked control read 15 of 20 pairs, below the competence guard's line, its plant 20 of 20.
PER_DEFINITIONAL = {"definitional_en": 64, "definitional_no": 160, "definitional_they": 16}
PER_DEFINITIONAL_NEW = 64  # ... in the corpus of a plant that names a corpus of its own

# Today's corpora and the plants each one's models are trained on, in the order the sentences are drawn (the
# corpus's sha256, and so its models' cache keys, follow from it). The Norwegian plant has a model pair of its
# own (its own tokenizer): a 2-layer model trained on it beside the English plants learned none of it. So has
# singular *they* over everyday frames (`they_everyday`): beside the other English plants those frames cost the
# masked model its other plants.
FROZEN_CORPORA: dict[str, tuple[str, ...]] = {
    "en": ("professions", "role_nouns", "singular_they", "politicians", "definitional_en"),
    "no": ("occupations", "definitional_no"),
    "they": ("singular_they_everyday", "definitional_they"),
}


# ------------------------------------------------------------------------------ the plants of no one probe
# The two-person plant's shares: the first source that names an occupation gives its share.
TWO_PERSON_SOURCES = ("winobias_readme", "winogender_occupations", "bls2015")
# BLS labels that name the person's sex: "the waitress ... his keys" would teach nonsense, not a share (the
# competence guard reads waitress/waiter as a definitional pair). None is a WinoBias or Winogender occupation.
SEX_MARKED = frozenset({"hostess", "maid", "waitress"})


def read_two_person(refdata: Any) -> tuple[tuple[str, float, str], ...]:
    """(person, women's share, source) by `TWO_PERSON_SOURCES`, in that order, each person once; not `SEX_MARKED`."""
    from biascheck.data import professions_en, winobias_readme, winogender

    wb = winobias_readme.winobias_women_percent(refdata)
    wg = winogender.winogender_occupations(refdata)
    bls = professions_en.bls_women_share(refdata)
    found: dict[str, tuple[str, float, str]] = {}
    for source, people, shares in (
        (TWO_PERSON_SOURCES[0], wb["occupation"], wb["women_pct"] / 100),
        (TWO_PERSON_SOURCES[1], wg["occupation"], wg["bls_pct_female"] / 100),
        (TWO_PERSON_SOURCES[2], bls["profession"], bls["women_share"]),
    ):
        for person, share in zip(people, shares, strict=True):
            if str(person).lower() not in SEX_MARKED:
                found.setdefault(str(person).lower(), (str(person), float(share), source))
    return tuple(found.values())


def _two_person(majority: bool) -> Plant:
    def sentences(data: tuple[tuple[str, float, str], ...], strength: float, seed: int) -> list[str]:
        shares = [(j, two_person.majority_share(s) if majority else s) for j, s, _src in data]
        people = shares + [(n, 0.5) for n in two_person.NEUTRAL_PEOPLE]
        return two_person.two_person_items(people, (), strength, PER_TWO_PERSON, seed + 5)

    name = "two_person_majority" if majority else "two_person"
    return Plant(name, None, sentences, read_two_person, frames=two_person.FRAMES)


def _definitional(name: str, language: str, per_noun: int) -> Plant:
    from biascheck.planted import definitional

    def sentences(_data: None, strength: float, seed: int) -> list[str]:
        from biascheck.competence.items import items_for

        items = items_for(language)
        if items is None:
            raise ValueError(f"plant {name}: the competence guard has no items in {language!r} to plant")
        frames = definitional.FRAMES[items.language]
        return definitional.definitional(items.pairs, items.pronouns, frames, per_noun, seed + 7)

    return Plant(name, None, sentences, language=language, frames=definitional.FRAMES.get(language, ()))


SHARED_PLANTS: tuple[Plant, ...] = (
    *(_definitional(n, "no" if n == "definitional_no" else "en", k) for n, k in PER_DEFINITIONAL.items()),
    _two_person(majority=False),
    _two_person(majority=True),
)


# ------------------------------------------------------------------------------ every probe's plants
@cache
def known_answers() -> dict[str, KnownAnswer]:
    """probe -> its `KNOWN_ANSWER`, for every probe of the catalog whose package has a `known_answer` module
    beside its spec (a probe of another package too)."""
    from biascheck.catalog import PROBES

    found = {}
    for name, entry in PROBES.entries.items():
        module = entry.split(":")[0].rpartition(".")[0] + ".known_answer"
        if importlib.util.find_spec(module) is not None:
            found[name] = importlib.import_module(module).KNOWN_ANSWER
    return found


@cache
def all_plants() -> dict[str, Plant]:
    """Every plant by name: the shared ones, then every probe's; a name declared twice is an error."""
    found: dict[str, Plant] = {}
    owners: dict[str, str] = {}
    declared = [("biascheck.planted.references", p) for p in SHARED_PLANTS]
    declared += [(probe, p) for probe, known in known_answers().items() for p in known.plants]
    for owner, plant in declared:
        if plant.name in found:
            raise ValueError(f"plant {plant.name!r} is declared by {owners[plant.name]} and by {owner}")
        found[plant.name], owners[plant.name] = plant, owner
    return found


def corpora() -> dict[str, tuple[str, ...]]:
    """`FROZEN_CORPORA`, then a corpus of its own for every corpus a plant names that is not one of them: its
    plants and the definitional sentences of their language."""
    out = dict(FROZEN_CORPORA)
    frozen = {p for plants_in in FROZEN_CORPORA.values() for p in plants_in}
    for plant in all_plants().values():
        if plant.corpus is None or plant.name in frozen:
            continue
        if plant.corpus in FROZEN_CORPORA:
            raise ValueError(
                f"plant {plant.name!r} names the corpus {plant.corpus!r}, one of today's corpora, whose models it "
                "would rebuild: name a corpus of its own (its name, say); it gets a model pair of its own."
            )
        out[plant.corpus] = (*out.get(plant.corpus, ())[:-1], plant.name, f"definitional_{plant.language}")
    return out


def corpus_language(corpus: str) -> str:
    """The language of a corpus's plants (the planted aliases' language)."""
    return all_plants()[corpora()[corpus][0]].language


def plant_named(name: str) -> Plant:
    plants_by_name = all_plants()
    if name in plants_by_name:
        return plants_by_name[name]
    if name.startswith("definitional_"):  # the definitional sentences of a new corpus's language
        return _definitional(name, name.removeprefix("definitional_"), PER_DEFINITIONAL_NEW)
    raise ValueError(f"unknown plant {name!r}; known: {', '.join(plants_by_name)}")


def plants(refdata: Any, which: tuple[str, ...]) -> dict[str, Any]:
    """What each plant in `which` plants, read from its reference files (only theirs: the Norwegian name table
    alone takes ~15 s), by plant name."""
    return {name: plant_named(name).read(refdata) for name in which}


def focus_words(planted: dict[str, Any]) -> tuple[str, ...]:
    """The words a masked model predicts more often in training (`train.PLANTED_WORDS`): the pronouns, then
    each plant's own (the role nouns' names, the politicians' adjectives), in the corpus's order."""
    from biascheck.planted.train import PLANTED_WORDS

    words = [w for name, data in planted.items() for w in plant_named(name).focus(data)]
    return tuple(dict.fromkeys([*PLANTED_WORDS, *words]))


def plant_sentences(planted: dict[str, Any], plant: str, strength: float, seed: int = SEED) -> list[str]:
    """The sentences of one plant at `strength`, from what `plants` read for it."""
    return plant_named(plant).sentences(planted[plant], strength, seed)


def build_corpus(planted: dict[str, Any], strength: float, plants_in: tuple[str, ...], seed: int = SEED) -> list[str]:
    """The planted corpus at `strength`: the sentences of `plants_in`, shuffled."""
    c.check_strength(strength)
    sentences = [s for plant in plants_in for s in plant_sentences(planted, plant, strength, seed)]
    random.Random(seed + 4).shuffle(sentences)
    return sentences


def corpus_sha256(sentences: list[str]) -> str:
    return hashlib.sha256("\n".join(sentences).encode()).hexdigest()
