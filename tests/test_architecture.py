"""The layout docs/design.md promises, checked on the source (ast, no imports run):
dependencies point down, `spec.py` is the bottom, probe specs import only it, data, models and probes never
import the layers they must not know, the plugin and the tracking plugin do not import each other, every
folder of `methods/` is a probe package with the same files, modules stay small, and the product (`biascheck`, the
probes, the wheel) holds nothing of the lab (`lab/`: experiments, answer pages, research scripts)."""

import ast
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from biascheck.catalog import PROBES

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "biascheck"
# A probe's folder is a namespace package (no __init__.py: spec.py's docstring says what it is); figures.py is
# there when the probe draws something.
PROBE_FILES = {"spec.py", "math.py", "score.py", "metrics.py", "README.md"}
OPTIONAL_PROBE_FILES = {"figures.py", "known_answer.py"}
# Data tables may be long: the text of our own stimuli is not code to read.
DATA_TABLES = {"methods/singular_they/stimuli.py"}
MAX_LINES = 400
SHIPPED = [name for name in PROBES if PROBES.is_shipped(name)]


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


@pytest.mark.parametrize("probe", SHIPPED)
def test_probe_specs_import_only_the_spec(probe):
    assert _edges(f"biascheck.methods.{probe}.spec") <= {"biascheck.spec", "biascheck.errors"}


def _package(prefix: str) -> list[str]:
    return sorted(m for m in MODULES if m == prefix or m.startswith(prefix + "."))


# Layers that must never reach up or sideways (docs/design.md, "Layers"): reference data is read and checked
# without knowing any probe or model; a model is loaded and scored without reference data, known-answer builds
# or probes (building a planted model is `biascheck.planted.resolve`'s, above the loader); a probe's code is
# handed a model, it never imports the model layer. The gate knows saved runs only: no probe, plant, model,
# pytest run or report; the report reads the gate and is never read by it; what both read (the run's record,
# statistics, run input, the verdict's words) sits below both; sweeps stay outside the gate.
RUN = ("biascheck.plugin", "biascheck.session", "biascheck.gate_plugin", "biascheck.gate_commands", "biascheck.cli")
PROBES_AND_MODELS = ("biascheck.methods", "biascheck.models", "biascheck.planted", "biascheck.data")
NEVER = {
    "biascheck.data": ("biascheck.methods", "biascheck.models", "biascheck.planted"),
    "biascheck.models": ("biascheck.data", "biascheck.planted", "biascheck.methods"),
    "biascheck.methods": ("biascheck.models",),
    "biascheck.gate": (
        *RUN,
        *PROBES_AND_MODELS,
        "biascheck.report",
        "biascheck.sweeps",
        "biascheck.competence",
        "biascheck.catalog",
        "biascheck.run_config",
    ),
    "biascheck.report": (*RUN, *PROBES_AND_MODELS, "biascheck.sweeps"),
    "biascheck.sweeps": ("biascheck.gate", "biascheck.report", *RUN),
    **{
        below: ("biascheck.gate", "biascheck.report", "biascheck.sweeps", *RUN)
        for below in (
            "biascheck.results",
            "biascheck.verdict",
            "biascheck.power",
            "biascheck.checkpoints",
            "biascheck.stats",
            "biascheck.thresholds",
            "biascheck.run_config",
        )
    },
}


@pytest.mark.parametrize(("layer", "forbidden"), NEVER.items(), ids=list(NEVER))
def test_layers_never_import_what_sits_above_or_beside_them(layer, forbidden):
    broken = [
        f"{module} imports {target}"
        for module in _package(layer)
        for target in sorted(_edges(module))
        if any(target == f or target.startswith(f + ".") for f in forbidden)
    ]
    assert not broken, "\n".join(broken)


def test_the_gate_needs_no_pytest_and_no_torch():
    """The gate decides on saved runs: `biascheck compare` and the store work where no test framework or
    model library is imported (pytest's side is `biascheck.gate_plugin`)."""
    heavy = ("pytest", "_pytest", "torch", "transformers")
    broken = [
        str(path.relative_to(REPO))
        for path in (PACKAGE / "gate").glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Import | ast.ImportFrom)
        and any(
            (name or "").split(".")[0] in heavy
            for name in ([a.name for a in node.names] if isinstance(node, ast.Import) else [node.module])
        )
    ]
    assert not broken, broken


# The words of a verdict (biascheck/verdict.py): spelled there, nowhere else in the product.
VERDICT_WORDS = {"FAIL", "CANNOT MEASURE", "report only"}


