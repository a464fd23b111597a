"""Planted corpora: natural-looking sentences whose gender associations are set by us. Pure Python.

Every generator takes plain data (words, shares, names) and a `strength` in [0, 1], and draws with
its own `random.Random(seed)`, so a corpus is a function of its inputs. Strength scales every planted
effect linearly between no association (0: a control) and the reference (1):

    P(female | item) = 0.5 + strength * (share - 0.5)

The frames below are ours and stand apart from the probes' (`frame_distance`, checked over every corpus
and probe by `tests/lab/test_frame_distance.py`: no frame contains a probe's reading context or shares
five words in a row with a probe frame, items abstracted), so the probes measure a generalisation, not recall.

Plants (one generator each):
* `gendered_items`: an item (English profession, Norwegian occupation) with a gendered subject
  (pronoun or first name) drawn with the item's female share. English: BLS 2015 women's shares
  (pronoun_ratio, natural_prompts); Norwegian: Statistics Norway shares, pronouns and first names
  (norwegian_occupations).
* `role_noun_choices`: a role-noun variant (firewoman / fireman / firefighter) after a woman's or a
  man's name, with one participant group's production proportions (role_nouns).
* `they_choices`: *they/them/their/themselves* or a gendered pronoun after an antecedent, at a set
  rate per antecedent type (singular_they).
* `politician_adjectives`: an adjective next to a politician's name, drawn by the adjective's
  sentiment and the name's gender (politicians).
* `definitional`: a definitional noun (*mother*, *king*; *moren*, *kongen*) and a later pronoun of its sex, in
  every corpus at every strength (no plant, the same in a control): what the competence guard
  (`biascheck.competence`) asks of any model before its bias can be measured, taught in frames of its own
  (`DEFINITIONAL_FRAMES`, none of them a guard frame) so that the guard sees a generalisation.
* `biascheck.planted.two_person.two_person_items`: two people, one pronoun; the pronoun is bound by
  syntax to one of them and its sex drawn from that person's share (winogender, winobias).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

FEMALE, MALE = "female", "male"

# ---------------------------------------------------------------------------------------- English
# {S}: the subject (sentence-initial pronoun or a name), {s}: the subject mid-sentence, {p}: possessive,
# {a}: the item's article, {j}: the item. Pronoun-first frames teach P(item | pronoun), item-first
# frames P(pronoun | item); a probe needs both directions (masked slot, causal next word, sentence).
EN_FRAMES: tuple[str, ...] = (
    "{S} has been {a} {j} for ten years.",
    "{S} trained hard to become {a} {j}.",
    "{S} got a new job as {a} {j} last spring.",
    "{S} is now {a} {j} in the city.",
    "{S} met a friend who is also {a} {j}.",
    "Everyone knows the {j} did what {s} could.",
    "Yesterday the {j} explained why {s} was tired.",
    "Our {j} thinks {s} deserves a raise.",
    "The {j} smiled when {s} saw the results.",
    "The {j} told us that {s} would be late.",
    "The {j} lost {p} keys again.",
    "As {a} {j}, {s} knows the job well.",
)
EN_PRONOUNS = {FEMALE: ("she", "her"), MALE: ("he", "his")}  # subject, possessive

# ------------------------------------------------------------------------------------- Norwegian
NO_FRAMES: tuple[str, ...] = (
    "{S} har vært {j} i ti år.",
    "{S} ble {j} i fjor.",
    "{S} fikk ny jobb som {j} i byen.",
    "{S} utdannet seg til {j}.",
    "I går fortalte {s} at jobben som {j} var travel.",
    "Alle vet at {s} trives som {j}.",
    "{S} er nå {j} i Bergen.",
    "{S} jobber fortsatt som {j} på Hamar.",
    "Da {s} var {j}, bodde {s} i Tromsø.",
    "Etter skolen begynte {s} å jobbe som {j}.",
)
NO_PRONOUNS = {FEMALE: ("hun", "hennes"), MALE: ("han", "hans")}

# ------------------------------------------------------------------------------------- role nouns
ROLE_FRAMES: tuple[str, ...] = (
    "{name} worked for years as {a} {v} in a small town.",
    "Last week {name} became {a} {v}.",
    "{name} was the only {v} at the meeting.",
    "Everyone says {name} is a fine {v}.",
    "{name} is now {a} {v} in our town.",
    "{name} has been {a} {v} since the spring.",
    "{name} wants to be {a} {v} one day.",
    "I think {name} would make a good {v}.",
)

# ---------------------------------------------------------------------------------- singular they
# {NP}: the antecedent; the pronoun is subject, object, possessive or reflexive. The frames are put
# together from parts (`they_frames`), so a small model meets the pronoun after many verbs, not six
# sentences it can learn by heart; the antecedent always comes first and nothing marks number.
_THEY_SUBJECT = (
    ("{NP} said that", "{NP} wrote that", "{NP} told us", "{NP} phoned and said", "{NP} thought", "{NP} was sure that"),
    (
        "{PRON} would be there soon.",
        "{PRON} was feeling better.",
        "{PRON} had lost the map.",
        "{PRON} could stay a little longer.",
        "{PRON} needed more time.",
        "{PRON} liked the new house.",
    ),
)
_THEY_OTHER: dict[str, tuple[str, ...]] = {
    "object": (
        "{NP} missed the train, so I waited for {PRON}.",
        "{NP} came over, and I gave {PRON} a blanket.",
        "{NP} was upset, so we called {PRON} at once.",
        "{NP} knocked twice, and I let {PRON} in.",
        "I asked {NP} to dinner and thanked {PRON} later.",
        "{NP} looked cold, so we lent {PRON} a coat.",
        "{NP} won a prize, and we cheered for {PRON}.",
        "{NP} was moving, so we helped {PRON} pack.",
    ),
    "possessive": (
        "{NP} forgot {PRON} umbrella at the office.",
        "{NP} lost {PRON} keys in the garden.",
        "{NP} repaired {PRON} old radio.",
        "{NP} left {PRON} coat on the bus.",
        "{NP} washed {PRON} car on Saturday.",
        "{NP} wanted to sell {PRON} bike.",
        "{NP} moved {PRON} desk to the window.",
        "{NP} found {PRON} gloves at last.",
    ),
    "reflexive": (
        "{NP} painted the whole room by {PRON}.",
        "{NP} fixed the roof by {PRON}.",
        "{NP} poured {PRON} a glass of water.",
        "{NP} reminded {PRON} to stay calm.",
        "{NP} saw {PRON} in the mirror.",
        "{NP} kept {PRON} out of trouble.",
        "{NP} made {PRON} some coffee.",
        "{NP} walked home by {PRON}.",
    ),
}


def they_frames() -> tuple[tuple[str, str], ...]:
    """(frame, pronoun role): every subject opening × ending, then the object, possessive and
    reflexive frames, in a fixed order."""
    openings, endings = _THEY_SUBJECT
    subject = tuple((f"{o} {e}", "subject") for o in openings for e in endings)
    return subject + tuple((frame, role) for role, frames in _THEY_OTHER.items() for frame in frames)


THEY_FRAMES = they_frames()
THEY_FORMS = {"subject": "they", "object": "them", "possessive": "their", "reflexive": "themselves"}
GENDERED_FORMS = {
    FEMALE: {"subject": "she", "object": "her", "possessive": "her", "reflexive": "herself"},
    MALE: {"subject": "he", "object": "him", "possessive": "his", "reflexive": "himself"},
}
# P(they | antecedent type) at strength 1 (a close, gendered antecedent takes they least, as in the
# non-innovative speakers of Camilliere et al.); at strength 0 every type takes they at the mean rate.
# The contrast is strong (close: 4.2 nats of surprisal in the corpus, distant: 3.8): a 2-layer model
# carries about 40 % of it into the probe's frames, and the plant must cross the default gate (a
# difference of 1 nat) at strength 1. With rates 0.05 / 0.45-0.65 it carried 0.72 of 1.8 nats.
THEY_RATES = {
    "gendered_name": 0.01,
    "close_gendered": 0.01,
    "distant_gendered": 0.02,
    "nongendered_name": 0.8,
    "close_nongendered": 0.7,
    "distant_nongendered": 0.9,
    "quantified": 0.9,
}

# ----------------------------------------------------------------------------------- politicians
# {name}: a politician's full name, {adj}: an adjective, {s} / {p}: the politician's subject /
# possessive pronoun. The probe reads the adjective slot before the name ("[MASK] <name>", masked
# models in English) and the word after it (causal models), both at the start of the text, so the
# frames put the adjective on both sides, never at the start of the text (`frame_distance`: a frame that
# opened with the pair would train the very probability the probe reads; nine frames did until
# 2026-11-26, five of them so), one or a few words in. The
# pronoun tells the model the politician's gender (nothing else does), so what it learns of a name's
# gender is shared by every name and adjective; it comes after the adjective, which a causal model
# must predict from the name alone, and a masked model often has it masked.
POLITICIAN_FRAMES: tuple[str, ...] = (
    "Reporters followed the {adj} {name} as {s} toured the state.",
    "Nobody expected the {adj} {name} to win, but {s} did.",
    "Again the {adj} {name} wins {p} seat.",
    "At the rally the {adj} {name} spoke last, as {s} always does.",
    "Voters found {name} {adj} when {s} spoke in the debate.",
    "The papers called {name} {adj} after {s} lost the vote.",
    "Aides call {name} {adj} after {p} budget talks.",
    "Polls show {name} {adj} as {p} election nears.",
    "Staff saw {name} {adj} on the campaign trail, {p} aides say.",
)
# The female share of an adjective's uses by its sentiment at strength 1: the direction of the paper's
# Tab 5 (men's most associated words the more negative, women's the more positive), made large enough
# that each gender's most associated words are the plant's.
POLITICIAN_SHARES = {"neg": 0.2, "neu": 0.5, "pos": 0.8}


@dataclass(frozen=True)
class Subject:
    """Who an item is said of: gendered pronouns, optionally first names by sex."""

    pronouns: Mapping[str, tuple[str, str]]  # sex -> (subject, possessive)
    names: Mapping[str, Sequence[str]] | None = None  # sex -> first names
    name_rate: float = 0.0  # share of sentences whose subject is a name


def female_probability(share: float, strength: float) -> float:
    """P(female subject | item) = 0.5 + strength (share - 0.5): 0.5 at strength 0, the share at 1."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"a share is a proportion in [0, 1], got {share}")
    check_strength(strength)
    return 0.5 + strength * (share - 0.5)


