"""crows_pairs_gender scoring: the only module of the probe that calls the model (`token_logprobs` for
masked LMs, `sentence_logprob` for causal LMs); steps 1-3 of `math`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from biascheck.methods.crows_pairs_gender.math import shared_positions, unmodified_score
from biascheck.methods.crows_pairs_gender.reference import Reference
from biascheck.methods.crows_pairs_gender.spec import MASKED_DECIMALS
from biascheck.scoring import LanguageModel
from biascheck.settings import ProbeSettings

MLM_UNMODIFIED = "mlm-pll-unmodified"  # metric.py: the PLL of the tokens the two sentences share


@dataclass(frozen=True)
class Scored:
    """Per pair (rows of the CrowS-Pairs file): its row number, stereo_antistereo, bias_type, both
    sentences, their scores; estimator; decimals the outcome rounds to (None: not rounded)."""

    pairs: pd.DataFrame  # row, stereo_antistereo, sent_more, sent_less, score_more, score_less
    estimator: str
    decimals: int | None


def score(lm: LanguageModel, reference: Reference, settings: ProbeSettings) -> Scored:
    """Score both sentences of every pair of the reference. `lm`: a `biascheck.models.base.LanguageModel`
    (methods do not import the model layer)."""
    pairs = reference.pairs
    more, less = list(pairs["sent_more"]), list(pairs["sent_less"])
    if lm.family == "masked":
        unique = list(dict.fromkeys(more + less))
        terms = dict(zip(unique, lm.token_logprobs(unique), strict=True))
        score_more, score_less = [], []
        for m, s in zip(more, less, strict=True):
            a, b = shared_positions(terms[m].ids, terms[s].ids)
            score_more.append(unmodified_score(terms[m].logprob, a))
            score_less.append(unmodified_score(terms[s].logprob, b))
        estimator, decimals = MLM_UNMODIFIED, MASKED_DECIMALS
    else:
        values, estimator = lm.sentence_logprob(more + less)
        score_more, score_less = list(values[: len(more)]), list(values[len(more) :])
        decimals = None
    frame = pairs[["row", "stereo_antistereo", "sent_more", "sent_less"]].reset_index(drop=True).copy()
    frame["score_more"] = np.asarray(score_more, dtype=float)
    frame["score_less"] = np.asarray(score_less, dtype=float)
    return Scored(frame, estimator, decimals)
