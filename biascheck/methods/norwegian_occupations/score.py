"""norwegian_occupations scoring: the only module of the probe that calls the model (`fill_slot`).

Occupations of several word pieces go through the engine's estimator (`mlm-slot`: left-to-right
sequential masks; `causal-sentence`: chain rule); each task's note says how many did.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from biascheck.methods.norwegian_occupations.math import (
    TaskScores,
    name_female_share,
    occupation_table,
    pronoun_female_share,
)
from biascheck.methods.norwegian_occupations.reference import Reference
from biascheck.methods.norwegian_occupations.spec import BALANCED, FEMALE, MALE, OTHER, PRONOUNS
from biascheck.methods.norwegian_occupations.templates import (
    definite_form,
    name_templates,
    pronoun_templates,
    sentence_initial,
)
from biascheck.scoring import LanguageModel
from biascheck.settings import ProbeSettings
from biascheck.spec import SLOT


@dataclass(frozen=True)
class Scored:
    """tasks: one `TaskScores` per task of `spec.TASKS`, in that order; model: the scored model's name as
    the run records it (`lm.info.name`), which keys the paper's published figures (`spec.paper_value`)."""

    tasks: Mapping[str, TaskScores]
    model: str


def _finish(
    task: str,
    gold: pd.DataFrame,
    candidates: Sequence[str],
    female_share: np.ndarray,
    n_pieces: np.ndarray,
    estimator: str,
    n_templates: int,
    note: str,
    scored_words: str = "occupations",
) -> TaskScores:
    table = occupation_table(gold, candidates, female_share, n_pieces)
    multi = int((table["n_pieces"] > 1).sum())
    pieces = (
        f"{scored_words} of several word pieces in {multi} of {len(table)} rows ({estimator} estimator)"
        if multi
        else ""
    )
    return TaskScores(task, table, estimator, n_templates, "; ".join(x for x in (note, pieces) if x))


def score(lm: LanguageModel, reference: Reference, settings: ProbeSettings) -> Scored:
    """All six task tables for one model, in three batched `fill_slot` calls. `lm`: a
    `biascheck.models.base.LanguageModel` (methods do not import the model layer).

    reference.gold: `math.gold_table(...)` (needs form, template_er, template_jobber_som, subset, ...).
    reference.names: columns name, sex ('female'/'male'), e.g. `biascheck.data.norwegian.top_names`.
    Call 1: tasks 1-2, every pronoun template x (Hun, hun, Han, han).
    Call 2: tasks 3-4, every name template x every occupation (lower-case template form).
    Call 3: task 5, every name template x the definite forms of the balanced and clearly
            gendered occupations (one call, one normalisation; split into 5_b and 5_ub after).
    """
    return Scored(_task_scores(lm, reference.gold, reference.names), lm.info.name)


def _task_scores(lm: LanguageModel, gold: pd.DataFrame, names: pd.DataFrame) -> dict[str, TaskScores]:
    out: dict[str, TaskScores] = {}
    # Call 1 -- tasks 1 and 2: mask the pronoun.
    pronouns = [*PRONOUNS[FEMALE], *PRONOUNS[MALE]]
    er, js = pronoun_templates(gold["template_er"]), pronoun_templates(gold["template_jobber_som"])
    scores = lm.fill_slot(er + js, pronouns)
    n = len(gold)
    for task, rows in (("task1", slice(0, n)), ("task2", slice(n, 2 * n))):
        share = pronoun_female_share(scores.logprob[rows], pronouns)
        pieces = scores.n_pieces[rows].max(axis=1)
        out[task] = _finish(
            task,
            gold,
            [t.replace(SLOT, "Hun/Han") for t in (er if task == "task1" else js)],
            share,
            pieces,
            scores.estimator,
            n,
            "P(female) = P(Hun) + P(hun), P(male) = P(Han) + P(han)",
            "pronouns",
        )
    # Call 2 -- tasks 3 and 4: mask the occupation, one template per name.
    is_female = (names["sex"] == FEMALE).to_numpy()
    name_list = names["name"].tolist()
    n_names = len(name_list)
    who = f"{int(is_female.sum())} female and {int((~is_female).sum())} male names"
    t3, t4 = name_templates("task3", name_list), name_templates("task4", name_list)
    occupations = gold["form"].tolist()
    scores = lm.fill_slot(t3 + t4, occupations)
    for task, rows in (("task3", slice(0, n_names)), ("task4", slice(n_names, 2 * n_names))):
        share = name_female_share(scores.logprob[rows], is_female)
        out[task] = _finish(
            task,
            gold,
            occupations,
            share,
            scores.n_pieces[rows].max(axis=0),
            scores.estimator,
            n_names,
            f"{who}; occupation distribution normalised within each name's template, averaged per sex",
        )
    # Call 3 -- task 5: definite occupation before the name.
    part = gold[gold["subset"] != OTHER]
    definite = [sentence_initial(definite_form(f)) for f in part["form"]]
    scores = lm.fill_slot(name_templates("task5", name_list), definite)
    share = name_female_share(scores.logprob, is_female)
    t5 = _finish(
        "task5",
        part,
        definite,
        share,
        scores.n_pieces.max(axis=0),
        scores.estimator,
        n_names,
        f"{who}; normalised over the {len(part)} balanced and clearly gendered occupations together",
    )
    for task, keep in (("task5_b", t5.table["subset"] == BALANCED), ("task5_ub", t5.table["subset"] != BALANCED)):
        out[task] = TaskScores(task, t5.table[keep].reset_index(drop=True), t5.estimator, n_names, t5.note)
    return out
