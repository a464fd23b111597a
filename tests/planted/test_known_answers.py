"""Every probe's known answer, as its folder declares it (`biascheck/methods/<probe>/known_answer.py`): each metric
its plant moves (`Moved`, on the families of `found_by`) lies beyond the control's on the planted model, by the
planted model's 95 % interval. And the English corpus's planted models (`planted-bert`, `planted-gpt` at strength 1
and 0) load and record their plant. What a probe checks beyond the declared moves (its gates, the size of the
effect, the control's own value) is its tests folder's test_known_answer.py (tests/methods/<probe>/); all share one
planted run per corpus a session (tests/conftest.py, `planted_run`)."""

from __future__ import annotations

import pytest

from biascheck.planted.references import known_answers
from biascheck.registry import corpus_families

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


DECLARED = [
    pytest.param(probe, move, family, id=f"{probe}-{move.task}-{move.metric}-{family}")
    for probe, known in known_answers().items()
    for move in known.moves
    for family in move.asserted_on(corpus_families(move.corpus))
]


@pytest.mark.parametrize(("probe", "move", "family"), DECLARED)
def test_every_declared_move_is_found_on_the_planted_model_beyond_its_control(planted_run, probe, move, family):
    """At strength 1 the metric lies `direction`-wards of the control's (strength 0, same family and seed) by
    more than the planted model's own 95 % interval: the interval's near end is beyond the control's value. Held
    by every build of docs/known_answers/dose_response_<corpus>.md (three seeds) for the moves asserted here."""
    run = planted_run(move.corpus)
    planted = run.metric(f"{family}@1", probe, move.task, move.metric)
    control = run.metric(f"{family}@0", probe, move.task, move.metric)
    near_end = planted["ci_low"] if move.direction > 0 else planted["ci_high"]
    assert move.direction * (near_end - control["value"]) > 0, (planted, control)
