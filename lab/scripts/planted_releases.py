"""Regression tracking shown on releases whose direction is known: SmolLM2-135M (the base, the baseline) against its
known-answer fine-tunes (each control, strength 0, must not be flagged; each plant should be), each compared by the
paired and the unpaired rule (`lab.release_answer`), the base run a second time (it must not change at all), each
plant against the control of its own seed, and each control against the first one (the noise between releases).

    python lab/scripts/planted_releases.py [--plant crows|two_person|bbq] [--seeds 0 1] [--strengths 0 1]
                                           [--out DIR] [--from-runs] [--results-dir docs/known_answers]

`--plant crows` (the default): the fine-tunes of `lab/scripts/finetune_crows_known_answer.py` on CrowS-Pairs'
stereotype-trait plant (about 8 minutes each on 2 idle CPU cores), probed by CrowS-Pairs: `releases_crows.json`.
`--plant two_person`: those of `lab/scripts/finetune_known_answer.py` on the two-person plant (about 15 minutes
each), probed by WinoBias and Winogender: `releases_winobias.json`, `releases_winogender.json`. `--plant bbq`: those
of `lab/scripts/finetune_bbq_known_answer.py` (about 27 minutes each), probed by BBQ with one pair per template as its
known answer is: `releases_bbq.json`. Each by its script's default recipe, reused when its manifest matches. Then
one pytest run of the probes on the base and every fine-tune, at the design the known answers are measured at (every
setting's untiered default), and a second run of the base alone. Each candidate carries its reading in the plant's
own frames (the base's measured here) and the fixed thresholds its own run failed; with two controls or more, a
third rule judges it with their spread as a fluctuation band (`controls_band`). Per candidate and paired metric,
the paired rule's calls on sign-flip releases of its items (`lab.release_null`). Writes per probe the results file
and the Markdown page generated from it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import finetune_bbq_known_answer as bbq  # noqa: E402
import finetune_crows_known_answer as crows  # noqa: E402
import finetune_known_answer as two_person  # noqa: E402
from finetune_known_answer import REPO, probe_models, run_options, write_results  # noqa: E402

BASE = "smollm2-135m"
COMMAND = "python lab/scripts/planted_releases.py"
Tuned = list[tuple[Path, float, int, dict[str, Any]]]  # (directory, strength, seed, manifest)
Ensure = Callable[[float, int], tuple[Path, dict[str, Any]]]  # (strength, seed) -> the fine-tune, made or found


@dataclass(frozen=True)
class Family:
    """One kind of known-answer fine-tune: the probes it is read by, where its fine-tunes live, its recipe, how
    its fine-tunes are made (or found) and how the base reads in the plant's own frames."""

    probes: tuple[str, ...]
    out: str
    recipe: dict[str, Any]
    maker: Callable[[Path], Ensure]  # the fine-tunes' folder -> its script's `ensure` by its default recipe
    base_in_frame: Callable[[], dict[str, Any]]
    settings: tuple[str, ...] = ()  # --bias-set values that replace their untiered defaults (the known answer's)


def _crows_maker(out: Path) -> Ensure:
    recipe = argparse.Namespace(**crows.RECIPE, out=out, schedule="constant")
    return lambda s, seed: crows.ensure(s, seed, recipe)


def _crows_base() -> dict[str, Any]:
    from lab import stereotype_traits

    return stereotype_traits.in_frame(BASE)


def _two_person_maker(out: Path) -> Ensure:
    from lab import two_person_in_frame

    recipe = argparse.Namespace(**two_person.RECIPE, out=out, schedule="constant")
    built = two_person_in_frame.stimuli()  # used only by a fine-tune made before its in-frame check
    return lambda s, seed: two_person.ensure(s, seed, recipe, built)


def _two_person_base() -> dict[str, Any]:
    from lab import two_person_in_frame

    return two_person_in_frame.in_frame(BASE)


def _bbq_maker(out: Path) -> Ensure:
    recipe = argparse.Namespace(**bbq.RECIPE, out=out, device="auto")
    return lambda s, seed: bbq.ensure(s, seed, recipe)


def _bbq_base() -> dict[str, Any]:
    return bbq.measure_in_frame(Path(BASE), "auto")


FAMILIES = {
    "crows": Family(("crows_pairs_gender",), "finetune-crows", crows.RECIPE, _crows_maker, _crows_base),
    "two_person": Family(
        ("winobias", "winogender"), "finetune", two_person.RECIPE, _two_person_maker, _two_person_base
    ),
    "bbq": Family((bbq.PROBE,), "finetune-bbq", bbq.RECIPE, _bbq_maker, _bbq_base, (f"{bbq.PROBE}.pairs=1",)),
}
SHORT = {
    "crows_pairs_gender": "crows",
    "bbq_gender_identity": "bbq",
}  # a probe's results file: releases_<short name, else the probe's>.json


def tuned_of(family: Family, strengths: list[float], seeds: list[int], out: Path) -> Tuned:
    """Every fine-tune of `family` in `out`, seed by seed, each strength in turn (made where it is not there)."""
    ensure = family.maker(out)
    return [(path, s, seed, manifest) for seed in seeds for s in strengths for path, manifest in [ensure(s, seed)]]


