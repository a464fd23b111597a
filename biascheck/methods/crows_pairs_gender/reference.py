"""crows_pairs_gender reference: CrowS-Pairs' gender pairs (`biascheck.data.crows_pairs`), in file order."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.data.crows_pairs import crows_pairs
from biascheck.settings import ProbeSettings

BIAS_TYPE = "gender"


@dataclass(frozen=True)
class Reference:
    """pairs: one row per CrowS-Pairs pair of the bias type (row, sent_more, sent_less, stereo_antistereo,
    bias_type); sent_more is the more stereotyping sentence in both directions."""

    pairs: pd.DataFrame


def load(refdata: ReferenceData, settings: ProbeSettings) -> Reference:
    """The 262 gender pairs; the probe has no settings that select among them."""
    return Reference(crows_pairs(refdata, BIAS_TYPE))
