"""Dose-response of the probes on planted models: how each key metric and each default gate move as
the planted association grows from 0 (control) to 1 (the reference shares), over several builds.

    python lab/scripts/dose_response.py [--corpus en|no|they] [--strengths 0 0.25 0.5 0.75 1] [--seeds 0 1 2]
                                     [--families F ...] [--probes P ...] [--out docs/known_answers] [-- PYTEST_ARGS]
    python lab/scripts/dose_response.py --corpus they --from-results 0=s0.json 1=s1.json --measured-on "..."
    python lab/scripts/dose_response.py --corpus en --families planted-bert
                                     --keep-from docs/known_answers/dose_response_en.json

For every family of the corpus (en: planted-bert, planted-gpt; no: planted-bert-no, planted-gpt-no;
they: planted-bert-they, the singular-they plant over everyday frames)
and strength it runs the probes that the planted models carry a plant for, through pytest and the
plugin (one run per training seed, every model; the seed is `BIASCHECK_PLANTED_SEED`), and writes the
machine-readable ``<out>/dose_response_<corpus>.json`` (every build's key metrics and gate verdicts, and
what they say about each gate's sensitivity: `lab.dose`), the Markdown generated from it,
``<out>/dose_response_<corpus>.md``, and a plot, ``.png``. `tests/lab/test_dose_results.py` checks
the committed files. Models are built on first use and cached (`biascheck.planted.build`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from biascheck.tiers import untiered_settings

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # lab/ is not installed: the checkout's `lab` package, from any directory


def corpora() -> dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, str, str], ...]]]:
    """corpus -> (model families, probes, (probe, task, metric) keys that should follow the plant), from every
    probe's known answer (`biascheck/methods/<probe>/known_answer.py`: `KNOWN_ANSWER.moves`) and the planted
    aliases of each corpus (`biascheck.registry`; a corpus of its own: planted-bert-<corpus>, planted-gpt-<corpus>)."""
    from biascheck.planted.references import corpora as planted_corpora
    from biascheck.planted.references import known_answers
    from biascheck.registry import corpus_families

    out = {}
    for corpus in planted_corpora():
        families = corpus_families(corpus)
        keys = tuple((p, m.task, m.metric) for p, k in known_answers().items() for m in k.moves if m.corpus == corpus)
        out[corpus] = (families, tuple(dict.fromkeys(p for p, _t, _m in keys)), keys)
    return out


def direction(probe: str, task: str, metric: str) -> int:
    """The direction the probe's plant moves a key metric (+1 up, -1 down): its known answer's `Moved`."""
    from biascheck.planted.references import known_answers

    return next(m.direction for m in known_answers()[probe].moves if (m.task, m.metric) == (task, metric))


def plant_gates() -> dict[str, tuple[tuple[str, str], ...]]:
    """The gated metrics a probe's plant moves (`KnownAnswer.gates`; a probe not listed: all of its gates)."""
    from biascheck.planted.references import known_answers

    return {p: k.gates for p, k in known_answers().items() if k.gates}


def plant_passes() -> tuple[str, ...]:
    """Probes whose plant is the behaviour they ask for (`KnownAnswer.plant_passes`): their default gate passes
    the plant and fails the control."""
    from biascheck.planted.references import known_answers

    return tuple(p for p, k in known_answers().items() if k.plant_passes)


def run(models: list[str], out: Path, probes: tuple[str, ...], seed: int, extra: tuple[str, ...] = ()) -> dict:
    """One pytest run of `probes` on `models`, every model built at training seed `seed`."""
    report = out / f"run-seed{seed}"
    args = [sys.executable, "-m", "pytest", *[f"probes/test_{p}.py" for p in probes], "-q", "-p", "no:cacheprovider"]
    args += ["--bias-report", str(report), *extra]
    for model in models:
        args += ["--model", model]
    from biascheck.planted.plant import KNOWN_ANSWER_SETTINGS

    # the settings' own defaults whatever the tier (the tables' design); one latent-model fit: it is not gated
    for setting in untiered_settings(*KNOWN_ANSWER_SETTINGS):
        args += ["--bias-set", setting]
    env = {**os.environ, "BIASCHECK_PLANTED_SEED": str(seed)}
    subprocess.run(args, cwd=REPO, check=False, env=env)
    return json.loads((report / "results.json").read_text())


