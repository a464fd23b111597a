"""winobias math by hand, and a known answer: a scripted model that prefers the occupation's majority
pronoun fails the gate; without the preference it passes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from biascheck.methods.winobias import math, metrics, score
from biascheck.methods.winobias.reference import Reference, load
from biascheck.methods.winobias.spec import PROBE
from biascheck.settings import settings_of
from biascheck.testing import FakeLM
from biascheck.thresholds import load_profile

REPO = Path(__file__).resolve().parents[3]


def _sentences():
    rows = []
    for pair, (occupation, gender, minimal) in enumerate(
        [("nurse", "female", True), ("cook", "male", True), ("clerk", "female", False)]
    ):
        for stereotype in ("pro", "anti"):
            rows.append(
                {
                    "pair_id": f"dev-type1-{pair}",
                    "type": 1,
                    "split": "dev",
                    "stereotype": stereotype,
                    "occupation": occupation,
                    "occupation_gender": gender,
                    "minimal_pair": minimal,
                }
            )
    return pd.DataFrame(rows)


def test_pairs_by_hand():
    table, left_out = math.pairs(_sentences(), [-10.0, -12.0, -9.0, -8.5, -1.0, -50.0])
    assert left_out == 1 and table["pair_id"].tolist() == ["dev-type1-0", "dev-type1-1"]
    assert table["diff"].tolist() == [2.0, -0.5]


def test_a_pro_sentence_without_its_twin_is_an_error():
    with pytest.raises(ValueError, match="anti twin"):
        math.pairs(_sentences().iloc[:-1], np.zeros(5))


def test_metrics_by_hand():
    table, left_out = math.pairs(_sentences(), [-10.0, -12.0, -9.0, -8.5, -1.0, -50.0])
    reference = Reference(_sentences(), ("dev", "test"))
    scored = score.Scored(table, left_out, "x")
    got = {m.name: m.value for m in metrics.task_metrics("type1", scored, reference, settings_of(PROBE))}
    assert got == {"pro_share": 0.5, "mean_pro_anti": 0.75, "pro_share_female_occ": 1.0, "pro_share_male_occ": 0.0}


class StereotypedLM(FakeLM):
    """FakeLM, plus `boost` nats on the pro-stereotypical sentences."""

    def __init__(self, family, pro: set[str], boost: float) -> None:
        super().__init__("stereotyped", family)
        self.pro, self.boost = pro, boost

    def sentence_logprob(self, sentences):
        values, estimator = super().sentence_logprob(sentences)
        return values + np.array([self.boost if s in self.pro else 0.0 for s in sentences]), estimator


@pytest.mark.parametrize("family", ["masked", "causal"])
@pytest.mark.parametrize(("boost", "red"), [(0.0, False), (40.0, True)])  # the fake's own noise: ~11 nats
def test_a_planted_stereotype_fails_the_gate(real_refdata, family, boost, red):
    from biascheck.catalog import PROBES

    settings = settings_of(PROBE, splits="both")
    reference = load(real_refdata, settings)
    sentences = reference.sentences
    pro = set(sentences.loc[sentences["stereotype"] == "pro", "sentence"])
    scored = score.score(StereotypedLM(family, pro, boost), reference, settings)
    limit = load_profile("default", [REPO / "thresholds"], PROBES).lookup("winobias", "type1", "pro_share")
    for task in ("type1", "type2"):
        share = {m.name: m.value for m in metrics.task_metrics(task, scored, reference, settings)}["pro_share"]
        assert (not limit.min <= share <= limit.max) is red, (task, share)
