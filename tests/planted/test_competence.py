"""Known answers for the competence guard on the planted models: every planted model, plant and control,
reads gender after definitional nouns in its language (its corpus teaches it in frames of its own,
`biascheck.planted.definitional`), so the guard lets its probes measure it; the same architecture with random
weights does not get past the guard (`tests/plugin/test_competence_guard.py`)."""

from __future__ import annotations

import pytest

from biascheck.competence.read import read
from biascheck.registry import ALIASES

pytest.importorskip("torch")

PLANTED = [
    (alias, strength) for alias, spec in ALIASES.items() if spec.planted_strength is not None for strength in ("1", "0")
]


@pytest.mark.parametrize(("alias", "strength"), PLANTED)
def test_every_planted_model_passes_the_competence_guard(alias, strength, mirror):
    from biascheck.planted.resolve import load_model_or_plant

    lm = load_model_or_plant(f"{alias}@{strength}", device="cpu", data_dir=mirror)
    (language,) = ALIASES[alias].languages
    found = read(lm, language)
    assert found is not None and found.passed, (found.summary(), found.token_problems, found.items)
