"""norwegian_occupations reference: Statistics Norway's occupations with their gold sign and subset, and the
first names of tasks 3-5 (`biascheck.data.norwegian`), as the run's settings select them."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from biascheck.data import ReferenceData, norwegian
from biascheck.methods.norwegian_occupations.math import gold_table
from biascheck.settings import ProbeSettings

# Names ranked within a yearly top 10, as the paper drew them; the `names` setting keeps the first k per sex.
TOP_NAMES = 10


@dataclass(frozen=True)
class Reference:
    """gold: one row per occupation (`math.gold_table`: form, female, male, template_er, template_jobber_som,
    gold_diff, gold_female, subset); subsets: the subset rule it was built with ('paper' or 'share'), named
    in every note; names: the first names of tasks 3-5 (columns name, sex), most persistent first."""

    gold: pd.DataFrame
    subsets: str
    names: pd.DataFrame


def names_per_sex(names: pd.DataFrame, per_sex: int | None) -> pd.DataFrame:
    """The first `per_sex` names of each sex (all when None); `names` comes ranked, most persistent
    first (`biascheck.data.norwegian.top_names`)."""
    if per_sex is None:
        return names
    return names.groupby("sex", sort=False).head(per_sex)


def load(refdata: ReferenceData, settings: ProbeSettings) -> Reference:
    gold = gold_table(norwegian.occupations_with_templates(refdata), settings.subsets)
    names = names_per_sex(norwegian.top_names(refdata, n=TOP_NAMES), settings.names)
    return Reference(gold, settings.subsets, names)
