"""Regression tracking on releases whose true direction is known: the base model as the baseline, each fine-tune
of it as a candidate release (`lab/scripts/planted_releases.py`). A control (strength 0: the same fine-tune with
no association) is a release that must not be flagged; a plant (strength > 0) one the gate should see. Pure
Python over saved runs (results.json payloads); the comparison is the product's (`biascheck.gate.baseline`).

Each candidate is compared with the base twice, by the two rules the gate knows:

* **paired**: the change's 95 % interval from a paired bootstrap over the items both runs scored (the records
  each result carries, `biascheck.gate.paired`), where the metric declares how it is recomputed from them;
* **unpaired**: the same comparison with the per-item records taken away, so the noise of the change is the
  two runs' own half-widths in quadrature (what the gate did before items were paired, and still does for a
  metric without a recipe).

Per candidate and metric: the change, each rule's noise (the smallest change it can call: a change within it is
"within noise") and each rule's status; per candidate, which rule flags it (a metric regressed, as the release
gate would fail it). `repeat`, the base model run a second time, must show no change at all: determinism is
part of the claim.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from biascheck.gate.baseline import REGRESSED, compare, saved_results
from biascheck.gate.paired import COUNTED, MIN_CLUSTERS, items_for, paired_columns
from biascheck.spec import COMPETENCE
from lab.release_null import null_calls, pooled

RULES = ("paired", "unpaired")
BANDED = "paired+band"  # the paired rule with the controls' spread as a fluctuation band (`compare(bands=...)`)
# The paired interval a page was made with: the expanded percentile one (`biascheck.gate.paired`, step 4). A
# results file without the field was made with the plain 95 % percentile interval, before it.
INTERVAL = "expanded percentile"


@dataclass(frozen=True)
class Candidate:
    """A release compared with the base (or with `baseline`, a model of the same run: one control against another
    of another seed): `role` is `control`, `plant` or `repeat` (the base run again)."""

    model: str  # its name in the run's results
    label: str
    role: str
    strength: float | None = None
    seed: int | None = None
    baseline: str | None = None  # a model of the candidate's own run to compare with, not the base
    in_frame: dict[str, Any] | None = None  # how it reads in the plant's own frames (its fine-tune's manifest)


def one_model(payload: Mapping[str, Any], model: str, paired: bool = True) -> dict[str, Any]:
    """The run `payload` as if it had scored `model` alone; without its per-item records when not `paired`."""
    results = [dict(r) for r in payload["results"] if r["model"] == model]
    if not results:
        found = sorted({r["model"] for r in payload["results"]})
        raise ValueError(f"the run has no result of model {model!r}; it has {found}")
    if not paired:
        for r in results:
            r["paired"] = None
    models = {k: v for k, v in (payload.get("models") or {}).items() if k == model}
    return {**payload, "models": models, "results": results}


def compare_release(
    base: Mapping[str, Any],
    base_model: str,
    candidate: Mapping[str, Any],
    model: str,
    probe: str,
    bands: Mapping[str, float] | None = None,
) -> dict[str, dict[str, Any]]:
    """`task.metric` -> the change of `model` (in `candidate`) from `base_model` (in `base`) by each rule, for
    `probe`'s metrics but the competence guard's; with `bands` (metric key -> band), also by `BANDED`: the noise
    the larger of the paired noise and the band, as `biascheck compare --noise SWEEP` judges."""
    out: dict[str, dict[str, Any]] = {}
    for rule in (*RULES, BANDED) if bands is not None else RULES:
        paired = rule != "unpaired"
        banding = dict(bands or {}) if rule == BANDED else None
        found = compare(one_model(base, base_model, paired), one_model(candidate, model, paired), banding)
        for c in found:
            probe_of, _, key = c.key.partition(".")
            if probe_of != probe or key.endswith(COMPETENCE):
                continue
            row = out.setdefault(key, {"base": c.base, "new": c.new, "change": c.change, "better": c.better})
            row[rule] = {"noise": c.noise, "source": c.noise_source, "status": c.status}
    return out


def item_readings(
    base: Mapping[str, Any],
    base_model: str,
    candidate: Mapping[str, Any],
    model: str,
    probe: str,
    null_draws: int = 0,
) -> dict[str, dict[str, dict[str, int]]]:
    """`task.metric` -> what the items both runs saved say, from one pairing of them (`paired_columns`): for a
    share, how many items the candidate counts that the base did not (`turned`: `up`) and the other way (`down`),
    of `n` items in `clusters` clusters, what its paired noise follows (about 1.96 √(up + down − (up − down)² / n)
    / n with one item per cluster; docs/gate.md); with `null_draws`, where both runs share the recipe over at
    least the gate's `MIN_CLUSTERS`, the paired rule's calls on that many sign-flip releases of the items (`null`:
    `lab.release_null.null_calls`)."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    before, after = saved_results(one_model(base, base_model)), saved_results(one_model(candidate, model))
    mates = {(r.task, r.metric): r for r in after}
    for r in before:
        other = mates.get((r.task, r.metric))
        if r.probe != probe or not r.paired or other is None:
            continue
        found = paired_columns(r.paired, items_for(before, r) or [], items_for(after, other) or [])
        if isinstance(found, str):
            continue
        clusters, old, new = found
        said = out.setdefault(f"{r.task}.{r.metric}", {})
        counted = COUNTED.get(r.paired["statistic"])
        if counted is not None:
            was, now = counted(old), counted(new)
            said["turned"] = {
                "up": int((now & ~was).sum()),
                "down": int((was & ~now).sum()),
                "n": len(was),
                "clusters": int(clusters.max()) + 1,
            }
        if null_draws and other.paired == r.paired and int(clusters.max()) + 1 >= MIN_CLUSTERS:
            said["null"] = null_calls(r.paired, old, new, clusters, null_draws)  # fewer: the gate stays unpaired
    return {key: said for key, said in out.items() if said}