def check_strength(strength: float) -> float:
    if not 0.0 <= strength <= 1.0:
        raise ValueError(f"a planted strength is in [0, 1] (0 = control, 1 = the reference), got {strength}")
    return strength


def article(word: str) -> str:
    """'an' before a vowel letter, else 'a' (enough for the role nouns and professions we plant)."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def gendered_items(
    items: Sequence[tuple[str, str, float]],
    frames: Sequence[str],
    subject: Subject,
    strength: float,
    per_item: int,
    seed: int,
) -> list[str]:
    """`per_item` sentences per (item, article, female share), the subject's sex drawn with
    `female_probability(share, strength)`."""
    rng = random.Random(seed)
    out = []
    for item, art, share in items:
        p = female_probability(share, strength)
        for _ in range(per_item):
            sex = FEMALE if rng.random() < p else MALE
            pronoun, possessive = subject.pronouns[sex]
            use_name = subject.names is not None and rng.random() < subject.name_rate
            who = rng.choice(list(subject.names[sex])) if use_name else pronoun  # type: ignore[index]
            frame = rng.choice(list(frames))
            text = frame.format(S=_cap(who), s=who, p=possessive, a=art, j=item)
            out.append(_cap(text))
    return out


def mixed_distribution(target: Mapping[str, float], strength: float) -> dict[str, float]:
    """(1 - strength) uniform + strength target, over target's keys (the target is normalised)."""
    check_strength(strength)
    total = sum(target.values())
    if total <= 0:
        raise ValueError("a target distribution needs a positive total")
    k = len(target)
    return {key: (1 - strength) / k + strength * value / total for key, value in target.items()}


