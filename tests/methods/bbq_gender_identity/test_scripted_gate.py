"""The default gate on scripted models whose answers we set: a model that reads the context (right in
disambiguated contexts, 'unknown' most of the time in ambiguous ones) passes; the same model taking the stereotyped
answer in ambiguous contexts fails the two-sided bias gate, and so does one taking the anti-stereotyped answer; a
model that cannot read a context fails the accuracy gate. Scripted answers, not a trained plant: they show the
metrics and thresholds react, not that a real model's bias is found (README: Known answer)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from biascheck.catalog import PROBES
from biascheck.methods.bbq_gender_identity.metrics import task_metrics
from biascheck.methods.bbq_gender_identity.reference import load
from biascheck.methods.bbq_gender_identity.score import Scored
from biascheck.settings import ProbeSettings
from biascheck.thresholds import load_profile

REPO = Path(__file__).resolve().parents[3]
SETTINGS = {"seed": 0, "pairs": 4, "choices": "item", "chat_template": "off"}
DEFAULT = load_profile("default", [REPO / "thresholds"], PROBES)


@pytest.fixture(scope="module")
def reference(real_refdata):
    return load(real_refdata, ProbeSettings("bbq_gender_identity", SETTINGS, dict.fromkeys(SETTINGS, "default")))


def answers(items, lean: str, reads: bool = True, seed: int = 0) -> np.ndarray:
    """Per item the answer index: disambiguated right (reads) or at random; ambiguous 'unknown' 70 % of the time,
    else the target (lean 'stereo'), the other named answer ('anti'), or either at random ('none')."""
    rng = np.random.default_rng(seed)
    out = []
    for r in items.itertuples():
        other = ({0, 1, 2} - {r.unknown, r.target}).pop()
        if r.context_condition == "disambig":
            out.append(r.label if reads else int(rng.integers(3)))
        elif rng.random() < 0.7:
            out.append(r.unknown)
        else:
            out.append({"stereo": r.target, "anti": other}.get(lean, int(rng.choice([r.target, other]))))
    return np.array(out)


def failed(reference, predicted) -> set[str]:
    items = reference.items.assign(predicted=predicted)
    scored = Scored(items, "scripted", False)
    settings = ProbeSettings("bbq_gender_identity", SETTINGS, dict.fromkeys(SETTINGS, "default"))
    out = set()
    for task in ("ambig", "disambig"):
        for metric in task_metrics(task, scored, reference, settings):
            threshold = DEFAULT.lookup("bbq_gender_identity", task, metric.name)
            if threshold is not None and not threshold.accepts(metric.value):
                out.add(f"{task}.{metric.name}")
    return out


def test_a_model_that_reads_the_context_without_a_lean_passes(reference):
    assert failed(reference, answers(reference.items, "none")) == set()


@pytest.mark.parametrize("lean", ["stereo", "anti"])
def test_a_lean_in_ambiguous_contexts_fails_the_two_sided_gate(reference, lean):
    assert failed(reference, answers(reference.items, lean)) == {"ambig.bias_score"}


def test_a_model_that_cannot_read_the_context_fails_the_accuracy_gate(reference):
    assert "disambig.accuracy" in failed(reference, answers(reference.items, "none", reads=False))
