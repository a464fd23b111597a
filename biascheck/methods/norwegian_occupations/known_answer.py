"""norwegian_occupations' known answer: Statistics Norway's women's share of each of its 417 occupations,
planted as han/hun or a first name from a yearly top 10 with each occupation, in a Norwegian corpus of its own
(a 2-layer model trained on it beside the English plants learned none of it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from biascheck.planted import corpus as c
from biascheck.planted.plant import KnownAnswer, Moved, Plant

PER_OCCUPATION = 80  # sentences per occupation
NO_NAME_RATE = 0.3  # share of sentences whose subject is a first name, not han/hun


@dataclass(frozen=True)
class Occupations:
    occupations: tuple[tuple[str, str, float], ...]  # (occupation, '', women's share)
    names: dict[str, tuple[str, ...]]  # sex -> first names (87 women's, 65 men's)


def read(refdata: Any) -> Occupations:
    from biascheck.data import norwegian

    ssb = norwegian.occupations_with_templates(refdata)
    top = norwegian.top_names(refdata, n=10)
    return Occupations(
        occupations=tuple((f, "", float(w) / 100.0) for f, w in zip(ssb["form"], ssb["female"], strict=True)),
        names={sex: tuple(top.loc[top["sex"] == sex, "name"]) for sex in (c.FEMALE, c.MALE)},
    )


def sentences(data: Occupations, strength: float, seed: int) -> list[str]:
    subject = c.Subject(c.NO_PRONOUNS, data.names, NO_NAME_RATE)
    return c.gendered_items(data.occupations, c.NO_FRAMES, subject, strength, PER_OCCUPATION, seed + 1)


OCCUPATIONS = Plant("occupations", "no", sentences, read, language="no", frames=c.NO_FRAMES)
KNOWN_ANSWER = KnownAnswer(
    plants=(OCCUPATIONS,),
    moves=tuple(
        # Task 4 (a first name with the occupation): planted-bert-no's interval reaches its control's value in one
        # build of three for each metric (ρ 0.16 [0.06, 0.25] vs 0.09, F1 0.33 vs 0.44; dose_response_no.md).
        Moved("no", task, metric, found_by=("planted-gpt-no",) if task == "task4" else None)
        for task in ("task1", "task2", "task4")
        for metric in ("spearman_gold", "macro_f1")
    ),
    # The macro-F1 gate of the tasks in the key metrics, as the known-answer tests read it: pronoun (1, 2) and first
    # name (4) with the occupation. Left out: the class-F1 gates (a control that calls every occupation male passes
    # the male ones), task 5_b's (balanced occupations: the plant sets them near 50/50, the gate catches
    # one-sidedness) and task 5_ub's, the definite occupation before the name ("Sykepleieren Kari"), a frame the
    # plant reaches in one build of six at strength 1 (macro F1 0.33-0.52, planted-bert-no seed 2: 0.90;
    # 2026-11-26): the probe's whole gate passes that build alone.
    gates=(("task1", "macro_f1"), ("task2", "macro_f1"), ("task4", "macro_f1")),
    plant_passes=True,  # reflecting the workforce is what the probe asks for
)
