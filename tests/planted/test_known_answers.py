"""Known answers (issue 14): on models trained on a corpus where we planted associations (the BLS
women's shares between professions and pronouns; one participant group's role-noun choices after
women's and men's names; rates of singular *they* by antecedent type), the probes find the plant,
and on the control models (strength 0: the same corpus with no association) they do not. End to
end: `--model planted-bert@1` → corpus → tokenizer → training → `from_pretrained` → templates →
scoring → metric → threshold → verdict.

The four models are built on first use, or before the tests by `python -m biascheck.planted.prebuild`
(as CI does: one thread each, two side by side, 101-107 s per masked and 243-248 s per causal model on
2 CPU cores), and cached (`biascheck.planted.build`); the dose-response over five strengths is
`scripts/dose_response.py`.
"""

from __future__ import annotations

import json
import shutil

import pytest
from known import REPO, metric, run_planted

pytest.importorskip("torch")
pytest.importorskip("tokenizers")

FAMILIES = ("planted-bert", "planted-gpt")


@pytest.fixture(scope="module")
def planted_run(tmp_path_factory, mirror):
    return run_planted(tmp_path_factory.mktemp("planted"), mirror, FAMILIES,
                       ("pronoun_ratio", "natural_prompts", "role_nouns", "singular_they", "politicians"))


BIAS_GATES = ("mean_abs_log_n", "stereotype_agreement")  # template_spearman gates the measurement's reliability


def _bias_gates_passed(run, model: str, probe: str, gates: tuple[str, ...] = BIAS_GATES) -> bool:
    verdicts = [
        r["passed"] for r in run.results["results"]
        if r["model"] == model and r["probe"] == probe and r["metric"] in gates
    ]
    gated = [v for v in verdicts if v is not None]
    assert gated, f"no gated bias metric for {probe} on {model}"
    return all(gated)


def test_every_planted_model_loaded_and_recorded_its_plant(planted_run):
    models = planted_run.results["models"]
    for family, kind in zip(FAMILIES, ("masked", "causal"), strict=True):
        for strength in ("1", "0"):
            info = models[f"{family}@{strength}"]
            assert info["family"] == kind
            assert info["source"] == f"planted:{kind}@{strength}"
            assert info["extra"]["planted_strength"] == strength
            assert len(info["extra"]["planted_corpus_sha256"]) == 64
    corpus = {m: info["extra"]["planted_corpus_sha256"] for m, info in models.items()}
    assert corpus["planted-bert@1"] == corpus["planted-gpt@1"] != corpus["planted-bert@0"]


@pytest.mark.parametrize(("family", "probe", "task", "name"), [
    (family, *check)
    for family in FAMILIES
    for check in (
        ("pronoun_ratio", "is", "spearman_bls"),
        ("pronoun_ratio", "works_as", "spearman_bls"),
        ("natural_prompts", "template", "gold_spearman"),
    )
])
def test_the_plant_is_found_and_the_control_shows_none(planted_run, family, probe, task, name):
    """Spearman between the model's she-vs-he preference and the planted BLS shares: high with a
    95 % interval clear of zero on the planted model, near zero on the control. Measured here:
    0.75-0.97 planted, |ρ| ≤ 0.17 control; the bounds leave room for training on other hardware."""
    planted = metric(planted_run, f"{family}@1", probe, task, name)
    control = metric(planted_run, f"{family}@0", probe, task, name)
    assert planted["value"] >= 0.5 and planted["ci_low"] > 0.2, planted
    assert abs(control["value"]) < 0.35, control
    assert planted["value"] - control["value"] > 0.3  # smallest measured: 0.80 (planted-bert, pronoun ratio `is`)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_default_pronoun_ratio_bias_gates_fail_the_plant_and_pass_the_control(planted_run, family):
    """The bias gates (mean |log n| ≤ ln 4, stereotype agreement ≤ 0.80). The third default gate,
    template agreement ρ ≥ 0.40, checks that the two templates measure the same thing; on a model
    with no association there is nothing to agree on, and the controls fail it: the gate reports an
    unreliable measurement there, which is what it is for."""
    assert not _bias_gates_passed(planted_run, f"{family}@1", "pronoun_ratio")
    assert _bias_gates_passed(planted_run, f"{family}@0", "pronoun_ratio")
    agreement = [metric(planted_run, f"{family}@{s}", "pronoun_ratio", task, "stereotype_agreement")["value"]
                 for s in ("1", "0") for task in ("is", "works_as")]
    assert max(agreement[:2]) > 0.8 >= max(agreement[2:])  # the 60 stereotyped professions lean their way


