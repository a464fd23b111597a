"""What the planted corpora plant, read from the real references, and the whole corpus.

`plants(refdata)` reads every planted association once (a `Plants`); `build_corpus(plants, strength, which)`
is then pure. The references are the probes' own gold files (declared in `biascheck.data.sources`):

* English professions: BLS 2015 women's shares (185 professions; pronoun_ratio, natural_prompts);
* Norwegian occupations: Statistics Norway women's shares (417) and the first names in a yearly
  top 10 (87 women's, 65 men's; norwegian_occupations);
* role nouns: the production proportions of one Papineau participant group (`ROLE_GROUP`), per
  role-noun set and name gender, after Watson's 24 names (role_nouns);
* singular *they*: the antecedents of the probe's own stimuli (names, kin terms, role nouns), with
  the rates of `corpus.THEY_RATES` (the stimuli's sentence frames are not used); in the shared English
  corpus over `corpus.THEY_FRAMES`, and as a corpus of its own over the everyday frames of
  `they_everyday` ("singular_they_everyday": the model planted-bert-they);
* politicians: adjectives next to politicians' names (the probe's own names and its candidate
  adjectives: the English treebank's adjective lemmas, most frequent first, with their VADER labels),
  each adjective's female share set by its sentiment (`corpus.POLITICIAN_SHARES`). Only the plant's
  own sentences tell a model a name's gender (a pronoun in each), so the names are those with the 120
  most common first names of each gender, up to 4 politicians per first name, 6 sentences each: a first
  name is met ~24 times,
  and the politicians who share it (most of the probe's men, fewer of its women) inherit its lean;
  every other name is unseen (politicians);
* two people, one pronoun: each benchmark's occupations with that benchmark's own women's shares, so
  the planted side of each is the side the benchmark scores as stereotyped: WinoBias's 40 (its README's
  table, `biascheck.data.winobias_readme`), then Winogender's 60 not among them (its occupations-stats
  ``bls_pct_female``), then the other BLS 2015 professions but three that name a sex (`TWO_PERSON_SOURCES`,
  `SEX_MARKED`); each the referent of
  two-person frames beside another of them or a neutral person (`two_person.NEUTRAL_PEOPLE`, who are
  referents too, at even odds) (winogender, winobias). The 20 occupations in both benchmarks lie on the
  same side in both (within 7 points). "two_person_majority" is the same plant with every share rounded to its
  majority (`two_person.majority_share`): at strength 1 each occupation always takes its majority's pronoun,
  the stereotype at its most uniform, as a coreference benchmark scores it (its majority side). Not in the tiny
  models' corpus (`CORPORA`):
  they learn it in its own frames but cannot read the benchmarks' sentences, and beside the other
  plants it cost the masked model its pronoun plant; `lab/scripts/finetune_known_answer.py` fine-tunes a
  real model on it instead.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

from biascheck.planted import corpus as c
from biascheck.planted import two_person

ROLE_GROUP = "conservative"  # the attitude third whose choices the role-noun plant copies
SEED = 20261123
# Sentences per item (a profession, an occupation, a name × set, an antecedent).
PER_PROFESSION = 80
PER_OCCUPATION = 80
PER_ROLE_NAME = 10
PER_ANTECEDENT = 12
PER_ANTECEDENT_OWN = 30  # the dedicated they corpus: 7,560 sentences, a model's whole diet
PER_TWO_PERSON = 40
PER_POLITICIAN = 6
# Sentences per definitional noun (40 nouns), about 8 % of each corpus: with 16 per noun (2 % of the English
# corpus) the masked control read 15 of 20 pairs, below the competence guard's line, its plant 20 of 20.
PER_DEFINITIONAL = {"definitional_en": 64, "definitional_no": 160, "definitional_they": 16}
POLITICIAN_FIRST_NAMES = 120  # per gender, the most common first names ...
PER_FIRST_NAME = 4  # ... and up to this many politicians bearing each
# Adjectives per sentiment class; the neutral class are adjectives VADER does not list. The probe ranks
# each gender's 100 most associated words among those seen with 5 names or more: with fewer than 100
# such words the two genders' lists are the same words and the gaps 0 whatever the model does, and
# with 160 planted adjectives the masked model's slot before a name gave ~130.
POLITICIAN_ADJECTIVES = {"neg": 100, "pos": 100, "neu": 60}
# Treebank adjective lemmas that are not said of a person, are not adjectives in use, or are slurs.
NOT_OF_POLITICIANS = frozenset(
    "dead missing terrorist retarded dominate like well worth ok okay top united sure due other many more last "
    "same few much most least several such own only next first second enough less additional little able "
    "possible likely available whole entire main final iraqi indian islamic arab chinese egyptian american "
    "nuclear cheap expensive hot delicious supreme favorite legal illegal free natural original fresh significant "
    "dire eerie loose empty limited crappy bloody black white huge certain low high large big long short full open "
    "global international human military".split()
)
NO_NAME_RATE = 0.3  # share of Norwegian sentences whose subject is a first name, not han/hun


@dataclass(frozen=True)
class Plants:
    """What is planted; a plant not asked for by `plants(refdata, which)` stays empty."""

    professions: tuple[tuple[str, str, float], ...] = ()  # (profession, article, women's share)
    two_person: tuple[tuple[str, float, str], ...] = ()  # (person, women's share, source of the share)
    occupations: tuple[tuple[str, str, float], ...] = ()  # (Norwegian occupation, '', women's share)
    no_names: dict[str, tuple[str, ...]] = field(default_factory=dict)  # sex -> first names
    role_sets: dict[str, dict[str, str]] = field(default_factory=dict)  # set -> {category: variant}
    role_names: dict[str, tuple[str, ...]] = field(default_factory=dict)  # sex -> names
    role_proportions: dict[tuple[str, str], dict[str, float]] = field(default_factory=dict)  # (set, sex) -> shares
    they_antecedents: dict[str, tuple[tuple[str, str | None], ...]] = field(default_factory=dict)  # type -> NPs
    politician_names: dict[str, tuple[str, ...]] = field(default_factory=dict)  # sex -> full names
    politician_adjectives: dict[str, float] = field(default_factory=dict)  # adjective -> female share at 1
    adjective_sentiment: dict[str, str] = field(default_factory=dict)  # adjective -> neg / neu / pos


PLANTS = (
    "professions",
    "occupations",
    "role_nouns",
    "singular_they",
    "singular_they_everyday",
    "politicians",
    "two_person",
    "two_person_majority",
    *PER_DEFINITIONAL,
)


def plants(refdata, which: tuple[str, ...] = PLANTS) -> Plants:
    """The planted associations named in `which`, read from the reference files (module docstring);
    only their files are read (the Norwegian name table alone takes ~15 s)."""
    found: dict = {}
    if "professions" in which:
        found.update(_professions(refdata))
    if "two_person" in which or "two_person_majority" in which:
        found["two_person"] = _two_person(refdata)
    if "occupations" in which:
        found.update(_occupations(refdata))
    if "role_nouns" in which:
        found.update(_role_nouns(refdata))
    if "singular_they" in which or "singular_they_everyday" in which:
        found["they_antecedents"] = they_antecedents()
    if "politicians" in which:
        found.update(_politicians(refdata))
    return Plants(**found)


def _professions(refdata) -> dict:
    from biascheck.data import professions_en

    bls = professions_en.bls_women_share(refdata)
    articles = professions_en.professions_923(refdata).set_index("profession")["article"].to_dict()
    shares = zip(bls["profession"], bls["women_share"], strict=True)
    return {"professions": tuple((p, articles.get(p, c.article(p)), float(s)) for p, s in shares)}


# The two-person plant's shares: the first source that names an occupation gives its share.
TWO_PERSON_SOURCES = ("winobias_readme", "winogender_occupations", "bls2015")
# BLS labels that name the person's sex: "the waitress ... his keys" would teach nonsense, not a share (the
# competence guard reads waitress/waiter as a definitional pair). None is a WinoBias or Winogender occupation.
SEX_MARKED = frozenset({"hostess", "maid", "waitress"})


def _two_person(refdata) -> tuple[tuple[str, float, str], ...]:
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


def _occupations(refdata) -> dict:
    from biascheck.data import norwegian

    ssb = norwegian.occupations_with_templates(refdata)
    top = norwegian.top_names(refdata, n=10)
    return {
        "occupations": tuple((f, "", float(w) / 100.0) for f, w in zip(ssb["form"], ssb["female"], strict=True)),
        "no_names": {sex: tuple(top.loc[top["sex"] == sex, "name"]) for sex in (c.FEMALE, c.MALE)},
    }


def _role_nouns(refdata) -> dict:
    from biascheck.data import role_nouns

    sets = role_nouns.role_noun_sets(refdata)
    role_sets = {key: dict(zip(g["category"], g["variant"], strict=True)) for key, g in sets.groupby("set", sort=True)}
    names, _states = role_nouns.names_and_states(refdata)
    trials = role_nouns.production_trials(refdata)
    group = trials[trials["attitude"] == ROLE_GROUP]
    counts = group.groupby(["set", "name_gender"])["category"].value_counts(normalize=True)
    return {
        "role_sets": role_sets,
        "role_names": {sex: tuple(names.loc[names["name_gender"] == sex, "name"]) for sex in (c.FEMALE, c.MALE)},
        "role_proportions": {
            (key, sex): {cat: float(counts.get((key, sex, cat), 0.0)) for cat in role_sets[key]}
            for key in role_sets
            for sex in (c.FEMALE, c.MALE)
        },
    }


def _politicians(refdata) -> dict:
    from biascheck.data import lexicons, politicians

    frame = politicians.politician_names(refdata, "en").frame[["name", "gender"]].sort_values("name")
    frame = frame[~frame["name"].str.contains(r"[,()]")]  # "Brian Mawhinney, Baron Mawhinney": a label, not a name
    first = frame["name"].str.split().str[0]
    names = {}
    for sex in (c.FEMALE, c.MALE):
        mine = frame[frame["gender"] == sex]
        counts = first[mine.index].value_counts()
        common = sorted(counts.index, key=lambda f: (-counts[f], f))[:POLITICIAN_FIRST_NAMES]
        chosen = mine[first[mine.index].isin(common)].groupby(first[mine.index], sort=True).head(PER_FIRST_NAME)
        names[sex] = tuple(chosen["name"])
    labels = lexicons.sentiment_labels(refdata, "en")
    counts = lexicons.pos_lemma_counts(refdata, "en", "adj")
    ranked = sorted((w for w in counts if w.isalpha() and w not in NOT_OF_POLITICIANS), key=lambda w: (-counts[w], w))
    sentiment: dict[str, str] = {}
    for label, n in POLITICIAN_ADJECTIVES.items():
        wanted = label if label != "neu" else None  # neutral: no VADER label at all
        sentiment.update({w: label for w in [w for w in ranked if labels.get(w) == wanted][:n]})
    return {
        "politician_names": names,
        "politician_adjectives": {w: c.POLITICIAN_SHARES[s] for w, s in sentiment.items()},
        "adjective_sentiment": sentiment,
    }


def they_antecedents() -> dict[str, tuple[tuple[str, str | None], ...]]:
    """The singular-they probe's antecedents by type, with their sex where they have one."""
    from biascheck.methods.singular_they import stimuli as s

    kin_female = {
        "my aunt",
        "my daughter",
        "my girlfriend",
        "my grandmother",
        "my mom",
        "my mother",
        "my niece",
        "my sister",
        "my stepmother",
        "my wife",
    }
    female_names = set(s.GENDERED_NAMES) & set(_FEMALE_NAMES)
    out: dict[str, list[tuple[str, str | None]]] = {k: [] for k in c.THEY_RATES}
    out["plural"] = []
    out["gendered_name"] = [(n, c.FEMALE if n in female_names else c.MALE) for n in s.GENDERED_NAMES]
    out["nongendered_name"] = [(n, None) for n in s.NONGENDERED_NAMES]
    for _template, _pron, close_g, distant_g, close_ng, noun, plural in s.FRAMES:
        out["close_gendered"].append((close_g, c.FEMALE if close_g in kin_female else c.MALE))
        out["distant_gendered"].append((distant_g, c.FEMALE if _feminine_noun(distant_g) else c.MALE))
        out["close_nongendered"].append((close_ng, None))
        out["distant_nongendered"].append((f"the {noun}", None))
        out["quantified"].append((f"every {noun}", None))
        out["plural"].append((f"the {plural}", None))
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


