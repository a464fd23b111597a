"""Where a run's time goes: wall time per probe test and stage. Standard library only.

The engine, the statistics and the recorder mark their work with ``with stage("forward"):``; the
plugin wraps each probe test's setup (``setup``: the model load and the reference data, when that
test is the first to need them) and call (``other``: what no inner stage claims, i.e. the probe's
own text handling and metrics) and takes the totals after each test (`StageClock.take`).

Times are exclusive: the time inside a nested stage counts to that stage alone, so a test's stages
sum to its duration. They are the host's wall time: on CUDA the GPU runs asynchronously, so a
kernel's time shows in the stage that waits for its result; the engine waits for the card at the end
of its forward stage (`biascheck.models.work.settle`), so that the forward pass's time is not read as
the LM head's.
"""

from __future__ import annotations

import functools
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

# In pipeline order; `report_rows` and the terminal table use it.
# "bootstrap": the bootstrap intervals and permutation tests of `biascheck.stats` and the politicians probe;
# "fit": model fits on the host (the politicians probe's latent-variable model).
STAGES = ("setup", "tokenise", "plan", "batching", "forward", "lm_head", "bootstrap", "fit", "plots", "other")


class StageClock:
    """Exclusive wall time per stage name, accumulated until `take`."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self._clock = clock
        self._totals: dict[str, float] = defaultdict(float)
        self._stack: list[list[float]] = []  # per open stage: [start, time spent in its inner stages]

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        frame = [self._clock(), 0.0]
        self._stack.append(frame)
        try:
            yield
        finally:
            self._stack.pop()
            elapsed = self._clock() - frame[0]
            self._totals[name] += elapsed - frame[1]
            if self._stack:
                self._stack[-1][1] += elapsed

    def take(self) -> dict[str, float]:
        """The totals since the last `take` (stages with no time left out), and a fresh start."""
        out = {name: seconds for name, seconds in self._totals.items() if seconds > 0}
        self._totals = defaultdict(float)
        return out


CLOCK = StageClock()
stage = CLOCK.stage


def timed(name: str) -> Callable[[F], F]:
    """Decorator: every call of the function is timed as stage `name`."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            with stage(name):
                return fn(*args, **kwargs)

        return inner  # type: ignore[return-value]

    return wrap


def by_field(rows: list[dict], field: str) -> dict[str, dict[str, float]]:
    """row[field] -> stage -> seconds, summed over the rest, from rows of
    ``{"model", "probe", "test", "stage", "seconds"}`` (results.json's ``timings``)."""
    out: dict[str, dict[str, float]] = {}
    for row in rows:
        per = out.setdefault(row[field], {})
        per[row["stage"]] = per.get(row["stage"], 0.0) + float(row["seconds"])
    return out


def by_probe(rows: list[dict]) -> dict[str, dict[str, float]]:
    """probe -> stage -> seconds, summed over models and tests (`by_field`)."""
    return by_field(rows, "probe")


def table(rows: list[dict]) -> tuple[list[str], list[list[str]]]:
    """(headers, rows) of seconds by probe (rows, slowest first) and stage (columns in `STAGES` order,
    then any other stage), with each probe's total and a total row."""
    totals = by_probe(rows)
    stages = [s for s in STAGES if any(s in per for per in totals.values())]
    stages += sorted({s for per in totals.values() for s in per} - set(STAGES))
    body = []
    for probe, per in sorted(totals.items(), key=lambda kv: -sum(kv[1].values())):
        body.append([probe, *(f"{per.get(s, 0.0):.1f}" for s in stages), f"{sum(per.values()):.1f}"])
    column = [sum(per.get(s, 0.0) for per in totals.values()) for s in stages]
    body.append(["all", *(f"{v:.1f}" for v in column), f"{sum(column):.1f}"])
    return ["probe", *stages, "total"], body
