"""singular_they's `Metric` records per task: names and order, intervals, notes, items, paper values."""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from biascheck.data.they_ratings import RATING_COLUMNS
from biascheck.methods.singular_they import math as m
from biascheck.methods.singular_they import metrics
from biascheck.methods.singular_they.reference import Reference
from biascheck.methods.singular_they.spec import ALL_CONDITIONS, PAPER_BETA, PAPER_GROUPS, PROBE
from biascheck.settings import settings_of

from .common import HUMANLIKE, STIM

SETTINGS = settings_of(PROBE)
RNG = np.random.default_rng(5)
SCORED = m.TheyScores(
    STIM.assign(surprisal=[HUMANLIKE[c] + RNG.normal(0, 0.3) for c in STIM["condition"]]), "causal-next"
)


def task_metrics(task, scored, ratings=None, ratings_file=None):
    return metrics.task_metrics(task, scored, Reference(STIM, ratings, ratings_file), SETTINGS)


def test_antecedents_in_paper_order_with_the_checks_in_note_and_items():
    got = task_metrics("antecedents", SCORED)
    names = [x.name for x in got]
    assert names == [
        *(f"surprisal_{c}" for c in ALL_CONDITIONS),
        "specific_minus_quantified",
        "inanimate_minus_specific",
        "pattern_checks",
    ]
    assert {x.estimator for x in got} == {"causal-next"}
    table = m.by_condition(SCORED.frame).set_index("condition")
    plural = got[names.index("surprisal_plural")]
    assert plural.value == table.loc["plural", "mean"] and plural.n == 40
    assert plural.ci == (table.loc["plural", "ci_low"], table.loc["plural", "ci_high"])
    checks = got[-1]
    fit = m.closeness_gender(SCORED.frame)
    expected = m.pattern_checks(dict(table["mean"]), fit)
    assert checks.value == sum(expected.values()) / 4 and checks.n == 4 and checks.ci is None
    assert checks.items == [{"check": k, "passed": v} for k, v in expected.items()]
    assert checks.note.startswith("plural_and_quantified_easiest: yes; inanimate_hardest: yes; close_harder: ")
    assert checks.note.endswith(" (regression checks need p < 0.05)")


def test_closeness_gender_wald_intervals_and_paper_values():
    got = task_metrics("closeness_gender", SCORED)
    assert [x.name for x in got] == ["beta_close", "p_close", "beta_gendered", "p_gendered"]
    fit = m.closeness_gender(SCORED.frame)
    beta = got[0]
    # SCORED is causal-next: the paper's masked-slot BERT figures are not on the same scale, so none is shown
    assert beta.value == fit["beta_close"] and beta.n == 160 and beta.paper_value is None
    assert beta.ci == (fit["beta_close"] - 1.96 * fit["se_close"], fit["beta_close"] + 1.96 * fit["se_close"])
    assert beta.note == (
        f"{metrics.REGRESSION}; converged: {bool(fit['converged'])}; no paper value: the paper's BERT figures are "
        "masked-slot surprisals, not comparable with causal-next"
    )
    assert "sum coding" in metrics.REGRESSION
    masked = task_metrics("closeness_gender", m.TheyScores(SCORED.frame, "mlm-slot"))
    assert masked[0].paper_value == PAPER_BETA["close"] and masked[2].paper_value == PAPER_BETA["gendered"]
    assert got[3].value == fit["p_gendered"] and got[3].note == "" and got[3].paper_value is None
    assert {x.estimator for x in got} == {"causal-next"}


def test_human_ratings_absent_is_one_empty_r_all():
    (got,) = task_metrics("human_ratings", SCORED)
    assert got.name == "r_all" and math.isnan(got.value) and got.n is None and got.ci is None
    assert got.note == (
        "no human ratings given: Camilliere et al.'s ratings are not public; set BIASCHECK_THEY_RATINGS=ratings.csv"
    )
    assert got.estimator == "causal-next"


def test_human_ratings_per_group_then_all():
    rows = [(r.item, r.condition, "innovators", 10 - r.surprisal) for r in SCORED.frame.itertuples()]
    ratings = pd.DataFrame(rows, columns=list(RATING_COLUMNS))
    got = task_metrics("human_ratings", SCORED, ratings, Path("/data/r.csv"))
    assert [x.name for x in got] == ["r_innovators", "r_all"]
    assert got[0].value == pytest.approx(-1.0) and got[0].n == 335
    assert got[0].paper_value is None  # causal-next: the paper's masked-slot correlations are not comparable
    assert got[0].note.startswith("p = ") and "; ratings: /data/r.csv; no paper value" in got[0].note
    masked = task_metrics("human_ratings", m.TheyScores(SCORED.frame, "mlm-slot"), ratings, Path("/data/r.csv"))
    assert masked[0].paper_value == PAPER_GROUPS["innovators"] and masked[1].paper_value is None


def test_unknown_task():
    with pytest.raises(ValueError, match="unknown task"):
        task_metrics("antecedent", SCORED)


def test_the_mixed_model_is_fitted_once_for_both_tasks_that_read_it(monkeypatch):
    calls = []
    real = m.closeness_gender
    monkeypatch.setattr(m, "closeness_gender", lambda frame: calls.append(1) or real(frame))
    scored = m.TheyScores(SCORED.frame, "causal-next")
    task_metrics("antecedents", scored)
    task_metrics("closeness_gender", scored)
    assert len(calls) == 1
