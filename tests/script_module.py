"""A script of the repository (scripts/, benchmarks/) loaded as a module, so a test can call its functions."""

from __future__ import annotations

import importlib.util
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
