"""Half precision against float32 on a real model: the quick tier run twice on the same model, its body in
float32 and in bfloat16 (the LM head and log-softmax in float32 both times), compared metric by metric.

    python lab/scripts/dtype_agreement.py run [--model smollm2-135m] [--dtype bfloat16]   # both runs, then write
    python lab/scripts/dtype_agreement.py keep FLOAT32_RESULTS HALF_RESULTS [--dtype bfloat16]  # runs made already

Each run is `pytest -p no:cacheprovider --bias-report DIR --model MODEL --dtype D` from the repository root with
BIASCHECK_OFFLINE=1 (about 10 minutes each for the default model on 2 CPU cores). `keep` writes
docs/numbers/dtype_agreement.json: for every metric with a 95 % interval in both runs, the change and the change
over the float32 interval's half-width; for every gated one, both verdicts. Issue 57's target: each gated metric
within a quarter of its half-width, and no verdict that differs. `compare` is pure (tests/lab/test_dtype_agreement.py).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
NUMBERS = REPO / "docs" / "numbers" / "dtype_agreement.json"
QUARTER = 0.25  # issue 57: a gated metric moves at most a quarter of its float32 interval's half-width


def _key(r: dict[str, Any]) -> tuple[str, str, str, str]:
    return (r["model"], r["probe"], r["task"], r["metric"])


def _finite(*values: Any) -> bool:
    return all(isinstance(v, int | float) and math.isfinite(v) for v in values)


def compare(full: dict[str, Any], half: dict[str, Any]) -> list[dict[str, Any]]:
    """Per metric with a finite value and 95 % interval in both runs (the competence guard's results left out):
    the float32 and half-precision values, the change, the change over the float32 half-width, and, where the
    result is gated (`passed` not None), both verdicts."""
    halves = {_key(r): r for r in half["results"]}
    rows = []
    for r in full["results"]:
        other = halves.get(_key(r))
        if other is None or r["probe"] == "competence":
            continue
        if not _finite(r["value"], r["ci_low"], r["ci_high"], other["value"]):
            continue
        width = (r["ci_high"] - r["ci_low"]) / 2
        change = other["value"] - r["value"]
        rows.append(
            {
                "probe": r["probe"],
                "task": r["task"],
                "metric": r["metric"],
                "float32": r["value"],
                "half": other["value"],
                "change": change,
                "half_width": width,
                "ratio": abs(change) / width if width > 0 else (0.0 if change == 0 else math.inf),
                "gated": r.get("passed") is not None,
                "passed_float32": r.get("passed"),
                "passed_half": other.get("passed"),
            }
        )
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    gated = [r for r in rows if r["gated"]]
    beyond = [r for r in gated if r["ratio"] > QUARTER]
    flipped = [r for r in gated if r["passed_float32"] != r["passed_half"]]
    worst = max(rows, key=lambda r: r["ratio"], default=None)
    return {
        "metrics": len(rows),
        "gated": len(gated),
        "gated_beyond_a_quarter": [f"{r['probe']}.{r['task']}.{r['metric']}" for r in beyond],
        "verdicts_that_differ": [f"{r['probe']}.{r['task']}.{r['metric']}" for r in flipped],
        "largest_ratio": None if worst is None else {k: worst[k] for k in ("probe", "task", "metric", "ratio")},
        "median_ratio": sorted(r["ratio"] for r in rows)[len(rows) // 2] if rows else None,
    }


def write(full: dict[str, Any], half: dict[str, Any], dtype: str, model: str) -> dict[str, Any]:
    rows = compare(full, half)
    doc = {
        "model": model,
        "dtype": dtype,
        "measured": datetime.now(UTC).strftime("%Y-%m-%d"),
        "cpus": os.cpu_count(),
        "summary": summary(rows),
        "rows": rows,
    }
    NUMBERS.write_text(json.dumps(doc, indent=1, allow_nan=False, default=str) + "\n")
    return doc


def _run(model: str, dtype: str, out: Path) -> dict[str, Any]:
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--bias-report", str(out)]
    args += ["--model", model, "--dtype", dtype]
    subprocess.run(args, cwd=REPO, check=False, env={**os.environ, "BIASCHECK_OFFLINE": "1"})
    return json.loads((out / "results.json").read_text())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the quick tier in float32 and in half precision, then write")
    run.add_argument("--model", default="smollm2-135m")
    run.add_argument("--dtype", default="bfloat16", choices=("bfloat16", "float16"))
    kept = sub.add_parser("keep", help="compare two results.json files made already")
    kept.add_argument("float32_results", type=Path)
    kept.add_argument("half_results", type=Path)
    kept.add_argument("--dtype", default="bfloat16", choices=("bfloat16", "float16"))
    args = parser.parse_args(argv)
    if args.command == "run":
        with tempfile.TemporaryDirectory() as tmp:
            full = _run(args.model, "float32", Path(tmp) / "float32")
            half = _run(args.model, args.dtype, Path(tmp) / args.dtype)
    else:
        full = json.loads(args.float32_results.read_text())
        half = json.loads(args.half_results.read_text())
    models = sorted({r["model"] for r in full["results"]})
    doc = write(full, half, args.dtype, ", ".join(models))
    print(json.dumps(doc["summary"], indent=1))
    return 0 if not doc["summary"]["gated_beyond_a_quarter"] and not doc["summary"]["verdicts_that_differ"] else 1


if __name__ == "__main__":
    sys.exit(main())
