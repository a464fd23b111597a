"""Dose-response of the probes on planted models: how each key metric and each default gate move as
the planted association grows from 0 (control) to 1 (the reference shares).

    python scripts/dose_response.py [--strengths 0 0.25 0.5 0.75 1] [--out docs/known_answers]

For every family (planted-bert, planted-gpt) and strength it runs the probes that the planted models
carry a plant for, through pytest and the plugin (one run, every model), and writes
``<out>/dose_response.md`` (a table per probe: key metrics with 95 % intervals and the default
gate's verdict) and ``<out>/dose_response.png``. A gate's sensitivity is the smallest strength at
which it turns red. Models are built on first use and cached (`biascheck.planted.build`).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FAMILIES = ("planted-bert", "planted-gpt")
PROBES = ("pronoun_ratio", "natural_prompts")
# (probe, task, metric): the metrics that should follow the plant.
KEY_METRICS = (
    ("pronoun_ratio", "is", "spearman_bls"),
    ("pronoun_ratio", "is", "stereotype_agreement"),
    ("pronoun_ratio", "is", "mean_abs_log_n"),
    ("natural_prompts", "template", "gold_spearman"),
    ("natural_prompts", "ns", "gold_spearman"),
    ("natural_prompts", "ns", "bias_orig"),
)


def run(models: list[str], out: Path) -> dict:
    args = [sys.executable, "-m", "pytest", *[f"probes/test_{p}.py" for p in PROBES], "-q", "-p", "no:cacheprovider",
            "--bias-report", str(out / "run")]
    for model in models:
        args += ["--model", model]
    subprocess.run(args, cwd=REPO, check=False)
    return json.loads((out / "run" / "results.json").read_text())


def table(results: dict, models: list[str]) -> tuple[str, dict]:
    by_key = {(r["model"], r["probe"], r.get("task"), r["metric"]): r for r in results["results"]}
    verdicts: dict[tuple[str, str], bool] = {}
    for r in results["results"]:
        if r.get("passed") is not None:
            key = (r["model"], r["probe"])
            verdicts[key] = verdicts.get(key, True) and bool(r["passed"])
    lines = []
    values: dict = {}
    for probe in PROBES:
        metrics = [(t, m) for p, t, m in KEY_METRICS if p == probe]
        lines += [f"\n### {probe}\n", "| model | " + " | ".join(f"{t}.{m}" for t, m in metrics) + " | default gate |",
                  "|---" * (len(metrics) + 2) + "|"]
        for model in models:
            cells = []
            for task, metric in metrics:
                r = by_key.get((model, probe, task, metric))
                if r is None or r["value"] is None:
                    cells.append("—")
                    continue
                low, high = r.get("ci_low"), r.get("ci_high")
                cells.append(f"{r['value']:.3f}" + (f" [{low:.2f}, {high:.2f}]" if low is not None else ""))
                values[(model, probe, task, metric)] = r["value"]
            verdict = verdicts.get((model, probe))
            cells.append("—" if verdict is None else ("pass" if verdict else "**fail**"))
            lines.append(f"| {model} | " + " | ".join(cells) + " |")
    return "\n".join(lines), values


def plot(values: dict, strengths: list[float], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(KEY_METRICS), figsize=(3.2 * len(KEY_METRICS), 3.0))
    for ax, (probe, task, metric) in zip(axes, KEY_METRICS, strict=True):
        for family in FAMILIES:
            ys = [values.get((f"{family}@{s:g}", probe, task, metric)) for s in strengths]
            ax.plot(strengths, [float("nan") if y is None else y for y in ys], marker="o", label=family)
        ax.set_title(f"{probe}\n{task}.{metric}", fontsize=8)
        ax.set_xlabel("planted strength")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strengths", type=float, nargs="+", default=[0.0, 0.25, 0.5, 0.75, 1.0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "known_answers")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    models = [f"{family}@{s:g}" for family in FAMILIES for s in args.strengths]
    results = run(models, args.out)
    text, values = table(results, models)
    header = (
        "# Dose-response on planted models\n\nWritten by `python scripts/dose_response.py`; "
        f"biascheck {results.get('biascheck_version')}, {results.get('created_utc')}. Each row is a model "
        "trained on a corpus whose pronoun-profession association is the BLS share scaled by the strength "
        "(0 = control). Values with 95 % bootstrap intervals; 'default gate' is the probe's verdict under "
        "thresholds/default.toml.\n"
    )
    (args.out / "dose_response.md").write_text(header + text + "\n", encoding="utf-8")
    plot(values, args.strengths, args.out / "dose_response.png")
    print(header + text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
