"""Headless Chromium for the report tests: the page as the browser built it, and what it said on its console.

Chromium is Debian's package (`apt-get install chromium`; `.ci/run` installs it). Without it the tests
that need it skip locally and fail in CI (CI=true), so the check is never silently lost there.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
    "--virtual-time-budget=10000",
)
CONSOLE = re.compile(r"INFO:CONSOLE\S*\s(.*)")


@dataclass
class Rendered:
    dom: str  # the document after its scripts ran
    console: list[str]  # every console message (errors included)
    screenshot: Path


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    message = "Chromium is not installed (apt-get install chromium): the report's browser check cannot run"
    if os.environ.get("CI"):
        pytest.fail(message + " — and CI must run it")
    pytest.skip(message)


def render(page: Path, screenshot: Path) -> Rendered:
    """Load `page` in headless Chromium twice: once to dump the DOM (console captured), once for a PNG."""
    binary = chromium()
    with tempfile.TemporaryDirectory() as profile:
        base = [binary, *FLAGS, f"--user-data-dir={profile}"]
        dumped = subprocess.run(
            [*base, "--dump-dom", page.resolve().as_uri()], capture_output=True, text=True, timeout=120, check=True
        )
        subprocess.run(
            [*base, f"--screenshot={screenshot}", "--window-size=1280,2400", page.resolve().as_uri()],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
    console = [m.group(1) for line in dumped.stderr.splitlines() if (m := CONSOLE.search(line))]
    return Rendered(dumped.stdout, console, screenshot)
