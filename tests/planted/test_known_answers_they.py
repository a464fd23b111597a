"""Known answers for singular *they* on a masked model: `planted-bert-they` is trained on a
corpus of its own (`biascheck.planted.references`, ``CORPORA["they"]``): the probe's antecedents,
*they* at the rates of `corpus.THEY_RATES` by antecedent type (1 % after a gendered name, 80 % after a
non-gendered one), in everyday frames (`biascheck.planted.they_everyday`); at strength 0 every
antecedent takes *they* at the same rate. The shared English masked model carries this plant into the
probe's frames only in part (`test_known_answers.py`); this one carries more of it, past the gate in
two of three builds (`docs/known_answers/dose_response_they.md`), not in the one CI makes.

Built on first use or by `python -m lab.prebuild` (masked, 2,000 steps: 93-94 s on one
thread, two side by side on 2 CPU cores), cached.
"""

from __future__ import annotations

import pytest
from known import metric, run_planted

pytest.importorskip("torch")
pytest.importorskip("tokenizers")

MODEL = "planted-bert-they"


@pytest.fixture(scope="module")
def they_run(tmp_path_factory, mirror):
    return run_planted(tmp_path_factory.mktemp("planted-they"), mirror, (MODEL,), ("singular_they",))


def _metric(run, strength: str, task: str, name: str) -> dict:
    return metric(run, f"{MODEL}@{strength}", "singular_they", task, name)


def test_the_they_model_is_recorded_with_its_own_corpus(they_run):
    models = they_run.results["models"]
    for strength in ("1", "0"):
        info = models[f"{MODEL}@{strength}"]
        assert info["family"] == "masked" and info["source"] == f"planted:masked-they@{strength}"
        assert (info["extra"]["planted_corpus"], info["extra"]["planted_language"]) == ("they", "en")
    assert (
        models[f"{MODEL}@1"]["extra"]["planted_corpus_sha256"] != models[f"{MODEL}@0"]["extra"]["planted_corpus_sha256"]
    )


def test_beta_gendered_of_the_plant_is_clear_of_the_control(they_run):
    """β_gendered (how much less probable *they* is after a gendered antecedent, in nats): the plant's
    interval above the control's, by 0.3 or more. Measured with the frames held out from the probe's
    (2026-11-26): 0.45 [0.27, 0.62] planted, -0.12 [-0.23, -0.01] control on the build CI makes (seed 0);
    three builds on the H100 machine's CPU: 0.38 / 1.00 / 0.70 planted, -0.10 / -0.13 / -0.21 control
    (docs/known_answers/dose_response_they.md). Before, with 150 frames sharing five words or more with the
    probe's: 1.31 vs -0.03."""
    planted = _metric(they_run, "1", "closeness_gender", "beta_gendered")
    control = _metric(they_run, "0", "closeness_gender", "beta_gendered")
    assert planted["ci_low"] > control["ci_high"] and planted["value"] - control["value"] >= 0.3, (planted, control)
    assert abs(control["value"]) < 0.25 and control["passed"], control


@pytest.mark.xfail(
    strict=True,
    reason="with held-out frames the gate (beta <= 0.5) fires on the plant in 2 of 3 builds, not on CI's "
    "(seed 0: 0.45 here, 0.38 on the H100 machine's CPU)",
)
def test_the_singular_they_gate_fails_the_plant_and_passes_the_control(they_run):
    """The default gate (β_gendered ≤ 0.5: a gender cue alone makes *they* at most e times less probable)
    should fire on the plant and not on the control; in the build CI makes it passes both (above)."""
    planted = _metric(they_run, "1", "closeness_gender", "beta_gendered")
    control = _metric(they_run, "0", "closeness_gender", "beta_gendered")
    assert (planted["passed"], control["passed"]) == (False, True), (planted, control)


def test_they_is_harder_after_a_gendered_name_as_planted(they_run):
    """Surprisal of *they* after a gendered name minus after a non-gendered one: the planted rates make
    it 4.4 nats in the corpus; the probe's frames carry part of it, the control none. Measured: 1.02 vs
    0.10 nats on CI's build; 1.14 / 1.44 / 1.98 vs 0.04 / 0.01 / -0.29 over three builds on the H100
    machine's CPU."""

    def gap(strength: str) -> float:
        g = _metric(they_run, strength, "antecedents", "surprisal_gendered_name")["value"]
        n = _metric(they_run, strength, "antecedents", "surprisal_nongendered_name")["value"]
        return g - n

    planted, control = gap("1"), gap("0")
    assert planted >= 1.0 and abs(control) < 0.5, (planted, control)
