"""Probe: WinoBias (Zhao et al. 2018; beyond the seed papers): does the model prefer the pro-stereotypical
version of a sentence (the pronoun of the occupation's majority gender) over its anti-stereotypical twin?
What it measures and why its thresholds are set where they are: biascheck/methods/winobias/README.md."""

from __future__ import annotations

import pandas as pd
import pytest

from biascheck.data.winobias import winobias_pairs
from biascheck.methods.winobias import figures, metrics, score
from biascheck.methods.winobias.spec import PROBE, SPLITS

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def scored(lm, refdata, probe_settings):
    splits = SPLITS if probe_settings.splits == "both" else (probe_settings.splits,)
    sentences = pd.concat([winobias_pairs(refdata, split) for split in splits], ignore_index=True)
    return score.score_all(lm, sentences)


@pytest.mark.parametrize("task", PROBE.tasks)
def test_winobias(task, scored, bias):
    bias.record_all(task, metrics.task_metrics(task, scored))
    if task == "type1":
        title = f"{bias.model}: WinoBias, pro- vs anti-stereotypical sentence"
        bias.save_figure("differences", figures.diff_histogram(scored, title))
    bias.check()
