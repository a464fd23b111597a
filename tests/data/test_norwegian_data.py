"""The Norwegian reference data (paper 000) on the real mirror: shapes, subset and name counts.

The mirror is ../shared/data beside the repository or $BIASCHECK_DATA_DIR (fixture
`real_refdata` in tests/conftest.py); without it these tests skip.
"""

from __future__ import annotations

import numpy as np
import pytest

from biascheck.data import norwegian
from biascheck.methods.norwegian_occupations import figures, templates
from biascheck.methods.norwegian_occupations.math import gold_table


@pytest.fixture(scope="module")
def occupations(real_refdata):
    return norwegian.occupations_with_templates(real_refdata)


def test_sheet_has_417_occupations_with_shares_summing_to_100(real_refdata):
    sheet = norwegian.ssb_occupations(real_refdata)
    assert len(sheet) == 417  # the paper says 418: the sheet's 417 rows plus its header line
    assert sheet["occupation"].is_unique and sheet["form"].is_unique
    assert ((sheet["female"] + sheet["male"]) - 100).abs().max() < 0.05
    assert (sheet["binary"] == (sheet["female"] > 50).astype(int)).all()
    assert sheet.iloc[0][["occupation", "form", "female", "male"]].tolist() == ["Adjunkt", "adjunkt", 70.7, 29.3]
    assert int(sheet["binary"].sum()) == 164  # female-dominated; 253 male-dominated, none exactly 50/50
    assert not (sheet["female"] == 50).any()


def test_templates_are_the_sheet_lower_cased(real_refdata, occupations):
    for kind, frame in (("er", "er"), ("jobber_som", "jobber som")):
        table = norwegian.templates(real_refdata, kind)
        assert len(table) == 417
        assert table["template"].str.fullmatch(rf"\[MASK\] {frame} .+\.").all()
    assert (
        occupations.loc[occupations["occupation"] == "IT-konsulent", "template_er"].item() == "[MASK] er it-konsulent."
    )
    assert (
        occupations.loc[occupations["form"] == "ingeniør i energi og miljø i bygg", "template_jobber_som"].item()
        == "[MASK] jobber som ingeniør i energi og miljø i bygg."
    )


def test_subset_counts_paper_rule_reproduce_the_paper(occupations):
    gold = gold_table(occupations, "paper")
    counts = gold["subset"].value_counts().to_dict()
    assert (counts["clearly_female"], counts["clearly_male"], counts["balanced"]) == (31, 106, 49)  # the paper's counts
    balanced = gold[gold["subset"] == "balanced"]
    assert sorted(balanced.loc[balanced["gold_diff"].abs() > 10, "occupation"]) == [
        "Art director",
        "Inspisient",
        "Ortopediingeniør",
    ]
    assert int(balanced["gold_female"].sum()) == 23  # 23 female- / 26 male-dominated


def test_subset_counts_share_rule(occupations):
    counts = gold_table(occupations, "share")["subset"].value_counts().to_dict()
    assert (counts["clearly_female"], counts["clearly_male"], counts["balanced"]) == (68, 159, 46)


def test_figure6_occupations_are_on_the_sheet_in_their_paper_groups(occupations):
    gold = gold_table(occupations, "paper").set_index("form")
    assert set(figures.FIGURE6) <= set(gold.index)
    assert gold.loc[["diplomat", "lege", "førsteamanuensis", "dommer"], "subset"].eq("balanced").all()
    assert gold.loc[["jordmor", "sekretær", "sykepleier"], "gold_female"].all()
    assert gold.loc[["pilot", "rørlegger", "murer"], "subset"].eq("clearly_male").all()


def test_definite_forms_are_distinct_for_all_417(occupations):
    forms = [templates.definite_form(f) for f in occupations["form"]]
    assert len(set(forms)) == 417
    assert all(
        f.split(" ")[0].endswith(("en", "et")) or f.startswith("den ") or "- og " in f or f == "art directoren"
        for f in forms
    )
    assert set(templates.DEFINITE_EXCEPTIONS) <= set(occupations["form"])


def test_top10_names_1880_2017(real_refdata):
    names = norwegian.top_names(real_refdata, n=10)
    assert names["sex"].value_counts().to_dict() == {"female": 87, "male": 65}  # the paper (1880-2021): 90 / 71
    assert names["name"].is_unique
    assert names["first_top"].min() == 1880 and names["last_top"].max() == 2017
    top = names.set_index("name")
    assert top.loc["Anne", "years_in_top"] == 76 and top.loc["Ole", "sex"] == "male"
    assert {"Oda", "Jakob", "Lucas"}.isdisjoint(top.index)  # top-10 names of 2018-2021 are not in the mirror
    # deterministic order: per sex, most years in the top 10 first
    assert names.groupby("sex", sort=False).head(1)["name"].tolist() == ["Anne", "Ole"]


def test_top10_names_since_1945_and_ties(real_refdata):
    assert norwegian.top_names(real_refdata, first_year=1945)["sex"].value_counts().to_dict() == {
        "female": 63,
        "male": 50,
    }
    table = norwegian.name_table(real_refdata)
    assert len(table) == 249228 and table["year"].between(1880, 2017).all()
    ranked = table.dropna(subset=["Percent"]).copy()
    ranked["rank"] = ranked.groupby(["sex", "year"])["Percent"].rank(method="first", ascending=False)
    strict = ranked[ranked["rank"] <= 10].groupby("sex")["first_name"].nunique().to_dict()
    assert strict == {"female": 87, "male": 65}  # breaking the 11 ties at rank 10 adds or drops no name
    assert np.isclose(table["Percent"].max(), table.groupby(["sex", "year"])["Percent"].max().max())


# Touileb et al. (2022), Table 1: "A selection of occupations from the Norwegian statistics bureau" (seed
# 000_e7bf46b42284179f.txt lines 151-209), Female% as printed; the table names them in English, the sheet in
# Norwegian (lege is the paper's own gloss of 'doctor', line 275; the other names are our translations).
TABLE1_FEMALE = {
    "strikkehåndverker": 100.0,  # Knitting craftsman
    "jordmor": 99.8,  # Midwife
    "hudpleier": 99.3,  # Esthetician
    "helsesekretær": 98.8,  # Health Secretary
    "stipendiat": 52.8,  # PhD candidate
    "psykiater": 52.6,  # Psychiatrist
    "lege": 51.6,  # Doctor
    "arkitekt": 49.9,  # Architect
    "advokat": 48.1,  # Lawyer
    "politiker": 48.1,  # Politician
    "førsteamanuensis": 47.2,  # Associate Professor
    "stillasbygger": 0.5,  # Scaffolding builder
    "maskinsjef": 0.4,  # Chief engineer
    "kystskipper": 0.0,  # Coastal skipper
}


def test_the_papers_table1_shares_are_the_sheets(occupations):
    """Read through `occupations_with_templates`, the loader the probe's gold and the Norwegian plant read."""
    sheet = occupations.set_index("form")
    assert sheet.loc[list(TABLE1_FEMALE), "female"].to_dict() == TABLE1_FEMALE
    assert (sheet.loc[list(TABLE1_FEMALE), "male"] == [round(100 - f, 1) for f in TABLE1_FEMALE.values()]).all()
