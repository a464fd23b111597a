"""Regression tracking shown on releases whose direction is known: SmolLM2-135M (the base, the baseline) against its
fine-tunes on CrowS-Pairs' stereotype-trait plant (`lab/scripts/finetune_crows_known_answer.py`: each control,
strength 0, must not be flagged; each plant should be), each compared by the paired and the unpaired rule
(`lab.release_answer`), the base run a second time (it must not change at all), each plant against the control of
its own seed, and each control against the first one (the noise between releases).

    python lab/scripts/planted_releases.py [--seeds 0 1] [--strengths 0 1] [--out DIR] [--from-runs]
                                           [--results docs/known_answers/releases_crows.json]

The fine-tunes are those of the CrowS-Pairs script, by its recipe, reused when its manifest matches (about 8
minutes each on 2 idle CPU cores); then one pytest run of the probe on the base and every fine-tune, at the design
the known answers are measured at (every setting's untiered default), and a second run of the base alone. Writes the
results file and the Markdown page generated from it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from finetune_crows_known_answer import RECIPE, ensure  # noqa: E402
from finetune_known_answer import REPO, probe_models, write_results  # noqa: E402

PROBE = "crows_pairs_gender"
BASE = "smollm2-135m"
COMMAND = "python lab/scripts/planted_releases.py"


def role(strength: float) -> str:
    return "control" if strength == 0 else "plant"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--strengths", type=float, nargs="+", default=[0.0, 1.0])
    parser.add_argument("--out", type=Path, default=REPO / "bias-report" / "finetune-crows")
    parser.add_argument("--results", type=Path, default=REPO / "docs" / "known_answers" / "releases_crows.json")
    parser.add_argument("--from-runs", action="store_true", help="read the probe runs already in --out, do not probe")
    args = parser.parse_args(argv)
    recipe = argparse.Namespace(**RECIPE, out=args.out, schedule="constant")
    args.out.mkdir(parents=True, exist_ok=True)
    tuned = [(ensure(s, seed, recipe)[0], s, seed) for seed in args.seeds for s in args.strengths]

    from biascheck.tiers import untiered_settings
    from lab.release_answer import Candidate, releases

    options = [f"--bias-set={s}" for s in untiered_settings()]
    files = [f"probes/test_{PROBE}.py"]
    run, repeat = args.out / "releases-run", args.out / "releases-repeat"
    if not args.from_runs:
        probe_models(files, [BASE, *[str(path) for path, _, _ in tuned]], run, options)
        probe_models(files, [BASE], repeat, options)
    first = json.loads((run / "results.json").read_text())
    again = json.loads((repeat / "results.json").read_text())
    candidates = [(Candidate(BASE, f"{BASE} (run again)", "repeat"), again)]
    candidates += [
        (Candidate(str(path), f"fine-tuned @{s:g} seed {seed}", role(s), s, seed), first) for path, s, seed in tuned
    ]
    control_of = {seed: str(path) for path, s, seed in tuned if s == 0}
    candidates += [  # a plant against the control of its own seed: the same training but the association
        (Candidate(str(path), f"@{s:g} seed {seed} vs @0 seed {seed}", "plant", s, seed, control_of[seed]), first)
        for path, s, seed in tuned
        if s > 0 and seed in control_of
    ]
    controls = [(path, seed) for path, s, seed in tuned if s == 0]
    candidates += [
        (
            Candidate(
                str(path), f"@0 seed {seed} vs @0 seed {controls[0][1]}", "control", 0.0, seed, str(controls[0][0])
            ),
            first,
        )
        for path, seed in controls[1:]
    ]
    from lab.release_answer import markdown

    doc = releases(PROBE, first, BASE, candidates)
    doc["command"] = COMMAND
    doc["recipe"] = RECIPE
    write_results(args.results, doc, markdown(doc, COMMAND))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
