"""lab.dose on hand-made builds: when a plant counts as seen, from which strength, and what
a committed results file must not show."""

from __future__ import annotations

import pytest

from lab import dose

NAME = "p/t/m"


def _doc(values: dict[float, list[tuple[float, bool]]], passes: bool = False) -> dict:
    """Builds of one probe: strength -> [(key metric, gate passed)] for seeds 0, 1, ..."""
    runs = [
        {
            "model": f"fam@{s:g}",
            "family": "fam",
            "strength": s,
            "seed": seed,
            "metrics": {NAME: {"value": v, "ci_low": None, "ci_high": None}},
            "gates": {"p": ok},
        }
        for s, builds in values.items()
        for seed, (v, ok) in enumerate(builds)
    ]
    doc = {
        "families": ["fam"],
        "key_metrics": [{"probe": "p", "task": "t", "metric": "m", "direction": 1}],
        "plant_passes": ["p"] if passes else [],
        "runs": runs,
    }
    doc["sensitivity"] = dose.sensitivity(doc)
    return doc


def test_seen_needs_the_gates_verdict_and_the_metric_beyond_every_control_build_in_all_builds_but_one():
    doc = _doc(
        {
            0.0: [(0.0, True), (0.2, True), (0.1, True)],
            0.5: [(0.3, False), (0.15, False), (0.5, True)],  # red twice, but 0.15 is within the controls
            1.0: [(0.9, False), (0.8, False), (0.1, True)],  # all but seed 2
        }
    )
    seen = dose.seen_by_strength(doc, "p", "fam")
    assert seen[0.0] == (False, "control clean")
    assert seen[0.5] == (False, "1 of 3")
    assert seen[1.0] == (True, "all but seed 2 (2 of 3)")
    assert dose.sees_from(doc, "p", "fam") == "1"
    assert dose.medians(doc, "p", "fam")[1.0] == (0.8, 0.1, 0.9, 3)
    assert dose.problems(doc) == []


def test_a_plant_seen_at_a_strength_but_not_above_is_seen_from_the_higher_only():
    doc = _doc({0.0: [(0.0, True)] * 3, 0.5: [(0.5, False)] * 3, 0.75: [(0.1, True)] * 3, 1.0: [(0.9, False)] * 3})
    assert dose.sees_from(doc, "p", "fam") == "1"
    assert "falls from 0.5 to 0.75" in " ".join(dose.problems(doc))  # 0.5 -> 0.1, the controls' spread is 0


def test_a_red_control_is_reported_and_a_behaviour_plant_is_seen_when_it_passes():
    red = _doc({0.0: [(0.0, False), (0.0, True), (0.0, True)], 1.0: [(0.9, False)] * 3})
    assert dose.sees_from(red, "p", "fam") == "control too"
    assert any("control build" in line for line in dose.problems(red))
    behaviour = _doc({0.0: [(0.0, False)] * 3, 1.0: [(0.9, True)] * 3}, passes=True)
    assert dose.sees_from(behaviour, "p", "fam") == "1"


def test_a_stale_sensitivity_and_a_small_fall_within_the_controls_spread():
    doc = _doc({0.0: [(-0.1, True), (0.1, True), (0.0, True)], 0.5: [(0.3, True)] * 3, 0.75: [(0.25, True)] * 3})
    assert dose.problems(doc) == []  # 0.3 -> 0.25 is within the controls' spread of 0.2
    doc["sensitivity"] = {}
    assert dose.problems(doc) == ["the stored sensitivity is not what the runs give: regenerate the file"]


@pytest.mark.parametrize("direction", [1, -1])
def test_a_metric_the_plant_moves_down_is_seen_going_down(direction):
    doc = _doc({0.0: [(0.0, True)] * 3, 1.0: [(-0.5 * direction, False)] * 3})
    doc["key_metrics"][0]["direction"] = -1
    doc["sensitivity"] = dose.sensitivity(doc)
    assert dose.sees_from(doc, "p", "fam") == ("1" if direction == 1 else "never")


def test_gate_verdicts_count_only_the_listed_gates_of_a_probe():
    results = {
        "results": [
            {"model": "m@1", "probe": "p", "task": "a", "metric": "x", "passed": False},
            {"model": "m@1", "probe": "p", "task": "b", "metric": "y", "passed": True},
            {"model": "m@1", "probe": "q", "task": "a", "metric": "x", "passed": False},
        ]
    }
    assert dose.gate_verdicts(results, {"p": [["b", "y"]]}) == {("m@1", "p"): True, ("m@1", "q"): False}


def test_a_build_the_competence_guard_stopped_counts_as_one_in_which_the_plant_is_not_seen():
    """Its listed gate has no row (the probe never ran), but the guard's row is red: the build keeps its
    record, with no key metric, and is the one build of three that misses."""
    spec = {
        "key_metrics": [{"probe": "p", "task": "t", "metric": "m", "direction": 1}],
        "plant_gates": {"p": [["t", "m"]]},
    }
    runs = []
    for seed in range(3):
        rows = [{"model": "fam@0", "probe": "p", "task": "t", "metric": "m", "value": 0.0, "passed": False}]
        if seed == 1:
            rows.append(
                {"model": "fam@1", "probe": "p", "task": "t", "metric": "competence", "value": 0.7, "passed": False}
            )
        else:
            rows.append(
                {"model": "fam@1", "probe": "p", "task": "t", "metric": "competence", "value": 1.0, "passed": True}
            )
            rows.append({"model": "fam@1", "probe": "p", "task": "t", "metric": "m", "value": 0.9, "passed": True})
        runs += dose.runs_from_results({"results": rows}, seed, ["fam"], spec)
    stopped = next(r for r in runs if r["seed"] == 1 and r["strength"] == 1.0)
    assert stopped["metrics"] == {} and stopped["gates"] == {"p": False} and stopped["unreadable"] == ["p"]
    doc = {**spec, "families": ["fam"], "plant_passes": ["p"], "plant_gate_probes": ["p"], "runs": runs}
    doc |= {"corpus": "c", "corpus_file": "c.json", "command": "c", "measured": "here", "note": ""}
    assert dose.seen_by_strength(doc, "p", "fam")[1.0] == (True, "all but seed 1 (2 of 3)")
    assert dose.medians(doc, "p", "fam")[1.0] == (0.9, 0.9, 0.9, 2)
    assert "| fam@1 seed 1 | **fail** (cannot read it: competence guard) |" in dose.render(doc)