def role(strength: float) -> str:
    return "control" if strength == 0 else "plant"


def candidates_of(tuned: Tuned, first: dict, again: dict, base_in_frame: dict[str, Any] | None = None) -> list:
    """Every release compared: the base run again, each fine-tune against the base, each plant against its seed's
    control, each control against the first control."""
    from lab.release_answer import Candidate

    frames = {str(path): manifest.get("in_frame") for path, _s, _seed, manifest in tuned}
    out = [(Candidate(BASE, f"{BASE} (run again)", "repeat", in_frame=base_in_frame), again)]
    out += [
        (Candidate(str(p), f"fine-tuned @{s:g} seed {seed}", role(s), s, seed, in_frame=frames[str(p)]), first)
        for p, s, seed, _m in tuned
    ]
    control_of = {seed: str(path) for path, s, seed, _m in tuned if s == 0}
    out += [  # a plant against the control of its own seed: the same training but the association
        (
            Candidate(
                str(p), f"@{s:g} seed {seed} vs @0 seed {seed}", "plant", s, seed, control_of[seed], frames[str(p)]
            ),
            first,
        )
        for p, s, seed, _m in tuned
        if s > 0 and seed in control_of
    ]
    controls = [(path, seed) for path, s, seed, _m in tuned if s == 0]
    out += [
        (
            Candidate(
                str(p),
                f"@0 seed {seed} vs @0 seed {controls[0][1]}",
                "control",
                0.0,
                seed,
                str(controls[0][0]),
                frames[str(p)],
            ),
            first,
        )
        for p, seed in controls[1:]
    ]
    return out


def controls_band(tuned: Tuned, run: dict) -> dict[str, float] | None:
    """Per metric key, the controls' spread in `run` (`bands_from_run`: 1.96 × their SD), the fluctuation band a
    sweep of sibling builds gives the release gate; None with fewer than two controls."""
    from biascheck.gate.baseline import bands_from_run

    controls = {str(path) for path, s, _seed, _m in tuned if s == 0}
    if len(controls) < 2:
        return None
    return bands_from_run({**run, "results": [r for r in run["results"] if r["model"] in controls]})


def command_of(args: argparse.Namespace) -> str:
    """The command that makes the page: the plant unless the default, the seeds and strengths unless theirs."""
    parts = [COMMAND] + ([] if args.plant == "crows" else [f"--plant {args.plant}"])
    return " ".join(parts + run_options(args.seeds, args.strengths))


def one_seed_note(seed: int) -> str:
    """The page's note when its command made fine-tunes of one training seed."""
    return (
        f"One training seed ({seed}): no control is compared with another of another seed, so the noise between two "
        "builds of one recipe, which the other pages show, is not measured here (docs/gate.md says why)."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plant", choices=sorted(FAMILIES), default="crows")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--strengths", type=float, nargs="+", default=[0.0, 1.0])
    parser.add_argument("--out", type=Path, help="the fine-tunes' folder (default: bias-report/<the plant's>)")
    parser.add_argument("--results-dir", type=Path, default=REPO / "docs" / "known_answers")
    parser.add_argument(
        "--from-runs",
        action="store_true",
        help="read the probe runs in --out (the base's in-frame reading from the results file), do not probe",
    )
    args = parser.parse_args(argv)
    family = FAMILIES[args.plant]
    out = args.out or REPO / "bias-report" / family.out
    out.mkdir(parents=True, exist_ok=True)
    tuned = tuned_of(family, args.strengths, args.seeds, out)

    from biascheck.tiers import untiered_settings
    from lab.release_answer import markdown, releases
    from lab.release_null import DRAWS

    options = [f"--bias-set={s}" for s in untiered_settings(*family.settings)]
    files = [f"probes/test_{probe}.py" for probe in family.probes]
    run, repeat = out / "releases-run", out / "releases-repeat"
    if not args.from_runs:
        probe_models(files, [BASE, *[str(path) for path, *_ in tuned]], run, options)
        probe_models(files, [BASE], repeat, options)
    first = json.loads((run / "results.json").read_text())
    again = json.loads((repeat / "results.json").read_text())
    kept = args.results_dir / f"releases_{SHORT.get(family.probes[0], family.probes[0])}.json"
    earlier = json.loads(kept.read_text()).get("base_in_frame") if args.from_runs and kept.exists() else None
    base_in_frame = earlier or family.base_in_frame()  # the same model and frames: its reading does not change
    candidates = candidates_of(tuned, first, again, base_in_frame)
    bands = controls_band(tuned, first)
    for probe in family.probes:
        doc = releases(probe, first, BASE, candidates, base_in_frame=base_in_frame, null_draws=DRAWS, bands=bands)
        doc["command"] = command_of(args)
        doc["recipe"] = family.recipe
        if len(args.seeds) == 1:
            doc["note"] = one_seed_note(args.seeds[0])
        results = args.results_dir / f"releases_{SHORT.get(probe, probe)}.json"
        write_results(results, doc, markdown(doc, doc["command"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
