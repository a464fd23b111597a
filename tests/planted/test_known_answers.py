"""The English corpus's planted models (`planted-bert`, `planted-gpt` at strength 1 and 0) load and record their
plant. Each probe's own known answer on them is its tests folder's test_known_answer.py
(tests/methods/<probe>/); they share one planted run a session (tests/conftest.py, `planted_run`)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("tokenizers")

FAMILIES = ("planted-bert", "planted-gpt")


def test_every_planted_model_loaded_and_recorded_its_plant(planted_en):
    models = planted_en.results["models"]
    for family, kind in zip(FAMILIES, ("masked", "causal"), strict=True):
        for strength in ("1", "0"):
            info = models[f"{family}@{strength}"]
            assert info["family"] == kind
            assert info["source"] == f"planted:{kind}@{strength}"
            assert info["extra"]["planted_strength"] == strength
            assert len(info["extra"]["planted_corpus_sha256"]) == 64
    corpus = {m: info["extra"]["planted_corpus_sha256"] for m, info in models.items()}
    assert corpus["planted-bert@1"] == corpus["planted-gpt@1"] != corpus["planted-bert@0"]
