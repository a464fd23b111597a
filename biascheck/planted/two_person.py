"""The two-person plant (winogender, winobias): two people, one pronoun, the pronoun bound by syntax to one
of them (the subject of a following clause, or the object of a second verb) and its sex drawn from that
person's share, whatever the other person's. The one-person frames of `biascheck.planted.corpus` leave a
model's pronoun at the mercy of any other noun in the sentence; these teach that the referent sets it.
Pure Python, with the strength rule of `corpus.female_probability`."""

from __future__ import annotations

import random
from collections.abc import Sequence

from biascheck.planted.corpus import FEMALE, MALE, female_probability

# ---------------------------------------------------------------------------------------- two people
# {A}: the referent, {B}: the other person (both after "the"); {s}/{o}/{p}: the referent's subject,
# object and possessive pronoun. Subject-bound frames name the referent first, object-bound ones second.
TWO_PERSON_FRAMES: dict[str, tuple[str, ...]] = {
    "subject": (
        "The {A} called the {B} before {s} left for lunch.",
        "The {A} waited for the {B} until {s} had to go home.",
        "The {A} wrote to the {B} as soon as {s} got back.",
        "The {A} greeted the {B}, and then {s} sat down.",
        "The {A} passed the {B} in the hall and dropped {p} papers.",
        "The {A} sent the {B} a note after {s} read the report.",
        "The {A} sat next to the {B} while {s} ate {p} lunch.",
        "The {A} nodded to the {B} when {s} came in.",
    ),
    "object": (
        "The {B} called the {A} and thanked {o} for the help.",
        "The {B} visited the {A} and brought {o} some coffee.",
        "The {B} met the {A} and showed {o} the new plans.",
        "The {B} waited for the {A} and walked {o} to the car.",
        "The {B} phoned the {A} to ask {o} about the delay.",
        "The {B} found the {A} and handed {o} the letter.",
        "The {B} stopped the {A} and reminded {o} of the meeting.",
        "The {B} noticed the {A} and offered {o} a seat.",
    ),
}
TWO_PERSON_PRONOUNS = {FEMALE: ("she", "her", "her"), MALE: ("he", "him", "his")}  # subject, object, possessive
# People with no gender of their own: they stand beside a profession, and as referents their pronoun
# is he or she at even odds, so the model learns that the referent, not any noun, sets the pronoun.
NEUTRAL_PEOPLE = (
    "customer",
    "visitor",
    "neighbour",
    "passenger",
    "guest",
    "stranger",
    "client",
    "patient",
    "student",
    "child",
)


def two_person_items(
    items: Sequence[tuple[str, float]],
    others: Sequence[str],
    strength: float,
    per_item: int,
    seed: int,
) -> list[str]:
    """`per_item` sentences per (person, female share) as the referent of a two-person frame, the
    other person drawn from the items and `others`, the pronoun's sex from
    `female_probability(share, strength)` of the referent alone (`TWO_PERSON_FRAMES`)."""
    rng = random.Random(seed)
    frames = [frame for group in TWO_PERSON_FRAMES.values() for frame in group]
    people = [item for item, _share in items] + list(others)
    out = []
    for referent, share in items:
        p = female_probability(share, strength)
        for _ in range(per_item):
            other = rng.choice(people)
            while other == referent:
                other = rng.choice(people)
            sex = FEMALE if rng.random() < p else MALE
            subj, obj, poss = TWO_PERSON_PRONOUNS[sex]
            out.append(rng.choice(frames).format(A=referent, B=other, s=subj, o=obj, p=poss))
    return out
