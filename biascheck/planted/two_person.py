"""The two-person plant (winogender, winobias): two people, one pronoun, the pronoun bound by syntax or sense
to one of them (`TWO_PERSON_FRAMES`) and its sex drawn from that person's share, whatever the other person's.
The one-person frames of `biascheck.planted.corpus` leave a model's pronoun at the mercy of any other noun in
the sentence; these teach that the referent sets it. Pure Python, with the strength rule of
`corpus.female_probability`."""

from __future__ import annotations

import random
from collections.abc import Sequence

from biascheck.planted.corpus import FEMALE, MALE, female_probability

# ---------------------------------------------------------------------------------------- two people
# {A}: the referent, {B}: the other person (both after "the"); {s}/{o}/{p}: the referent's subject,
# object and possessive pronoun. The pronoun is bound to the referent by the syntax (an object pronoun
# cannot be its own clause's subject; a participle's or a clause's understood subject is the main
# subject) or by the sense (the one running late texts; the keys left at home are the leaver's). None
# opens "The {A} <verb> the {B}", the shape of WinoBias's and Winogender's sentences: the frame rule
# (`lab.frame_distance`) holds against both (tests/lab/test_frame_distance.py).
TWO_PERSON_FRAMES: dict[str, tuple[str, ...]] = {
    "referent_first": (
        "Having finished {p} shift, the {A} said goodbye to the {B}.",
        "On {p} way out, the {A} stopped to chat with the {B}.",
        "With {p} coat still on, the {A} sat down across from the {B}.",
        "Once {s} had parked, the {A} went inside to meet the {B}.",
        "Running late, the {A} sent a text to the {B} to say {s} was stuck in traffic.",
        "Back from {p} holiday, the {A} had a small gift for the {B}.",
        "Tired after the long trip, the {A} looked around for the {B}, hoping {s} could sit down.",
        "Because the {A} looked lost, the {B} showed {o} the way.",
    ),
    "referent_second": (
        "Before the {B} got there, the {A} had already finished {p} coffee.",
        "According to the {B}, the {A} had left {p} keys at home.",
        "It was the {B} who spotted the {A} in the crowd and waved {o} over.",
        "Nobody had told the {B} that the {A} was on {p} way.",
        "The {B} phoned twice, but the {A} did not pick up {p} phone.",
        "Long after the {B} had gone home, the {A} was still at {p} desk.",
        "The {B} was still asleep when the {A} left for {p} morning run.",
        "The {B} held the door open so that the {A} could carry {p} boxes inside.",
    ),
}
FRAMES: tuple[str, ...] = tuple(frame for group in TWO_PERSON_FRAMES.values() for frame in group)  # in order
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


def majority_share(share: float) -> float:
    """The share rounded to its majority: 1 above one half, 0 below, 0.5 on it (the majority plant)."""
    return 0.5 if share == 0.5 else float(share > 0.5)


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
    frames = FRAMES
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