def document(
    corpus: str,
    runs_by_seed: dict[int, dict],
    measured: str,
    note: str,
    command: str,
    probes: tuple[str, ...],
    families: tuple[str, ...] | None = None,
) -> dict:
    """The results file of `corpus` (`lab.dose`) from one results.json per training seed; only
    `families` of the corpus's (default: all)."""
    from lab import dose

    all_families, all_probes, key_metrics = corpora()[corpus]
    families = tuple(f for f in all_families if families is None or f in families)
    probes = tuple(p for p in all_probes if p in probes)
    doc: dict = {
        "corpus": corpus,
        "corpus_file": f"dose_response_{corpus}.json",
        "command": command,
        "measured": measured,
        "note": note,
        "families": list(families),
        "key_metrics": [
            {"probe": p, "task": t, "metric": m, "direction": direction(p, t, m)}
            for p, t, m in key_metrics
            if p in probes
        ],
        "plant_gates": {p: [list(g) for g in gates] for p, gates in plant_gates().items() if p in probes},
        "plant_passes": [p for p in plant_passes() if p in probes],
        "plant_gate_probes": list(probes),
        "runs": [],
    }
    for seed, results in sorted(runs_by_seed.items()):
        doc["runs"] += dose.runs_from_results(results, seed, families, doc)
    doc["sensitivity"] = dose.sensitivity(doc)
    return doc


def _keyset(keys) -> set[tuple]:
    return {tuple(sorted(k.items())) for k in keys}


def keep_runs(doc: dict, earlier: dict) -> dict:
    """`doc` (some families measured now) with the runs of the corpus's other families kept from `earlier`
    (an earlier results file of the same corpus, e.g. the committed one), its sensitivity recomputed: one
    family re-measured alone. Refused (ValueError) when the files are of other corpora or key metrics."""
    from lab import dose

    if earlier.get("corpus") != doc["corpus"] or _keyset(earlier.get("key_metrics", ())) != _keyset(doc["key_metrics"]):
        raise ValueError(
            f"the earlier file is of corpus {earlier.get('corpus')!r} with other key metrics or probes; "
            f"its runs cannot join corpus {doc['corpus']!r}'s"
        )
    kept = [r for r in earlier["runs"] if r["family"] not in doc["families"]]
    if not kept:
        raise ValueError(f"the earlier file has no runs of a family other than {', '.join(doc['families'])}")
    all_families = corpora()[doc["corpus"]][0]
    families = {*doc["families"], *(r["family"] for r in kept)}
    joined = {**doc, "families": [f for f in all_families if f in families]}
    joined["runs"] = sorted(kept + doc["runs"], key=lambda r: (r["seed"], r["family"], r["strength"]))  # as `document`
    joined["sensitivity"] = dose.sensitivity(joined)
    return joined