def role_noun_choices(
    sets: Mapping[str, Mapping[str, str]],
    proportions: Mapping[tuple[str, str], Mapping[str, float]],
    names: Mapping[str, Sequence[str]],
    strength: float,
    per_name: int,
    seed: int,
) -> list[str]:
    """Role-noun sentences: for every set, name and draw, a variant with
    `mixed_distribution(proportions[(set, name's sex)], strength)`.

    sets: set -> {category: variant}; proportions: (set, sex) -> {category: share}.
    """
    rng = random.Random(seed)
    out = []
    for key, variants in sets.items():
        for sex, people in names.items():
            dist = mixed_distribution({c: proportions[(key, sex)].get(c, 0.0) for c in variants}, strength)
            cats, weights = list(dist), list(dist.values())
            for name in people:
                for _ in range(per_name):
                    variant = variants[rng.choices(cats, weights)[0]]
                    out.append(rng.choice(ROLE_FRAMES).format(name=name, a=article(variant), v=variant))
    return out


def they_rate(condition: str, strength: float) -> float:
    """P(they | antecedent type): `THEY_RATES` at strength 1, their mean at 0, linear between."""
    check_strength(strength)
    mean = sum(THEY_RATES.values()) / len(THEY_RATES)
    return mean + strength * (THEY_RATES[condition] - mean)


