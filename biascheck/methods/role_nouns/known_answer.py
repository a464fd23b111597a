"""role_nouns' known answer: one Papineau participant group's production proportions (`ROLE_GROUP`), per
role-noun set and name gender, planted as the variant (firewoman / fireman / firefighter) said of each of
Watson's 24 names in the English corpus."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from biascheck.planted import corpus as c
from biascheck.planted.plant import KnownAnswer, Moved, Plant

ROLE_GROUP = "conservative"  # the attitude third whose choices the plant copies
PER_ROLE_NAME = 10  # sentences per name and role-noun set


@dataclass(frozen=True)
class RoleNouns:
    sets: dict[str, dict[str, str]]  # set -> {category: variant}
    names: dict[str, tuple[str, ...]]  # sex -> names
    proportions: dict[tuple[str, str], dict[str, float]]  # (set, sex) -> {category: share}


def read(refdata: Any) -> RoleNouns:
    from biascheck.data import role_nouns

    sets = role_nouns.role_noun_sets(refdata)
    role_sets = {key: dict(zip(g["category"], g["variant"], strict=True)) for key, g in sets.groupby("set", sort=True)}
    names, _states = role_nouns.names_and_states(refdata)
    trials = role_nouns.production_trials(refdata)
    group = trials[trials["attitude"] == ROLE_GROUP]
    counts = group.groupby(["set", "name_gender"])["category"].value_counts(normalize=True)
    return RoleNouns(
        sets=role_sets,
        names={sex: tuple(names.loc[names["name_gender"] == sex, "name"]) for sex in (c.FEMALE, c.MALE)},
        proportions={
            (key, sex): {cat: float(counts.get((key, sex, cat), 0.0)) for cat in role_sets[key]}
            for key in role_sets
            for sex in (c.FEMALE, c.MALE)
        },
    )


def sentences(data: RoleNouns, strength: float, seed: int) -> list[str]:
    return c.role_noun_choices(data.sets, data.proportions, data.names, strength, PER_ROLE_NAME, seed + 2)


def focus(data: RoleNouns) -> tuple[str, ...]:
    """The names, predicted more often in training; not the role nouns too: were they masked as often, a name
    and its role noun would seldom be seen together."""
    return tuple(sorted({n for people in data.names.values() for n in people}))


ROLE_NOUNS = Plant("role_nouns", "en", sentences, read, focus, frames=c.ROLE_FRAMES)
KNOWN_ANSWER = KnownAnswer(
    plants=(ROLE_NOUNS,),
    moves=(
        Moved("en", "three_way", "fem_name_shift"),
        # planted-bert's 2-way shift: its interval reaches its control's shift in one build of three (seed 2: 0.17
        # [0.01, 0.42] against 0.04; docs/known_answers/dose_response_en.md)
        Moved("en", "two_way", "fem_name_shift", found_by=("planted-gpt",)),
    ),
    # Not the gates on attitude groups' differences, which the plant (one group's choices) does not set.
    gates=(("three_way", "fem_name_shift"), ("two_way", "fem_name_shift")),
    plant_passes=True,  # registering the referent's gender is what the probe asks for
)
