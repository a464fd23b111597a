"""pronoun_ratio reference: paper 001's 923 professions (the stimuli) and the two golds they are read against,
BLS 2015 women's shares and Delobelle et al.'s 60 stereotyped professions (`biascheck.data.professions_en`)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.data.professions_en import bls_women_share, professions_923, stereotyped_60
from biascheck.settings import ProbeSettings


@dataclass(frozen=True)
class Reference:
    """professions: the 923 professions with their upstream article (columns profession, article), in the
    upstream order the templates are built in; women_share: the US women's share (0-1) per occupation word
    BLS covers (index profession); stereotypes: the 30 female- and 30 male-stereotyped professions (columns
    profession, stereotype 'female' / 'male')."""

    professions: pd.DataFrame
    women_share: pd.Series
    stereotypes: pd.DataFrame


def load(refdata: ReferenceData, settings: ProbeSettings) -> Reference:
    """Every profession and both golds; the probe has no settings that select among them."""
    return Reference(
        professions=professions_923(refdata),
        women_share=bls_women_share(refdata).set_index("profession")["women_share"],
        stereotypes=stereotyped_60(refdata),
    )