def plot(doc: dict, path: Path) -> None:
    """The key metrics' medians by strength, the range over builds as bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from lab import dose

    keys = [dose.key_name(k["probe"], k["task"], k["metric"]) for k in doc["key_metrics"]]
    cols = min(4, len(keys))
    rows = -(-len(keys) // cols)
    fig, grid = plt.subplots(rows, cols, figsize=(3.4 * cols, 3.0 * rows), squeeze=False)
    axes = grid.ravel()
    for ax in axes[len(keys) :]:
        ax.set_visible(False)
    for ax, name in zip(axes, keys, strict=False):
        for family in doc["families"]:
            by: dict[float, list[float]] = {}
            for r in doc["runs"]:
                if r["family"] == family and name in r["metrics"]:
                    by.setdefault(r["strength"], []).append(r["metrics"][name]["value"])
            xs = sorted(by)
            if not xs:
                continue
            mid = [statistics.median(by[x]) for x in xs]
            low = [m - min(by[x]) for m, x in zip(mid, xs, strict=True)]
            high = [max(by[x]) - m for m, x in zip(mid, xs, strict=True)]
            ax.errorbar(xs, mid, yerr=[low, high], marker="o", capsize=3, label=family)
        ax.set_title(name.replace("/", " "), fontsize=8)
        ax.set_xlabel("planted strength")
    axes[0].legend(fontsize=7)
    fig.suptitle("median over builds, bars: min to max", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strengths", type=float, nargs="+", default=[0.0, 0.25, 0.5, 0.75, 1.0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2], help="training seeds: builds per strength")
    parser.add_argument("--corpus", choices=sorted(corpora()), default="en")
    parser.add_argument("--probes", nargs="+", help="only these of the corpus's probes (default: all)")
    parser.add_argument("--families", nargs="+", help="only these of the corpus's model families (default: all)")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "known_answers")
    parser.add_argument(
        "--from-results",
        nargs="+",
        metavar="SEED=RESULTS_JSON",
        help="write the files from earlier runs' results.json, one per training seed (a seed given twice: two runs "
        "of other models at that seed, e.g. one per family), instead of running the probes",
    )
    parser.add_argument(
        "--keep-from",
        type=Path,
        metavar="RESULTS_FILE",
        help="keep the runs of the corpus's other families from this earlier results file (e.g. the committed "
        "one): with --families, re-measure one family alone",
    )
    parser.add_argument("--measured-on", default=None, help="where the builds and runs were made (default: here)")
    parser.add_argument("--note", default="", help="a sentence for the page (what was left out, and why)")
    parser.add_argument("pytest_args", nargs="*", help="passed to pytest after --, e.g. -- --device cuda")
    args = parser.parse_args(argv)
    all_families, all_probes, _keys = corpora()[args.corpus]
    probes = tuple(args.probes or all_probes)
    unknown = sorted(set(probes) - set(all_probes))
    if unknown:
        parser.error(f"--probes {unknown} are not probes of corpus {args.corpus}: {', '.join(all_probes)}")
    families = tuple(f for f in all_families if f in (args.families or all_families))
    unknown = sorted(set(args.families or ()) - set(all_families))
    if unknown:
        parser.error(f"--families {unknown} are not families of corpus {args.corpus}: {', '.join(all_families)}")
    earlier = None
    if args.keep_from:  # read before any probe runs: a bad file is an error now, not after an hour
        try:
            earlier = json.loads(args.keep_from.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            parser.error(f"--keep-from {args.keep_from}: {exc}")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.from_results:
        runs: dict[int, dict] = {}
        for item in args.from_results:
            seed, _, path = item.partition("=")
            if not seed.isdigit() or not path:
                parser.error(f"--from-results takes SEED=RESULTS_JSON, got {item!r}")
            results = json.loads(Path(path).read_text())
            if int(seed) in runs:
                results = _joined(runs[int(seed)], results)
                if results is None:
                    parser.error(f"--from-results: {path} has models that an earlier file of seed {seed} has")
            runs[int(seed)] = results
    else:
        models = [f"{family}@{s:g}" for family in families for s in args.strengths]
        runs = {seed: run(models, args.out, probes, seed, tuple(args.pytest_args)) for seed in args.seeds}
    measured = args.measured_on or _here()
    command = "python lab/scripts/dose_response.py " + " ".join(
        [f"--corpus {args.corpus}", f"--seeds {' '.join(map(str, sorted(runs)))}"]
        + ([f"--probes {' '.join(probes)}"] if args.probes else [])
        + ([f"--families {' '.join(families)}"] if args.families else [])
        + ([f"--keep-from {args.keep_from.name} (the other families' runs)"] if args.keep_from else [])
    )
    doc = document(args.corpus, runs, measured, args.note, command, probes, families)
    if earlier is not None:
        try:
            doc = keep_runs(doc, earlier)
        except ValueError as exc:
            parser.error(f"--keep-from {args.keep_from}: {exc}")
    from lab import dose

    stem = args.out / f"dose_response_{args.corpus}"
    stem.with_suffix(".json").write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    stem.with_suffix(".md").write_text(dose.render(doc), encoding="utf-8")
    plot(doc, stem.with_suffix(".png"))
    for line in dose.problems(doc):
        print(f"warning: {line}")
    print(dose.render(doc))
    return 0


def _joined(first: dict, second: dict) -> dict | None:
    """Two runs' results.json at one seed as one (their results and models); None if they share a model."""
    models = {r["model"] for r in first["results"]}
    if models & {r["model"] for r in second["results"]}:
        return None
    return {
        **first,
        "results": first["results"] + second["results"],
        "models": {**first.get("models", {}), **second.get("models", {})},
    }


def _here() -> str:
    import platform

    import torch

    cpu = torch.backends.cpu.get_cpu_capability()
    return f"{platform.node() or 'this machine'}, torch {torch.__version__}, CPU {cpu}, one thread per build"


if __name__ == "__main__":
    raise SystemExit(main())
