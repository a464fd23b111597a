"""The layout the README's design section promises, checked on the source (ast, no imports run):
dependencies point down, `spec.py` is the bottom, probe specs import only it, the plugin and the
tracking plugin do not import each other, every probe package has the same files, modules stay small."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from biascheck.catalog import ENTRIES, PROBES

PACKAGE = Path(__file__).resolve().parents[1] / "biascheck"
PROBE_FILES = {"__init__.py", "spec.py", "math.py", "score.py", "metrics.py", "figures.py", "README.md"}
# Data tables may be long: the text of our own stimuli is not code to read.
DATA_TABLES = {"methods/singular_they/stimuli.py"}
MAX_LINES = 400


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """biascheck modules `path` imports anywhere (top level or inside functions)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("biascheck")}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("biascheck"):
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
    return out


GRAPH = {_module(p): _imports(p) for p in PACKAGE.rglob("*.py")}
MODULES = set(GRAPH)


def _edges(module: str) -> set[str]:
    return {m for m in GRAPH[module] if m in MODULES and m != module}


def test_spec_and_errors_are_the_bottom():
    assert _edges("biascheck.errors") == set()
    assert _edges("biascheck.spec") == {"biascheck.errors"}


@pytest.mark.parametrize("probe", list(ENTRIES))
def test_probe_specs_import_only_the_spec(probe):
    assert _edges(f"biascheck.methods.{probe}.spec") <= {"biascheck.spec", "biascheck.errors"}


def test_plugin_and_tracking_do_not_import_each_other():
    assert "biascheck.plugin" not in _edges("biascheck.gate.tracking")  # the plugin registers tracking, not back
    assert "biascheck.plugin" not in _edges("biascheck.gate.workers")
    assert not {"biascheck.plugin", "biascheck.gate.tracking"} & _edges("biascheck.session")


def test_math_metrics_and_figures_never_call_the_model_layer():
    for probe in ENTRIES:
        for part in ("math", "metrics", "figures", "spec"):
            module = f"biascheck.methods.{probe}.{part}"
            assert not any(m.startswith("biascheck.models") for m in _edges(module)), module


def test_no_import_cycles():
    """Depth-first search over the module graph (imports inside functions count too)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in sorted(_edges(module)):
            if state.get(target) == 1:
                raise AssertionError("import cycle: " + " -> ".join([*stack[stack.index(target) :], target]))
            if target not in state:
                visit(target)
        stack.pop()
        state[module] = 2

    for module in sorted(MODULES):
        if module not in state:
            visit(module)


@pytest.mark.parametrize("probe", list(ENTRIES))
def test_every_probe_package_has_the_same_files(probe):
    names = {p.name for p in (PACKAGE / "methods" / probe).iterdir() if not p.name.startswith((".", "__pycache__"))}
    assert PROBE_FILES <= names, f"missing: {sorted(PROBE_FILES - names)}"
    assert (PACKAGE / "methods" / probe / "__init__.py").read_text().strip().startswith('"""')
    assert not _edges(f"biascheck.methods.{probe}"), (
        "the package __init__ must not import (the catalog loads spec only)"
    )


def test_modules_are_small():
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert set(long) <= DATA_TABLES, long


def test_catalog_is_cheap():
    code = (
        "import sys, biascheck.catalog as c; [c.PROBES[n] for n in c.PROBES]; "
        "print(sorted(m for m in ('numpy', 'pandas', 'scipy', 'torch', 'matplotlib') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    assert [PROBES[n].name for n in PROBES] == list(ENTRIES)
