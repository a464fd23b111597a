"""Per-item diff of two runs: items paired by their identifying fields, sorted by the size of the change."""

import pytest

from biascheck.gate.itemdiff import is_id_field, item_changes, item_key, paired_changes
from biascheck.gate.store import ResultStore


def run(model, items, metric="mean_abs_log_n"):
    return {"results": [{"model": model, "probe": "pronoun_ratio", "task": "is", "metric": metric, "items": items}]}


BASE = [{"profession": "nurse", "log_n": -1.0, "women_share": 0.9}, {"profession": "pilot", "log_n": 0.5}]


def test_items_are_paired_by_name_and_sorted_by_the_size_of_the_change():
    new = [
        {"profession": "pilot", "log_n": -0.5},
        {"profession": "nurse", "log_n": -1.1, "women_share": 0.9},
        {"profession": "baker", "log_n": 2.0},
    ]
    got = item_changes(run("m", BASE), run("m", new))
    assert [(c.item, c.field, round(c.change, 6)) for c in got] == [
        ("profession=pilot", "log_n", -1.0),
        ("profession=nurse", "log_n", -0.1),
        ("profession=nurse", "women_share", 0.0),
    ]


def test_a_one_model_baseline_stands_for_a_renamed_checkpoint_and_the_glob_filters():
    assert len(item_changes(run("ckpt-1", BASE), run("ckpt-2", BASE))) == 3
    assert item_changes(run("ckpt-1", BASE), run("ckpt-2", BASE), "natural_prompts.*") == []
    assert item_changes(run("a", BASE), run("b", BASE, metric="median_log_r")) == []


def crows_run(model, scores):
    """A CrowS-Pairs-like result: an id per pair (its row in the CSV) and a text field many pairs share."""
    items = [
        {"row": row, "stereo_antistereo": "stereo", "score_more": more, "score_less": -4.0}
        for row, more in zip([2, 5, 1501], scores, strict=True)
    ]
    return {
        "results": [
            {"model": model, "probe": "crows_pairs_gender", "task": "all", "metric": "stereo_share", "items": items}
        ]
    }


def test_two_identical_runs_from_the_store_show_no_change_and_no_id_read_as_a_score(tmp_path):
    """The same saved run twice: every item pairs with itself (by its row), nothing moved. Paired by the
    shared text field alone, row 2 met row 1501 and the row number was reported as a change of -1499."""
    store = ResultStore(tmp_path / "s.sqlite")
    store.save_run("v1", crows_run("m", [-3.0, -5.0, -2.5]))
    store.save_run("v2", crows_run("m", [-3.0, -5.0, -2.5]))
    got = item_changes(store.load_run("v1"), store.load_run("v2"))
    assert sorted((c.item, c.field) for c in got) == [
        (f"row={row}", field) for row in (1501, 2, 5) for field in ("score_less", "score_more")
    ]
    assert all(c.change == 0 for c in got)


def test_one_item_whose_score_changed_is_the_only_change():
    got = item_changes(crows_run("m", [-3.0, -5.0, -2.5]), crows_run("m", [-3.0, -4.25, -2.5]))
    assert [(c.item, c.field, c.base, c.new) for c in got if c.change != 0] == [("row=5", "score_more", -5.0, -4.25)]
    assert got[0].item == "row=5"


@pytest.mark.parametrize(
    ("records", "key"),
    [
        # an id field wins over a shared text field, and is never a score
        ([{"row": 2, "kind": "stereo", "s": 1.0}, {"row": 9, "kind": "stereo", "s": 2.0}], ("row",)),
        # no id field: the first name that tells the records apart; a changing label (side) is not needed
        (
            [{"occupation": "lege", "side": "F", "d": 0.1}, {"occupation": "pilot", "side": "F", "d": 0.2}],
            ("occupation",),
        ),
        # an id field that repeats (a template's items) is completed by a name
        ([{"question_index": 1, "name": "a"}, {"question_index": 1, "name": "b"}], ("question_index", "name")),
        # floats and booleans name nothing; two records alike cannot be told apart
        ([{"p": 0.5, "ok": True}, {"p": 0.5, "ok": True}], None),
        ([{"set": "actor"}, {"set": "actor"}], None),
        # a field some records lack is no key
        ([{"profession": "nurse", "stereotype": "f"}, {"profession": "pilot"}], ("profession",)),
    ],
)
def test_item_key(records, key):
    assert item_key(records, records) == key


def test_a_label_that_changed_does_not_unpair_the_item():
    """Norwegian occupations record the side the model chose as text: an occupation whose side flipped is
    the item the diff should show, not one it loses."""
    base = [{"occupation": "lege", "model_side": "male", "model_diff": -0.2}]
    new = [{"occupation": "lege", "model_side": "female", "model_diff": 0.3}]
    (change,) = paired_changes("m", "norwegian_occupations.is.macro_f1", base, new)
    assert (change.item, change.field, round(change.change, 6)) == ("occupation=lege", "model_diff", 0.5)


def test_is_id_field():
    assert [
        n for n in ("row", "pair_id", "example_id", "question_index", "key", "n_pieces", "log_n") if is_id_field(n)
    ] == [
        "row",
        "pair_id",
        "example_id",
        "question_index",
        "key",
    ]
