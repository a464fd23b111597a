"""The report directory (results.json, summary.md, report.html), the terminal summary and the job summary.

Files are written whole or not at all: each goes to a temporary name in the target directory
and is renamed into place, so an interrupted run never leaves a half-written results file.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from biascheck import verdict
from biascheck.files import atomic_write, replace_dir
from biascheck.report import page, regression
from biascheck.report.tables import build_tables, render
from biascheck.results import PLOTS, PLOTS_STAGING, Result, RunPayload, run_payload

REPORT_FILES = ("results.json", "summary.md", "report.html")


def has_report(directory: Path | None) -> bool:
    """Whether `directory` holds report files of an earlier run (or holds them aside while this one runs:
    `biascheck.report.unfinished`)."""
    from biascheck.report import unfinished

    return directory is not None and unfinished.has_previous(directory)


def write_report(
    directory: Path, results: list[Result], meta: RunPayload, history_rows: list[dict[str, Any]] | None = None
) -> list[Path]:
    """results.json (everything, per-item scores included), summary.md and report.html (tables, the plots
    of `directory`/plots embedded, the history of the gated metrics from `history_rows`) in `directory`.
    An earlier run's baseline.md goes: the tracking plugin writes this run's after this, when it compared."""
    payload = run_payload(results, meta)
    (directory / "baseline.md").unlink(missing_ok=True)
    json_path, md_path, html_path = directory / "results.json", directory / "summary.md", directory / "report.html"
    atomic_write(json_path, json.dumps(payload, indent=1, ensure_ascii=False, allow_nan=False) + "\n")
    plots = page.read_plots(directory / PLOTS)
    atomic_write(html_path, page.page(results, meta, plots, history_rows or []))
    atomic_write(md_path, markdown_summary(results, meta))  # last: it replaces the unfinished run's marker
    return [json_path, md_path, html_path]


def verdict_markdown(results: list[Result], meta: RunPayload) -> str:
    """The gate's verdict and why: the exit status, the results outside their thresholds, every gate
    failure, and the comparison with the baseline (the terminal's table, regressions first)."""
    status = int(meta.get("exit_status", 0) or 0)
    gate = meta.get("baseline") or {}
    outside = [r for r in results if r.passed is False]
    gated = sum(r.passed is not None for r in results)
    lines = [verdict.run_heading(status), ""]
    if outside:
        lines.append(
            f"- {len(outside)} result(s) outside their thresholds: "
            + ", ".join(
                f"`{r.key}` ({r.model}) = {r.value:.4g}, needs {r.threshold.describe() if r.threshold else '?'}"
                for r in outside
            )
        )
    lines += [f"- {message}" for message in gate.get("failures") or []]
    lines += [f"- **warning:** {warning}" for warning in meta.get("gate_warnings") or []]
    if status and not outside and not gate.get("failures"):
        lines.append("- a test failed or errored (its report is in the job log)")
    if status == 0:
        compared = f"; no regression against baseline `{gate['name']}`" if gate.get("comparisons") else ""
        lines.append(f"{gated} of {len(results)} results gated by thresholds, all within them{compared}.")
    if comparisons := regression.comparisons(gate):
        lines += [
            "",
            regression.markdown(comparisons, gate.get("name") or "?", gate.get("regen_command") if status else None),
        ]
    return "\n".join(lines) + "\n\n"


def markdown_summary(results: list[Result], meta: RunPayload) -> str:
    """summary.md and the job summary: the verdict (`verdict_markdown`), then the tables."""
    head = [
        "## biascheck summary",
        "",
        f"profile `{meta.get('profile', {}).get('name', '?')}` · tier `{(meta.get('tier') or {}).get('name', '?')}` · "
        f"biascheck {meta.get('biascheck_version', '?')} · "
        f"models: {', '.join(f'`{m}`' for m in meta.get('models', {}))}",
        "",
    ]
    tables = render(build_tables(results), "github") if results else NOTHING_RECORDED + "\n"
    return "\n".join(head) + "\n" + verdict_markdown(results, meta) + tables + "\n" + not_measured_markdown(meta)


def not_measured_markdown(meta: RunPayload) -> str:
    """The probe tests that measured nothing (skipped or xfailed) and why, grouped by reason; '' if none."""
    skipped = meta.get("not_measured") or []
    if not skipped:
        return ""
    by_reason: dict[str, list[str]] = {}
    for entry in skipped:
        by_reason.setdefault(f"{entry['model']}: {entry['reason']}", []).append(entry["test"].split("::")[-1])
    lines = [f"### Not measured ({len(skipped)} probe test(s) skipped or expected to fail)", ""]
    lines += [
        f"- {reason} ({len(tests)}: {', '.join(tests[:4])}{' ...' if len(tests) > 4 else ''})"
        for reason, tests in by_reason.items()
    ]
    return "\n".join(lines) + "\n\n"


NOTHING_RECORDED = "This run recorded no result: no probe test recorded one (the reasons are in the gate's verdict)."


def terminal_summary(
    terminalreporter: Any,
    results: list[Result],
    meta: RunPayload,
    report_dir: Path | None,
    *,
    interrupted: bool,
    history_rows: list[dict[str, Any]] | None = None,
) -> bool:
    """The end of a run: the tables in the terminal, then (unless interrupted) the job summary and the files.
    True when the report files were written."""
    terminalreporter.section("biascheck summary")
    terminalreporter.write_line(render(build_tables(results), "simple") if results else NOTHING_RECORDED)
    if interrupted:
        discard_plots(report_dir)
        terminalreporter.write_line("run interrupted: no report files written (the previous ones are untouched)")
        return False
    append_step_summary(markdown_summary(results, meta))
    if report_dir is not None:
        replace_dir(report_dir / PLOTS_STAGING, report_dir / PLOTS)  # this run's figures, and no older ones
        written = write_report(report_dir, results, meta, history_rows)
        plots = report_dir / PLOTS
        if plots.is_dir() and any(plots.iterdir()):
            written.append(plots)
        terminalreporter.write_line(f"biascheck report: {', '.join(str(p) for p in written)}")
        return True
    return False


def discard_plots(report_dir: Path | None) -> None:
    """Remove the figures of a run that writes no report (interrupted, or nothing recorded), or that a
    killed run left behind; the report's own plots stay as they were."""
    if report_dir is not None:
        shutil.rmtree(report_dir / PLOTS_STAGING, ignore_errors=True)


def timings_table(terminalreporter: Any, timings: list[dict[str, Any]]) -> None:
    """`--bias-timings`: seconds by probe and stage (`biascheck.timing`), slowest probe first."""
    from tabulate import tabulate

    from biascheck.timing import table

    headers, rows = table(timings)
    terminalreporter.section("biascheck time by probe and stage (seconds, wall)")
    terminalreporter.write_line(tabulate(rows, headers, tablefmt="simple", disable_numparse=True))


def append_step_summary(markdown: str) -> None:
    """Append to the GitHub Actions job summary when ``$GITHUB_STEP_SUMMARY`` names one."""
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if target:
        with Path(target).open("a", encoding="utf-8") as out:
            out.write(markdown)
