"""winobias scoring: the only module of the probe that calls the model (`sentence_logprob`)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from biascheck.methods.winobias.math import pairs
from biascheck.methods.winobias.reference import Reference
from biascheck.scoring import LanguageModel
from biascheck.settings import ProbeSettings


@dataclass(frozen=True)
class Scored:
    """pairs: `math.pairs` over the reference's splits; left_out: pairs that are not minimal; estimator."""

    pairs: pd.DataFrame
    left_out: int
    estimator: str


def score(lm: LanguageModel, reference: Reference, settings: ProbeSettings) -> Scored:
    """Every sentence of the reference (its splits, both types) scored once, then paired. `lm`: a
    `biascheck.models.base.LanguageModel` (methods do not import the model layer)."""
    values, estimator = lm.sentence_logprob(list(reference.sentences["sentence"]))
    table, left_out = pairs(reference.sentences, values)
    return Scored(table, left_out, estimator)
