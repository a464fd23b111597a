"""Fixtures: the small prompt set of `fakes` scored by the fake models."""

from __future__ import annotations

import pytest

from biascheck.data.natural_prompts import parse_prompts
from biascheck.methods.natural_prompts import score
from biascheck.methods.natural_prompts.reference import build
from biascheck.methods.natural_prompts.spec import PROBE, TEMPLATES
from biascheck.settings import settings_of

from .fakes import GOLD, RAW, FakeCausal, FakeMasked


@pytest.fixture(scope="module")
def reference():
    """The 4 professions of RAW, 4 templates, with GOLD."""
    return build(parse_prompts(RAW), GOLD, templates=TEMPLATES[:4])


@pytest.fixture(scope="module")
def settings():
    """The probe's defaults: every profession (no `limit`)."""
    return settings_of(PROBE)


@pytest.fixture(scope="module")
def scored(reference, settings):
    """`reference` on FakeCausal."""
    return score.score(FakeCausal(), reference, settings)


@pytest.fixture(scope="module")
def scored_masked(settings):
    """The 4 professions of RAW, 2 templates, on FakeMasked, with GOLD."""
    return score.score(FakeMasked(), build(parse_prompts(RAW), GOLD, templates=TEMPLATES[:2]), settings)
