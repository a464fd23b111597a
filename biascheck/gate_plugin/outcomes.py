"""What each model's probe tests did, for the gate: which were seen, which measured (reached their call
and passed or failed), which measured nothing (skipped, or an expected failure) and why. A model on which
nothing was measured, and a result outside its threshold whose test did not fail (an xfail marker), fail the
gate (`biascheck.gate_plugin.tracking`). Pure but for reading pytest's test reports."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

Outcomes = dict[str, dict[str, set[str]]]  # model -> seen / ran / failed node ids, skip reasons


def skip_reason(report: pytest.TestReport) -> str:
    """Why a skipped (or xfailed) test measured nothing."""
    if hasattr(report, "wasxfail"):
        return f"marked xfail{': ' + report.wasxfail if report.wasxfail else ''}"
    if isinstance(report.longrepr, tuple):  # in setup, or by pytest.skip in the test
        return str(report.longrepr[2]).removeprefix("Skipped: ")
    return "skipped"


def count(outcomes: Outcomes, skipped: dict[str, dict[str, str]], model: str, report: pytest.TestReport) -> None:
    """One report of a test of `model` into `outcomes`, and into `skipped` (node id -> model, test, reason:
    the report's 'not measured' list) when it measured nothing."""
    seen = outcomes.setdefault(model, {"seen": set(), "ran": set(), "failed": set(), "skips": set()})
    seen["seen"].add(report.nodeid)
    if report.failed:
        seen["failed"].add(report.nodeid)
    elif report.skipped:
        why = skip_reason(report)
        seen["skips"].add(f"{why} (an expected failure is not a measurement)" if hasattr(report, "wasxfail") else why)
        skipped[report.nodeid] = {"model": model, "test": report.nodeid, "reason": why}
    elif report.when == "call":
        seen["ran"].add(report.nodeid)  # passed (an xfail that passed too): the test measured


def nothing_measured(outcomes: Outcomes) -> list[tuple[str, str]]:
    """(gate failure name, message) per model whose every selected test was skipped: not measured, so the
    gate cannot pass on it. (A test that failed or errored is already red with its own reason.)"""
    out = []
    for model, seen in outcomes.items():
        if seen["seen"] and not seen["ran"] and not seen["failed"]:
            reasons = sorted(seen["skips"])
            more = f" (and {len(reasons) - 2} other reasons)" if len(reasons) > 2 else ""
            out.append(
                (
                    f"{model}::nothing-measured",
                    f"nothing was measured on {model}: all {len(seen['seen'])} selected tests were skipped, so the "
                    f"gate cannot pass on it. Skipped because: {' | '.join(reasons[:2])}{more}. Select probes that "
                    "apply to this model, or say what it covers (--bias-language, --bias-any-language).",
                )
            )
    return out


def outside(results: Sequence[Any]) -> str:
    """The gate failure for results outside their thresholds in a run whose tests all passed (marked xfail,
    or a test that records and never calls `bias.check()`): otherwise it ends green beside a failed
    threshold, and may be saved and accepted as a passing baseline. '' when there are none."""
    failed = [r for r in results if r.passed is False]
    if not failed:
        return ""
    shown = ", ".join(f"{r.key} ({r.model}) = {r.value:.4g}" for r in failed[:5])
    more = f" and {len(failed) - 5} more" if len(failed) > 5 else ""
    return (
        f"{len(failed)} result(s) outside their thresholds, yet no test failed: {shown}{more}. Their tests were "
        "marked xfail, or their failure was otherwise kept from pytest, and a gate does not pass a threshold it "
        "saw fail. A known issue belongs in a threshold profile with its reason (see docs/thresholds.md), not in "
        "an xfail marker."
    )
