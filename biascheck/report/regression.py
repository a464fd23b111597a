"""The regression gate's comparison as text: the terminal's table and its one-line count, and the job
summary's Markdown section (regressions first). The gate compares (`biascheck.gate.baseline`); this module
only shows what it found, and `comparisons` reads a saved run's comparisons back as the gate's records."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabulate import tabulate

from biascheck import verdict
from biascheck.gate import baseline as bl
from biascheck.spec import BETTER_SHORT

Comparison = bl.Comparison


def comparisons(baseline_block: Mapping[str, Any] | None) -> list[Comparison]:
    """The comparisons a run saved under results.json's `baseline` (none when it was not compared)."""
    return [Comparison(**c) for c in (baseline_block or {}).get("comparisons") or []]


HEADERS = [
    "model",
    "metric",
    "better",
    "baseline",
    "new",
    "change",
    "noise ±",
    "noise from",
    "change vs noise",
    "profile",
]


def _fmt(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "—"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def table(comparisons: list[Comparison], fmt: str = "simple") -> str:
    """The comparison as a table (fmt 'simple' for the terminal, 'github' for Markdown)."""
    rows = [
        [
            c.model,
            c.key,
            BETTER_SHORT.get(c.better, c.better),
            _fmt(c.base),
            _fmt(c.new),
            _fmt(c.change, True),
            _fmt(c.noise),
            c.noise_source,
            verdict.of_comparison(c.status, c.regressed),
            c.profile_verdict,
        ]
        for c in comparisons
    ]
    return tabulate(rows, headers=HEADERS, tablefmt=fmt, disable_numparse=True)


def summary_line(comparisons: list[Comparison], baseline: str) -> str:
    counts: dict[str, int] = {}
    for c in comparisons:
        counts[c.status] = counts.get(c.status, 0) + 1
    parts = ", ".join(f"{n} {s}" for s, n in sorted(counts.items(), key=lambda kv: (kv[0] != bl.REGRESSED, kv[0])))
    return f"against baseline {baseline!r}: {parts or 'nothing to compare'}"


def markdown(comparisons: list[Comparison], baseline: str, regen_command: str | None = None) -> str:
    """Job-summary section: a headline, the regressions first, then the whole table."""
    bad = bl.failing(comparisons)
    head = [f"## biascheck regression check against `{baseline}`", ""]
    if bad:
        head.append(
            f"**{len(bad)} metric(s) regressed beyond the noise, missing or not measured:** "
            + ", ".join(f"`{c.key}` ({c.model}: {c.status})" for c in bad)
        )
        if regen_command:
            head.append(f"\nIf the change is intended, regenerate the baseline: `{regen_command}`")
    else:
        head.append("No metric regressed beyond the noise.")
    head += ["", summary_line(comparisons, baseline), "", table(comparisons, "github"), ""]
    return "\n".join(head)
