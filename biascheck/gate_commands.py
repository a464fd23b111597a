"""The `biascheck` subcommands over saved runs, the release gate's side of the command line: `runs` (what
is saved), `power` (each gate's power at the size it ran at), `history` (every metric over the runs),
`compare` (two runs; exit 1 on a regression beyond the noise), `diff` (the items that moved most) and
`accept` (a passed run made the baseline, with who, when and why). `biascheck.cli` registers them with
`add_gate_commands`; each handler returns the command's exit status."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tabulate import tabulate

from biascheck.errors import BiascheckError


def add_gate_commands(sub: Any) -> None:
    """Register the commands on `sub`, the `biascheck` parser's subparsers."""
    runs = sub.add_parser("runs", help="list the runs saved in the results store")
    _add_store(runs)
    runs.add_argument("--all", action="store_true", help="also the superseded versions of regenerated runs")
    runs.add_argument("--names", action="store_true", help="only the names, one a line (for scripts)")
    runs.set_defaults(handler=_runs)
    power = sub.add_parser("power", help="each gate's power at the size it ran at, from a run's results.json")
    power.add_argument("results", type=Path, help="a results.json (bias-report/results.json)")
    power.add_argument("--markdown", action="store_true", help="GitHub Markdown")
    power.set_defaults(handler=_power)
    hist = sub.add_parser("history", help="every metric over the saved runs: table (or Markdown) and plot")
    _add_store(hist)
    hist.add_argument("--metric", default=None, help="glob over probe.task.metric, e.g. 'pronoun_ratio.is.*'")
    hist.add_argument("--model", default=None, help="glob over model names")
    hist.add_argument("--last", type=int, default=None, help="only the last N runs")
    hist.add_argument("--markdown", action="store_true", help="GitHub Markdown (for $GITHUB_STEP_SUMMARY)")
    hist.add_argument(
        "--plot", type=Path, default=None, help="write a PNG: a panel per gated (or --metric) metric over the runs"
    )
    hist.set_defaults(handler=_history)
    comp = sub.add_parser("compare", help="compare two saved runs; exit 1 on a regression beyond the noise")
    comp.add_argument("baseline", help="saved run to compare against")
    comp.add_argument("candidate", metavar="run", help="saved run to judge")
    _add_store(comp)
    comp.add_argument("--noise", default=None, help="a saved sweep whose spread per metric is the noise band")
    comp.add_argument("--markdown", action="store_true", help="GitHub Markdown")
    comp.add_argument(
        "--allow-mismatch",
        action="store_true",
        help="compare runs whose dtype, device, prefix, data, settings or version differ",
    )
    comp.add_argument("--allow-failed", action="store_true", help="compare a baseline or candidate that failed")
    comp.set_defaults(handler=_compare)
    diff = sub.add_parser("diff", help="the items whose scores moved most between two saved runs")
    diff.add_argument("baseline", help="saved run to compare against")
    diff.add_argument("candidate", metavar="run", help="saved run to compare")
    diff.add_argument("--metric", default="*", help="glob over probe.task.metric, e.g. 'pronoun_ratio.is.*'")
    diff.add_argument("--top", type=int, default=20, help="how many rows (default: 20)")
    diff.add_argument("--markdown", action="store_true", help="GitHub Markdown")
    _add_store(diff)
    diff.set_defaults(handler=_diff)
    acc = sub.add_parser("accept", help="promote a saved run that passed to be a baseline (who, when, why recorded)")
    acc.add_argument("run", help="the saved run to accept")
    acc.add_argument("--as", dest="as_name", default="baseline", help="baseline name to (re)write (default: baseline)")
    acc.add_argument("--why", required=True, help="why this run is the new baseline (kept with it)")
    acc.add_argument("--by", default=None, help="who accepts it (default: $GITHUB_ACTOR, else the user name)")
    acc.add_argument("--partial", action="store_true", help="accept a partial run (-k, -m, --lf, node ids)")
    _add_store(acc)
    acc.set_defaults(handler=_accept)


def _store(args: argparse.Namespace) -> object:
    from biascheck.gate.store import ResultStore

    return ResultStore(args.store, create=False)  # every command here reads saved runs


def _runs(args: argparse.Namespace) -> int:
    runs = _store(args).list_runs(all_versions=args.all)  # type: ignore[attr-defined]
    if args.names:
        print("\n".join(dict.fromkeys(r.name for r in runs)))
        return 0
    rows = [
        [
            r.name,
            r.saved_utc,
            r.biascheck_version,
            r.profile,
            r.exit_status,
            ", ".join(r.models),
            "superseded" if r.superseded else "",
        ]
        for r in runs
    ]
    if not rows:
        print(f"no runs saved in {args.store} yet; pytest --bias-save NAME saves one")
        return 0
    print(tabulate(rows, headers=["run", "saved (UTC)", "biascheck", "profile", "exit", "models", ""]))
    return 0


