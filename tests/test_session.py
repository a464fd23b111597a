"""BiasSession's hold on models: a model list keeps one model in memory at a time (a sweep of hundreds of
checkpoints would not fit), and results.json still records every model it ran, in the run's order."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from biascheck.checkpoints import Checkpoint
from biascheck.run_config import RunConfig
from biascheck.session import BiasSession


def _session(models: tuple[str, ...], listed: bool) -> BiasSession:
    config = RunConfig(
        models=models, device="cpu", dtype="auto", batch_size=None, profile="default", report_dir=None,
        data_dir=None, any_language=True, rootdir=Path("."),
        checkpoints=tuple(Checkpoint(m, step) for step, m in enumerate(models)) if listed else (),
    )  # fmt: skip
    return BiasSession(config=config)


@pytest.fixture
def loads(monkeypatch):
    loaded: list[str] = []

    def fake_load(name, **kwargs):
        loaded.append(name)
        return SimpleNamespace(info=SimpleNamespace(name=name, device="cpu"))

    monkeypatch.setattr("biascheck.planted.resolve.load_model_or_plant", fake_load)
    monkeypatch.setattr("biascheck.session.model_record", lambda info: {"name": info.name})
    return loaded


def test_a_model_list_holds_one_model_at_a_time_and_records_them_all(loads):
    session = _session(("a", "b", "c"), listed=True)
    for name in ("a", "a", "b", "c"):
        assert session.model(name).info.name == name
        assert list(session.models) == [name]
    assert loads == ["a", "b", "c"]
    assert list(session.model_records()) == ["a", "b", "c"]
    session.model("a")  # asked again: loaded again, not an error
    assert loads[-1] == "a" and list(session.model_records()) == ["a", "b", "c"]


def test_models_named_on_the_command_line_stay_loaded(loads):
    session = _session(("a", "b"), listed=False)
    session.model("a"), session.model("b"), session.model("a")
    assert loads == ["a", "b"] and list(session.models) == ["a", "b"]