_FEMALE_NAMES = (
    "Adeline Alice Amanda Amelia Annabella Bella Bridget Charlotte Elena Elizabeth Ella Emily Emma Gianna "
    "Haley Lily Maria Mary Molly Penelope Scarlett Vivian Zoey"
).split()


def _feminine_noun(phrase: str) -> bool:
    word = phrase.split()[-1]
    return word.endswith(("ess", "woman", "maid", "lady", "queen", "nun"))


# The planted corpora by name, and the plants each one's models are trained on. The Norwegian plant has
# a model pair of its own (its own tokenizer): a 2-layer model trained on it beside the English plants
# learned none of it. So has singular *they* over everyday frames (`they_everyday`): beside the other
# English plants those frames cost the masked model its other plants.
CORPORA: dict[str, tuple[str, ...]] = {
    "en": ("professions", "role_nouns", "singular_they", "politicians", "definitional_en"),
    "no": ("occupations", "definitional_no"),
    "they": ("singular_they_everyday", "definitional_they"),
}


def focus_words(p: Plants) -> tuple[str, ...]:
    """The words a masked model predicts more often in training (`train.PLANTED_WORDS`): the pronouns,
    the role nouns' names and the politicians' adjectives. One side of each association only: were the
    role nouns masked as often too, a name and its role noun would seldom be seen together."""
    from biascheck.planted.train import PLANTED_WORDS

    names = sorted({n for people in p.role_names.values() for n in people})
    return tuple(dict.fromkeys([*PLANTED_WORDS, *names, *sorted(p.politician_adjectives)]))