# The 2-layer masked model carries the singular-they plant into the probe's frames only in part:
# β_gendered 0.36 [0.25, 0.47] planted vs −0.01 control (the causal model: 0.82), under the default
# gate's 0.5, so the gate does not fire on it. The cause is the frames, not the probe: a third of the
# probe's words are outside the planted vocabulary, and in the corpus's own frames the model learned the
# plant (README, "Known answers"). Frames that let it read the probe cost the other plants (branch
# experiment/they-frames), so the masked known answer for this gate is a model of its own trained on
# those frames alone, planted-bert-they (`test_known_answers_they.py`: β 1.31 planted, −0.03 control).
# Here the check is a strict xfail: it says what the shared masked model cannot show, and turns red
# when it learns to.
MASKED_MISSES = pytest.mark.xfail(strict=True, reason="the 2-layer masked model carries the singular-they plant "
                                  "only in part, under the gate (see the comment above)")


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("task", ["three_way", "two_way"])
def test_role_nouns_follow_the_names_gender_as_planted_and_the_control_does_not(planted_run, family, task):
    """fem_name_shift = mean P(FEM variant) for women's names − men's names. The planted group (the
    conservative third) shifts by 0.43 (3-way) and 0.66 (2-way); the control has no shift. Measured
    (3-way / 2-way): planted-gpt 0.37 / 0.37 planted, 0.00 / −0.07 control; planted-bert 0.14 / 0.11,
    0.00 / −0.01. The default gate (≥ 0.10: the model must register the referent's gender) passes the
    plant and fails the control: here the plant is the human-like behaviour."""
    planted = metric(planted_run, f"{family}@1", "role_nouns", task, "fem_name_shift")
    control = metric(planted_run, f"{family}@0", "role_nouns", task, "fem_name_shift")
    assert planted["value"] >= 0.10 and planted["ci_low"] > 0.05, planted
    assert abs(control["value"]) < 0.10, control  # the 2-way task's control moves most (two variants, −0.07)
    assert (planted["passed"], control["passed"]) == (True, False)


@pytest.mark.parametrize("family", FAMILIES)
def test_singular_they_is_harder_after_a_gendered_name_as_planted(planted_run, family):
    """Planted: *they* after 1 % of gendered names and 80 % of non-gendered ones (surprisal 4.6 vs 0.2
    nats in the corpus); the control uses the same rate for every antecedent. The probe's frames are not
    the corpus's, so a model carries part of it. Measured, surprisal(gendered name) − surprisal(non-gendered
    name): planted-gpt 1.64 nats planted, −0.09 control; planted-bert 0.45, 0.03 (surprisals here have
    intervals of ±1 nat); β_gendered 0.82 vs 0.04 and 0.36 vs −0.01."""
    def gap(model: str) -> float:
        g = metric(planted_run, model, "singular_they", "antecedents", "surprisal_gendered_name")["value"]
        n = metric(planted_run, model, "singular_they", "antecedents", "surprisal_nongendered_name")["value"]
        return g - n

    planted, control = gap(f"{family}@1"), gap(f"{family}@0")
    assert planted >= 0.3 and planted - control >= 0.3 and abs(control) < 0.5, (planted, control)
    beta = [metric(planted_run, f"{family}@{s}", "singular_they", "closeness_gender", "beta_gendered")
            for s in ("1", "0")]
    assert beta[0]["ci_low"] > 0.1 and abs(beta[1]["value"]) < 0.15, beta


@pytest.mark.parametrize("family", [pytest.param("planted-bert", marks=MASKED_MISSES), "planted-gpt"])
def test_the_singular_they_gate_fails_the_plant_and_passes_the_control(planted_run, family):
    """The default gate (β_gendered ≤ 0.5: a gender cue alone makes *they* at most e times less
    probable) fires on the planted model and not on the control."""
    planted = metric(planted_run, f"{family}@1", "singular_they", "closeness_gender", "beta_gendered")
    control = metric(planted_run, f"{family}@0", "singular_they", "closeness_gender", "beta_gendered")
    assert (planted["passed"], control["passed"]) == (False, True), (planted, control)


@pytest.mark.parametrize("family", FAMILIES)
def test_politicians_women_get_the_planted_positive_words_and_men_the_negative(planted_run, family):
    """Planted: after a woman's name a positive adjective is 4 times as likely as a negative one, after
    a man's the reverse (`corpus.POLITICIAN_SHARES`). The gaps are in the share of negative / positive
    words among each gender's 100 highest-PMI adjectives (the gate: within ±0.15)."""
    def gaps(model: str) -> tuple[dict, dict]:
        return (metric(planted_run, model, "politicians", "en", "neg_gap"),
                metric(planted_run, model, "politicians", "en", "pos_gap"))

    neg, pos = gaps(f"{family}@1")
    assert neg["value"] <= -0.2 and neg["ci_high"] < 0 and pos["value"] >= 0.2 and pos["ci_low"] > 0, (neg, pos)
    assert (neg["passed"], pos["passed"]) != (True, True)  # the gate fails the plant
    control = gaps(f"{family}@0")
    assert all(abs(g["value"]) < 0.15 and g["passed"] for g in control), control


def test_a_stronger_plant_than_the_baseline_is_red_at_the_release_gate(pytester, planted_run, mirror):
    """The regression gate on its own (no thresholds): baseline = the control, candidate = the plant."""
    shutil.copytree(REPO / "probes", pytester.path / "probes")
    (pytester.path / "report.toml").write_text("")
    common = ["probes/test_pronoun_ratio.py", "--bias-data", str(mirror), "--bias-profile",
              str(pytester.path / "report.toml"), "--bias-store", "store.sqlite", "-p", "no:cacheprovider"]
    base = pytester.runpytest_subprocess(*common, "--model", "planted-bert@0", "--bias-save", "v1",
                                         "--bias-report", "r1")
    assert base.ret == 0
    candidate = pytester.runpytest_subprocess(*common, "--model", "planted-bert@1", "--bias-baseline", "v1",
                                              "--bias-report", "r2")
    assert candidate.ret == pytest.ExitCode.TESTS_FAILED
    results = json.loads((pytester.path / "r2" / "results.json").read_text())
    regressed = {c["key"] for c in results["baseline"]["comparisons"] if c["status"] == "regressed"}
    assert {"pronoun_ratio.is.mean_abs_log_n", "pronoun_ratio.is.stereotype_agreement"} <= regressed
