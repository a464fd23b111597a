"""Our singular-they stimuli (paper 004, section 4.1, Table 3, appendix B.1): the design."""

from biascheck.methods.singular_they import stimuli as ts
from biascheck.methods.singular_they.spec import CONDITIONS
from biascheck.spec import SLOT

STIM = ts.they_stimuli()


def test_design_335_items_40_per_condition_15_controls():
    assert len(STIM) == 335
    counts = STIM["condition"].value_counts().to_dict()
    assert counts == {**{c: 40 for c in CONDITIONS}, "inanimate": 15}
    critical = STIM[STIM["condition"] != "inanimate"]
    per_frame = critical.groupby("item")["pronoun"].first().value_counts().to_dict()
    assert per_frame == {"they": 10, "them": 10, "their": 10, "themselves": 10}
    assert (critical.groupby("item").size() == 8).all()


def test_names_come_from_the_papers_lists():
    assert len(ts.GENDERED_NAMES) == 40 and len(ts.NONGENDERED_NAMES) == 21
    assert set(STIM.loc[STIM["condition"] == "gendered_name", "antecedent"]) == set(ts.GENDERED_NAMES)
    assert set(STIM.loc[STIM["condition"] == "nongendered_name", "antecedent"]) == set(ts.NONGENDERED_NAMES)


def test_versions_of_a_frame_differ_only_in_the_antecedent():
    for _item, frame in STIM[STIM["condition"] != "inanimate"].groupby("item"):
        rests = {
            row.sentence.replace(row.antecedent[0].upper() + row.antecedent[1:], "NP", 1).replace(
                row.antecedent, "NP", 1
            )
            for row in frame.itertuples()
        }
        assert len(rests) == 1, rests
    f01 = STIM[STIM["item"] == "F01"].set_index("condition")["antecedent"]
    assert f01[["distant_nongendered", "quantified", "plural"]].tolist() == [
        "the dentist",
        "every dentist",
        "the dentists",
    ]


def test_template_and_prompt_locate_the_pronoun():
    for row in STIM.itertuples():
        assert row.template.count(SLOT) == 1
        assert row.template.replace(SLOT, row.pronoun) == row.sentence
        assert row.sentence.startswith(row.prompt + " " + row.pronoun + " ") or row.sentence.startswith(
            row.prompt + " " + row.pronoun
        )
        assert row.prompt.lower().find(row.antecedent.split()[-1].lower()) >= 0  # antecedent on the left
    assert STIM.iloc[0]["sentence"] == "Aaron said they would be coming late to dinner."
    assert STIM.iloc[0]["prompt"] == "Aaron said"


def test_closeness_gender_cells():
    cells = STIM.dropna(subset=["close"]).groupby("condition")[["close", "gendered"]].first()
    assert cells.loc["close_gendered"].tolist() == [1, 1] and cells.loc["distant_nongendered"].tolist() == [-1, -1]
    assert cells.loc["distant_gendered"].tolist() == [-1, 1] and cells.loc["close_nongendered"].tolist() == [1, -1]
    assert len(STIM.dropna(subset=["close"])) == 160
