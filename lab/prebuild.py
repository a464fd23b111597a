"""Build every planted model ahead of a run, several at once: fill the cache before the tests need it.

    python -m lab.prebuild [--strengths 1 0] [--families planted-gpt-no ...] [--workers N] [--data DIR]

A second thread makes one build only 1.6 times faster (hidden size 64: small matrices), so builds side
by side, one thread each, use the cores better than the same builds one after another, which is what
a test run that meets them one by one does. Measured on 2 CPU cores (planted-bert-they@0.5): 116 s on
one thread, 74 s on two; two builds side by side 114 s against 147 s one after the other. Each model goes through
`build.ensure_model`, so a cached model is found, not rebuilt, and a finished build is renamed into
the cache only when complete. CI runs this before the tests (`.ci/run`); a workflow that caches
`~/.cache/biascheck/planted` can run it to warm that cache.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path

# Longest first, so the slowest build never starts last: seconds per build, one thread, two side by side on
# 2 CPU cores (AVX-512; docs/known_answers.md). planted-bert trains 2,000 steps from a pretrained encoder with
# the 30,522-word bert-base-uncased head (2026-11-27: 648-657 s); the causal models carry a 4,000-token head.
_COST = {
    ("masked", "en"): 655,
    ("causal", "en"): 250,
    ("causal", "no"): 110,
    ("masked", "no"): 100,
    ("masked", "they"): 90,
}
_COST_UNMEASURED = 100  # a planted corpus added since: between the short and the long builds, not a KeyError


def planted_aliases() -> list[str]:
    """The planted aliases ('planted-bert', 'planted-gpt-no', ...), as `--model` takes them: the registry's, then
    those of every corpus a probe's plant names of its own (`biascheck.planted.references.corpora`)."""
    from biascheck.planted.references import corpora
    from biascheck.registry import corpus_families

    return [family for corpus in corpora() for family in corpus_families(corpus)]


def planted_models(
    strengths: tuple[float, ...] = (1.0, 0.0), families: tuple[str, ...] | None = None
) -> list[tuple[str, float, str]]:
    """(family, strength, corpus) for every planted alias (or only the aliases `families`) at each strength,
    longest build first."""
    from biascheck.registry import resolve_model_name

    known = planted_aliases()
    unknown = sorted(set(families or ()) - set(known))
    if unknown:
        raise ValueError(f"no planted alias {', '.join(unknown)}; known: {', '.join(known)}")
    specs = [resolve_model_name(name) for name in known if families is None or name in families]
    wanted = [(str(s.family), float(strength), str(s.planted_corpus)) for s in specs for strength in strengths]
    return sorted(wanted, key=lambda m: -_COST.get((m[0], m[2]), _COST_UNMEASURED))


def _one_thread() -> None:
    import torch

    torch.set_num_threads(1)


def _build(family: str, strength: float, corpus: str, mirror: Path | None, root: Path | None) -> tuple[Path, float]:
    from biascheck.data import ReferenceData
    from biascheck.planted.build import ensure_model

    started = time.perf_counter()
    directory = ensure_model(family, strength, ReferenceData(mirror=mirror), root=root, corpus=corpus)
    return directory, time.perf_counter() - started


def build_all(
    models: list[tuple[str, float, str]],
    mirror: Path | None,
    workers: int,
    root: Path | None = None,
    log: Callable[[str], None] = print,
    build: Callable[..., tuple[Path, float]] = _build,
) -> list[Path]:
    """Every model of `models` (`planted_models`), `workers` at a time in spawned processes of one torch
    thread each; the directories in `models`' order. A failed build raises after the others have
    finished, naming each that failed. `build` (a module-level function: it is pickled) is `_build`
    unless a test gives a smaller one."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    done: dict[int, Path] = {}
    errors: list[str] = []
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"), initializer=_one_thread) as pool:
        futures = {pool.submit(build, *model, mirror, root): i for i, model in enumerate(models)}
        for future in as_completed(futures):
            family, strength, corpus = models[futures[future]]
            try:
                directory, seconds = future.result()
            except Exception as exc:  # noqa: BLE001 - reported with the model, raised below
                errors.append(f"{family} {corpus} @{strength:g}: {type(exc).__name__}: {exc}")
                continue
            done[futures[future]] = directory
            log(f"{seconds:7.1f} s  {directory}")
    if errors:
        raise RuntimeError("planted builds failed:\n" + "\n".join(errors))
    return [done[i] for i in range(len(models))]


def main(argv: list[str] | None = None) -> int:
    from biascheck.data.resolve import mirror_dir

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--strengths",
        type=float,
        nargs="+",
        default=[1.0, 0.0],
        help="strengths to build for every planted alias (default: 1 0, the plant and the control)",
    )
    parser.add_argument(
        "--families",
        nargs="+",
        default=None,
        help="only these planted aliases, e.g. planted-bert-no planted-gpt-no (default: every planted alias)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=min(len(os.sched_getaffinity(0)), 4),
        help="builds at once, one thread each (default: the CPUs this process may use, at most 4)",
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="reference-data mirror (default: $BIASCHECK_DATA_DIR, else ../shared/data, else cache)",
    )
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, got {args.workers}")
    try:
        models = planted_models(tuple(args.strengths), None if args.families is None else tuple(args.families))
    except ValueError as exc:
        parser.error(f"--families: {exc}")
    mirror = mirror_dir(args.data, [Path.cwd(), Path(__file__).resolve().parents[2]])
    started = time.perf_counter()
    try:
        build_all(models, mirror, args.workers)
    except (RuntimeError, ValueError) as exc:
        print(f"lab.prebuild: {exc}")
        return 1
    print(f"{len(models)} planted models ready in {time.perf_counter() - started:.0f} s ({args.workers} at a time)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
