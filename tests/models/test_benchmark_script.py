"""benchmarks/bench_scoring.py as benchmarks/README.md runs it, on a tiny causal model saved to disk: both workloads,
all three methods, equal numbers (exit 0) and the machine-readable last line."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from script_module import load_script, run_script

pytest.importorskip("lm_eval")
SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_scoring.py"
SETS = ["pronoun", "winogender", "winobias", "crows", "natural"]


@pytest.fixture(scope="module")
def saved_gpt2(gpt2_tiny, tmp_path_factory):
    model, tokenizer = gpt2_tiny
    directory = tmp_path_factory.mktemp("tiny-gpt2")
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def test_the_benchmark_agrees_with_lm_eval_and_the_naive_loop_on_every_request_set(saved_gpt2, mirror):
    args = ["--model", str(saved_gpt2), "--device", "cpu", "--inputs", "all", "--n", "12", "--against", "lm-eval"]
    done = run_script(SCRIPT, [*args, "--threads", "1"], mirror)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [line["set"] for line in lines] == SETS
    for line in lines:
        assert line["requests"] >= 12 and line["tokens"] > line["requests"]
        assert set(line["cpu_s"]) == {"engine", "lm-eval", "naive"} and line["engine/lm-eval"] > 0
        assert 0 <= line["max_diff_over_limit"] <= 1 and line["matmul_share"] > 0
        # the ceiling is the ratio with the engine's time cut to its matrix products: ratio / share
        assert line["engine/lm-eval ceiling"] == pytest.approx(line["engine/lm-eval"] / line["matmul_share"], rel=0.1)


def test_a_request_set_whose_data_cannot_be_found_stops_the_run_loudly(saved_gpt2, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("BIASCHECK_")}
    env.update(BIASCHECK_OFFLINE="1", BIASCHECK_DATA_DIR=str(tmp_path / "no-mirror"), BIASCHECK_CACHE_DIR=str(tmp_path))
    args = [sys.executable, str(SCRIPT), "--model", str(saved_gpt2), "--inputs", "winobias", "--no-naive"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=600, check=False, env=env, cwd=tmp_path)
    assert done.returncode != 0 and "DataError" in done.stderr, done.stderr[-2000:]
    assert not any(line.startswith("{") for line in done.stdout.splitlines())


def test_the_ab_variants_run_without_the_naive_loop(saved_gpt2, mirror):
    """--kv-ab and --padded-ab time the engine's other layouts beside the default prefix-tree rows; the
    script's agreement check (exit 0) covers them too."""
    args = ["--model", str(saved_gpt2), "--device", "cpu", "--n", "12", "--kv-ab", "--padded-ab", "--no-naive"]
    done = run_script(SCRIPT, [*args, "--threads", "1"], mirror)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert any(line.startswith("engine+kv ") for line in lines)
    assert any(line.startswith("engine-padded ") for line in lines)
    assert any("prefix-tree rows of 128" in line for line in lines)


def test_the_bench_extra_the_readme_installs_pins_the_same_harness():
    import tomllib

    extras = tomllib.loads((SCRIPT.parents[1] / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert extras["bench"] == ["biascheck[oracles]"] and "lm-eval==0.4.13" in extras["oracles"]


@pytest.mark.parametrize("which", ["gpt2_tiny", "llama_tiny"])
def test_matmul_flops_equal_torchs_flop_counter(which, request):
    """The FLOP count (`biascheck.models.work`: the benchmark's matmul share's numerator, results.json's
    `engine_work`) against torch's own FlopCounterMode on one
    forward pass with full logits: every matrix product but attention's (mm / addmm), counted by torch."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    bench = load_script(SCRIPT)
    model, _tokenizer = request.getfixturevalue(which)
    positions = 9
    counter = FlopCounterMode(display=False)
    with counter, torch.inference_mode():
        model(input_ids=torch.arange(positions)[None] + 3)
    counts = counter.get_flop_counts()["Global"]
    products = sum(n for op, n in counts.items() if str(op).split(".")[1] in ("mm", "addmm"))
    assert products > 0
    assert bench.matmul_flops(model, positions, positions) == products


def test_the_ceiling_is_the_peers_time_over_the_engines_matrix_products_at_the_machines_rate():
    """By hand: 6 GFLOP of matrix products at 2 GFLOP per CPU second take 3 CPU s; a peer that took 9 CPU s is
    then at most 3x slower than any engine doing that arithmetic."""
    bench = load_script(SCRIPT)
    assert bench.ceiling(9.0, 6e9, 2.0) == pytest.approx(3.0)


def test_a_subsample_of_a_sentence_set_keeps_its_pairs_and_triples_whole():
    """--n draws whole groups (WinoBias's and CrowS-Pairs' pairs, Winogender's he/she/they triples), which share
    their words up to the one that differs, as the probes score them; drawn sentence by sentence they came apart."""
    bench = load_script(SCRIPT)
    groups = bench._grouped(["a1", "b1", "a2", "c1", "b2", "c2"], ["a", "b", "a", "c", "b", "c"])
    assert groups == [["a1", "a2"], ["b1", "b2"], ["c1", "c2"]]
    drawn = bench._sample_groups(groups, 3)
    assert len(drawn) == 4 and all({f"{s[0]}1", f"{s[0]}2"} <= set(drawn) for s in drawn)
    assert drawn == bench._sample_groups(groups, 3)  # seeded
    assert bench._sample_groups(groups, None) == bench._sample_groups(groups, 6) == ["a1", "a2", "b1", "b2", "c1", "c2"]


def test_the_lm_head_benchmark_times_both_models_and_sets_their_ratio_beside_the_arithmetic(saved_gpt2, mirror):
    """benchmarks/bench_lm_head.py on the tiny GPT-2 against itself: the head's time per read position of each,
    their arithmetic per row (hidden x vocabulary, read from the model), and both ratios in the last line."""
    script = SCRIPT.parent / "bench_lm_head.py"
    done = run_script(script, ["--models", str(saved_gpt2), str(saved_gpt2), "--n", "6", "--repeats", "1"], mirror, 300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    line = json.loads(done.stdout.strip().splitlines()[-1])
    first, second = line["first"], line["second"]
    assert first["hidden"] == 32 and first["arithmetic_per_row"] == 32 * first["vocab"]
    assert first["rows"] == second["rows"] > 12 and first["seconds_per_row"] > 0 and second["seconds_per_row"] > 0
    assert line["arithmetic"] == 1.0
    assert line["measured_ratio"] == pytest.approx(second["seconds_per_row"] / first["seconds_per_row"], rel=1e-3)
