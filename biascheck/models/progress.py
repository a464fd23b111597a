"""Progress of a scoring call: a tqdm bar on a terminal, a heartbeat line in CI logs.

Both write to the real stderr (``sys.__stderr__``). Under pytest's output capture (its default, which
takes the process's file descriptor 2 itself) that stream is captured too, so the pytest plugin hands
this module a writer that suspends the capture for each line (`write_past_capture`): a heartbeat then
reaches the terminal and the CI log while the probe runs, not only in a failed test's captured output.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

PROGRESS_MIN_BATCHES = 8  # a terminal bar only for calls of this many batches or more


def progress(total: int, n_batches: int, desc: str) -> Any:
    """A tqdm bar on a terminal (calls of 8 batches or more); elsewhere (CI logs) a `Heartbeat`."""
    stream = sys.__stderr__
    if stream is None:
        return None
    if not stream.isatty():
        return Heartbeat(total, desc, stream)
    if n_batches < PROGRESS_MIN_BATCHES:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a declared dependency
        return None
    return tqdm(total=total, desc=desc, unit="seq", file=stream, leave=False)


_LAST_LINE = [time.monotonic()]  # when the last heartbeat line was written, over all scoring calls
_WRITER: list[Callable[[str], None] | None] = [None]  # set by the pytest plugin for the length of a run


def write_past_capture(writer: Callable[[str], None] | None) -> None:
    """How a heartbeat line is written while pytest captures output (None: print to the stream)."""
    _WRITER[0] = writer


class Heartbeat:
    """Without a terminal, one progress line at most every $BIASCHECK_PROGRESS_SECONDS (default 30; 0 =
    every batch, negative = never), over all scoring calls, so a CI log never goes silent for minutes:
    the running test (pytest's PYTEST_CURRENT_TEST), sequences done / total in this call, rate and ETA."""

    def __init__(self, total: int, desc: str, stream: Any) -> None:
        self.total, self.desc, self.stream = total, desc, stream
        self.done = 0
        self.started = time.monotonic()
        self.interval = float(os.environ.get("BIASCHECK_PROGRESS_SECONDS", "30"))

    def update(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        if self.interval < 0 or now - _LAST_LINE[0] < self.interval:
            return
        _LAST_LINE[0] = now
        line = self.line(now - self.started)
        if _WRITER[0] is not None:
            _WRITER[0](line)
        else:
            print(line, file=self.stream, flush=True)

    def line(self, elapsed: float) -> str:
        test = running_test(os.environ.get("PYTEST_CURRENT_TEST", ""))
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = f"about {_duration((self.total - self.done) / rate)} left" if rate > 0 else "ETA unknown"
        share = 100 * self.done / self.total if self.total else 100.0
        return (
            f"{self.desc}{f' [{test}]' if test else ''}: {self.done}/{self.total} sequences ({share:.0f} %), "
            f"{rate:.1f}/s, {eta}"
        )

    def close(self) -> None:
        pass


def running_test(current: str) -> str:
    """What a heartbeat names, from pytest's PYTEST_CURRENT_TEST ('NODEID (setup|call|teardown)'): the test in
    its call; in a setup, its file: a probe scores in a module fixture that every test of the file shares, so
    the first test's id (task1) would label the scoring of all its tasks."""
    test, _, phase = current.rpartition(" (")
    if not test:
        return current
    return f"{test.split('::', 1)[0]}, setting up" if phase.startswith("setup") else test


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"