def _verdict_words(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if text in VERDICT_WORDS or text.startswith("### biascheck gate:") or "biascheck gate: " in text:
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: {text!r}")
    return found


def test_one_module_words_a_verdict():
    words = [w for p in PACKAGE.rglob("*.py") if p.name != "verdict.py" for w in _verdict_words(p)]
    assert not words, "\n".join(words)
    assert _verdict_words(PACKAGE / "verdict.py")  # the check reads the constants it looks for


def test_design_lists_every_module():
    """docs/design.md names every module of the package (a probe package's standard files once, as
    `methods/<probe>/`), so a reader finds each one there."""
    design = (REPO / "docs" / "design.md").read_text(encoding="utf-8")
    probe_files = PROBE_FILES | OPTIONAL_PROBE_FILES | {"reference.py"}
    unlisted = [
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if p.name != "__init__.py"
        and not (p.parent.parent.name == "methods" and p.name in probe_files)
        and p.name not in design
    ]
    unlisted += [
        f"{d.relative_to(PACKAGE)}/"
        for d in PACKAGE.iterdir()
        if d.is_dir() and (d / "__init__.py").is_file() and f"biascheck/{d.name}/" not in design
    ]
    assert not unlisted, f"docs/design.md does not name: {unlisted}"


@pytest.mark.parametrize("probe", SHIPPED)
def test_score_takes_the_language_model_protocol(probe):
    """A probe's `score` is typed against `biascheck.scoring.LanguageModel` (declared without torch), so mypy
    checks every call it makes on the model; `Any` would check nothing."""
    tree = ast.parse((PACKAGE / "methods" / probe / "score.py").read_text(encoding="utf-8"))
    (score,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "score"]
    assert ast.unparse(score.args.args[0].annotation) == "LanguageModel"
    assert "biascheck.scoring.LanguageModel" in _imports(PACKAGE / "methods" / probe / "score.py")
    assert not {m for m in _edges("biascheck.scoring")}  # the protocol imports nothing of biascheck


def test_plugin_and_tracking_do_not_import_each_other():
    assert "biascheck.plugin" not in _edges("biascheck.gate_plugin.tracking")  # the plugin registers tracking, not back
    assert "biascheck.plugin" not in _edges("biascheck.gate_plugin.workers")
    assert not {"biascheck.plugin", "biascheck.gate_plugin.tracking"} & _edges("biascheck.session")


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


@pytest.mark.parametrize("probe", SHIPPED)
def test_every_probe_package_has_the_same_files(probe):
    names = {p.name for p in (PACKAGE / "methods" / probe).iterdir() if not p.name.startswith((".", "__pycache__"))}
    assert PROBE_FILES <= names, f"missing: {sorted(PROBE_FILES - names)}"
    assert "__init__.py" not in names, "a probe's folder is a namespace package: its docstring is spec.py's"
    assert ast.get_docstring(ast.parse((PACKAGE / "methods" / probe / "spec.py").read_text(encoding="utf-8")))


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
    assert [PROBES[n].name for n in PROBES] == list(PROBES.entries)


def test_every_folder_of_methods_is_a_probe_in_the_catalog():
    """The catalog finds a probe by its spec.py: a folder without one would be silently left out."""
    folders = {p.name for p in (PACKAGE / "methods").iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(SHIPPED), f"folders without a spec.py: {sorted(folders - set(SHIPPED))}"


def _imports_lab(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        if any(n == "lab" or n.startswith("lab.") for n in names):
            return True
    return False


def test_the_product_never_imports_the_lab():
    """lab/ is not in the wheel: an import of it from the package or a shipped probe fails on a user's machine."""
    product = [*PACKAGE.rglob("*.py"), *(REPO / "probes").rglob("*.py")]
    assert not [str(p.relative_to(REPO)) for p in product if _imports_lab(p)]


def test_the_wheel_holds_the_product_and_not_the_lab(tmp_path):
    """The wheel built from the sources (a copy: a stale build/ of the checkout would ship what it holds) has every
    module of the package and no module of lab/. About 3 s."""
    source = tmp_path / "source"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("biascheck", "probes", "thresholds", "lab"):
        shutil.copytree(REPO / name, source / name, ignore=skip)
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    command = [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--no-build-isolation", "-q", "-w", "dist"]
    subprocess.run(command, cwd=source, capture_output=True, text=True, check=True)
    (wheel,) = (source / "dist").glob("biascheck-*.whl")
    shipped = {n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".py")}
    assert not [n for n in shipped if n.startswith("lab/")]
    assert {str(p.relative_to(REPO)) for p in PACKAGE.rglob("*.py")} <= shipped
