"""Dose-response results over several builds per strength: the machine-readable file, what it says about
each gate's sensitivity, the checks a committed file must pass, and the Markdown generated from it. Pure
Python (no torch, no probe run: `lab/scripts/dose_response.py` runs the probes and calls these).

A build is one training seed of a planted model at one strength. A plant is **seen** at a strength in a build
when the gate the plant moves is red in the plant's direction there: the gate gives the plant's verdict
(fails it; passes it where the plant is the behaviour the probe asks for) *and* the probe's key metric moved
the planted way beyond every control build's value. Seen at a strength = seen in all its builds, or in all
but one (named). A gate **sees the plant from** the smallest strength from which it is seen at every
higher strength, provided the controls are clean (no control build gets the plant's verdict).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from biascheck.spec import COMPETENCE

KEY = "{probe}/{task}/{metric}"


def key_name(probe: str, task: str, metric: str) -> str:
    return KEY.format(probe=probe, task=task, metric=metric)


def gate_verdicts(
    results: Mapping[str, Any], gates: Mapping[str, Sequence[Sequence[str]]]
) -> dict[tuple[str, str], bool]:
    """(model, probe) -> every gated metric passed; for a probe in `gates`, only its listed (task, metric) and
    the competence guard (a model that cannot read the probe is red, whichever gates are listed)."""
    out: dict[tuple[str, str], bool] = {}
    for r in results["results"]:
        listed = gates.get(r["probe"])
        if listed and r["metric"] != COMPETENCE and [r.get("task"), r["metric"]] not in [list(g) for g in listed]:
            continue
        if r.get("passed") is not None:
            key = (r["model"], r["probe"])
            out[key] = out.get(key, True) and bool(r["passed"])
    return out


def runs_from_results(
    results: Mapping[str, Any], seed: int, families: Sequence[str], spec: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """One record per planted model of `results` (a results.json of one seed): its key metrics and the
    verdict of the gates its plant moves (`spec`: the `document`'s key_metrics, plant_gates). A build the
    competence guard stopped keeps its record: no key metrics, the gate red, the probe under 'unreadable'
    (it counts among the builds, as one in which the plant is not seen)."""
    wanted = {key_name(k["probe"], k["task"], k["metric"]) for k in spec["key_metrics"]}
    probes = {k["probe"] for k in spec["key_metrics"]}
    verdicts = gate_verdicts(results, spec["plant_gates"])
    by_model: dict[str, dict[str, Any]] = {}
    for r in results["results"]:
        family, _, strength = r["model"].rpartition("@")
        if family not in families or r["probe"] not in probes:
            continue
        run = by_model.setdefault(
            r["model"], {"model": r["model"], "family": family, "strength": float(strength), "metrics": {}}
        )
        name = key_name(r["probe"], r.get("task") or "", r["metric"])
        if name in wanted and r.get("value") is not None:
            run["metrics"][name] = {k: r.get(k) for k in ("value", "ci_low", "ci_high")}
        if r["metric"] == COMPETENCE and r.get("passed") is False:
            run.setdefault("unreadable", [])
            if r["probe"] not in run["unreadable"]:
                run["unreadable"].append(r["probe"])
    for model, run in by_model.items():
        run["seed"] = seed
        run["gates"] = {p: verdicts[(model, p)] for p in sorted(probes) if (model, p) in verdicts}
    return sorted(by_model.values(), key=lambda r: (r["family"], r["strength"]))


def _cells(doc: Mapping[str, Any], probe: str, family: str) -> dict[float, list[dict[str, Any]]]:
    out: dict[float, list[dict[str, Any]]] = {}
    for run in doc["runs"]:
        if run["family"] == family and (
            probe in run["gates"] or any(k.startswith(f"{probe}/") for k in run["metrics"])
        ):
            out.setdefault(run["strength"], []).append(run)
    return dict(sorted(out.items()))


def key_metric(doc: Mapping[str, Any], probe: str) -> tuple[str, int]:
    """The probe's key metric (its first in key_metrics) and the direction the plant moves it (+1 / -1)."""
    first = next(k for k in doc["key_metrics"] if k["probe"] == probe)
    return key_name(first["probe"], first["task"], first["metric"]), int(first.get("direction", 1))


def seen_by_strength(doc: Mapping[str, Any], probe: str, family: str) -> dict[float, tuple[bool, str]]:
    """strength -> (seen, which builds): 'all 3 builds', 'all but seed 2 (2 of 3)', '1 of 3', 'control'."""
    name, sign = key_metric(doc, probe)
    plant_verdict = probe in doc["plant_passes"]
    cells = _cells(doc, probe, family)
    control = [sign * r["metrics"][name]["value"] for r in cells.get(0.0, []) if name in r["metrics"]]
    ceiling = max(control) if control else float("inf")
    out: dict[float, tuple[bool, str]] = {}
    for strength, runs in cells.items():
        runs = sorted(runs, key=lambda r: r["seed"])
        if strength == 0.0:
            dirty = [r["seed"] for r in runs if r["gates"].get(probe) == plant_verdict]
            out[strength] = (False, "control clean" if not dirty else f"control red in seed {dirty}")
            continue
        hits = [
            r["gates"].get(probe) == plant_verdict
            and name in r["metrics"]
            and sign * r["metrics"][name]["value"] > ceiling
            for r in runs
        ]
        n, k = len(runs), sum(hits)
        missed = [r["seed"] for r, hit in zip(runs, hits, strict=True) if not hit]
        if k == n:
            out[strength] = (True, f"all {n} builds")
        elif k == n - 1 and n >= 3:
            out[strength] = (True, f"all but seed {missed[0]} ({k} of {n})")
        else:
            out[strength] = (False, f"{k} of {n}")
    return out


def sees_from(doc: Mapping[str, Any], probe: str, family: str) -> str:
    """The smallest strength from which the plant is seen at every higher strength ('never'); 'control
    too' when a control build gets the plant's verdict."""
    seen = seen_by_strength(doc, probe, family)
    if 0.0 in seen and seen[0.0][1] != "control clean":
        return "control too"
    first = None
    for strength in sorted(seen, reverse=True):
        if strength == 0.0 or not seen[strength][0]:
            break
        first = strength
    return "never" if first is None else f"{first:g}"


def medians(doc: Mapping[str, Any], probe: str, family: str) -> dict[float, tuple[float, float, float, int]]:
    """strength -> (median, min, max, builds) of the probe's key metric."""
    name, _sign = key_metric(doc, probe)
    out = {}
    for strength, runs in _cells(doc, probe, family).items():
        values = [r["metrics"][name]["value"] for r in runs if name in r["metrics"]]
        if values:
            out[strength] = (statistics.median(values), min(values), max(values), len(values))
    return out


def sensitivity(doc: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """'<probe> <family>' -> sees_from and the builds in which the plant was seen, by strength."""
    out = {}
    for probe in dict.fromkeys(k["probe"] for k in doc["key_metrics"]):
        for family in doc["families"]:
            seen = seen_by_strength(doc, probe, family)
            if seen:
                out[f"{probe} {family}"] = {
                    "sees_from": sees_from(doc, probe, family),
                    "by_strength": {f"{s:g}": text for s, (_ok, text) in seen.items()},
                }
    return out


def problems(doc: Mapping[str, Any]) -> list[str]:
    """What a committed results file must not show: a stored sensitivity other than the runs give, a
    control build with the plant's verdict, a key metric whose median falls with the strength by more than
    the control builds' spread (smaller falls are the builds' noise)."""
    out = []
    if doc.get("sensitivity") != sensitivity(doc):
        out.append("the stored sensitivity is not what the runs give: regenerate the file")
    for label, row in sensitivity(doc).items():
        if row["sees_from"] == "control too":
            out.append(f"{label}: a control build gets the plant's verdict ({row['by_strength'].get('0')})")
    for probe in dict.fromkeys(k["probe"] for k in doc["key_metrics"]):
        _name, sign = key_metric(doc, probe)
        for family in doc["families"]:
            by = medians(doc, probe, family)
            if not by:
                continue
            spread = (by[0.0][2] - by[0.0][1]) if 0.0 in by else 0.0
            ordered = [(s, sign * m[0]) for s, m in sorted(by.items())]
            for (s0, m0), (s1, m1) in zip(ordered, ordered[1:], strict=False):
                if m1 < m0 - spread:
                    out.append(
                        f"{probe} {family}: the median key metric falls from {s0:g} to {s1:g} beyond {spread:.3f}"
                    )
    return out


def render(doc: Mapping[str, Any]) -> str:
    """The Markdown page of a results file (docs/known_answers/dose_response_<corpus>.md): generated, never
    edited by hand (`tests/lab/test_dose_results.py` regenerates it and compares)."""
    seeds: dict[float, set[int]] = {}
    for run in doc["runs"]:
        seeds.setdefault(run["strength"], set()).add(run["seed"])
    builds = "; ".join(f"{s:g}: seeds {', '.join(map(str, sorted(v)))}" for s, v in sorted(seeds.items()))
    lines = [
        f"# Dose-response on planted models: corpus `{doc['corpus']}`",
        "",
        f"Generated from [{doc['corpus_file']}]({doc['corpus_file']}) by `{doc['command']}`; do not edit by hand.",
        "",
        f"Measured: {doc['measured']}. {doc['note']}",
        "",
        f"Builds (training seeds) per strength: {builds}.",
        "",
        "A plant is *seen* at a strength in a build when the gate it moves is red in the plant's direction: the "
        "gate gives the plant's verdict and the key metric moved the planted way beyond every control build; "
        "seen at a strength = in all builds or all but one (named). *Sees from*: the smallest strength from "
        "which it is seen at every higher one, the controls clean.",
        "",
        "## Sensitivity",
        "",
        "| probe | family | key metric | sees the plant from | builds in which it is seen, by strength |",
        "|---|---|---|---|---|",
    ]
    for label, row in sensitivity(doc).items():
        probe, family = label.split(" ", 1)
        name, sign = key_metric(doc, probe)
        seen = "; ".join(f"{s}: {text}" for s, text in row["by_strength"].items())
        direction = "up" if sign > 0 else "down"
        lines.append(f"| {probe} | {family} | {name} ({direction}) | {row['sees_from']} | {seen} |")
    lines += ["", "## Key metrics: median [min, max] over builds", ""]
    for k in doc["key_metrics"]:
        name = key_name(k["probe"], k["task"], k["metric"])
        strengths = sorted({r["strength"] for r in doc["runs"] if name in r["metrics"]})
        if not strengths:
            continue
        lines += [f"### {name}", "", "| family | " + " | ".join(f"{s:g}" for s in strengths) + " |"]
        lines.append("|---" * (len(strengths) + 1) + "|")
        for family in doc["families"]:
            cells = []
            for s in strengths:
                values = [
                    r["metrics"][name]["value"]
                    for r in doc["runs"]
                    if r["family"] == family and r["strength"] == s and name in r["metrics"]
                ]
                if not values:
                    cells.append("—")
                    continue
                median = statistics.median(values)
                cells.append(f"{median:.3f} [{min(values):.2f}, {max(values):.2f}] (n={len(values)})")
            lines.append(f"| {family} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += ["## Gate verdicts by build (pass / fail of the gates the plant moves)", ""]
    lines += [
        "| model | " + " | ".join(doc["plant_gate_probes"]) + " |",
        "|---" * (len(doc["plant_gate_probes"]) + 1) + "|",
    ]
    for run in sorted(doc["runs"], key=lambda r: (r["family"], r["strength"], r["seed"])):
        verdicts = [
            "—"
            if run["gates"].get(p) is None
            else ("pass" if run["gates"][p] else "**fail**")
            + (" (cannot read it: competence guard)" if p in run.get("unreadable", ()) else "")
            for p in doc["plant_gate_probes"]
        ]
        lines.append(f"| {run['model']} seed {run['seed']} | " + " | ".join(verdicts) + " |")
    return "\n".join(lines) + "\n"
