"""scripts/dose_response.py: its command line answers, and its table reads results.json right."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "dose_response.py"


def _module():
    spec = importlib.util.spec_from_file_location("dose_response", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_command_answers_help():
    done = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "--strengths" in done.stdout


def test_the_table_shows_values_intervals_and_the_gate_verdict_per_model():
    dose = _module()
    row = dict(probe="pronoun_ratio", task="is", metric="spearman_bls", value=0.8, ci_low=0.7, ci_high=0.9)
    results = {
        "results": [
            {**row, "model": "planted-bert@1", "passed": None},
            {**row, "model": "planted-bert@1", "metric": "stereotype_agreement", "value": 0.9, "passed": False},
            {**row, "model": "planted-bert@0", "value": 0.05, "ci_low": -0.1, "ci_high": 0.2, "passed": None},
            {**row, "model": "planted-bert@0", "metric": "stereotype_agreement", "value": 0.5, "passed": True},
        ]
    }
    text, values = dose.table(results, ["planted-bert@0", "planted-bert@1"])
    lines = [line for line in text.splitlines() if line.startswith("| planted-bert")]
    assert lines[0].startswith("| planted-bert@0 | 0.050 [-0.10, 0.20] | 0.500") and lines[0].endswith("| pass |")
    assert lines[1].startswith("| planted-bert@1 | 0.800 [0.70, 0.90] | 0.900") and lines[1].endswith("| **fail** |")
    assert values[("planted-bert@1", "pronoun_ratio", "is", "spearman_bls")] == 0.8


def test_the_fine_tuning_script_answers_help():
    script = SCRIPT.parent / "finetune_known_answer.py"
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "--strengths" in done.stdout and "--steps" in done.stdout


def test_a_gates_sensitivity_is_the_strength_from_which_it_gives_the_plants_verdict_for_good():
    dose = _module()
    runs = [(0.0, True), (0.25, True), (0.5, False), (0.75, True), (1.0, False)]
    assert dose.sees_from(runs, plant_passes=False) == "1"  # 0.5 red, 0.75 green again: from 1 on
    assert dose.sees_from([(0.0, True), (0.5, False), (1.0, False)], plant_passes=False) == "0.5"
    assert dose.sees_from([(0.0, True), (1.0, True)], plant_passes=False) == "never"
    assert dose.sees_from([(0.0, False), (1.0, False)], plant_passes=False) == "control too"
    assert dose.sees_from([(0.0, False), (0.5, True), (1.0, True)], plant_passes=True) == "0.5"


def test_the_sensitivity_table_has_the_plants_gate_verdicts_by_strength_and_the_rank_correlation():
    """pronoun_ratio's template-agreement gate (a reliability check that fails controls by design) is
    not a gate the plant moves: it does not count."""
    dose = _module()
    rows = []
    for s, v, ok in ((0.0, 0.3, True), (0.5, 0.9, True), (1.0, 2.0, False)):
        model = f"planted-gpt@{s:g}"
        rows.append(
            {
                "model": model,
                "probe": "pronoun_ratio",
                "task": "is",
                "metric": "mean_abs_log_n",
                "value": v,
                "passed": ok,
            }
        )
        rows.append(
            {
                "model": model,
                "probe": "pronoun_ratio",
                "task": "sensitivity",
                "metric": "template_spearman",
                "value": 0.0,
                "passed": False,
            }
        )
    text = dose.sensitivity(
        {"results": rows},
        ("planted-gpt",),
        [0.0, 0.5, 1.0],
        ("pronoun_ratio",),
        (("pronoun_ratio", "is", "mean_abs_log_n"),),
    )
    row = [line for line in text.splitlines() if line.startswith("| pronoun_ratio")][0]
    assert row == "| pronoun_ratio | planted-gpt | pass / pass / fail | 1 | is.mean_abs_log_n | +1.00 |"
    assert dose.verdicts({"results": rows})[("planted-gpt@0", "pronoun_ratio")] is False  # the probe's own verdict


def test_the_they_corpus_tables_render_from_a_results_file(tmp_path):
    """`--corpus they --from-results`: docs/known_answers.md's dose-response command for planted-bert-they, on a
    results.json of two strengths (no probe run)."""
    import json

    rows = [
        {
            "model": f"planted-bert-they@{s}",
            "probe": "singular_they",
            "task": "closeness_gender",
            "metric": "beta_gendered",
            "value": beta,
            "ci_low": beta - 0.2,
            "ci_high": beta + 0.2,
            "passed": beta <= 0.5,
        }
        for s, beta in (("0", 0.0), ("1", 1.3))
    ]
    (tmp_path / "results.json").write_text(json.dumps({"results": rows, "models": {}}))
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--corpus",
            "they",
            "--strengths",
            "0",
            "1",
            "--from-results",
            str(tmp_path / "results.json"),
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    text = (tmp_path / "dose_response_they.md").read_text()
    assert "| singular_they | planted-bert-they | pass / fail | 1 |" in text
    assert "| planted-bert-they@1 | 1.300 [1.10, 1.50] |" in text and (tmp_path / "dose_response_they.png").is_file()
