"""Planted models are built once, keyed by what made them, and never left half-written."""

from __future__ import annotations

import pytest

from biascheck.planted import build
from biascheck.planted.train import TrainConfig

pytest.importorskip("torch")
pytest.importorskip("tokenizers")


TWO_PROFESSIONS = {"professions": (("nurse", "a", 0.9), ("carpenter", "a", 0.02))}


@pytest.fixture
def small(monkeypatch):
    """A 20-step training config and a two-profession corpus: the mechanics, in seconds."""
    from biascheck.planted import references

    monkeypatch.setattr(references, "plants", lambda refdata, which: {n: TWO_PROFESSIONS.get(n) for n in which})
    monkeypatch.setattr(
        references, "corpora", lambda: {**references.FROZEN_CORPORA, "en": ("professions", "definitional_en")}
    )
    monkeypatch.setattr(build, "TrainConfig", lambda family: TrainConfig(family, steps=20, vocab_size=200, hidden=16))
    monkeypatch.setattr(build, "OVERRIDES", {})  # the real corpora's 2,000 steps made this a 70 s masked build


@pytest.mark.parametrize("family", ["masked", "causal"])
def test_a_model_is_built_once_and_found_again(small, tmp_path, family):
    first = build.ensure_model(family, 1.0, refdata=None, root=tmp_path)
    stamp = (first / "model.safetensors").stat().st_mtime_ns
    again = build.ensure_model(family, 1.0, refdata=None, root=tmp_path)
    assert again == first and (first / "model.safetensors").stat().st_mtime_ns == stamp
    manifest = build.manifest(first)
    assert (manifest["family"], manifest["strength"], manifest["recipe"]) == (family, 1.0, build.RECIPE)
    assert build.ensure_model(family, 0.0, refdata=None, root=tmp_path) != first  # another corpus, another key


def test_an_interrupted_build_leaves_nothing_that_looks_finished(small, tmp_path, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("biascheck.planted.train.train", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build.ensure_model("masked", 1.0, refdata=None, root=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_cache_is_a_clear_error(small, tmp_path):
    from biascheck.errors import ConfigError

    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    with pytest.raises(ConfigError, match="BIASCHECK_PLANTED_DIR"):
        build.ensure_model("masked", 1.0, refdata=None, root=blocker / "planted")


def test_an_unknown_planted_corpus_is_an_error(small, tmp_path):
    with pytest.raises(ValueError, match="no planted corpus 'fr'; known: en, no, they"):
        build.ensure_model("masked", 1.0, refdata=None, root=tmp_path, corpus="fr")


def test_the_key_covers_what_decides_the_bits():
    """The corpus, the config, the recipe, the thread count and the CPU's instruction set: change any and
    the model is another (builds on an AVX-512 and an AVX2 machine once learned different plants)."""
    import torch

    config = TrainConfig("masked")
    here = build.bits_decided_by()
    assert here["cpu"] == str(torch.backends.cpu.get_cpu_capability()) and here["threads"] == 1
    key = build.model_key("c0ffee", config)
    assert key == build.model_key("c0ffee", config, here)
    others = [{**here, "threads": 2}, {**here, "cpu": "AVX2" if here["cpu"] != "AVX2" else "AVX512"}]
    others += [{**here, "recipe": "another"}, {**here, "torch": "0.0.1"}]
    assert here["torch"] == torch.__version__
    assert len({key, *(build.model_key("c0ffee", config, o) for o in others)}) == 5
    assert build.model_key("c0ffee", TrainConfig("masked", seed=1)) != key
    assert build.model_key("c0ffef", config) != key


def test_the_training_seed_comes_from_the_environment_and_a_bad_one_is_a_clear_error(small, tmp_path, monkeypatch):
    from biascheck.errors import ConfigError

    monkeypatch.setenv(build.SEED_ENV, "1")
    one = build.ensure_model("causal", 1.0, refdata=None, root=tmp_path)
    assert build.manifest(one)["train_config"]["seed"] == 1
    monkeypatch.delenv(build.SEED_ENV)
    zero = build.ensure_model("causal", 1.0, refdata=None, root=tmp_path)
    assert zero != one and build.manifest(zero)["train_config"]["seed"] == 0
    assert build.manifest(zero)["corpus_sha256"] == build.manifest(one)["corpus_sha256"]  # the same corpus
    for bad in ("two", "-1"):
        monkeypatch.setenv(build.SEED_ENV, bad)
        with pytest.raises(ConfigError, match=build.SEED_ENV):
            build.ensure_model("causal", 1.0, refdata=None, root=tmp_path)
