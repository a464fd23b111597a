"""winogender math by hand, and a known answer: a scripted model that prefers she in sentences about
female-majority occupations and he about male-majority ones follows BLS and fails the gate; without the
preference it passes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from biascheck.methods.winogender import math, metrics, score
from biascheck.methods.winogender.reference import load
from biascheck.methods.winogender.spec import PROBE
from biascheck.settings import settings_of
from biascheck.testing import FakeLM
from biascheck.thresholds import load_profile

REPO = Path(__file__).resolve().parents[3]


def _sentences():
    rows = []
    for t, (occupation, answer) in enumerate([("nurse", 0), ("nurse", 1), ("pilot", 0), ("pilot", 1)]):
        for gender in ("male", "female", "neutral"):
            rows.append(
                {"template_id": t, "someone": False, "occupation": occupation, "answer": answer, "gender": gender}
            )
    return pd.DataFrame(rows)


def test_triples_lean_and_occupations_by_hand():
    scores = np.array([-10, -9, -12, -5, -5, -5, -8, -11, -12, -7, -7, -9], dtype=float)
    table = math.triples(_sentences(), scores)
    assert table["lean"].tolist() == [1.0, 0.0, -3.0, 0.0]
    lean = math.occupation_lean(table)  # answer 0 only
    assert lean.to_dict() == {"nurse": 1.0, "pilot": -3.0}
    agree = math.majority_agreement(lean, pd.Series({"nurse": 88.0, "pilot": 5.0}))
    assert agree.tolist() == [1.0, 1.0]
    assert math.majority_agreement(lean, pd.Series({"nurse": 30.0, "pilot": 60.0})).tolist() == [0.0, 0.0]
    p = math.they_share(table)
    expected = np.exp(-12) / (np.exp(-10) + np.exp(-9) + np.exp(-12))
    assert p[0] == pytest.approx(expected) and p[1] == pytest.approx(1 / 3)


def test_a_missing_pronoun_version_is_an_error():
    frame = _sentences()
    with pytest.raises(ValueError, match="male, female and neutral"):
        math.triples(frame.iloc[1:], np.zeros(len(frame) - 1))


def test_gotcha_by_hand():
    """lm-eval's gotcha: the occupation's majority gender points to the wrong referent (occupation against
    the majority, or participant with it); the occupation half is our narrower reading."""
    frame = pd.DataFrame(
        {
            "occupation": ["nurse", "nurse", "nurse", "nurse", "pilot", "pilot", "pilot"],
            "answer": [0, 0, 1, 1, 0, 0, 1],
            "gender": ["male", "female", "male", "female", "female", "neutral", "neutral"],
        }
    )
    bls = pd.Series({"nurse": 90.0, "pilot": 5.0})
    assert math.gotcha(frame, bls).tolist() == [True, False, False, True, True, False, False]
    assert math.occupation_gotcha(frame, bls).tolist() == [True, False, False, False, True, False, False]


class SegregatedLM(FakeLM):
    """FakeLM, plus `boost` nats on a sentence whose pronoun matches its occupation's BLS majority."""

    def __init__(self, family, majority: dict[str, str], boost: float) -> None:
        super().__init__("segregated", family)
        self.majority, self.boost = majority, boost

    def sentence_logprob(self, sentences):
        values, estimator = super().sentence_logprob(sentences)
        out = []
        for s, v in zip(sentences, values, strict=True):
            words = set(s.lower().replace(".", " ").replace(",", " ").split())
            for occupation, gender in self.majority.items():
                if occupation in words:
                    pronoun = {"she", "her", "hers"} if gender == "female" else {"he", "him", "his"}
                    v = v + (self.boost if words & pronoun else 0.0)
                    break
            out.append(v)
        return np.array(out), estimator


@pytest.mark.parametrize("family", ["masked", "causal"])
@pytest.mark.parametrize(("boost", "red"), [(0.0, False), (40.0, True)])  # the fake's own noise: ~11 nats
def test_a_planted_segregation_follows_bls_and_fails_the_gate(real_refdata, family, boost, red):
    from biascheck.catalog import PROBES

    settings = settings_of(PROBE)
    reference = load(real_refdata, settings)
    occupations = reference.occupations
    majority = {
        o: ("female" if p > 50 else "male")
        for o, p in zip(occupations["occupation"], occupations["bls_pct_female"], strict=True)
    }
    scored = score.score(SegregatedLM(family, majority, boost), reference, settings)
    got = {m.name: m.value for m in metrics.task_metrics("pronouns", scored, reference, settings)}
    profile = load_profile("default", [REPO / "thresholds"], PROBES)
    limit = profile.lookup("winogender", "pronouns", "majority_agreement")
    assert (got["majority_agreement"] > limit.max) is red, got
    if red:
        assert got["majority_agreement"] > 0.95 and got["spearman_bls"] > 0.7
