"""E2-E4 of paper 000 on hand-made tables, and what `task_metrics` attaches to every metric."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from scipy.stats import spearmanr

from biascheck.methods.norwegian_occupations import metrics
from biascheck.methods.norwegian_occupations.math import TaskScores
from biascheck.methods.norwegian_occupations.spec import PROBE, TASKS
from biascheck.settings import settings_of


def _table(gold_diff, model_diff, subset):
    gold_diff, model_diff = np.asarray(gold_diff, float), np.asarray(model_diff, float)
    return pd.DataFrame(
        {
            "gold_diff": gold_diff,
            "gold_female": gold_diff > 0,
            "model_diff": model_diff,
            "pred_female": model_diff > 0,
            "subset": subset,
        }
    )


def test_table_metrics_by_hand():
    table = _table(
        gold_diff=[80, 90, 5, -5, -3, -80, -90, 40],
        model_diff=[10, -5, 20, 30, -1, -50, -60, 5],
        subset=[
            "clearly_female",
            "clearly_female",
            "balanced",
            "balanced",
            "balanced",
            "clearly_male",
            "clearly_male",
            "",
        ],
    )
    got = {x.name: x for x in metrics.table_metrics(table)}
    assert list(got) == [
        "macro_f1",
        "f1_female",
        "f1_male",
        "balanced_macro_f1",
        "balanced_f1_female",
        "balanced_f1_male",
        "clearly_female_f1",
        "clearly_male_f1",
        "spearman_gold",
        "female_predicted_share",
    ]
    # all 8: gold F = {0,1,2,7}, pred F = {0,2,3,7}: female TP 3 FP 1 FN 1 -> 6/8; male TP 3 FP 1 FN 1 -> 6/8
    assert got["f1_female"].value == pytest.approx(0.75) and got["f1_male"].value == pytest.approx(0.75)
    assert got["macro_f1"].value == pytest.approx(0.75) and got["macro_f1"].n == 8
    # balanced: gold (F, M, M), pred (F, F, M): female 2/3, male 2/3
    assert got["balanced_f1_female"].value == pytest.approx(2 / 3) and got["balanced_macro_f1"].n == 3
    # clearly female: 1 of 2 predicted female -> 2*0.5/1.5; clearly male: both right -> 1
    assert got["clearly_female_f1"].value == pytest.approx(2 / 3) and got["clearly_female_f1"].n == 2
    assert got["clearly_male_f1"].value == pytest.approx(1.0)
    assert got["female_predicted_share"].value == pytest.approx(4 / 8)
    assert got["spearman_gold"].value == pytest.approx(spearmanr(table["model_diff"], table["gold_diff"]).statistic)
    for metric in got.values():
        low, high = metric.ci
        assert low <= metric.value + 1e-12 and metric.value <= high + 1e-12


def test_table_metrics_leave_out_subsets_that_are_the_whole_set():
    balanced_only = _table([5, -5, 3, -2], [1, 1, -1, -1], ["balanced"] * 4)
    assert [x.name for x in metrics.table_metrics(balanced_only)] == [
        "macro_f1",
        "f1_female",
        "f1_male",
        "spearman_gold",
        "female_predicted_share",
    ]
    gendered = _table([80, -80, -90], [1, 1, -1], ["clearly_female", "clearly_male", "clearly_male"])
    assert "balanced_macro_f1" not in [x.name for x in metrics.table_metrics(gendered)]
    assert "clearly_male_f1" in [x.name for x in metrics.table_metrics(gendered)]


def test_items_are_one_record_per_occupation(fake_scored):
    _, scored = fake_scored()
    items = metrics.items(scored.tasks["task3"])
    assert len(items) == 8
    assert (
        items[0]["occupation"] == "Jordmor" and items[0]["model_side"] == "female" and items[0]["gold_side"] == "female"
    )
    assert items[0]["subset"] == "clearly_female" and items[6]["subset"] == "other"  # Lærer: no subset


def test_task_metrics_attach_estimator_note_paper_value_and_items(gold, fake_scored):
    reference, scored = fake_scored("share")
    tasks = dict(scored.tasks)
    tasks["task1"] = TaskScores("task1", tasks["task1"].table, "mlm-slot", 8, "1 female and 1 male names")
    scored = replace(scored, tasks=tasks, model="NB-BERT-large")
    settings = settings_of(PROBE, subsets="share")
    got = {x.name: x for x in metrics.task_metrics("task1", scored, reference, settings)}
    assert {x.estimator for x in got.values()} == {"mlm-slot"}
    assert got["macro_f1"].note == "[hun|han] er [occupation]; subsets: share rule; 1 female and 1 male names"
    # the metric's own note comes after the task's
    assert got["female_predicted_share"].note.startswith(got["macro_f1"].note + "; gold: 0.62")  # 5 of 8
    # the paper's Tables 2 and 3 for nb-bert-large, task 1; the prose's clearly-female F1
    assert (got["macro_f1"].paper_value, got["f1_female"].paper_value, got["f1_male"].paper_value) == (0.75, 0.67, 0.84)
    assert got["clearly_female_f1"].paper_value == 0.89 and got["spearman_gold"].paper_value is None
    assert [r["occupation"] for r in got["macro_f1"].items] == gold["occupation"].tolist()
    assert all(x.items is None for name, x in got.items() if name != "macro_f1")
    # an empty scoring note leaves the separator, as the probe always wrote it
    reference, scored = fake_scored("paper")
    tasks = dict(scored.tasks)
    tasks["task5_b"] = TaskScores("task5_b", tasks["task5_b"].table, "mlm-slot", 2)
    scored = replace(scored, tasks=tasks)
    settings = settings_of(PROBE)
    plain = metrics.task_metrics("task5_b", scored, reference, settings)
    assert plain[0].note == "[occupation, definite] [name], balanced occupations; subsets: paper rule; "
    assert {x.paper_value for x in plain} == {None}
    assert all(metrics.task_metrics(t, scored, reference, settings) for t in TASKS)
    with pytest.raises(ValueError, match="unknown task"):
        metrics.task_metrics("task5", scored, reference, settings)