def failed_thresholds(run: Mapping[str, Any], model: str, probe: str) -> list[str]:
    """The fixed thresholds `model` failed in `run` for `probe` (`task.metric`): what the default gate sees in the
    candidate alone, without a baseline."""
    return sorted(
        f"{r['task']}.{r['metric']}"
        for r in run["results"]
        if r["model"] == model and r["probe"] == probe and r.get("passed") is False
    )


def frame_text(reading: Mapping[str, Any] | None) -> str:
    """A model's reading in the plant's own frames in a few words: CrowS-Pairs' trait plant
    (`stereotype_traits.lean_summary`), the two-person plant (`two_person_in_frame.lean_summary`, per source) or
    BBQ's (`bbq_answer.in_frame`)."""
    if not reading:
        return "—"
    if "ambig_target" in reading:
        return (
            f"ambiguous: {reading['ambig_target']:.2f} the target, {reading['ambig_unknown']:.2f} unknown; "
            f"disambiguated: {reading['disambig_accuracy']:.2f} right"
        )
    if "stereotyped_share" in reading:
        return f"{reading['stereotyped_share']:.2f} of {reading['traits']} traits the stereotype's way"
    return "; ".join(f"{source}: {r['majority']:.2f} of {r['n']} the majority's way" for source, r in reading.items())


def flagged(metrics: Mapping[str, Mapping[str, Any]], rule: str) -> list[str]:
    """The metrics `rule` calls regressed: the release gate fails the candidate on any of them."""
    return sorted(key for key, row in metrics.items() if row[rule]["status"] == REGRESSED)


