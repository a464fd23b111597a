"""The planted models' dose-response as releases: builds of one planted family (`biascheck.planted`) at each
strength and training seed compared as a release gate compares checkpoints, by the paired and the unpaired rule
(`lab.release_answer`), with the same pages as the fine-tunes' (`lab/scripts/planted_releases.py`).

    python lab/scripts/dose_releases.py --family planted-gpt --probes pronoun_ratio [--seeds 0 1] [--strengths 0 1]
                                        [--out DIR] [--from-runs] [--results-dir docs/known_answers]

Where the plant is a bias the probe measures (pronoun_ratio's spearman_bls rises with it), the baseline is the
control build (strength 0, seed 0) and each plant build a release the gate should flag; each other control seed a
release it must not flag. Where the plant is the behaviour the probe asks for (`KnownAnswer.plant_passes`: the
Norwegian occupations' gold shares), the directions turn: the baseline is the strongest plant at seed 0, each
build at a lower strength a release that loses it (role `plant`: the gate should flag it) and the strongest plant
at another seed a release that must not be flagged (role `control`). The baseline run a second time must not
change at all. One pytest run per training seed (`dose_response.run`: `BIASCHECK_PLANTED_SEED`, builds made on first use
and cached, every setting at its untiered default); each run's models are renamed `<alias> seed <k>` so that builds of
different seeds keep apart. Writes per probe `releases_dose_<family>_<probe>.json` and the page generated from it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # lab/ is not installed: the checkout's `lab` package, from any directory
sys.path.insert(0, str(Path(__file__).resolve().parent))
import dose_response  # noqa: E402
from finetune_known_answer import run_options, write_results  # noqa: E402

COMMAND = "python lab/scripts/dose_releases.py"


def anchor_strength(strengths: list[float], asked: bool) -> float:
    """The baseline's strength: the strongest plant where the probe asks for it, else the control's 0."""
    return max(strengths) if asked else 0.0


def renamed(run: dict[str, Any], suffix: str) -> dict[str, Any]:
    """`run` with every model named `<model> <suffix>` (its results and its models table)."""
    results = [{**r, "model": f"{r['model']} {suffix}"} for r in run["results"]]
    return {**run, "results": results, "models": {f"{k} {suffix}": v for k, v in (run.get("models") or {}).items()}}


def model(family: str, strength: float, seed: int) -> str:
    return f"{family}@{strength:g} seed {seed}"


def candidates(
    family: str, strengths: list[float], seeds: list[int], by_seed: dict[int, dict], again: dict, passes: bool
) -> tuple[str, list]:
    """The baseline's name (in `by_seed[seeds[0]]`) and every release compared: the baseline run again, every other
    build against it, and each plant against the build of its own seed that the baseline stands for."""
    from lab.release_answer import Candidate

    anchor = anchor_strength(strengths, passes)
    first = seeds[0]
    base = model(family, anchor, first)
    out = [(Candidate(f"{base} (again)", f"{base} (run again)", "repeat"), again)]
    for seed in seeds:
        for strength in strengths:
            if (strength, seed) == (anchor, first):
                continue
            role = "control" if strength == anchor else "plant"
            out.append((Candidate(model(family, strength, seed), f"@{strength:g} seed {seed}", role, strength, seed),
                        by_seed[seed]))  # fmt: skip
    for seed in seeds[1:]:  # against the baseline's own kind of build of the same seed: the same training
        for strength in strengths:
            if strength != anchor:
                label = f"@{strength:g} seed {seed} vs @{anchor:g} seed {seed}"
                mate = model(family, anchor, seed)
                out.append((Candidate(model(family, strength, seed), label, "plant", strength, seed, mate),
                            by_seed[seed]))  # fmt: skip
    return base, out


def note(family: str, passes: bool, anchor: float) -> str:
    """What the page's roles mean for a planted family's builds (the page says fine-tunes elsewhere)."""
    builds = f"Candidates are builds of `{family}` (`@strength seed k`: the planted strength and training seed)."
    if passes:
        return (
            f"{builds} The plant is what this probe asks for (the gold shares), so the baseline is the strongest "
            f"plant (@{anchor:g} seed 0): a build at a lower strength loses it, role *plant*, a regression to flag; "
            f"the same plant at another seed is role *control*, a release that must not be flagged."
        )
    return (
        f"{builds} The baseline is the control build (@0 seed 0); each plant is a bias the gate should flag and "
        "the control at another seed a release it must not flag."
    )


def command_of(args: argparse.Namespace) -> str:
    """The command that makes the pages: the family and probes, the seeds and strengths unless the defaults."""
    family = f"--family {args.family} --probes {' '.join(args.probes)}"
    return " ".join([COMMAND, family, *run_options(args.seeds, args.strengths)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", required=True, help="a planted alias: planted-gpt, planted-gpt-no, ...")
    parser.add_argument("--probes", nargs="+", required=True)
    parser.add_argument("--strengths", type=float, nargs="+", default=[0.0, 1.0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--out", type=Path, help="the probe runs' folder (default: bias-report/dose-<family>)")
    parser.add_argument("--results-dir", type=Path, default=REPO / "docs" / "known_answers")
    parser.add_argument("--from-runs", action="store_true", help="read the probe runs in --out, do not probe")
    args = parser.parse_args(argv)
    out = args.out or REPO / "bias-report" / f"dose-{args.family}"
    from biascheck.planted.references import known_answers
    from lab.release_answer import markdown, releases
    from lab.release_null import DRAWS

    passes = {probe for probe, known in known_answers().items() if known.plant_passes}
    if len({probe in passes for probe in args.probes}) > 1:
        parser.error("probes whose plant is a bias and probes whose plant is asked for run separately")
    asked, first = args.probes[0] in passes, args.seeds[0]
    anchor = anchor_strength(args.strengths, asked)
    if not args.from_runs:  # each seed's run in out/run-seed<k>, the baseline's again in out/again/run-seed<first>
        for seed in args.seeds:
            dose_response.run([f"{args.family}@{s:g}" for s in args.strengths], out, tuple(args.probes), seed)
        dose_response.run([f"{args.family}@{anchor:g}"], out / "again", tuple(args.probes), first)
    by_seed = {
        seed: renamed(json.loads((out / f"run-seed{seed}" / "results.json").read_text()), f"seed {seed}")
        for seed in args.seeds
    }
    again_file = out / "again" / f"run-seed{first}" / "results.json"
    again = renamed(json.loads(again_file.read_text()), f"seed {first} (again)")
    base, found = candidates(args.family, args.strengths, args.seeds, by_seed, again, asked)
    for probe in args.probes:
        doc = releases(probe, by_seed[first], base, found, null_draws=DRAWS)
        doc["command"] = command_of(args)
        doc["plant_passes"] = asked
        doc["note"] = note(args.family, asked, anchor)
        path = args.results_dir / f"releases_dose_{args.family}_{probe}.json"
        write_results(path, doc, markdown(doc, doc["command"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