def _power(args: argparse.Namespace) -> int:
    import json

    from biascheck.report.tables import POWER_HEADERS, power_rows
    from biascheck.results import Result

    try:
        data = json.loads(args.results.read_text())
        results = [Result.from_json(r) for r in data["results"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BiascheckError(f"{args.results}: not a biascheck results.json ({exc}).") from exc
    rows = power_rows(results)
    fmt = "github" if args.markdown else "simple"
    print(tabulate(rows, headers=POWER_HEADERS, tablefmt=fmt, disable_numparse=True))
    return 0


def _history(args: argparse.Namespace) -> int:
    from biascheck.gate import history

    rows = history.select(_store(args).metric_rows(), args.metric, args.model, args.last)  # type: ignore[attr-defined]
    if not rows:
        print(
            f"biascheck: no saved run in {args.store} matches; save one with pytest --bias-save NAME", file=sys.stderr
        )
        return 1
    print(history.markdown(rows, str(args.store)) if args.markdown else history.table(rows))
    if args.plot:  # the gated metrics unless --metric chose: a panel for each of ~100 metrics is unreadable
        fig = history.figure(rows if args.metric else history.gated(rows))
        try:
            args.plot.parent.mkdir(parents=True, exist_ok=True)
            fig.savefig(args.plot, dpi=110, bbox_inches="tight")  # type: ignore[attr-defined]
        except OSError as exc:  # a parent that is a file, no permission, a full disk: the table is printed
            print(f"biascheck: --plot {args.plot}: cannot write it ({exc.strerror or exc}).", file=sys.stderr)
            return 2
        print(f"plot: {args.plot}", file=sys.stderr)
    return 0


def _compare(args: argparse.Namespace) -> int:
    from biascheck.gate import admit, comparability
    from biascheck.gate import baseline as bl
    from biascheck.report import regression

    store = _store(args)
    base, candidate = store.load_run(args.baseline), store.load_run(args.candidate)  # type: ignore[attr-defined]
    noise = store.load_run(args.noise) if args.noise else None  # type: ignore[attr-defined]
    refusals = admit.compare_refusals(base, candidate, noise, args)
    if refusals:
        print("\n".join(f"biascheck: {r}" for r in refusals), file=sys.stderr)
        return 2
    bands = bl.bands_from_run(noise) if noise is not None else None
    differences = comparability.mismatches(base, candidate)
    if differences:  # allowed (--allow-mismatch): refused above otherwise
        print("compared despite these differences: " + "; ".join(differences), file=sys.stderr)
    comparisons = bl.compare(base, candidate, bands)
    if args.markdown:
        print(regression.markdown(comparisons, args.baseline))
    else:
        print(regression.table(comparisons))
        print(regression.summary_line(comparisons, args.baseline))
    return 1 if bl.failing(comparisons) else 0


def _diff(args: argparse.Namespace) -> int:
    """The items (professions, occupations, ...) whose scores moved most between two saved runs."""
    from biascheck.gate.itemdiff import item_changes

    store = _store(args)
    changes = item_changes(store.load_run(args.baseline), store.load_run(args.candidate), args.metric)  # type: ignore[attr-defined]
    if not changes:
        print(f"biascheck: no per-item records in common for {args.metric!r}", file=sys.stderr)
        return 1
    rows = [
        [c.model, c.key, c.item, c.field, f"{c.base:.4g}", f"{c.new:.4g}", f"{c.change:+.4g}"]
        for c in changes[: args.top]
    ]
    print(
        tabulate(
            rows,
            headers=["model", "metric", "item", "field", "baseline", "new", "change"],
            tablefmt="github" if args.markdown else "simple",
            disable_numparse=True,
        )
    )
    return 0


def _accept(args: argparse.Namespace) -> int:
    """Promote a saved run that passed to be the baseline NAME, with who, when and why recorded."""
    if not args.why.strip():
        print('biascheck: accept needs a reason (--why "..."); it is kept with the baseline.', file=sys.stderr)
        return 2
    import datetime as dt
    import getpass
    import os

    from biascheck.gate import admit

    store = _store(args)
    payload = store.load_run(args.run)  # type: ignore[attr-defined]
    if refusal := admit.schema_problem(payload, args.run, "run") or admit.partial_problem(payload, args):
        print(f"biascheck: {refusal}", file=sys.stderr)
        return 2
    status = int(payload.get("exit_status", 0) or 0)
    if status != 0:
        print(
            f"biascheck: run {args.run!r} failed (exit status {status}); a failed run cannot become a baseline. "
            "Fix the failures, run again and accept that run.",
            file=sys.stderr,
        )
        return 2
    who = args.by or os.environ.get("GITHUB_ACTOR") or getpass.getuser()
    accepted = {
        "run": args.run,
        "by": who,
        "why": args.why,
        "utc": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "partial": bool((payload.get("coverage") or {}).get("partial")),
    }
    store.save_run(args.as_name, {**payload, "accepted": accepted}, replace=True)  # type: ignore[attr-defined]
    print(
        f"accepted {args.run!r} as baseline {args.as_name!r} in {args.store} (by {who}: {args.why}); it covers "
        + admit.describe(payload)
    )
    return 0


def _add_store(parser: argparse.ArgumentParser) -> None:
    from biascheck.gate.store import DEFAULT_STORE

    parser.add_argument("--store", type=Path, default=DEFAULT_STORE, help=f"results store (default: {DEFAULT_STORE})")
