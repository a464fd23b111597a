"""Summary tables of result records: one per (model, probe), the same rows for the terminal, Markdown
and report.html. Knows result records, and reads each metric's one-line meaning from its probe's spec (the
catalog), so a reader sees what a number measures, and for a gated one why its gate is where it is."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from tabulate import tabulate

from biascheck import verdict
from biascheck.errors import BiascheckError
from biascheck.power import Power, distance_to_bound, stable_size
from biascheck.results import Result
from biascheck.spec import BETTER_SHORT, COMPETENCE

EXPLAINED = "What each metric measures, and why a gated one's gate is there"
HEADERS = ["task", "metric", "better", "ref", "value", "95% CI", "n", "threshold", "result", "paper"]


@dataclass(frozen=True)
class Table:
    title: str
    rows: list[list[str]]
    notes: list[str]
    headers: list[str] = field(default_factory=lambda: list(HEADERS))
    meanings: list[str] = field(default_factory=list)  # gated metrics: what each measures, its gate and why
    glossary: list[str] = field(default_factory=list)  # the others: what each measures (reported, not judged)


def columns(members: Iterable[Result]) -> list[str]:
    """HEADERS, without 'paper' when no result has a paper value (a column of dashes says nothing)."""
    with_paper = any(r.paper_value is not None for r in members)
    return [h for h in HEADERS if h != "paper" or with_paper]


def _description(result: Result) -> str | None:
    """The metric's one-line meaning from its probe's spec; None for 'competence' (it has its own line)
    or a probe not in the catalog."""
    if result.metric == COMPETENCE:
        return None
    from biascheck.catalog import PROBES

    try:
        return PROBES[result.probe].metric(result.metric).description
    except (KeyError, BiascheckError):
        return None


def meaning(result: Result) -> str | None:
    """'metric: what it measures. Gate x ≤ 0.8: why' for a gated result; None otherwise."""
    description = _description(result)
    if result.threshold is None or description is None:
        return None
    return f"{result.metric}: {description}. Gate {result.threshold.describe()}: {result.threshold.why}"


def explained(members: Iterable[Result]) -> tuple[list[str], list[str]]:
    """What a table's metrics mean, once each: the gated ones with their gates and whys (`meaning`), then
    'metric: what it measures' for every metric no result of it is gated on."""
    members = list(members)
    gated = list(dict.fromkeys(m for m in map(meaning, members) if m))
    judged = {r.metric for r in members if r.threshold is not None}
    others = {r.metric: _description(r) for r in members if r.metric not in judged}
    return gated, [f"{metric}: {text}" for metric, text in others.items() if text]


def _num(value: float | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value:.3f}" if abs(value) < 1000 else f"{value:.4g}"


def _better(result: Result) -> str:
    """The metric's better direction, a 'target' metric with its target: '→ 0.5'."""
    if result.better == "target" and result.target is not None and math.isfinite(result.target):
        return f"→ {_num(result.target)}"
    return BETTER_SHORT.get(result.better, result.better)


def row(result: Result, headers: list[str] = HEADERS) -> list[str]:
    """One table row, in the order of `headers` (HEADERS, or `columns`)."""
    r = result
    ci = "—" if r.ci_low is None else f"[{_num(r.ci_low)}, {_num(r.ci_high)}]"
    return [
        r.task,
        r.metric,
        _better(r),
        r.reference,
        _num(r.value),
        ci,
        "—" if r.n is None else str(r.n),
        r.threshold.describe() if r.threshold else "—",
        verdict.of_result(r),
        _num(r.paper_value),
    ][: len(headers)]  # 'paper' is the last column: dropped with it


def grouped(results: Iterable[Result]) -> dict[tuple[str, str], list[Result]]:
    """Results by (model, probe), in recording order."""
    groups: dict[tuple[str, str], list[Result]] = {}
    for result in results:
        groups.setdefault((result.model, result.probe), []).append(result)
    return groups