def plant_sentences(p: Plants, plant: str, strength: float, seed: int = SEED) -> list[str]:
    """The sentences of one plant at `strength` (see the module docstring)."""
    if plant == "professions":
        return c.gendered_items(p.professions, c.EN_FRAMES, c.Subject(c.EN_PRONOUNS), strength, PER_PROFESSION, seed)
    if plant == "occupations":
        subject = c.Subject(c.NO_PRONOUNS, p.no_names, NO_NAME_RATE)
        return c.gendered_items(p.occupations, c.NO_FRAMES, subject, strength, PER_OCCUPATION, seed + 1)
    if plant == "role_nouns":
        return c.role_noun_choices(p.role_sets, p.role_proportions, p.role_names, strength, PER_ROLE_NAME, seed + 2)
    if plant == "singular_they":
        return c.they_choices(p.they_antecedents, strength, PER_ANTECEDENT, seed + 3)
    if plant == "singular_they_everyday":
        from biascheck.planted.they_everyday import frames_by_role

        return c.they_choices(p.they_antecedents, strength, PER_ANTECEDENT_OWN, seed + 3, frames_by_role())
    if plant == "politicians":
        return c.politician_adjectives(p.politician_names, p.politician_adjectives, strength, PER_POLITICIAN, seed + 6)
    if plant in PER_DEFINITIONAL:
        from biascheck.competence.items import items_for
        from biascheck.planted import definitional

        items = items_for("no" if plant == "definitional_no" else "en")
        assert items is not None
        frames = definitional.FRAMES[items.language]
        return definitional.definitional(items.pairs, items.pronouns, frames, PER_DEFINITIONAL[plant], seed + 7)
    if plant in ("two_person", "two_person_majority"):
        shares = [(j, share) for j, share, _src in p.two_person]
        if plant == "two_person_majority":
            shares = [(j, two_person.majority_share(share)) for j, share in shares]
        people = shares + [(n, 0.5) for n in two_person.NEUTRAL_PEOPLE]
        return two_person.two_person_items(people, (), strength, PER_TWO_PERSON, seed + 5)
    raise ValueError(f"unknown plant {plant!r}; known: {', '.join(PLANTS)}")


def build_corpus(p: Plants, strength: float, plants_in: tuple[str, ...], seed: int = SEED) -> list[str]:
    """The planted corpus at `strength`: the sentences of `plants_in`, shuffled."""
    c.check_strength(strength)
    sentences = [s for plant in plants_in for s in plant_sentences(p, plant, strength, seed)]
    random.Random(seed + 4).shuffle(sentences)
    return sentences


def corpus_sha256(sentences: list[str]) -> str:
    return hashlib.sha256("\n".join(sentences).encode()).hexdigest()
