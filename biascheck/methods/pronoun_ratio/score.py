"""pronoun_ratio scoring: the only module of the probe that calls the model (`fill_slot`).

On a causal LM the slot is scored by comparing the filled sentences (estimator causal-sentence):
log r = log P("He is a nurse.") − log P("She is a nurse."), and the prior template is the prefix
"He is a" vs "She is a", so log n = log P("nurse." | "He is a") − log P("nurse." | "She is a").
The pronoun is capitalised (it starts the sentence); uncased tokenizers lower-case it, as the paper
did for bert-base-uncased.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from biascheck.methods.pronoun_ratio.math import PronounScores, pronoun_scores
from biascheck.methods.pronoun_ratio.reference import Reference
from biascheck.methods.pronoun_ratio.spec import ARTICLES, PRONOUNS, VERBS
from biascheck.scoring import LanguageModel
from biascheck.settings import ProbeSettings
from biascheck.spec import BLANK, CAUSAL_SENTENCE, SLOT


@dataclass(frozen=True)
class Scored:
    """by_verb: each verb task's ('is', 'works_as') `PronounScores`, professions in the reference's order."""

    by_verb: dict[str, PronounScores]


def templates(professions: pd.DataFrame, verb: str) -> list[str]:
    """Step 1: one template per profession, e.g. '[SLOT] works as an architect.'."""
    pairs = zip(professions["profession"], professions["article"], strict=True)
    return [f"{SLOT} {VERBS[verb]} {a} {p}." for p, a in pairs]


def prior_template(verb: str, article: str = "a") -> str:
    """Step 4: the prior template, the same template with the profession replaced by an unpredicted
    blank: '[SLOT] works as an [BLANK].' (causal models: the prefix 'He works as an')."""
    return f"{SLOT} {VERBS[verb]} {article} {BLANK}."


def score(lm: LanguageModel, reference: Reference, settings: ProbeSettings) -> Scored:
    """Steps 1-5 for both verbs over the reference's professions. `lm`: a
    `biascheck.models.base.LanguageModel` (methods do not import the model layer)."""
    return score_professions(lm, reference.professions)


def score_professions(lm: LanguageModel, professions: pd.DataFrame) -> Scored:
    """Steps 1-5 for both verbs with one batched call to the model: every template and the four
    prior templates (is a / is an / works as a / works as an) together. Apart from `score` for a caller
    that has professions but no gold (`biascheck fluctuation` scores a sweep of checkpoints)."""
    articles = list(professions["article"])
    unknown = sorted(set(articles) - set(ARTICLES))
    if unknown:
        raise ValueError(f"articles must be one of {ARTICLES}, got {unknown}")
    batch: list[str] = []
    rows: dict[str, tuple[int, int]] = {}
    prior_row: dict[tuple[str, str], int] = {}
    for verb in VERBS:
        start = len(batch)
        batch.extend(templates(professions, verb))
        rows[verb] = (start, len(batch))
        for article in ARTICLES:
            prior_row[(verb, article)] = len(batch)
            batch.append(prior_template(verb, article))
    scored = lm.fill_slot(batch, list(PRONOUNS))
    he, she = scored.logprob[:, 0], scored.logprob[:, 1]
    names = list(professions["profession"])
    estimator = scored.estimator + (" (a pronoun took several pieces)" if scored.multi_piece else "")
    out = {}
    for verb, (a, b) in rows.items():
        own_prior = np.array([prior_row[(verb, article)] for article in articles])
        out[verb] = pronoun_scores(
            names,
            he[a:b],
            she[a:b],
            he[own_prior],
            she[own_prior],
            estimator,
            slot_is_probability=scored.estimator != CAUSAL_SENTENCE,
            articles=articles,
        )
    return Scored(out)
