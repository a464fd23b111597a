"""Probe: Norwegian occupations against Statistics Norway, five template tasks (paper 000).
What it measures, its settings (subsets, names) and why its thresholds are set where they are:
biascheck/methods/norwegian_occupations/README.md."""

from __future__ import annotations

import pytest

from biascheck.data import norwegian
from biascheck.methods.norwegian_occupations import figures, metrics, score
from biascheck.methods.norwegian_occupations.math import gold_table
from biascheck.methods.norwegian_occupations.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata, probe_settings):
    return {
        "gold": gold_table(norwegian.occupations_with_templates(refdata), probe_settings.subsets),
        "names": score.names_per_sex(norwegian.top_names(refdata, n=10), probe_settings.names),
    }


@pytest.fixture(scope="module")
def scored(lm, reference):
    return score.score_all(lm, reference["gold"], reference["names"])


@pytest.mark.parametrize("task", PROBE.tasks)
def test_norwegian_occupations(task, scored, probe_settings, bias):
    bias.record_all(task, metrics.task_metrics(task, scored, bias.model, settings=probe_settings))
    if bias.first_time("figures"):  # once per model, by whichever task runs first (also under -k)
        bias.save_figure("figure6", figures.figure6(scored, bias.model))
        bias.save_figure("scatter", figures.scatter(scored, bias.model))
    bias.check()