def power_note(result: Result) -> str | None:
    """A note for a gated result whose verdict a fresh sample of the same size would often flip."""
    p = result.gate_power()
    if p is None or not p.unstable:
        return None
    return (
        f"power: {result.task}.{result.metric} = {_num(result.value)} is close to its bound: a fresh sample of "
        f"n = {result.n} gives the other verdict {1 - p.same_verdict:.0%} of the time (SE {p.se:.3g}; the "
        f"gate catches a true value {p.detectable:.3g} past its bound 4 times in 5)."
    )


def build_tables(results: Iterable[Result]) -> list[Table]:
    """One table per (model, probe), rows in recording order."""
    tables = []
    for (model, probe), members in grouped(results).items():
        notes: list[str] = []
        for r in members:
            if r.note and r.note not in notes:
                notes.append(r.note)
        notes.extend(n for n in map(power_note, members) if n)
        estimators = sorted({r.estimator for r in members if r.estimator})
        status = verdict.of_table(members)
        tiers = sorted({r.tier for r in members if r.tier})
        tier = f" · tier {', '.join(tiers)}" if tiers else ""
        title = f"{probe} · {model}{tier} · estimator {', '.join(estimators) or '—'} · {status}"
        headers = columns(members)
        meanings, glossary = explained(members)
        tables.append(Table(title, [row(r, headers) for r in members], notes, headers, meanings, glossary))
    return tables


def render(tables: list[Table], fmt: str) -> str:
    """fmt 'simple' for the terminal, 'github' for Markdown."""
    out = []
    for table in tables:
        heading = f"### {table.title}" if fmt == "github" else table.title
        out.append(heading)
        out.append(tabulate(table.rows, headers=table.headers, tablefmt=fmt, disable_numparse=True))
        for note in table.notes:
            out.append(f"> {note}" if fmt == "github" else f"  note: {note}")
        if (table.meanings or table.glossary) and fmt == "github":
            out.append(f"<details><summary>{EXPLAINED}</summary>\n")
            out += [f"- {m}" for m in table.meanings] + [f"- {m} (reported, not judged)" for m in table.glossary]
            out.append("\n</details>")
        else:
            out += [f"  gate: {m}" for m in table.meanings] + [f"  means: {m}" for m in table.glossary]
        out.append("")
    return "\n".join(out)


POWER_HEADERS = [
    "model",
    "probe",
    "task.metric",
    "tier",
    "n",
    "value",
    "threshold",
    "result",
    "SE",
    "caught 4 in 5 past the bound by",
    "same verdict on a fresh sample",
    "n that keeps it 4 in 5",
    "release gate flags, unpaired",
    "paired: fewest items flagged",
]


def _stable_size(result: Result, p: Power) -> str:
    """The power column that sizes a sample: the n at which this verdict would still be kept 4 times in 5."""
    if result.n is None or result.threshold is None:
        return "—"
    found = stable_size(result.n, p.se, distance_to_bound(result.value, result.threshold))
    return "none (on the bound)" if found is None else str(found)


def _paired_detectable(run: list[Result], result: Result) -> str:
    from biascheck.gate.detectable import paired_detectable

    found = paired_detectable(run, result)
    return "—" if found is None else f"{found[0]} ({found[1]:+.3g})"


def power_rows(results: Iterable[Result]) -> list[list[str]]:
    """A row per gated result with an interval: how much past its bound the gate sees at this n, and the smallest
    change the release gate flags against a second run, by each rule (`biascheck.gate.detectable`)."""
    from biascheck.gate.detectable import unpaired_detectable

    run = list(results)
    rows = []
    for r in run:
        p = r.gate_power()
        if p is None or r.threshold is None:
            continue
        flag = " (unstable)" if p.unstable else ""
        rows.append(
            [
                r.model,
                r.probe,
                f"{r.task}.{r.metric}",
                r.tier or "—",
                "—" if r.n is None else str(r.n),
                _num(r.value),
                r.threshold.describe(),
                verdict.of_result(r),
                f"{p.se:.3g}",
                f"{p.detectable:.3g}",
                f"{p.same_verdict:.2f}{flag}",
                _stable_size(r, p),
                _num(unpaired_detectable(r)),
                _paired_detectable(run, r),
            ]
        )
    return rows
