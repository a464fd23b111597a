"""report.html: one self-contained page per run, for people who would rather look than read.

Everything is inside the file (no network, no scripts or styles from elsewhere): the run's header
and verdict, a contents list with each probe's verdict, and per probe the summary table of every
model (with the baseline comparison when the run had one), its notes, its plots (the PNGs of
``plots/`` embedded as data URIs) and the history of each gated metric as small multiples (inline
SVG, one panel per metric, the pass band shaded). Knows result records, the metadata dict of
results.json and history rows (`ResultStore.metric_rows()`); never imports pytest or torch.

A short inline script checks that every image decoded and reports any that did not with
``console.error``, so a browser test that watches the console sees a broken page.
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from biascheck import verdict
from biascheck.gate import history
from biascheck.report.tables import EXPLAINED, columns, explained, grouped, row
from biascheck.results import Result, comparisons_by_key
from biascheck.thresholds import Threshold

THIS_RUN = "this run"
HISTORY_RUNS = 20  # panels show the last this many runs

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:1200px;
padding:0 1.2em 3em;color:#1d2228}
h1{margin:.8em 0 .2em}h2{margin:1.6em 0 .4em;border-bottom:1px solid #d5d9de;padding-bottom:.2em}
h3{margin:1.1em 0 .3em;font-size:15px}
.meta{color:#56606b}.badge{display:inline-block;border-radius:4px;padding:0 .45em;font-weight:600;font-size:12px}
.pass{background:#dcf3e1;color:#135d2a}.fail{background:#fbe0e0;color:#8c1c1c}.report{background:#e8ebef;color:#3d4650}
table{border-collapse:collapse;margin:.3em 0 .6em;font-size:13px}
th,td{border:1px solid #d5d9de;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#f3f5f7}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.failed td{background:#fff4f4}ul.notes{color:#56606b;font-size:12.5px}
figure{display:inline-block;margin:.4em 1em .8em 0;vertical-align:top}
figure img{max-width:100%;border:1px solid #e3e6e9}figcaption{font-size:12px;color:#56606b}
.multiples{display:flex;flex-wrap:wrap;gap:.6em}.multiples svg{border:1px solid #e3e6e9;background:#fff}
nav ul{columns:2;padding-left:1.2em}
"""

CHECK_SCRIPT = """
window.addEventListener('load', function () {
  var broken = [];
  document.querySelectorAll('img').forEach(function (img) {
    if (!img.complete || img.naturalWidth === 0) { broken.push(img.alt); }
  });
  if (broken.length) { console.error('biascheck report: plots that did not render: ' + broken.join(', ')); }
  document.body.setAttribute('data-images', broken.length ? 'broken' : 'ok');
});
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _badge(found: verdict.ProbeVerdict) -> str:
    return f'<span class="badge {found}">{verdict.BADGE[found]}</span>'


def _fmt(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value:+.3f}" if isinstance(value, float) else _e(value)


def result_table(members: Sequence[Result], comparisons: Mapping[tuple[str, str], Mapping[str, Any]]) -> str:
    """One model's results for one probe; baseline columns when the run was compared with one."""
    shown = columns(members)
    headers = shown + (["baseline", "change", "vs baseline"] if comparisons else [])
    numeric = {"value", "95% CI", "n", "paper", "baseline", "change"}
    out = ["<table><thead><tr>", *(f"<th>{_e(h)}</th>" for h in headers), "</tr></thead><tbody>"]
    for r in members:
        cells = row(r, shown)
        if comparisons:
            c = comparisons.get((r.model, r.key)) or {}
            base = c.get("base")
            cells += ["—" if base is None else f"{base:.3f}", _fmt(c.get("change")), c.get("status", "—")]
        css = ' class="failed"' if r.passed is False else ""
        out.append(f"<tr{css}>")
        out += [f"<td{' class=num' if h in numeric else ''}>{_e(v)}</td>" for h, v in zip(headers, cells, strict=True)]
        out.append("</tr>")
    out.append("</tbody></table>")
    meanings, glossary = explained(members)
    if meanings or glossary:  # folded: the table stays the first thing a reader sees
        out.append(f"<details><summary>{_e(EXPLAINED)}</summary><ul>")
        out += [f"<li>{_e(m)}</li>" for m in meanings] + [f"<li>{_e(m)} (reported, not judged)</li>" for m in glossary]
        out.append("</ul></details>")
    return "".join(out)


def _scale(low: float, high: float, size: float, pad: float) -> Any:
    span = high - low or 1.0
    return lambda v: pad + (v - low) / span * (size - 2 * pad)


