"""Every probe of the catalog keeps the one probe protocol (`biascheck.protocol`): the same module names and
signatures in its package, a frozen `Reference`, and a test module that is the shared template. The check
itself is checked on a probe that breaks it."""

from pathlib import Path

import pytest

from biascheck.catalog import PROBES
from biascheck.protocol import probe_test_source, protocol_problems

PROBES_DIR = Path(__file__).resolve().parents[1] / "probes"


@pytest.mark.parametrize("probe", [name for name in PROBES if PROBES.is_shipped(name)])
def test_every_shipped_probe_keeps_the_protocol(probe):
    assert protocol_problems(probe, PROBES_DIR) == []


def test_the_check_names_what_breaks_the_protocol(tmp_path, monkeypatch):
    package = tmp_path / "biascheck_fake_probe"
    (package / "methods" / "broken").mkdir(parents=True)
    for init in (package, package / "methods", package / "methods" / "broken"):
        (init / "__init__.py").write_text("")
    broken = package / "methods" / "broken"
    (broken / "reference.py").write_text(
        "from dataclasses import dataclass\n@dataclass\nclass Reference:\n    x: int\n"
        "def load(refdata, settings): return Reference(1)\n"
    )
    (broken / "score.py").write_text("def score(lm, reference): pass\n")
    (broken / "metrics.py").write_text("def task_metrics(task, scored, reference, settings): return []\n")
    (broken / "figures.py").write_text("def draw(task, scored): return []\n")
    (tmp_path / "probes").mkdir()
    (tmp_path / "probes" / "test_broken.py").write_text('"""doc"""\n' + probe_test_source("broken") + "x = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import biascheck.methods

    monkeypatch.setattr(biascheck.methods, "__path__", [*biascheck.methods.__path__, str(package / "methods")])
    problems = "\n".join(protocol_problems("broken", tmp_path / "probes"))
    assert "biascheck.methods.broken.reference.Reference is not frozen" in problems
    assert "score.score('lm', 'reference') should take ('lm', 'reference', 'settings')" in problems
    assert "figures.draw('task', 'scored') should take" in problems
    assert "test_broken.py is not the shared probe test" in problems
    assert "task_metrics" not in problems


def test_a_probe_that_draws_nothing_has_no_figures_module_and_no_draw_in_its_test():
    """figures.py is optional: without it the protocol asks for no `draw` and the test module saves nothing."""
    assert "import draw" in probe_test_source("winobias") and "draw(" in probe_test_source("winobias")
    plain = probe_test_source("winobias", draws=False)
    assert "draw" not in plain and "bias.record_all(task, task_metrics(" in plain and "bias.check()" in plain
    assert "draw" not in probe_test_source("no_such_probe")
