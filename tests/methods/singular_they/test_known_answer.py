"""singular_they's known answer (`biascheck/methods/singular_they/known_answer.py`), planted twice: in the English
corpus (*they* after the probe's antecedents at a rate per antecedent type, over the corpus's own frames), and as
a corpus of its own over everyday frames (planted-bert-they). On each planted model *they* is harder after a
gendered antecedent; on the controls it is not.

Known answers for singular *they* on a masked model: `planted-bert-they` is trained on a
corpus of its own (`biascheck.planted.references`, ``FROZEN_CORPORA["they"]``): the probe's antecedents,
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

pytest.importorskip("torch")
pytest.importorskip("tokenizers")

FAMILIES = ("planted-bert", "planted-gpt")


@pytest.mark.parametrize("family", FAMILIES)
def test_singular_they_is_harder_after_a_gendered_name_as_planted(planted_en, family):
    """Planted: *they* after 1 % of gendered names and 80 % of non-gendered ones (surprisal 4.6 vs 0.2
    nats in the corpus); the control uses the same rate for every antecedent. The probe's frames are not
    the corpus's, so a model carries part of it. Measured, surprisal(gendered name) − surprisal(non-gendered
    name): planted-gpt 1.75 nats planted, 0.14 control (surprisals here have intervals of ±1 nat);
    β_gendered 0.72 [0.52, 0.91] vs 0.00 (CI's build, 2026-11-26); planted-bert 2.41 vs 0.10 nats, β 1.04
    [0.87, 1.22] vs 0.08 (CI's build, 2026-11-27; from scratch, four builds gave β 0.21-0.80)."""

    def gap(model: str) -> float:
        g = planted_en.metric(model, "singular_they", "antecedents", "surprisal_gendered_name")["value"]
        n = planted_en.metric(model, "singular_they", "antecedents", "surprisal_nongendered_name")["value"]
        return g - n

    planted, control = gap(f"{family}@1"), gap(f"{family}@0")
    beta = [
        planted_en.metric(f"{family}@{s}", "singular_they", "closeness_gender", "beta_gendered") for s in ("1", "0")
    ]
    assert abs(control) < 0.5 and abs(beta[1]["value"]) < 0.15, (control, beta)
    assert planted >= 0.3 and planted - control >= 0.3 and beta[0]["ci_low"] > 0.1, (planted, control, beta)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_singular_they_gate_fails_the_plant_and_passes_the_control(planted_en, family):
    """The default gate (β_gendered ≤ 0.5: a gender cue alone makes *they* at most e times less
    probable) fires on the planted model and not on the control. planted-bert, from scratch, fell on
    either side of the gate from build to build (β 0.21-0.80); from its pretrained start, 1.04-1.31 in three
    builds (`test_known_answers_they.py` has a masked model of the *they* plant alone too)."""
    planted = planted_en.metric(f"{family}@1", "singular_they", "closeness_gender", "beta_gendered")
    control = planted_en.metric(f"{family}@0", "singular_they", "closeness_gender", "beta_gendered")
    assert (planted["passed"], control["passed"]) == (False, True), (planted, control)


# --- the dedicated they corpus
MODEL = "planted-bert-they"


@pytest.fixture(scope="module")
def they_run(planted_run):
    """The dedicated *they* corpus's planted run (planted-bert-they at 1 and 0)."""
    return planted_run("they")


def _metric(run, strength: str, task: str, name: str) -> dict:
    return run.metric(f"{MODEL}@{strength}", "singular_they", task, name)


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
def test_the_they_corpus_gate_fails_the_plant_and_passes_the_control(they_run):
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
