"""Per-item diff of two runs: items paired by their identifying fields, sorted by the size of the change."""

from biascheck.gate.itemdiff import item_changes


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