def releases(
    probe: str,
    base: Mapping[str, Any],
    base_model: str,
    candidates: Sequence[tuple[Candidate, Mapping[str, Any]]],
    base_in_frame: Mapping[str, Any] | None = None,
    null_draws: int = 0,
    bands: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """The results document: every candidate (with the run that scored it) against `base_model` in `base`; each
    with its reading in the plant's own frames and the fixed thresholds it fails alone; with `null_draws`, per
    paired metric of every candidate but the repeat, how many of that many sign-flip releases of its items the
    paired rule calls (`lab.release_null`), and all of them pooled; with `bands` (the controls' spread per metric
    key, `bands_from_run`), every candidate also by `BANDED`."""
    rules = (*RULES, BANDED) if bands is not None else RULES
    labels: dict[str, str] = {}  # a fine-tune's name is its path; its label is where it first stands
    for candidate, _run in candidates:
        labels.setdefault(candidate.model, candidate.label)
    rows = []
    for candidate, run in candidates:
        against = (run, candidate.baseline) if candidate.baseline else (base, base_model)
        metrics = compare_release(*against, run, candidate.model, probe, bands)
        draws = 0 if candidate.role == "repeat" else null_draws  # a repeat's items are all equal: nothing to flip
        for key, said in item_readings(*against, run, candidate.model, probe, draws).items():
            metrics[key].update(said)
        rows.append(
            {
                "label": candidate.label,
                "baseline": labels[candidate.baseline] if candidate.baseline else base_model,
                "role": candidate.role,
                "strength": candidate.strength,
                "seed": candidate.seed,
                "in_frame": candidate.in_frame,
                "fixed_failed": failed_thresholds(run, candidate.model, probe),
                "metrics": metrics,
                "flagged": {rule: flagged(metrics, rule) for rule in rules},
            }
        )
    return {
        "probe": probe,
        "interval": INTERVAL,
        "base": base_model,
        "base_in_frame": base_in_frame,
        "base_fixed_failed": failed_thresholds(base, base_model, probe),
        "rules": list(rules),
        "candidates": rows,
        "null": pooled(rows) if null_draws else None,
    }


def problems(doc: Mapping[str, Any]) -> list[str]:
    """What the claim forbids: a control or a repeat flagged by any rule, a repeat that changed at all."""
    out = []
    for row in doc["candidates"]:
        for rule in doc["rules"]:
            if row["role"] in ("control", "repeat") and row["flagged"][rule]:
                out.append(f"{row['label']} ({row['role']}) flagged by the {rule} rule: {row['flagged'][rule]}")
        for key, metric in row["metrics"].items():
            if row["role"] == "repeat" and metric["change"] not in (0, None):
                out.append(f"{row['label']}: {key} changed by {metric['change']} on a repeated run")
    return out


def seen_line(doc: Mapping[str, Any]) -> str:
    """Which plants compared with the base the fixed thresholds miss, and which of those each rule flags."""
    plants = [r for r in doc["candidates"] if r["role"] == "plant" and r["baseline"] == doc["base"]]
    missed = [r for r in plants if not r.get("fixed_failed")]
    by_rule = {rule: [r["label"] for r in missed if r["flagged"][rule]] for rule in doc["rules"]}
    said = "; ".join(
        f"the {rule} rule flags {len(found)} ({', '.join(found) or 'none'})" for rule, found in by_rule.items()
    )
    return (
        f"Plants against the base: {len(plants)}; the fixed thresholds fail {len(plants) - len(missed)} of them alone. "
        f"Of the {len(missed)} they pass: {said}."
    )


def null_lines(pooled: Mapping[str, int] | None) -> list[str]:
    """The paired rule's measured false-alarm rate (`lab.release_null`), in a paragraph; none before it was kept."""
    if not pooled or not pooled["draws"]:
        return []
    rate = pooled["called"] / pooled["draws"]
    return [
        "False alarms, measured: per paired metric and candidate, releases made from its own items and the "
        "baseline's with each cluster's two readings exchanged at random (the sign-flip null: the same churn, no "
        "direction; `lab.release_null`); the paired rule is run on each as the gate runs it (column *null releases "
        f"called*). Over all of them it called {pooled['called']} of {pooled['draws']} ({100 * rate:.1f} %; its 95 % "
        "interval means 5 %, half of them in the regression's direction).",
        "",
    ]


def interval_line(doc: Mapping[str, Any]) -> str:
    """Which paired interval the page's numbers come from (`INTERVAL`, or the plain one before it)."""
    if doc.get("interval") == INTERVAL:
        return (
            "The paired interval is the expanded percentile one (`biascheck.gate.paired`, step 4): over n clusters z "
            "is √(n / (n − 1)) · t(n − 1) at 97.5 %, 2.02 for 60, 1.97 for 262."
        )
    close = [f"{row['label']} {key} ({ratio:.3f})" for row, key, ratio in borderline(doc)]
    return (
        "The paired intervals here are plain 95 % percentile ones (z = 1.96): this page predates the expanded "
        "percentile interval the gate now uses (`biascheck.gate.paired`, step 4), and its fine-tunes' runs were not "
        "kept to remake it. The expanded one is wider by √(n / (n − 1)) · t(n − 1) / 1.96 over n clusters: under "
        "1 % over 198 pairs or more (CrowS-Pairs, WinoBias), 3 % over Winogender's 60 occupations (Pearson's "
        "jackknife floor, step 5, is unchanged). Paired verdicts here whose change is within "
        f"{100 * (WIDENING - 1):.0f} % beyond its noise, which it could turn to within noise (change / noise): "
        + ("none." if not close else "; ".join(close) + ".")
    )


WIDENING = 1.03  # the expanded interval's widest widening on the pages made before it (60 clusters: 1.0296)


def borderline(doc: Mapping[str, Any], widening: float = WIDENING) -> list[tuple[Mapping[str, Any], str, float]]:
    """The paired rule's calls (regressed or improved) whose change is less than `widening` times its noise: (row,
    metric key, change / noise), in the page's order."""
    found = []
    for row in doc["candidates"]:
        for key, metric in row["metrics"].items():
            judged = metric.get("paired") or {}
            if judged.get("source") == "paired" and judged.get("status") != "within noise" and judged.get("noise"):
                ratio = abs(metric["change"]) / judged["noise"]
                if ratio < widening:
                    found.append((row, key, ratio))
    return found


def _noise(judged: Mapping[str, Any]) -> str:
    return "—" if judged["noise"] is None else f"{judged['noise']:.3f} ({judged['source']})"


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:+.3f}"


