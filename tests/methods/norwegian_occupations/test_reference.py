"""The probe's reference: the names setting on hand-made rows; on the mirror, the gold table under the run's
subset rule, and its names."""

from __future__ import annotations

import pandas as pd

from biascheck.methods.norwegian_occupations.reference import load, names_per_sex
from biascheck.methods.norwegian_occupations.spec import BALANCED, PROBE
from biascheck.settings import settings_of


def test_load_follows_the_subset_rule_and_the_names_setting(real_refdata):
    paper = load(real_refdata, settings_of(PROBE))
    assert paper.subsets == "paper" and len(paper.gold) == 417
    assert (paper.gold["subset"] == BALANCED).sum() == 49
    assert paper.names.groupby("sex").size().to_dict() == {"female": 5, "male": 5}  # the default: 5 per sex
    share = load(real_refdata, settings_of(PROBE, subsets="share", names=2))
    assert share.subsets == "share" and (share.gold["subset"] == BALANCED).sum() == 46
    assert share.names["name"].tolist() == paper.names.groupby("sex", sort=False).head(2)["name"].tolist()
    assert len(load(real_refdata, settings_of(PROBE, names="all")).names) == 87 + 65


def test_names_per_sex_keeps_the_first_of_each_sex_in_order():
    names = pd.DataFrame(
        {"name": ["Anne", "Ole", "Anna", "Arne", "Ingrid"], "sex": ["female", "male"] * 2 + ["female"]}
    )
    assert names_per_sex(names, 2)["name"].tolist() == ["Anne", "Ole", "Anna", "Arne"]
    assert names_per_sex(names, 1)["name"].tolist() == ["Anne", "Ole"]
    assert names_per_sex(names, None) is names
