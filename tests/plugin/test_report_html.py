"""report.html: the page's content from result records, and the page as headless Chromium renders it."""

import io
import re

import pytest
from browser import render

from biascheck.report import page as report_html
from biascheck.report import summary as report
from biascheck.results import Result
from biascheck.thresholds import Threshold


def result(probe="pronoun_ratio", metric="mean_abs_log_n", value=0.5, model="org/m<1>", gated=True, **kw):
    threshold = Threshold(None, 1.0, "why", "default.toml") if gated else None
    base = dict(
        model=model,
        probe=probe,
        task="is",
        metric=metric,
        value=value,
        ci_low=value - 0.1,
        ci_high=value + 0.1,
        n=40,
        estimator="mlm-slot",
        reference="model",
        higher_is_better=False,
        better="lower",
        threshold=threshold,
        passed=None if not gated else value <= 1.0,
    )
    base.update(kw)
    return Result(**base)


def png() -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot([0, 1], [0, 1])
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return buffer.getvalue()


RESULTS = [
    result(),
    result(metric="median_log_r", gated=False),
    result(probe="winobias", metric="pro_share", value=1.4),
]
META = {
    "profile": {"name": "default"},
    "exit_status": 1,
    "models": {"org/m<1>": {"family": "masked"}},
    "biascheck_version": "0.1.0",
    "created_utc": "2026-11-23T00:00:00+00:00",
}


def test_page_has_a_section_and_a_verdict_per_probe_and_escapes_names():
    page = report_html.page(RESULTS, META)
    sections = dict(re.findall(r'data-probe="([^"]+)" data-verdict="([^"]+)"', page))
    assert sections == {"pronoun_ratio": "pass", "winobias": "fail"}
    assert "org/m&lt;1&gt;" in page and "org/m<1>" not in page
    assert page.count("<tr") == 1 + 2 + 1 + 1  # a header and the rows of each table


def test_history_panels_show_each_gated_metric_only_with_this_run_last():
    stored = [
        {
            "run": f"v{i}",
            "model": "org/m<1>",
            "probe": "pronoun_ratio",
            "task": "is",
            "metric": m,
            "value": 0.1 * i,
            "ci_low": None,
            "ci_high": None,
            "n": 40,
        }
        for i in range(3)
        for m in ("mean_abs_log_n", "median_log_r")
    ]
    rows = report_html.history_rows(stored, RESULTS, saved_as=None)
    page = report_html.page(RESULTS, META, rows=rows)
    section = page.split('data-probe="pronoun_ratio"')[1].split("</section>")[0]
    assert section.count("<svg") == 1 and "History of the gated metrics (4 runs)" in section
    assert "this run: 0.5 [0.4, 0.6]" in section and "v2: 0.2" in section
    # saved under a name already in the store: not added twice
    assert {r["run"] for r in report_html.history_rows(stored, RESULTS, saved_as="v2")} == {"v0", "v1", "v2"}


def test_with_one_run_the_history_says_so_instead_of_drawing_empty_charts():
    rows = report_html.history_rows([], RESULTS, saved_as=None)
    section = report_html.page(RESULTS, META, rows=rows).split('data-probe="pronoun_ratio"')[1].split("</section>")[0]
    assert "<svg" not in section and "One run so far" in section and "(1 runs)" not in section


def test_baseline_comparison_adds_columns():
    meta = {
        **META,
        "baseline": {
            "name": "v1",
            "failed": True,
            "failures": ["x regressed"],
            "comparisons": [
                {
                    "model": "org/m<1>",
                    "key": "pronoun_ratio.is.mean_abs_log_n",
                    "base": 0.3,
                    "change": 0.2,
                    "status": "regressed",
                }
            ],
        },
    }
    page = report_html.page(RESULTS, meta)
    assert "<th>vs baseline</th>" in page and "<td>regressed</td>" in page and "+0.200" in page
    assert "the regression gate FAILED" in page and "x regressed" in page


def test_write_report_embeds_the_plots(tmp_path):
    (tmp_path / "plots").mkdir()
    (tmp_path / "plots" / "winobias-shares-m.png").write_bytes(png())
    written = report.write_report(tmp_path, RESULTS, META)
    page = (tmp_path / "report.html").read_text()
    assert written[-1].name == "report.html" and page.count("data:image/png;base64,") == 1
    assert "plots/winobias-shares-m.png" in page.split('data-probe="winobias"')[1]


def test_chromium_renders_the_page_with_its_plots_and_no_console_message(tmp_path):
    (tmp_path / "plots").mkdir()
    (tmp_path / "plots" / "pronoun_ratio-x-m.png").write_bytes(png())
    report.write_report(tmp_path, RESULTS, META)
    shown = render(tmp_path / "report.html", tmp_path / "shot.png")
    assert shown.console == []
    assert 'data-images="ok"' in shown.dom and shown.dom.count('class="probe"') == 2
    assert shown.screenshot.stat().st_size > 10_000


def test_the_browser_check_sees_a_plot_that_does_not_render(tmp_path):
    (tmp_path / "plots").mkdir()
    (tmp_path / "plots" / "pronoun_ratio-x-m.png").write_bytes(b"\x89PNG not really")
    report.write_report(tmp_path, RESULTS, META)
    shown = render(tmp_path / "report.html", tmp_path / "shot.png")
    assert 'data-images="broken"' in shown.dom
    assert any("plots that did not render: pronoun_ratio-x-m.png" in m for m in shown.console), shown.console


@pytest.mark.parametrize("value", [float("nan"), 1e9])
def test_odd_values_still_make_a_page(value):
    page = report_html.page([result(value=value, ci_low=None, ci_high=None)], META, rows=[])
    assert 'data-probe="pronoun_ratio"' in page
