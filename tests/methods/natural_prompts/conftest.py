"""Fixtures: the small prompt set of `fakes` scored by the fake models."""

from __future__ import annotations

import pytest

from biascheck.data.natural_prompts import parse_prompts
from biascheck.methods.natural_prompts import score
from biascheck.methods.natural_prompts.spec import TEMPLATES

from .fakes import GOLD, RAW, FakeCausal, FakeMasked


@pytest.fixture(scope="module")
def scored():
    """The 4 professions of RAW, 4 templates, on FakeCausal, with GOLD."""
    return score.score_all(FakeCausal(), parse_prompts(RAW), gold=GOLD, templates=TEMPLATES[:4])


@pytest.fixture(scope="module")
def scored_masked():
    """The 4 professions of RAW, 2 templates, on FakeMasked, with GOLD."""
    return score.score_all(FakeMasked(), parse_prompts(RAW), gold=GOLD, templates=TEMPLATES[:2])