def svg_panel(title: str, runs: Sequence[str], points: Sequence[tuple | None], threshold: Threshold | None) -> str:
    """A small chart of one metric over runs: a dot per run with its 95 % interval, the pass band shaded,
    the last run filled. `points[i]` is (value, ci_low, ci_high, models averaged) or None."""
    width, height, left, bottom, top = 240, 150, 44, 34, 22
    values = [v for p in points if p for v in (p[0], p[1], p[2]) if v is not None and math.isfinite(v)]
    limits = [x for x in (threshold.min, threshold.max) if x is not None] if threshold else []
    low, high = min(values + limits, default=0.0), max(values + limits, default=1.0)
    if high - low < 1e-9:
        low, high = low - 0.5, high + 0.5
    margin = (high - low) * 0.08
    low, high = low - margin, high + margin
    y = _scale(low, high, height - bottom - top, 0)

    def ypx(v: float) -> float:
        return height - bottom - y(v)

    x = _scale(0, max(1, len(runs) - 1), width - left - 8, 6)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="{_e(title)}"><title>{_e(title)}</title>',
        f'<text x="4" y="14" font-size="11" font-weight="600">{_e(title)}</text>',
    ]
    if threshold is not None:
        band_top = ypx(min(high, threshold.max) if threshold.max is not None else high)
        band_bottom = ypx(max(low, threshold.min) if threshold.min is not None else low)
        parts.append(
            f'<rect x="{left}" y="{band_top:.1f}" width="{width - left - 4}" '
            f'height="{max(0.0, band_bottom - band_top):.1f}" '
            f'fill="#dcf3e1"><title>pass band: {_e(threshold.describe())}</title></rect>'
        )
    for tick in (low + margin, high - margin):
        parts.append(
            f'<text x="{left - 4}" y="{ypx(tick) + 4:.1f}" font-size="9" text-anchor="end" '
            f'fill="#56606b">{tick:.3g}</text>'
        )
    parts.append(f'<line x1="{left}" y1="{height - bottom}" x2="{width - 4}" y2="{height - bottom}" stroke="#adb4bc"/>')
    for i, (run, point) in enumerate(zip(runs, points, strict=True)):
        cx = left + x(i)
        label = run if len(run) <= 10 else run[:9] + "…"
        parts.append(
            f'<text x="{cx:.1f}" y="{height - bottom + 12}" font-size="8.5" text-anchor="middle" '
            f'fill="#56606b">{_e(label)}</text>'
        )
        if point is None or point[0] is None or not math.isfinite(point[0]):
            continue
        value, ci_low, ci_high, count = point
        if ci_low is not None and ci_high is not None:
            parts.append(
                f'<line x1="{cx:.1f}" y1="{ypx(ci_low):.1f}" x2="{cx:.1f}" y2="{ypx(ci_high):.1f}" stroke="#4a6fa5"/>'
            )
        last = i == len(runs) - 1
        fill = "#4a6fa5" if last else "#fff"
        tip = f"{run}: {value:.4g}" + ("" if ci_low is None else f" [{ci_low:.4g}, {ci_high:.4g}]")
        tip += f" (mean of {count} models)" if count > 1 else ""
        parts.append(
            f'<circle cx="{cx:.1f}" cy="{ypx(value):.1f}" r="3.5" fill="{fill}" stroke="#4a6fa5">'
            f"<title>{_e(tip)}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)


def stored_rows(store_path: Path) -> list[dict[str, Any]]:
    """The results store's metric rows; none when there is no store (a report never creates one) or it
    cannot be read (the store's own commands say why; the report then shows this run alone)."""
    from biascheck.errors import BiascheckError
    from biascheck.gate.store import ResultStore

    if not store_path.is_file():
        return []
    try:
        return ResultStore(store_path).metric_rows()
    except BiascheckError:
        return []


def history_rows(
    stored: Sequence[Mapping[str, Any]], results: Iterable[Result], saved_as: str | None
) -> list[dict[str, Any]]:
    """The store's rows plus this run as 'this run' when it was not saved; the last HISTORY_RUNS runs."""
    rows = [dict(r) for r in stored]
    if saved_as is None or saved_as not in {r["run"] for r in rows}:
        rows += [
            {
                "run": THIS_RUN,
                "model": r.model,
                "probe": r.probe,
                "task": r.task,
                "metric": r.metric,
                "value": r.value,
                "ci_low": r.ci_low,
                "ci_high": r.ci_high,
                "n": r.n,
            }
            for r in results
        ]
    return history.select(rows, last=HISTORY_RUNS)


def history_panels(probe: str, members: Sequence[Result], rows: Sequence[Mapping[str, Any]]) -> str:
    """Small multiples of the probe's gated metrics over the runs in `rows`."""
    gated = {r.key: r.threshold for r in members if r.threshold is not None}
    mine = [dict(r) for r in rows if history.key(r) in gated]
    if not mine:
        return ""
    runs, data = history.series(mine)
    if len(runs) < 2:  # a chart of one point per metric says nothing the table does not
        return (
            '<h3>History of the gated metrics</h3><p class="meta">One run so far: save runs with '
            "<code>--bias-save NAME</code> (a release tag, a checkpoint step) to see each gated metric across "
            "releases here.</p>"
        )
    panels = [
        svg_panel(key.split(".", 1)[1], runs, [per_run.get(run) for run in runs], gated[key])
        for key, per_run in data.items()
    ]
    return f'<h3>History of the gated metrics ({len(runs)} runs)</h3><div class="multiples">{"".join(panels)}</div>'


def _plot_figures(probe: str, plots: Mapping[str, bytes]) -> str:
    out = []
    for name, data in sorted(plots.items()):
        if not name.startswith(f"{probe}-"):
            continue
        encoded = base64.b64encode(data).decode("ascii")
        out.append(
            f'<figure><img alt="{_e(name)}" src="data:image/png;base64,{encoded}">'
            f"<figcaption>plots/{_e(name)}</figcaption></figure>"
        )
    return f"<h3>Plots</h3>{''.join(out)}" if out else ""


def _header(meta: Mapping[str, Any], results: Sequence[Result]) -> str:
    exit_status = int(meta.get("exit_status", 0) or 0)
    run: verdict.ProbeVerdict = "pass" if exit_status == 0 else "fail"
    models = meta.get("models") or {}
    model_bits = ", ".join(
        f"<code>{_e(name)}</code>"
        + (f" ({_e(info.get('family'))})" if isinstance(info, Mapping) and info.get("family") else "")
        for name, info in models.items()
    )
    profile = (meta.get("profile") or {}).get("name", "?")
    tier = meta.get("tier") or {}
    lines = [
        f"<h1>biascheck report {_badge(run)}</h1>",
        f'<p class="meta">profile <code>{_e(profile)}</code> · tier <code>{_e(tier.get("name", "?"))}</code> '
        f"({_e(tier.get('why', ''))}) · biascheck {_e(meta.get('biascheck_version', '?'))} · "
        f"{_e(meta.get('created_utc', ''))} · exit status {exit_status} · models: {model_bits or '—'} · "
        f"{len(results)} metrics, {sum(r.passed is False for r in results)} outside their thresholds</p>",
    ]
    baseline = meta.get("baseline")
    if baseline:
        state = verdict.of_regression_gate(bool(baseline.get("failed")))
        what = f"Baseline <code>{_e(baseline['name'])}</code>: the regression" if baseline.get("name") else "The"
        lines.append(f"<p>{what} gate {state}.</p>")
        if baseline.get("failures"):
            lines.append("<ul>" + "".join(f"<li>{_e(m)}</li>" for m in baseline["failures"]) + "</ul>")
    if not results:
        lines.append("<p>This run recorded no result: no probe test recorded one.</p>")
    return "".join(lines)


def page(
    results: Sequence[Result],
    meta: Mapping[str, Any],
    plots: Mapping[str, bytes] | None = None,
    rows: Sequence[Mapping[str, Any]] = (),
) -> str:
    """The whole HTML document. `plots`: PNG file name -> bytes; `rows`: history rows (see `history_rows`)."""
    plots = plots or {}
    comparisons = comparisons_by_key(meta)
    by_probe: dict[str, list[tuple[str, list[Result]]]] = {}
    for (model, probe), members in grouped(results).items():
        by_probe.setdefault(probe, []).append((model, members))
    contents, sections = [], []
    for probe, per_model in by_probe.items():
        everything = [r for _, members in per_model for r in members]
        found = verdict.of_probe(everything)
        contents.append(f'<li><a href="#probe-{_e(probe)}">{_e(probe)}</a> {_badge(found)}</li>')
        body = [
            f'<section class="probe" id="probe-{_e(probe)}" data-probe="{_e(probe)}" data-verdict="{found}">',
            f"<h2>{_e(probe)} {_badge(found)}</h2>",
        ]
        for model, members in per_model:
            body.append(f"<h3>{_e(model)} {_badge(verdict.of_probe(members))}</h3>")
            body.append(result_table(members, comparisons))
            notes = list(dict.fromkeys(r.note for r in members if r.note))
            if notes:
                body.append('<ul class="notes">' + "".join(f"<li>{_e(n)}</li>" for n in notes) + "</ul>")
        body.append(_plot_figures(probe, plots))
        body.append(history_panels(probe, everything, rows))
        body.append("</section>")
        sections.append("".join(body))
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>biascheck report</title><style>{STYLE}</style></head><body>"
        f"{_header(meta, results)}<nav><h2>Probes</h2><ul>{''.join(contents)}</ul></nav>"
        f"{''.join(sections)}{_not_measured(meta)}<script>{CHECK_SCRIPT}</script></body></html>\n"
    )


def _not_measured(meta: Mapping[str, Any]) -> str:
    """The probe tests that measured nothing (skipped or xfailed), each with why; '' if none."""
    skipped = meta.get("not_measured") or []
    if not skipped:
        return ""
    rows = "".join(
        f"<tr><td>{_e(e['model'])}</td><td>{_e(e['test'])}</td><td>{_e(e['reason'])}</td></tr>" for e in skipped
    )
    return (
        f'<section class="not-measured" id="not-measured"><h2>Not measured ({len(skipped)})</h2>'
        f"<table><thead><tr><th>model</th><th>test</th><th>why</th></tr></thead><tbody>{rows}</tbody></table>"
        "</section>"
    )


def read_plots(directory: Path | None) -> dict[str, bytes]:
    """The PNG files of a report's plots/ directory, by file name."""
    if directory is None or not directory.is_dir():
        return {}
    return {p.name: p.read_bytes() for p in sorted(directory.glob("*.png"))}
