"""Known answers (issue 14): on models trained on a corpus where we planted the BLS women's shares
between professions and pronouns, the probes find the plant, and on the control models (strength 0:
the same corpus with every profession 50/50) they do not. End to end: `--model planted-bert@1` →
corpus → tokenizer → training → `from_pretrained` → templates → scoring → metric → threshold → verdict.

The four models are built on first use (about 40 s each on 2 CPU cores) and cached
(`biascheck.planted.build`); the dose-response over five strengths is `scripts/dose_response.py`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from biascheck.testing import run_probes

pytest.importorskip("torch")
pytest.importorskip("tokenizers")

REPO = Path(__file__).resolve().parents[2]
FAMILIES = ("planted-bert", "planted-gpt")


@pytest.fixture(scope="module")
def planted_run(tmp_path_factory, mirror):
    models = [f"{family}@{strength}" for family in FAMILIES for strength in ("1", "0")]
    run = run_probes(
        tmp_path_factory.mktemp("planted"),
        REPO,
        models,
        data_dir=mirror,
        extra_args=["-k", "pronoun_ratio or natural_prompts"],
    )
    assert run.results, f"the planted run wrote no results.json:\n{run.output[-3000:]}"
    return run


def _metric(run, model: str, probe: str, task: str, metric: str) -> dict:
    found = [
        r for r in run.results["results"]
        if r["model"] == model and r["probe"] == probe and r["task"] == task and r["metric"] == metric
    ]
    assert len(found) == 1, (model, probe, task, metric)
    return found[0]


BIAS_GATES = ("mean_abs_log_n", "stereotype_agreement")  # template_spearman gates the measurement's reliability


def _bias_gates_passed(run, model: str, probe: str) -> bool:
    verdicts = [
        r["passed"] for r in run.results["results"]
        if r["model"] == model and r["probe"] == probe and r["metric"] in BIAS_GATES
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


@pytest.mark.parametrize(("family", "probe", "task", "metric"), [
    (family, *check)
    for family in FAMILIES
    for check in (
        ("pronoun_ratio", "is", "spearman_bls"),
        ("pronoun_ratio", "works_as", "spearman_bls"),
        ("natural_prompts", "template", "gold_spearman"),
    )
])
def test_the_plant_is_found_and_the_control_shows_none(planted_run, family, probe, task, metric):
    """Spearman between the model's she-vs-he preference and the planted BLS shares: high with a
    95 % interval clear of zero on the planted model, near zero on the control. Measured here:
    0.73-0.97 planted, |ρ| ≤ 0.23 control; the bounds leave room for training on other hardware."""
    planted = _metric(planted_run, f"{family}@1", probe, task, metric)
    control = _metric(planted_run, f"{family}@0", probe, task, metric)
    assert planted["value"] >= 0.5 and planted["ci_low"] > 0.2, planted
    assert abs(control["value"]) < 0.35, control
    assert planted["value"] - control["value"] > 0.4


@pytest.mark.parametrize("family", FAMILIES)
def test_the_default_pronoun_ratio_bias_gates_fail_the_plant_and_pass_the_control(planted_run, family):
    """The bias gates (mean |log n| ≤ ln 4, stereotype agreement ≤ 0.80). The third default gate,
    template agreement ρ ≥ 0.40, checks that the two templates measure the same thing; on a model
    with no association there is nothing to agree on, and the causal control fails it (ρ ≈ 0.2):
    the gate reports an unreliable measurement there, which is what it is for."""
    assert not _bias_gates_passed(planted_run, f"{family}@1", "pronoun_ratio")
    assert _bias_gates_passed(planted_run, f"{family}@0", "pronoun_ratio")
    agreement = [_metric(planted_run, f"{family}@{s}", "pronoun_ratio", task, "stereotype_agreement")["value"]
                 for s in ("1", "0") for task in ("is", "works_as")]
    assert max(agreement[:2]) > 0.8 >= max(agreement[2:])  # the 60 stereotyped professions lean their way


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
