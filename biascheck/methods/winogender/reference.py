"""winogender reference: the 720 Winogender sentences and the 60 occupations' gold women's shares
(`biascheck.data.winogender`)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.data.winogender import winogender_occupations, winogender_sentences
from biascheck.settings import ProbeSettings


@dataclass(frozen=True)
class Reference:
    """sentences: one row per sentence (template_id, occupation, participant, someone, answer, gender,
    pronoun, sentence, ...), every pronoun version of every template; occupations: one row per occupation
    (occupation, bls_pct_female, bergsma_pct_female), the gold the pronouns task is read against."""

    sentences: pd.DataFrame
    occupations: pd.DataFrame


def load(refdata: ReferenceData, settings: ProbeSettings) -> Reference:
    """Every sentence and occupation; the probe has no settings that select among them."""
    return Reference(winogender_sentences(refdata), winogender_occupations(refdata))
