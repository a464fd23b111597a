import json

import pytest

from biascheck.report import summary as report
from biascheck.results import Result
from biascheck.thresholds import Threshold


def result(metric="mean_abs_log_n", value=0.5, passed=True, **kw):
    base = dict(
        model="m",
        probe="pronoun_ratio",
        task="is",
        metric=metric,
        value=value,
        ci_low=0.4,
        ci_high=0.6,
        n=923,
        estimator="mlm-slot",
        reference="model",
        higher_is_better=False,
        better="lower",
        threshold=Threshold(None, 1.0, "why", "default.toml: pronoun_ratio.mean_abs_log_n"),
        passed=passed,
    )
    base.update(kw)
    return Result(**base)


def test_table_shows_value_interval_threshold_verdict_and_n():
    table = report.build_tables([result(), result("median_log_r", 2.0, None, threshold=None)])[0]
    assert table.rows[0] == ["is", "mean_abs_log_n", "lower", "model", "0.500", "[0.400, 0.600]", "923", "≤ 1", "pass"]
    assert table.rows[1][7:9] == ["—", "report"]
    assert "paper" not in table.headers  # no result has a paper value: no column of dashes
    with_paper = report.build_tables([result(), result("median_log_r", 2.0, None, threshold=None, paper_value=1.5)])[0]
    assert with_paper.headers[-1] == "paper" and [r[-1] for r in with_paper.rows] == ["—", "1.500"]


def test_every_metric_says_what_it_measures_and_a_gated_one_why_its_gate_is_there():
    from biascheck.catalog import PROBES

    members = [
        result(),
        result("median_log_r", 2.0, None, threshold=None),
        result("median_log_r", 2.1, None, threshold=None, task="works_as"),
    ]
    table = report.build_tables(members)[0]
    description = PROBES["pronoun_ratio"].metric("mean_abs_log_n").description
    ungated = PROBES["pronoun_ratio"].metric("median_log_r").description
    assert table.meanings == [f"mean_abs_log_n: {description}. Gate ≤ 1: {result().threshold.why}"]
    assert table.glossary == [f"median_log_r: {ungated}"]  # once, however many tasks report it
    markdown = report.render([table], "github")
    assert "<details><summary>What each metric measures" in markdown
    assert f"- median_log_r: {ungated} (reported, not judged)" in markdown
    terminal = report.render([table], "simple")
    assert f"  gate: mean_abs_log_n: {description}" in terminal and f"  means: median_log_r: {ungated}" in terminal


def test_table_shows_which_way_is_better_and_a_target():
    rows = report.build_tables(
        [
            result("median_log_r", -0.8, None, threshold=None, better="zero", higher_is_better=None),
            result("stereotype_agreement", 0.7, None, threshold=None, better="target", target=0.5),
            result("mean_certainty", 0.1, None, threshold=None, better="none"),
        ]
    )[0].rows
    assert [r[2] for r in rows] == ["→ 0", "→ 0.500", "—"]


def test_failed_metric_is_counted_in_the_title():
    table = report.build_tables([result(value=2.0, passed=False)])[0]
    assert "1 FAIL" in table.title and table.rows[0][8] == "FAIL"


def test_a_table_with_nothing_gated_does_not_say_all_within_thresholds():
    table = report.build_tables([result("median_log_r", 2.0, None, threshold=None)])[0]
    assert table.title.endswith("report only: no threshold")
    assert report.build_tables([result()])[0].title.endswith("all within thresholds")


def test_markdown_is_a_github_table():
    text = report.markdown_summary([result()], {"profile": {"name": "default"}, "models": {"m": {}}})
    assert "| task" in text and "|---" in text.replace(" ", "").replace(":", "")


def test_summary_md_carries_the_verdict_and_the_regressions():
    """summary.md is what the action comments on a pull request: the verdict with its reasons and the
    baseline comparison, not the threshold tables alone."""
    comparison = dict(
        model="m",
        key="pronoun_ratio.is.mean_abs_log_n",
        base=0.2,
        new=0.5,
        change=0.3,
        noise=0.1,
        noise_source="intervals",
        better="lower",
        status="regressed",
        profile_verdict="pass",
    )
    failed = {
        "exit_status": 1,
        "baseline": {
            "name": "v1",
            "failed": True,
            "regen_command": "pytest --regen",
            "failures": ["pronoun_ratio.is.mean_abs_log_n (m) regressed beyond the noise"],
            "comparisons": [comparison],
        },
    }
    text = report.markdown_summary([result()], failed)
    assert "### biascheck gate: failed (exit status 1)" in text
    assert "- pronoun_ratio.is.mean_abs_log_n (m) regressed beyond the noise" in text
    assert "| m       | pronoun_ratio.is.mean_abs_log_n | lower    | 0.200      | 0.500 | +0.300   |" in text
    assert "regenerate the baseline: `pytest --regen`" in text
    unjudged = result("median_log_r", passed=None, threshold=None)
    passed = report.markdown_summary([result(), unjudged], {"exit_status": 0})
    assert "### biascheck gate: passed (exit status 0)" in passed and "1 of 2 results gated by thresholds" in passed
    outside = report.markdown_summary([result(value=2.0, passed=False)], {"exit_status": 1})
    assert "- 1 result(s) outside their thresholds: `pronoun_ratio.is.mean_abs_log_n` (m) = 2, needs ≤ 1" in outside


def test_report_files_are_complete_json_with_no_nan(tmp_path):
    written = report.write_report(tmp_path, [result(value=float("nan"), passed=False)], {"biascheck_version": "x"})
    data = json.loads(written[0].read_text())
    assert data["results"][0]["value"] is None and data["biascheck_version"] == "x"
    assert not list(tmp_path.glob(".*.tmp"))


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path):
    target = tmp_path / "results.json"
    target.write_text("old")

    with pytest.raises(TypeError):
        report.atomic_write(target, object())  # type: ignore[arg-type]
    assert target.read_text() == "old" and not list(tmp_path.glob(".*.tmp"))


def test_report_files_are_readable_by_others_as_a_plain_write_would_leave_them(tmp_path):
    """mkstemp makes 0600 files; results.json and summary.md get 0666 less the umask (0644 under 022)."""
    import os

    old = os.umask(0o022)
    try:
        written = report.write_report(tmp_path, [result()], {"biascheck_version": "x"})
    finally:
        os.umask(old)
    assert {oct(p.stat().st_mode & 0o777) for p in written} == {"0o644"}


def test_report_html_folds_every_metric_s_meaning_under_its_table():
    from biascheck.catalog import PROBES
    from biascheck.report.page import result_table

    html = result_table([result(), result("median_log_r", 2.0, None, threshold=None)], {})
    table, folded = html.split("</table>")
    assert folded.startswith("<details><summary>What each metric measures")  # folded: the table comes first
    assert "Gate ≤ 1: why" in folded and PROBES["pronoun_ratio"].metric("mean_abs_log_n").description in folded
    assert PROBES["pronoun_ratio"].metric("median_log_r").description in folded and "(reported, not judged)" in folded
    assert "<th>paper</th>" not in table  # no paper value: no column of dashes
