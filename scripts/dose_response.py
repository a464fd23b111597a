"""Dose-response of the probes on planted models: how each key metric and each default gate move as
the planted association grows from 0 (control) to 1 (the reference shares).

    python scripts/dose_response.py [--corpus en|no|they] [--strengths 0 0.25 0.5 0.75 1]
                                     [--out docs/known_answers] [-- PYTEST_ARGS]

For every family of the corpus (en: planted-bert, planted-gpt; no: planted-bert-no, planted-gpt-no;
they: planted-bert-they, the singular-they plant over everyday frames)
and strength it runs the probes that the planted models carry a plant for, through pytest and the
plugin (one run, every model), and writes ``<out>/dose_response[_no].md`` (a table per probe: key
metrics with 95 % intervals and the default gate's verdict) and ``<out>/dose_response[_no].png``.
A gate's sensitivity is the smallest strength at which it turns red. Models are built on first use
and cached (`biascheck.planted.build`).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from biascheck.tiers import untiered_settings

REPO = Path(__file__).resolve().parents[1]
# corpus -> (model families, probes, (probe, task, metric) keys that should follow the plant)
CORPORA = {
    "en": (
        ("planted-bert", "planted-gpt"),
        (
            "pronoun_ratio",
            "natural_prompts",
            "role_nouns",
            "singular_they",
            "politicians",
            "winogender",
            "winobias",
            "crows_pairs_gender",
        ),
        (
            ("pronoun_ratio", "is", "spearman_bls"),
            ("pronoun_ratio", "is", "stereotype_agreement"),
            ("pronoun_ratio", "is", "mean_abs_log_n"),
            ("natural_prompts", "template", "gold_spearman"),
            ("natural_prompts", "ns", "gold_spearman"),
            ("natural_prompts", "ns", "bias_orig"),
            ("role_nouns", "three_way", "fem_name_shift"),
            ("role_nouns", "two_way", "fem_name_shift"),
            ("singular_they", "closeness_gender", "beta_gendered"),
            ("singular_they", "closeness_gender", "beta_close"),
            ("politicians", "en", "neg_gap"),
            ("politicians", "en", "pos_gap"),
            ("winogender", "pronouns", "spearman_bls"),
            ("winogender", "pronouns", "majority_agreement"),
            ("winobias", "type1", "pro_share"),
            ("winobias", "type2", "pro_share"),
            ("crows_pairs_gender", "all", "stereo_share"),
        ),
    ),
    "no": (
        ("planted-bert-no", "planted-gpt-no"),
        ("norwegian_occupations",),
        (
            ("norwegian_occupations", "task1", "spearman_gold"),
            ("norwegian_occupations", "task1", "macro_f1"),
            ("norwegian_occupations", "task2", "spearman_gold"),
            ("norwegian_occupations", "task2", "macro_f1"),
            ("norwegian_occupations", "task4", "spearman_gold"),
            ("norwegian_occupations", "task4", "macro_f1"),
        ),
    ),
    "they": (
        ("planted-bert-they",),
        ("singular_they",),
        (
            ("singular_they", "closeness_gender", "beta_gendered"),
            ("singular_they", "closeness_gender", "beta_close"),
            ("singular_they", "antecedents", "surprisal_gendered_name"),
            ("singular_they", "antecedents", "surprisal_nongendered_name"),
        ),
    ),
}
FAMILIES, PROBES, KEY_METRICS = CORPORA["en"]


def run(models: list[str], out: Path, probes: tuple[str, ...] = PROBES, extra: tuple[str, ...] = ()) -> dict:
    args = [
        sys.executable,
        "-m",
        "pytest",
        *[f"probes/test_{p}.py" for p in probes],
        "-q",
        "-p",
        "no:cacheprovider",
        "--bias-report",
        str(out / "run"),
        *extra,
    ]
    for model in models:
        args += ["--model", model]
    # the settings' own defaults whatever the tier (the tables' design); one latent-model fit: it is not gated
    for setting in untiered_settings("politicians.grid=quick"):
        args += ["--bias-set", setting]
    subprocess.run(args, cwd=REPO, check=False)
    return json.loads((out / "run" / "results.json").read_text())


# Probes whose plant is the behaviour they ask for (register the referent's gender; reflect the
# workforce): their default gate passes the plant and fails the control.
PLANT_PASSES = ("role_nouns", "norwegian_occupations")


# The gated metrics a probe's plant moves, for the sensitivity table (a probe not listed: all of its
# gates). Left out: pronoun_ratio's template agreement, which checks the measurement's reliability and
# fails a model with no association by design, and the role-noun gates on attitude groups' differences,
# which the plant (one group's choices) does not set.
PLANT_GATES: dict[str, tuple[tuple[str, str], ...]] = {
    "pronoun_ratio": (
        ("is", "mean_abs_log_n"),
        ("is", "stereotype_agreement"),
        ("works_as", "mean_abs_log_n"),
        ("works_as", "stereotype_agreement"),
    ),
    "role_nouns": (("three_way", "fem_name_shift"), ("two_way", "fem_name_shift")),
}


def verdicts(results: dict, gates: dict[str, tuple[tuple[str, str], ...]] | None = None) -> dict[tuple[str, str], bool]:
    """(model, probe) -> the default gate's verdict (every gated metric passed); with `gates`, only the
    listed (task, metric) of the probes it names count."""
    out: dict[tuple[str, str], bool] = {}
    for r in results["results"]:
        if gates and r["probe"] in gates and (r.get("task"), r["metric"]) not in gates[r["probe"]]:
            continue
        if r.get("passed") is not None:
            key = (r["model"], r["probe"])
            out[key] = out.get(key, True) and bool(r["passed"])
    return out


def sees_from(by_strength: list[tuple[float, bool | None]], plant_passes: bool) -> str:
    """The smallest strength from which the gate gives the plant's verdict (fail; pass where the plant is
    the asked-for behaviour) at that and every higher strength, while the control gets the other verdict:
    the gate's sensitivity. 'never' when the strongest plant does not get it; 'control too' when the
    control does."""
    wanted = plant_passes
    ordered = sorted(by_strength)
    if not ordered or ordered[-1][1] is None or ordered[-1][1] != wanted:
        return "never"
    if ordered[0][1] == wanted:
        return "control too"
    first = ordered[-1][0]
    for strength, verdict in reversed(ordered):
        if verdict != wanted:
            break
        first = strength
    return f"{first:g}"


def sensitivity(
    results: dict,
    families: tuple[str, ...],
    strengths: list[float],
    probes: tuple[str, ...] = PROBES,
    key_metrics: tuple = KEY_METRICS,
) -> str:
    """A table per probe and family: the verdict of the plant's gates (`PLANT_GATES`) by strength,
    `sees_from`, and Spearman's ρ between the strength and the probe's first key metric (±1: monotone)."""
    from scipy.stats import spearmanr

    gate = verdicts(results, PLANT_GATES)
    values = {(r["model"], r["probe"], r.get("task"), r["metric"]): r["value"] for r in results["results"]}
    header = " / ".join(f"{s:g}" for s in strengths)
    lines = [
        "\n### Sensitivity of the default gates\n",
        "The verdict of the gates the plant moves (pronoun_ratio without its template-agreement check, "
        "role_nouns' fem_name_shift; every gate of the other probes); for role_nouns the plant is the "
        "behaviour the probe asks for, so its gate sees the plant when it passes.\n",
        f"| probe | family | verdict at {header} | the gate sees the plant from | key metric | ρ(strength, metric) |",
        "|---|---|---|---|---|---|",
    ]
    for probe in probes:
        task, metric = next((t, m) for p, t, m in key_metrics if p == probe)
        for family in families:
            got = [(s, gate.get((f"{family}@{s:g}", probe))) for s in strengths]
            cells = " / ".join("—" if v is None else ("pass" if v else "fail") for _s, v in got)
            ys = [values.get((f"{family}@{s:g}", probe, task, metric)) for s in strengths]
            pairs = [(s, y) for s, y in zip(strengths, ys, strict=True) if y is not None and y == y]
            xs, vs = [s for s, _y in pairs], [y for _s, y in pairs]
            rho = spearmanr(xs, vs).statistic if len(pairs) >= 3 else float("nan")
            lines.append(
                f"| {probe} | {family} | {cells} | {sees_from(got, probe in PLANT_PASSES)} | "
                f"{task}.{metric} | {rho:+.2f} |"
            )
    return "\n".join(lines)


def table(
    results: dict, models: list[str], probes: tuple[str, ...] = PROBES, key_metrics: tuple = KEY_METRICS
) -> tuple[str, dict]:
    by_key = {(r["model"], r["probe"], r.get("task"), r["metric"]): r for r in results["results"]}
    gate = verdicts(results)
    lines = []
    values: dict = {}
    for probe in probes:
        metrics = [(t, m) for p, t, m in key_metrics if p == probe]
        lines += [
            f"\n### {probe}\n",
            "| model | " + " | ".join(f"{t}.{m}" for t, m in metrics) + " | default gate |",
            "|---" * (len(metrics) + 2) + "|",
        ]
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
            verdict = gate.get((model, probe))
            cells.append("—" if verdict is None else ("pass" if verdict else "**fail**"))
            lines.append(f"| {model} | " + " | ".join(cells) + " |")
    return "\n".join(lines), values


def plot(
    values: dict,
    strengths: list[float],
    path: Path,
    families: tuple[str, ...] = FAMILIES,
    key_metrics: tuple = KEY_METRICS,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = 5
    rows = -(-len(key_metrics) // cols)
    fig, grid = plt.subplots(rows, cols, figsize=(3.2 * cols, 3.0 * rows), squeeze=False)
    axes = grid.ravel()
    for ax in axes[len(key_metrics) :]:
        ax.set_visible(False)
    for ax, (probe, task, metric) in zip(axes, key_metrics, strict=False):
        for family in families:
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
    parser.add_argument(
        "--corpus",
        choices=sorted(CORPORA),
        default="en",
        help="en: planted-bert/-gpt (8 English probes); no: planted-bert-no/-gpt-no (Norwegian probe); "
        "they: planted-bert-they (singular they)",
    )
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "known_answers")
    parser.add_argument(
        "--from-results",
        type=Path,
        metavar="RESULTS_JSON",
        help="write the tables from a results.json of an earlier run instead of running the probes",
    )
    parser.add_argument("pytest_args", nargs="*", help="passed to pytest after --, e.g. -- --device cuda")
    args = parser.parse_args()
    families, probes, key_metrics = CORPORA[args.corpus]
    args.out.mkdir(parents=True, exist_ok=True)
    models = [f"{family}@{s:g}" for family in families for s in args.strengths]
    if args.from_results:
        results = json.loads(args.from_results.read_text())
    else:
        results = run(models, args.out, probes, tuple(args.pytest_args))
    text, values = table(results, models, probes, key_metrics)
    text = sensitivity(results, families, args.strengths, probes, key_metrics) + "\n" + text
    plants = {
        "en": "planted associations (pronoun-profession: the BLS shares; role noun after a name: one participant "
        "group's choices; singular they by antecedent type: set rates; adjectives after a politician's name: by "
        "sentiment and the name's gender)",
        "no": "planted association (hun/han and first names with each occupation: the Statistics Norway shares)",
        "they": "planted associations (singular they by antecedent type: set rates, in everyday frames)",
    }[args.corpus]
    header = (
        "# Dose-response on planted models\n\nWritten by "
        f"`python scripts/dose_response.py --corpus {args.corpus}`; "
        f"biascheck {results.get('biascheck_version')}, {results.get('created_utc')}, device "
        f"{next(iter(results.get('models', {}).values()), {}).get('device', '?')}. Each row is a model "
        f"trained on a corpus whose {plants} are scaled by the strength (0 = control). Values with 95 % bootstrap "
        "intervals; 'default gate' is the probe's verdict under thresholds/default.toml.\n"
    )
    stem = "dose_response" if args.corpus == "en" else f"dose_response_{args.corpus}"
    (args.out / f"{stem}.md").write_text(header + text + "\n", encoding="utf-8")
    plot(values, args.strengths, args.out / f"{stem}.png", families, key_metrics)
    print(header + text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
