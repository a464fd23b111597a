"""winobias reference: the WinoBias sentences of the splits the run asks for (`biascheck.data.winobias`)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.data.winobias import winobias_pairs
from biascheck.methods.winobias.spec import SPLITS
from biascheck.settings import ProbeSettings


@dataclass(frozen=True)
class Reference:
    """sentences: one row per sentence (pair_id, type, split, occupation, occupation_gender, sentence, ...)
    of `splits`, both types, pro- and anti-stereotypical."""

    sentences: pd.DataFrame
    splits: tuple[str, ...]


def load(refdata: ReferenceData, settings: ProbeSettings) -> Reference:
    splits = SPLITS if settings.splits == "both" else (settings.splits,)
    sentences = pd.concat([winobias_pairs(refdata, split) for split in splits], ignore_index=True)
    return Reference(sentences, tuple(splits))