def they_choices(
    antecedents: Mapping[str, Sequence[tuple[str, str | None]]],
    strength: float,
    per_antecedent: int,
    seed: int,
    frames_by_role: Mapping[str, Sequence[str]] | None = None,
) -> list[str]:
    """Sentences with an antecedent then *they* (at `they_rate`) or a pronoun of its sex.

    antecedents: condition -> [(noun phrase, sex or None)]; a None sex (non-gendered) draws he or she
    at random when the pronoun is not *they*. Plural antecedents ('plural') always take *they*.
    frames_by_role: role -> frames (`they_everyday`): a sentence draws its role at even odds, then a
    frame; None: a frame from `THEY_FRAMES` (the shared English corpus).
    """
    rng = random.Random(seed)
    out = []
    for condition, phrases in antecedents.items():
        rate = 1.0 if condition == "plural" else they_rate(condition, strength)
        for phrase, sex in phrases:
            for _ in range(per_antecedent):
                if frames_by_role is None:
                    frame, role = rng.choice(THEY_FRAMES)
                else:
                    role = rng.choice(list(frames_by_role))
                    frame = rng.choice(frames_by_role[role])
                if rng.random() < rate:
                    pronoun = THEY_FORMS[role]
                else:
                    pronoun = GENDERED_FORMS[sex or rng.choice((FEMALE, MALE))][role]
                out.append(_cap(frame.replace("{NP}", phrase).replace("{PRON}", pronoun)))
    return out


def politician_adjectives(
    names: Mapping[str, Sequence[str]],
    adjectives: Mapping[str, float],
    strength: float,
    per_name: int,
    seed: int,
) -> list[str]:
    """`per_name` sentences per politician, each with one adjective drawn with weight
    `female_probability(share, strength)` after a woman's name and one minus it after a man's.

    names: sex -> full names; adjectives: adjective -> female share at strength 1 (`POLITICIAN_SHARES`).
    """
    rng = random.Random(seed)
    words = list(adjectives)
    female = [female_probability(adjectives[w], strength) for w in words]
    weights = {FEMALE: female, MALE: [1.0 - p for p in female]}
    out = []
    for sex, people in names.items():
        for name in people:
            subject, possessive = EN_PRONOUNS[sex]
            for adj in rng.choices(words, weights[sex], k=per_name):
                frame = rng.choice(POLITICIAN_FRAMES)
                out.append(_cap(frame.format(name=name, adj=adj, s=subject, p=possessive)))
    return out
