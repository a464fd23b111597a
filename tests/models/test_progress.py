"""Long scoring calls talk: a heartbeat line in CI logs (no terminal), at most one per interval."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from biascheck.models import progress


class _Log(io.StringIO):
    def isatty(self) -> bool:
        return False


def test_without_a_terminal_a_call_reports_done_total_rate_and_eta(monkeypatch):
    log = _Log()
    monkeypatch.setattr(progress.sys, "__stderr__", log)
    monkeypatch.setenv("BIASCHECK_PROGRESS_SECONDS", "0")
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "probes/test_winobias.py::test_winobias[gpt2-type1] (call)")
    beat = progress.progress(400, 2, "biascheck scoring")
    assert isinstance(beat, progress.Heartbeat)
    beat.update(100)
    first = log.getvalue().splitlines()[0]
    assert first.startswith(
        "biascheck scoring [probes/test_winobias.py::test_winobias[gpt2-type1]]: 100/400 sequences (25 %), "
    )
    assert "/s, about" in first and first.endswith(" left")
    assert progress.Heartbeat(10, "x", log).line(0.0).endswith("ETA unknown")


def test_a_setup_is_named_by_its_file_not_by_the_first_test_that_needs_it():
    """A probe scores every task in a module fixture, set up for its first test: three scoring calls of the
    Norwegian probe all read '...[task1]' where they scored tasks 1 to 5."""
    node = "probes/test_norwegian_occupations.py::test_norwegian_occupations[gemma3-270m-task1]"
    assert progress.running_test(f"{node} (setup)") == "probes/test_norwegian_occupations.py, setting up"
    assert progress.running_test(f"{node} (call)") == node
    assert progress.running_test("") == ""


def test_lines_are_rate_limited_over_all_calls_and_can_be_turned_off(monkeypatch):
    log = _Log()
    monkeypatch.setattr(progress.sys, "__stderr__", log)
    monkeypatch.setenv("BIASCHECK_PROGRESS_SECONDS", "3600")
    monkeypatch.setattr(progress, "_LAST_LINE", [progress.time.monotonic()])
    for _ in range(3):
        progress.progress(10, 1, "d").update(10)
    assert log.getvalue() == ""  # within the interval: silent, whatever the number of calls
    monkeypatch.setenv("BIASCHECK_PROGRESS_SECONDS", "-1")
    monkeypatch.setattr(progress, "_LAST_LINE", [0.0])
    progress.progress(10, 1, "d").update(10)
    assert log.getvalue() == ""


def test_durations_read_as_minutes_and_seconds():
    assert progress._duration(42.4) == "42 s"
    assert progress._duration(125) == "2 min 05 s"


PROBE_LIKE = """
from biascheck.models import progress

def test_a_long_scoring_call():
    progress.progress(400, 2, "biascheck scoring").update(100)
"""


@pytest.mark.parametrize(("plugin", "shown"), [((), True), (("-p", "no:biascheck"), False)])
def test_the_heartbeat_reaches_a_ci_log_past_pytests_capture(tmp_path, plugin, shown):
    """Output captured as CI captures it (pipes, no terminal), pytest's own capture on: with the plugin the
    heartbeat line is in the log while the test passes; without it, pytest swallows it (the control)."""
    (tmp_path / "test_long.py").write_text(PROBE_LIKE)
    env = {**os.environ, "BIASCHECK_PROGRESS_SECONDS": "0", "PYTEST_ADDOPTS": ""}
    options = list(plugin) or ["--bias-report", "none"]  # the plugin's option exists only with the plugin
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options, "test_long.py"]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    log = done.stdout + done.stderr
    assert ("biascheck scoring [test_long.py::test_a_long_scoring_call]: 100/400 sequences" in log) is shown, log
