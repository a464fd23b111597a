"""Selecting probes by name. `-k` matches a substring of any test's keywords, so `-k pronoun` takes
Winogender's `pronouns` task beside the pronoun-ratio probe (several times the work); a probe's own
name is unambiguous with `-k pronoun_ratio` (its module), and exact with the marker every probe module
carries: `-m "biascheck(probe='pronoun_ratio')"`, as docs/options.md says."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _collected(*selection: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "probes", "--collect-only", "-q", "-p", "no:cacheprovider", *selection],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return [line for line in done.stdout.splitlines() if line.startswith("probes/")]


def test_a_probe_is_selected_by_its_name_or_exactly_by_its_marker():
    loose = _collected("-k", "pronoun")
    assert any(node.startswith("probes/test_winogender.py::") and "pronouns" in node for node in loose)  # the trap
    by_name = _collected("-k", "pronoun_ratio")
    exact = _collected("-m", "biascheck(probe='pronoun_ratio')")
    assert by_name == exact and len(exact) == 3  # the probe's three tasks on the default model
    assert all(node.startswith("probes/test_pronoun_ratio.py::") for node in exact)
