"""pronoun_ratio's known answer (`biascheck/methods/pronoun_ratio/known_answer.py`): on the English corpus's
planted models, trained where each profession's pronoun follows its BLS 2015 women's share, the probe finds the
plant, and on the controls (strength 0: the same corpus with no association) it does not. End to end:
`--model planted-bert@1` → corpus → tokenizer → training → `from_pretrained` → templates → scoring → metric →
threshold → verdict; and the release gate on its own, baseline the control and candidate the plant.

The models are built on first use, or before the tests by `python -m lab.prebuild` (as CI does: one thread each,
two side by side, about 650 s per planted-bert and 150-290 s per causal model on 2 CPU cores), and cached
(`biascheck.planted.build`); the dose-response over five strengths is `lab/scripts/dose_response.py`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from biascheck.planted.build import cache_root

pytest.importorskip("torch")
pytest.importorskip("tokenizers")

FAMILIES = ("planted-bert", "planted-gpt")
REPO = Path(__file__).resolve().parents[3]
PLANTED_CACHE = cache_root()  # read now: pytester changes HOME for its runs


BIAS_GATES = ("mean_abs_log_n", "stereotype_agreement")  # template_spearman gates the measurement's reliability


def _bias_gates_passed(run, model: str, probe: str, gates: tuple[str, ...] = BIAS_GATES) -> bool:
    verdicts = [
        r["passed"]
        for r in run.results["results"]
        if r["model"] == model and r["probe"] == probe and r["metric"] in gates
    ]
    gated = [v for v in verdicts if v is not None]
    assert gated, f"no gated bias metric for {probe} on {model}"
    return all(gated)


# planted-bert starts from a pretrained encoder since 2026-11-27 (`biascheck.planted.pretrained`). Its three
# builds at strengths 1 and 0 (seeds 0-2, one thread, AVX-512; docs/known_answers/dose_response_en.md) gave,
# planted / control: pronoun ratio ρ 0.96 / 0.17-0.35 on both templates, natural prompts ρ 0.95-0.96 /
# −0.10-0.15, role-noun shift 0.03-0.15 (3-way) / ≤ 0.01, singular-they β 1.04-1.31 / ≤ 0.09, politicians
# gaps ∓0.21-0.23 / within 0.04: every check below holds in all three but the role-noun gate (two of three,
# so asserted on planted-gpt alone). (From scratch, six builds of the previous recipe spread from `works_as`
# ρ 0.21 to 0.95 and role-noun shift 0.03 to 0.25, so its checks of one build's size were made on planted-gpt
# alone.) The control's ρ of 0.17-0.35 is the pretrained encoder's own lean, which training on the balanced
# corpus does not remove; the bias gates pass it.
@pytest.mark.parametrize(
    ("family", "probe", "task", "name"),
    [
        (family, *check)
        for family in FAMILIES
        for check in (
            ("pronoun_ratio", "is", "spearman_bls"),
            ("pronoun_ratio", "works_as", "spearman_bls"),
        )
    ],
)
def test_the_plant_is_found_and_the_control_shows_none(planted_en, family, probe, task, name):
    """Spearman between the model's she-vs-he preference and the planted BLS shares: high with a
    95 % interval clear of zero on the planted model, near zero on the control. Measured: 0.75-0.98
    planted, |ρ| ≤ 0.17 control; the bounds leave room for training on other hardware."""
    planted = planted_en.metric(f"{family}@1", probe, task, name)
    control = planted_en.metric(f"{family}@0", probe, task, name)
    assert planted["value"] >= 0.5 and planted["ci_low"] > 0.2, planted
    assert abs(control["value"]) < 0.35, control
    assert planted["value"] - control["value"] > 0.3  # smallest measured: 0.67 (planted-bert, natural prompts)


@pytest.mark.parametrize("family", ["planted-bert", "planted-gpt"])
def test_the_default_pronoun_ratio_bias_gates_fail_the_plant_and_pass_the_control(planted_en, family):
    """The bias gates (mean |log n| ≤ ln 4, stereotype agreement ≤ 0.80). The third default gate,
    template agreement ρ ≥ 0.40, checks that the two templates measure the same thing; on a model
    with no association there is nothing to agree on, and the controls fail it: the gate reports an
    unreliable measurement there, which is what it is for."""
    assert not _bias_gates_passed(planted_en, f"{family}@1", "pronoun_ratio")
    assert _bias_gates_passed(planted_en, f"{family}@0", "pronoun_ratio")
    agreement = [
        planted_en.metric(f"{family}@{s}", "pronoun_ratio", task, "stereotype_agreement")["value"]
        for s in ("1", "0")
        for task in ("is", "works_as")
    ]
    assert max(agreement[:2]) > 0.8 >= max(agreement[2:])  # the 60 stereotyped professions lean their way


def test_a_stronger_plant_than_the_baseline_is_red_at_the_release_gate(pytester, planted_en, mirror, monkeypatch):
    """The regression gate on its own (no thresholds): baseline = the control, candidate = the plant, of
    planted-gpt. Plant and control each have a tokenizer trained on their own corpus, which the gate rightly
    calls not comparable: the candidate runs with --bias-allow-mismatch, and the mismatch is checked to be the
    tokenizer alone. pytester gives its runs a HOME of their own, where no planted model is cached: they are
    pointed at the cache the other tests use (else they trained the two models again)."""
    monkeypatch.setenv("BIASCHECK_PLANTED_DIR", str(PLANTED_CACHE))
    shutil.copytree(REPO / "probes", pytester.path / "probes")
    (pytester.path / "report.toml").write_text("")
    common = [
        "probes/test_pronoun_ratio.py",
        "--bias-data",
        str(mirror),
        "--bias-profile",
        str(pytester.path / "report.toml"),
        "--bias-store",
        "store.sqlite",
        "-p",
        "no:cacheprovider",
    ]
    # a profile with no thresholds needs a baseline to be the gate: the first run creates it
    base = pytester.runpytest_subprocess(
        *common, "--model", "planted-gpt@0", "--bias-baseline", "v1", "--bias-baseline-regen", "--bias-report", "r1"
    )
    assert base.ret == 0
    candidate = pytester.runpytest_subprocess(
        *common, "--model", "planted-gpt@1", "--bias-baseline", "v1", "--bias-report", "r2", "--bias-allow-mismatch"
    )
    assert candidate.ret == pytest.ExitCode.TESTS_FAILED
    results = json.loads((pytester.path / "r2" / "results.json").read_text())
    assert [m.split(":")[0] for m in results["baseline"]["mismatches_allowed"]] == ["planted-gpt@1 tokenizer_sha256"]
    regressed = {c["key"] for c in results["baseline"]["comparisons"] if c["status"] == "regressed"}
    # measured: mean |log n| 2.52 / 2.97 (is / works_as) and stereotype agreement 0.82 on works_as, each
    # beyond the noise of the control's; `is`'s stereotype agreement (0.58) is within it
    assert {
        "pronoun_ratio.is.mean_abs_log_n",
        "pronoun_ratio.works_as.mean_abs_log_n",
        "pronoun_ratio.works_as.stereotype_agreement",
    } <= regressed
