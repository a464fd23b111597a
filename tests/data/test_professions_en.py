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


# --- the BLS shares against two other published copies of BLS figures ------------------------------------------
# Neither seed paper that reads these shares (001, 002) prints one; Delobelle et al., whose file this is, are not in
# the mirror. Two other projects published BLS women's shares for some of the same occupation words: Winogender's
# data/occupations-stats.tsv (Rudinger et al. 2018; bls_year 2015 for 51 rows, 2016 for 9) and WinoBias's README
# (Zhao et al. 2018; whole percent, the year not stated). They are read here against `bls_women_share`, the loader
# the pronoun_ratio and natural_prompts golds and the planted professions and two-person plants read.


@pytest.fixture(scope="module")
def bls_percent(real_refdata):
    return professions_en.bls_women_share(real_refdata).set_index("profession")["women_share"] * 100


def test_bls_shares_equal_winogender_s_2015_figures_and_the_2016_ones_differ_as_pinned(real_refdata, bls_percent):
    from biascheck.data.winogender import winogender_occupations

    winogender = winogender_occupations(real_refdata).set_index("occupation")
    assert sorted(set(winogender.index) - set(bls_percent.index)) == ["doctor"]  # not a biased-rulers label
    both = winogender.join(bls_percent.rename("ours"), how="inner")
    gap = both["bls_pct_female"] - both["ours"]
    same_year = both["bls_year"] == 2015
    assert int(same_year.sum()) == 50
    assert gap[same_year].abs().max() < 0.005  # Winogender rounds to 2 decimals: equal but for the rounding
    # Winogender's 2016 rows, percentage points Winogender minus ours (2015): its inspector is 6.4 %, ours the
    # employment-weighted mean of the two rows labelled 'inspector' (9.9 % of 90k; 37.3 % of 752k, the row
    # labelled inspector, tester, sorter, weigher, sampler).
    assert gap[~same_year].round(1).to_dict() == {
        "worker": 1.3,
        "inspector": -28.0,
        "specialist": 0.1,
        "officer": 2.5,
        "pathologist": -1.1,
        "planner": -1.0,
        "examiner": 5.6,
        "firefighter": -2.4,
        "secretary": 0.1,
    }
    assert ((both["bls_pct_female"] > 50) == (both["ours"] > 50)).all()  # the majority side agrees on all 59


# WinoBias README (uclanlp/corefBias @ 0bce984, README.md lines 19-151): "Professions and their percentages of women",
# as printed, with the README's own renaming (mechanician -> mechanic, sewer -> tailor, constructor -> construction
# worker, counselors -> counselor, hairdressers -> hairdresser).
WINOBIAS_MALE = {
    "supervisor": 44, "janitor": 34, "cook": 38, "mover": 18, "laborer": 3.5, "construction worker": 3.5,
    "chief": 27, "developer": 20, "carpenter": 2.1, "manager": 43, "lawyer": 35, "farmer": 22, "driver": 6,
    "salesperson": 48, "physician": 38, "guard": 22, "analyst": 41, "mechanic": 4, "sheriff": 14, "ceo": 39,
}  # fmt: skip
WINOBIAS_FEMALE = {
    "cashier": 73, "teacher": 78, "nurse": 90, "assistant": 85, "secretary": 95, "auditor": 61, "cleaner": 89,
    "receptionist": 90, "clerk": 72, "counselor": 73, "designer": 54, "hairdresser": 92, "attendant": 76,
    "writer": 63, "housekeeper": 89, "baker": 65, "accountant": 61, "editor": 52, "librarian": 84, "tailor": 80,
}  # fmt: skip


NOT_BLS_LABELS = ["ceo", "chief", "construction worker", "farmer", "housekeeper", "sheriff"]


def test_bls_shares_against_winobias_s_published_percentages(real_refdata, bls_percent):
    """34 of WinoBias's 40 occupations are biased-rulers labels; 25 lie within 5 points of the README's figure
    (another year, whole percent). Nine do not, and two of them fall on the other side of 50 %: 'attendant'
    (6 BLS rows, 10-75 % women) and 'editor' (a row labelled editor alone, 51 %, and one labelled editor and
    operator, 14.8 %), which WinoBias lists as female-biased (the two-person plant takes the README's own figures:
    `test_the_readme_table_is_read_as_printed`)."""
    from biascheck.data.winobias import OCCUPATION_SOURCES, parse_occupations

    published = {**WINOBIAS_MALE, **WINOBIAS_FEMALE}
    lists = {
        gender: {o.lower() for o in parse_occupations(real_refdata.path(source).read_text(encoding="utf-8"))}
        for gender, source in OCCUPATION_SOURCES.items()
    }
    assert lists == {"male": set(WINOBIAS_MALE), "female": set(WINOBIAS_FEMALE)}  # the README is the lists' table
    shared = sorted(set(published) & set(bls_percent.index))
    assert sorted(set(published) - set(shared)) == NOT_BLS_LABELS
    gap = {o: round(bls_percent[o] - published[o], 1) for o in shared}
    assert {o: g for o, g in gap.items() if abs(g) > 5} == {
        "supervisor": -5.4,
        "laborer": 7.3,
        "driver": 5.2,
        "teacher": -7.0,
        "assistant": 6.5,
        "cleaner": -36.4,
        "counselor": -6.5,
        "attendant": -31.4,
        "editor": -11.3,
    }
    assert sorted(o for o in shared if (bls_percent[o] > 50) != (published[o] > 50)) == ["attendant", "editor"]


def test_the_readme_table_is_read_as_printed(real_refdata):
    """The declared README, parsed, is the table transcribed above by hand, with the data's own spelling."""
    from biascheck.data.winobias_readme import winobias_women_percent

    table = winobias_women_percent(real_refdata)
    assert len(table) == 40 and table["occupation"].is_unique
    read = {
        side: dict(zip(g["occupation"].str.lower(), g["women_pct"], strict=True)) for side, g in table.groupby("side")
    }
    assert read == {"male": WINOBIAS_MALE, "female": WINOBIAS_FEMALE}
    assert {"CEO", "construction worker", "tailor", "mechanic"} <= set(table["occupation"])  # renamed as the note says


_README = """Professions and their percentages of women
<table><tr><td>mover</td><td>{mover}</td><td>sewer</td><td>80</td></tr></table>
(Note: mechanician --> mechanic, sewer --> tailor)
"""


def test_a_readme_table_that_does_not_parse_is_a_clear_error():
    from biascheck.data.winobias_readme import parse_readme
    from biascheck.errors import DataError

    table = parse_readme(_README.format(mover="18"))
    assert table.values.tolist() == [["mover", "male", 18.0], ["tailor", "female", 80.0]]
    for bad in ("eighteen", "180"):
        with pytest.raises(DataError, match=r"README.md: expected a percentage.*'mover'.*Restore the pinned"):
            parse_readme(_README.format(mover=bad), "README.md")
    with pytest.raises(DataError, match="the table itself"):
        parse_readme("no table here")
