"""Every verdict biascheck shows, worded here and nowhere else: a result's, a probe's, a run's and the
regression gate's, for the terminal, summary.md, the job summary and report.html alike. The gate and the
report decide; this module only says what they decided, so the words cannot drift apart between outputs
(`tests/test_architecture.py` checks that no other module spells them). Pure: no I/O, no pytest."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from biascheck.results import Result
from biascheck.spec import COMPETENCE

ProbeVerdict = Literal["pass", "fail", "report"]

PASS, FAIL, REPORT = "pass", "FAIL", "report"
CANNOT_MEASURE = "CANNOT MEASURE"  # the competence guard failed: the probe's bias metrics were not computed
BADGE: dict[ProbeVerdict, str] = {"pass": "pass", "fail": "FAIL", "report": "report only"}
NO_VERDICT_HEADING = "### biascheck gate: no verdict (run unfinished)"


def of_profile(passed: bool | None) -> str:
    """A metric against its profile's threshold: 'report' (no threshold), 'pass' or 'FAIL'."""
    return REPORT if passed is None else (PASS if passed else FAIL)


def of_result(result: Result) -> str:
    """A result's cell in a table: as `of_profile`, but a failed competence guard CANNOT MEASURE."""
    if result.metric == COMPETENCE and result.passed is False:
        return CANNOT_MEASURE
    return of_profile(result.passed)


def of_probe(results: Sequence[Result]) -> ProbeVerdict:
    """'fail' if any gated metric failed, 'pass' if some were gated and all passed, else 'report'."""
    if any(r.passed is False for r in results):
        return "fail"
    return "pass" if any(r.passed for r in results) else "report"


def of_table(results: Iterable[Result]) -> str:
    """A summary table's title: how many of its results are outside their thresholds."""
    members = list(results)
    failed = sum(r.passed is False for r in members)
    gated = sum(r.passed is not None for r in members)
    return f"{failed} FAIL" if failed else "all within thresholds" if gated else "report only: no threshold"


def of_run(exit_status: int) -> str:
    return "passed" if exit_status == 0 else "failed"


def run_heading(exit_status: int) -> str:
    """summary.md's and the job summary's first line: the run's verdict and its exit status."""
    return f"### biascheck gate: {of_run(exit_status)} (exit status {exit_status})"


def of_regression_gate(failed: bool) -> str:
    return "FAILED" if failed else "passed"


def of_comparison(status: str, regressed: bool) -> str:
    """A metric's regression status in the comparison table: upper case when it fails the gate."""
    return status.upper() if regressed else status
