import pandas as pd
import pytest

from biascheck.data import professions_en


def test_923_professions_with_articles(real_refdata):
    frame = professions_en.professions_923(real_refdata)
    assert len(frame) == 923 and frame["profession"].is_unique
    assert set(frame["article"]) == {"a", "an"}
    assert frame.iloc[0].tolist() == ["legislator", "a"]


def test_60_stereotyped_split_30_30(real_refdata):
    frame = professions_en.stereotyped_60(real_refdata)
    assert frame["stereotype"].value_counts().to_dict() == {"female": 30, "male": 30}
    assert frame.set_index("profession").loc[["nurse", "carpenter"], "stereotype"].tolist() == ["female", "male"]


def test_bls_share_is_the_employment_weighted_mean_of_the_rows_a_word_labels(real_refdata):
    raw = pd.read_csv(real_refdata.path("bls2015"))
    labels = raw[[f"label{i}" for i in range(1, 6)]]
    rows = raw[labels.eq("mechanic").any(axis=1)]
    by_hand = (rows["Women"] * rows["TotalEmployed"]).sum() / rows["TotalEmployed"].sum() / 100
    shares = professions_en.bls_women_share(real_refdata).set_index("profession")
    assert len(rows) > 1  # a word shared by several BLS rows: the interesting case
    assert shares.loc["mechanic", "women_share"] == pytest.approx(by_hand)
    assert shares.loc["mechanic", "rows"] == len(rows)
    assert shares["women_share"].between(0, 1).all()


def test_bls_covers_99_of_the_923_professions(real_refdata):
    covered = set(professions_en.bls_women_share(real_refdata)["profession"])
    assert len(covered & set(professions_en.professions_923(real_refdata)["profession"])) == 99
