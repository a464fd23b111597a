"""pronoun_ratio scoring: the only module of the probe that calls the model (`fill_slot`).

On a causal LM the slot is scored by comparing the filled sentences (estimator causal-sentence):
log r = log P("He is a nurse.") − log P("She is a nurse."), and the prior template is the prefix
"He is a" vs "She is a", so log n = log P("nurse." | "He is a") − log P("nurse." | "She is a").
The pronoun is capitalised (it starts the sentence); uncased tokenizers lower-case it, as the paper
did for bert-base-uncased.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from biascheck.methods.pronoun_ratio.math import PronounScores, pronoun_scores
from biascheck.methods.pronoun_ratio.spec import PRONOUNS, VERBS
from biascheck.spec import BLANK, CAUSAL_SENTENCE, SLOT


def templates(professions: pd.DataFrame, verb: str) -> list[str]:
    """Step 1: one template per profession, e.g. '[SLOT] works as an architect.'."""
    pairs = zip(professions["profession"], professions["article"], strict=True)
    return [f"{SLOT} {VERBS[verb]} {a} {p}." for p, a in pairs]


def prior_template(verb: str) -> str:
    """Step 4: the prior template, profession replaced by an unpredicted blank."""
    return f"{SLOT} {VERBS[verb]} a {BLANK}."


def score_all(lm: Any, professions: pd.DataFrame) -> dict[str, PronounScores]:
    """Steps 1-5 for both verbs with one batched call to the model (templates and priors together)."""
    batch: list[str] = []
    spans: dict[str, tuple[int, int, int]] = {}
    for verb in VERBS:
        start = len(batch)
        batch.extend(templates(professions, verb))
        spans[verb] = (start, len(batch), len(batch))
        batch.append(prior_template(verb))
    scored = lm.fill_slot(batch, list(PRONOUNS))
    he, she = scored.logprob[:, 0], scored.logprob[:, 1]
    names = list(professions["profession"])
    estimator = scored.estimator + (" (a pronoun took several pieces)" if scored.multi_piece else "")
    return {
        verb: pronoun_scores(
            names, he[a:b], she[a:b], he[p], she[p], estimator, slot_is_probability=scored.estimator != CAUSAL_SENTENCE
        )
        for verb, (a, b, p) in spans.items()
    }
