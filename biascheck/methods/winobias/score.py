"""winobias scoring: the only module of the probe that calls the model (`sentence_logprob`)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from biascheck.methods.winobias.math import pairs


@dataclass(frozen=True)
class Scored:
    """pairs: `math.pairs` over both splits; left_out: pairs that are not minimal; estimator."""

    pairs: pd.DataFrame
    left_out: int
    estimator: str


def score_all(lm, sentences: pd.DataFrame) -> Scored:
    """Every sentence of `sentences` (both splits, both types) scored once, then paired."""
    values, estimator = lm.sentence_logprob(list(sentences["sentence"]))
    table, left_out = pairs(sentences, values)
    return Scored(table, left_out, estimator)
