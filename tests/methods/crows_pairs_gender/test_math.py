"""crows_pairs_gender math by hand, and a known answer: a scripted model that prefers every more stereotyping
sentence fails the gate; the same model without the preference passes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from biascheck.methods.crows_pairs_gender import metrics, score
from biascheck.methods.crows_pairs_gender.math import (
    causal_split,
    prefers_more,
    shared_positions,
    ties,
    unmodified_score,
)
from biascheck.methods.crows_pairs_gender.reference import load
from biascheck.methods.crows_pairs_gender.spec import PROBE
from biascheck.models.base import TokenTerms
from biascheck.settings import settings_of
from biascheck.testing import FakeLM
from biascheck.thresholds import load_profile

REPO = Path(__file__).resolve().parents[3]


def test_shared_positions_by_hand():
    # [CLS] the woman can't drive [SEP] vs [CLS] the man can drive well [SEP]
    a, b = shared_positions([0, 5, 7, 9, 10, 11, 1], [0, 5, 8, 9, 11, 12, 1])
    assert (a, b) == ([0, 1, 3, 5, 6], [0, 1, 3, 4, 6])


def test_unmodified_score_skips_the_first_and_last_shared_token():
    terms = np.array([np.nan, -1.0, -9.0, -2.0, -9.0, -3.0, np.nan])
    assert unmodified_score(terms, [0, 1, 3, 5, 6]) == -6.0
    with pytest.raises(ValueError, match="special token"):
        unmodified_score(terms, [1, 0, 3, 6])


def test_a_causal_difference_splits_into_its_unmodified_and_modified_tokens_by_hand():
    # "the woman drove badly" vs "the man drove badly": ids 5 7 9 10 vs 5 8 9 10; shared positions 0, 2, 3
    more, less = np.array([-1.0, -4.0, -2.0, -3.0]), np.array([-1.0, -3.5, -1.0, -2.5])
    unmodified, modified = causal_split([5, 7, 9, 10], more, [5, 8, 9, 10], less)
    assert unmodified == pytest.approx((-1 - 2 - 3) - (-1 - 1 - 2.5)) == -1.5  # the words after, given the group
    assert modified == pytest.approx(-4.0 - -3.5) == -0.5  # the group word itself
    assert unmodified + modified == pytest.approx(more.sum() - less.sum())


def test_outcomes_round_like_metric_py():
    more, less = np.array([-10.0004, -10.0, -9.0]), np.array([-10.0001, -11.0, -8.0])
    assert prefers_more(more, less, 3).tolist() == [0.0, 1.0, 0.0] and ties(more, less, 3).tolist() == [1.0, 0, 0]
    assert prefers_more(more, less).tolist() == [0.0, 1.0, 0.0] and ties(more, less).tolist() == [0, 0, 0]


class StereoLM(FakeLM):
    """FakeLM, plus `boost` nats on every token of the more stereotyping sentences."""

    def __init__(self, family, more: set[str], boost: float) -> None:
        super().__init__("stereo", family)
        self.more, self.boost = more, boost

    def token_logprobs(self, sentences):
        out = super().token_logprobs(sentences)
        boosts = [self.boost if s in self.more else 0.0 for s in sentences]
        return [TokenTerms(t.ids, t.logprob + b) for t, b in zip(out, boosts, strict=True)]

    def sentence_logprob(self, sentences):
        values, estimator = super().sentence_logprob(sentences)
        return values + np.array([self.boost * 20 if s in self.more else 0.0 for s in sentences]), estimator


@pytest.mark.parametrize("family", ["masked", "causal"])
@pytest.mark.parametrize(("boost", "red"), [(0.0, False), (5.0, True)])
def test_a_planted_preference_fails_the_gate(real_refdata, family, boost, red):
    from biascheck.catalog import PROBES

    settings = settings_of(PROBE)
    reference = load(real_refdata, settings)
    scored = score.score(StereoLM(family, set(reference.pairs["sent_more"]), boost), reference, settings)
    share = {m.name: m for m in metrics.task_metrics("all", scored, reference, settings)}["stereo_share"]
    limit = load_profile("default", [REPO / "thresholds"], PROBES).lookup("crows_pairs_gender", "all", "stereo_share")
    assert (not limit.min <= share.value <= limit.max) is red, share.value
    if red:
        assert share.value > 0.95
    assert share.n == 262 and share.ci[0] <= share.value <= share.ci[1]


def test_subsets_partition_the_pairs(real_refdata):
    settings = settings_of(PROBE)
    reference = load(real_refdata, settings)
    scored = score.score(FakeLM("f", "masked"), reference, settings)
    tasks = ("all", "stereo", "antistereo")
    got = {t: {m.name: m for m in metrics.task_metrics(t, scored, reference, settings)}["stereo_share"] for t in tasks}
    assert (got["stereo"].n, got["antistereo"].n, got["all"].n) == (159, 103, 262)
    weighted = (got["stereo"].value * 159 + got["antistereo"].value * 103) / 262
    assert got["all"].value == pytest.approx(weighted)
    with pytest.raises(ValueError, match="unknown task"):
        metrics.task_metrics("gender", scored, reference, settings)