def markdown(doc: Mapping[str, Any], command: str) -> str:
    """The page generated from the results document."""
    lines = [
        f"# Planted releases: {doc['probe']}, paired against unpaired",
        "",
        f"Generated by `{command}` from its results file; do not edit.",
        "",
        f"Baseline: `{doc['base']}`. Each candidate is compared with it by the paired rule (the change's interval "
        "from the items both runs scored) and by the unpaired one (the two runs' half-widths in quadrature). "
        "Per metric: the change, then each rule's noise (the smallest change it calls) and verdict. A control "
        "against another control (two fine-tunes with no association, different seeds) is the releases' own noise: "
        "it must not be flagged either. For a share, the items the candidate counts that the base did not (up) and "
        "the other way (down): the paired noise follows them, about z √(up + down − (up − down)² / n) / n.",
        "",
        interval_line(doc),
        "",
        *([doc["note"], ""] if doc.get("note") else []),
        *null_lines(doc.get("null")),
    ]
    banded = BANDED in doc["rules"]
    if banded:
        lines += [
            f"Rule *{BANDED}*: the paired rule with the controls' spread as a fluctuation band (1.96 × the SD of the "
            "controls' values, two training seeds here), the larger of the two the noise, as `biascheck compare "
            "--noise SWEEP` judges a release against a sweep of sibling builds; the band is made from the controls, "
            "so only the plants' rows test it.",
            "",
        ]
    keys = list(dict.fromkeys(k for row in doc["candidates"] for k in row["metrics"]))
    for key in keys:
        header = (
            "| candidate | role | change | items turned up / down | paired noise | paired | null releases called "
            "| unpaired noise | unpaired |" + (f" band | {BANDED} |" if banded else "")
        )
        lines += [
            f"## `{key}`",
            "",
            header,
            "|---|---|---:|---:|---:|---|---:|---:|---|" + ("---:|---|" if banded else ""),
        ]
        for row in doc["candidates"]:
            m = row["metrics"].get(key)
            if m is None:
                continue
            t = m.get("turned")
            turned = "—" if t is None else f"{t['up']} / {t['down']} of {t['n']}"
            null = m.get("null")
            called = "—" if not null else f"{null['called']} / {null['draws']}" if null["draws"] else "no spread"
            line = (
                f"| {row['label']} | {row['role']} | {_num(m['change'])} | {turned} | {_noise(m['paired'])} "
                f"| {m['paired']['status']} | {called} | {_noise(m['unpaired'])} | {m['unpaired']['status']} |"
            )
            if banded:
                line += f" {_noise(m[BANDED])} | {m[BANDED]['status']} |"
            lines.append(line)
        lines.append("")
    rules = doc["rules"]
    lines += [
        "## Flagged (the release gate's verdict by each rule)",
        "",
        "Beside each candidate: how it reads in the plant's own frames (the fine-tune's manifest) and the fixed "
        "thresholds it fails alone (the default gate, no baseline).",
        "",
        "| candidate | role | in the plant's frames | fixed thresholds failed | " + " | ".join(rules) + " |",
        "|---|---|---|---|" + "---|" * len(rules),
        f"| {doc['base']} | baseline | {frame_text(doc.get('base_in_frame'))} "
        f"| {', '.join(doc.get('base_fixed_failed') or []) or 'none'} |" + " — |" * len(rules),
    ]
    for row in doc["candidates"]:
        verdicts = " | ".join(", ".join(row["flagged"][rule]) or "no" for rule in rules)
        fixed = ", ".join(row.get("fixed_failed") or []) or "none"
        lines.append(f"| {row['label']} | {row['role']} | {frame_text(row.get('in_frame'))} | {fixed} | {verdicts} |")
    lines += ["", seen_line(doc)]
    found = problems(doc)
    lines += ["", "Problems: " + ("; ".join(found) if found else "none (no control flagged, the repeat unchanged).")]
    return "\n".join(lines) + "\n"
