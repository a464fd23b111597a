"""The definitional plant, in every planted corpus at every strength: a definitional noun (*mother*, *king*;
*moren*, *kongen*) and a later pronoun of its sex. Nothing is planted by it (a control has it too): it
teaches what the competence guard (`biascheck.competence`) asks of any model before its bias can be
measured, in frames of its own, so that a planted model shows the guard a generalisation. Pure Python."""

from __future__ import annotations

import random
from collections.abc import Sequence

# {n}: the noun (English with "the", Norwegian in its definite form), {s}: its pronoun. Held out from the
# competence guard's frames (`tests/competence/test_items.py`).
FRAMES: dict[str, tuple[str, ...]] = {
    "en": (
        "Today the {n} came home, and {s} was glad.",
        "We saw the {n} at the shop, and {s} waved at us.",
        "After dinner the {n} went out because {s} wanted a walk.",
        "The neighbour says the {n} is ill, but {s} will come tomorrow.",
        "On Saturday the {n} phoned, and {s} laughed for a long time.",
        "In the evening the {n} reads while {s} drinks tea.",
    ),
    "no": (
        "I dag kom {n} hjem, og {s} var glad.",
        "Vi så {n} på butikken, og {s} vinket til oss.",
        "Etter middag gikk {n} ut fordi {s} ville gå en tur.",
        "Naboen sier at {n} er syk, men {s} kommer i morgen.",
        "På lørdag ringte {n}, og {s} lo lenge.",
        "Om kvelden leser {n} mens {s} drikker te.",
    ),
}


def definitional(
    pairs: Sequence[tuple[str, str]], pronouns: tuple[str, str], frames: Sequence[str], per_noun: int, seed: int
) -> list[str]:
    """`per_noun` sentences per noun of every (female, male) pair, each with the pronoun of the noun's sex
    (`pronouns`: female, male) in a frame drawn at random."""
    rng = random.Random(seed)
    return [
        _cap(rng.choice(list(frames)).format(n=noun, s=pronoun))
        for pair in pairs
        for noun, pronoun in zip(pair, pronouns, strict=True)
        for _ in range(per_noun)
    ]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
