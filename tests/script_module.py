"""A script of the repository (scripts/, benchmarks/, lab/scripts/) loaded as a module, so a test can call its
functions, or run as its README runs it."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType


def load_script(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # registered first, as importlib's recipe does: a dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def run_script(path: Path, args: list[str], mirror: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    """`path` run by this Python with `args`, the reference data read from `mirror`; its output captured, its exit
    status left to the test."""
    return subprocess.run(
        [sys.executable, str(path), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**os.environ, "BIASCHECK_DATA_DIR": str(mirror)},
    )
