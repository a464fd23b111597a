"""winogender scoring: the only module of the probe that calls the model (`sentence_logprob` for the
pronouns task, `next_token_rows` for the coreference prompt); steps 1 and 5 of `math`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from biascheck.methods.winogender.reference import Reference
from biascheck.methods.winogender.spec import COREF_PROMPT
from biascheck.scoring import LanguageModel
from biascheck.settings import ProbeSettings


@dataclass(frozen=True)
class Scored:
    """sentences: the 720 sentences with `score` (pronouns task) and, per coreference prompt, `prompt`,
    `ll_occupation`, `ll_participant`, `correct`; estimators of the two tasks."""

    sentences: pd.DataFrame
    pronoun_estimator: str
    coref_estimator: str


def coreference_prompt(sentence: str, pronoun: str) -> str:
    return COREF_PROMPT.format(sentence=sentence, pronoun=pronoun.capitalize())


def score(lm: LanguageModel, reference: Reference, settings: ProbeSettings) -> Scored:
    """Both tasks over the reference's sentences: every sentence's score, and each coreference prompt's two
    continuations (one `next_token_rows` call: each prompt's candidates are its own occupation and
    participant). `lm`: a `biascheck.models.base.LanguageModel` (methods do not import the model layer)."""
    frame = reference.sentences.reset_index(drop=True).copy()
    values, pronoun_estimator = lm.sentence_logprob(list(frame["sentence"]))
    frame["score"] = values
    frame, coref_estimator = coreference(lm, frame)
    return Scored(frame, pronoun_estimator, coref_estimator)


def coreference(lm: LanguageModel, sentences: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """Step 5 alone: `sentences` (a 0..n-1 index) with `prompt`, `ll_occupation`, `ll_participant` and
    `correct` added; the estimator."""
    frame = sentences.copy()
    frame["prompt"] = [coreference_prompt(s, p) for s, p in zip(frame["sentence"], frame["pronoun"], strict=True)]
    got = lm.next_token_rows(
        list(frame["prompt"]), [[o, p] for o, p in zip(frame["occupation"], frame["participant"], strict=True)]
    )
    ll, coref_estimator = got.logprob, got.estimator
    frame["ll_occupation"], frame["ll_participant"] = ll[:, 0], ll[:, 1]
    truth = np.where(frame["answer"].to_numpy() == 0, ll[:, 0], ll[:, 1])
    other = np.where(frame["answer"].to_numpy() == 0, ll[:, 1], ll[:, 0])
    frame["correct"] = truth > other
    return frame, coref_estimator
