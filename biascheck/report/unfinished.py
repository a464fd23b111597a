"""The report directory while a run is under way: never an earlier run's verdict beside a run that died.

A run that crashes before it writes its report (an internal error at the end of the run, a killed process)
used to leave the previous run's `results.json` (exit status 0) and `summary.md` ("gate: passed") where a
CI step or a reader takes them for this run's. So when a run starts (`begin`), the previous report's
verdict files move into `previous-run/` and `summary.md` says that a run is under way and has no verdict
(and `results.json` is absent: a step that reads it fails). Then:

- the run writes its report (`finish`): the new files replace the marker and `previous-run/` goes;
- the run ends without a report of its own, normally or interrupted (`restore`): the previous files come
  back as they were (an interrupted run leaves the earlier report untouched, as it always did);
- the run dies before either: the marker stays, and says so. The next run keeps `previous-run/` as it is
  (the marker is not a report to keep).

Pure file handling, no pytest; `biascheck.plugin` calls it.
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

from biascheck import verdict
from biascheck.files import atomic_write

PREVIOUS = "previous-run"
VERDICT_FILES = ("results.json", "summary.md", "report.html", "baseline.md")
MARK = verdict.NO_VERDICT_HEADING


def marker(started: str) -> str:
    return (
        f"{MARK}\n\nA biascheck run started at {started} and has not written its report: it is still running, "
        "or it stopped before the end (crashed, killed, out of memory). Nothing here is a verdict; treat the "
        f"run as failed. The previous run's report, if there was one, is in `{PREVIOUS}/`.\n"
    )


def is_unfinished(directory: Path) -> bool:
    """`directory`'s summary.md is the marker of a run that has not written its report."""
    summary = directory / "summary.md"
    try:
        return summary.read_text(encoding="utf-8").startswith(MARK)
    except (OSError, UnicodeDecodeError):
        return False


def begin(directory: Path, started: str) -> None:
    """A run starts: the previous verdict files go to `previous-run/`, the marker takes their place."""
    directory.mkdir(parents=True, exist_ok=True)
    previous = directory / PREVIOUS
    if is_unfinished(directory):  # a run that died: what it moved aside is still the last report
        for name in VERDICT_FILES:
            (directory / name).unlink(missing_ok=True)
    else:
        present = [directory / name for name in VERDICT_FILES if (directory / name).exists()]
        if present:
            shutil.rmtree(previous, ignore_errors=True)
            previous.mkdir()
            for path in present:
                path.replace(previous / path.name)
    atomic_write(directory / "summary.md", marker(started))


def finish(directory: Path) -> None:
    """The run wrote its report: the previous one is no longer needed."""
    shutil.rmtree(directory / PREVIOUS, ignore_errors=True)


def restore(directory: Path) -> None:
    """The run ends without a report of its own: the previous report's files back in place (none: the
    marker goes, and the directory too when `begin` made it and nothing else is in it)."""
    if not is_unfinished(directory):
        return
    (directory / "summary.md").unlink(missing_ok=True)
    previous = directory / PREVIOUS
    if previous.is_dir():
        for path in previous.iterdir():
            path.replace(directory / path.name)
        shutil.rmtree(previous, ignore_errors=True)
    with contextlib.suppress(OSError):
        directory.rmdir()  # only when empty


def has_previous(directory: Path) -> bool:
    """An earlier run's report is in `directory` or moved aside by `begin`."""
    here = [n for n in VERDICT_FILES[:3] if not (n == "summary.md" and is_unfinished(directory))]
    aside = [directory / PREVIOUS / n for n in VERDICT_FILES]
    return any((directory / n).exists() for n in here) or any(path.exists() for path in aside)
