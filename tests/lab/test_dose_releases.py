"""The planted dose-response as releases (`lab/scripts/dose_releases.py`): which build is the baseline and what each
candidate's role is, in both directions (a plant that is a bias; a plant the probe asks for)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "lab" / "scripts"))
import dose_releases  # noqa: E402


def run(seed):
    return dose_releases.renamed({"models": {"fam@0": {}}, "results": [{"model": "fam@0"}]}, f"seed {seed}")


def test_a_bias_plant_is_judged_against_the_control_and_each_control_seed_must_not_be_flagged():
    by_seed = {0: run(0), 1: run(1)}
    base, found = dose_releases.candidates("fam", [0.0, 0.5, 1.0], [0, 1], by_seed, run("0 (again)"), passes=False)
    assert base == "fam@0 seed 0"
    roles = [(c.label, c.role, c.baseline) for c, _run in found]
    assert roles == [
        ("fam@0 seed 0 (run again)", "repeat", None),
        ("@0.5 seed 0", "plant", None),
        ("@1 seed 0", "plant", None),
        ("@0 seed 1", "control", None),
        ("@0.5 seed 1", "plant", None),
        ("@1 seed 1", "plant", None),
        ("@0.5 seed 1 vs @0 seed 1", "plant", "fam@0 seed 1"),
        ("@1 seed 1 vs @0 seed 1", "plant", "fam@0 seed 1"),
    ]
    assert [c.model for c, _run in found][0] == "fam@0 seed 0 (again)"
    assert all(r is by_seed[c.seed] for c, r in found[1:])


def test_a_plant_the_probe_asks_for_turns_the_directions_around():
    """The strongest plant at seed 0 is the baseline; a build that loses it is the release to flag; the same
    plant at another seed is one that must not be flagged."""
    by_seed = {0: run(0), 1: run(1)}
    base, found = dose_releases.candidates("fam", [0.0, 1.0], [0, 1], by_seed, run("0 (again)"), passes=True)
    assert base == "fam@1 seed 0"
    assert [(c.label, c.role) for c, _run in found] == [
        ("fam@1 seed 0 (run again)", "repeat"),
        ("@0 seed 0", "plant"),
        ("@0 seed 1", "plant"),
        ("@1 seed 1", "control"),
        ("@0 seed 1 vs @1 seed 1", "plant"),
    ]


def test_renamed_keeps_builds_of_different_seeds_apart():
    renamed = dose_releases.renamed({"models": {"m": {"x": 1}}, "results": [{"model": "m", "value": 1}]}, "seed 3")
    assert renamed == {"models": {"m seed 3": {"x": 1}}, "results": [{"model": "m seed 3", "value": 1}]}


def test_the_page_says_what_its_roles_mean_in_each_direction():
    from lab.release_answer import markdown

    asked = dose_releases.note("fam", True, 1.0)
    assert "baseline is the strongest plant (@1 seed 0)" in asked and "loses it" in asked
    assert "baseline is the control build (@0 seed 0)" in dose_releases.note("fam", False, 0.0)
    doc = {"probe": "p", "base": "b", "rules": ["paired"], "candidates": [], "note": asked}
    assert asked in markdown(doc, "cmd")


def test_a_releases_page_names_the_seeds_and_strengths_it_was_made_with():
    """planted_releases' and dose_releases' command lines on their pages say a run of fewer seeds or other strengths
    than the defaults."""
    import argparse

    import planted_releases

    default = argparse.Namespace(plant="crows", seeds=[0, 1], strengths=[0.0, 1.0])
    assert planted_releases.command_of(default) == "python lab/scripts/planted_releases.py"
    fewer = argparse.Namespace(plant="bbq", seeds=[0], strengths=[0.0, 0.5, 1.0])
    assert planted_releases.command_of(fewer) == (
        "python lab/scripts/planted_releases.py --plant bbq --seeds 0 --strengths 0 0.5 1"
    )
    dose = argparse.Namespace(
        family="planted-gpt-no", probes=["norwegian_occupations"], seeds=[0, 1], strengths=[0, 0.5, 1]
    )
    assert dose_releases.command_of(dose) == (
        "python lab/scripts/dose_releases.py --family planted-gpt-no --probes norwegian_occupations --strengths 0 0.5 1"
    )
