"""The one protocol every probe package keeps, and the check of it (run by the contract test over the catalog).

A probe is the folder `biascheck/methods/<probe>/` and the test module `probes/test_<probe>.py`. The folder's
modules have the same names and the same signatures in every probe:

* ``spec.py``       ``PROBE: ProbeSpec``: name, tasks, metrics (keyword-only `MetricSpec`), settings.
* ``reference.py``  ``load(refdata, settings) -> Reference``: the probe's reference data and stimuli as one
                    frozen dataclass named ``Reference`` (typed fields, no string-keyed dicts).
* ``score.py``      ``score(lm, reference, settings) -> Scored``: the only module that calls the model.
* ``metrics.py``    ``task_metrics(task, scored, reference, settings) -> list[Metric]``: pure math.
* ``figures.py``    ``draw(task, scored, reference, settings, model) -> list[Artifact]``: figures and texts; only
                    in a probe that draws something.

Any of them may raise `biascheck.errors.NotApplicable` (the test is skipped with its reason). The test module
is then the same lines in every probe (`probe_test_source`; without `draw` where there is no figures.py): it
wires those names to pytest's fixtures and holds no arithmetic. Checked here on the source and the signatures;
importing this module imports nothing numerical (a probe's modules are imported only when checked).
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import inspect
from pathlib import Path

# module -> (function, its parameters in order)
SIGNATURES: dict[str, tuple[str, tuple[str, ...]]] = {
    "reference": ("load", ("refdata", "settings")),
    "score": ("score", ("lm", "reference", "settings")),
    "metrics": ("task_metrics", ("task", "scored", "reference", "settings")),
    "figures": ("draw", ("task", "scored", "reference", "settings", "model")),
}

OPTIONAL = ("figures",)

PROBE_TEST = """\
from __future__ import annotations

import pytest
{draw_import}
from biascheck.methods.{name}.metrics import task_metrics
from biascheck.methods.{name}.reference import load
from biascheck.methods.{name}.score import score
from biascheck.methods.{name}.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def reference(refdata, probe_settings, kept):
    return kept("reference", lambda: load(refdata, probe_settings))


@pytest.fixture(scope="module")
def scored(lm, reference, probe_settings):
    return score(lm, reference, probe_settings)


@pytest.mark.parametrize("task", PROBE.tasks)
def test_{name}(task, scored, reference, probe_settings, bias):
    bias.record_all(task, task_metrics(task, scored, reference, probe_settings)){draw_call}
    bias.check()
"""
DRAW_IMPORT = "\nfrom biascheck.methods.{name}.figures import draw"
DRAW_CALL = "\n    if bias.draws:\n        bias.save_all(draw(task, scored, reference, probe_settings, bias.model))"


def has_module(name: str, module: str) -> bool:
    """Whether probe `name`'s folder holds `module` (found without importing it)."""
    try:
        return importlib.util.find_spec(f"biascheck.methods.{name}.{module}") is not None
    except ModuleNotFoundError:  # no folder biascheck/methods/<name>/ at all
        return False


def probe_test_source(name: str, draws: bool | None = None) -> str:
    """`probes/test_<name>.py` after its module docstring (which says what the probe measures); `draws`: the
    probe has a figures.py (looked up when not given)."""
    draws = has_module(name, "figures") if draws is None else draws
    return PROBE_TEST.format(
        name=name,
        draw_import=DRAW_IMPORT.format(name=name) if draws else "",
        draw_call=DRAW_CALL if draws else "",
    )


def _body(path: Path) -> str:
    """A test module's text after its docstring."""
    text = path.read_text(encoding="utf-8")
    if text.startswith('"""'):
        text = text[text.index('"""', 3) + 3 :]
    return text.lstrip("\n")


def protocol_problems(name: str, probes_dir: Path | None = None) -> list[str]:
    """What in probe `name` breaks the protocol (empty when it keeps it): a missing module or function, a
    signature with other parameters, a `load` that returns something other than a frozen dataclass
    `Reference`, a test module that is not the shared template."""
    problems = []
    for module_name, (function, parameters) in SIGNATURES.items():
        qualified = f"biascheck.methods.{name}.{module_name}"
        if module_name in OPTIONAL and not has_module(name, module_name):
            continue
        try:
            module = importlib.import_module(qualified)
        except ModuleNotFoundError as exc:
            problems.append(f"{qualified}: cannot be imported ({exc})")
            continue
        func = getattr(module, function, None)
        if not callable(func):
            problems.append(f"{qualified} has no function {function}()")
            continue
        found = tuple(inspect.signature(func).parameters)
        if found != parameters:
            problems.append(f"{qualified}.{function}{found} should take {parameters}")
        if module_name == "reference":
            reference = getattr(module, "Reference", None)
            if reference is None or not dataclasses.is_dataclass(reference):
                problems.append(f"{qualified} has no dataclass Reference")
            elif not getattr(reference, "__dataclass_params__").frozen:  # noqa: B009 - not in typeshed
                problems.append(f"{qualified}.Reference is not frozen")
    if probes_dir is not None:
        path = probes_dir / f"test_{name}.py"
        if not path.is_file():
            problems.append(f"{path} is missing")
        elif _body(path) != probe_test_source(name):
            problems.append(
                f"{path} is not the shared probe test after its docstring (biascheck.protocol.probe_test_source)"
            )
    return problems
