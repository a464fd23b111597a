"""Where planted models are built: `biascheck.planted.resolve`, never the model loader. The loader refuses a
planted alias it is not handed a built directory for; `load_model_or_plant` builds (here: a stand-in for the
cache) and records the plant as the model's source, the same on every machine."""

from __future__ import annotations

import json
import shutil

import pytest

from biascheck.errors import ConfigError
from biascheck.models import load_model
from biascheck.planted import build
from biascheck.planted.resolve import load_model_or_plant, planted_provenance

pytest.importorskip("torch")


def test_the_model_loader_never_builds_a_planted_model():
    with pytest.raises(ConfigError, match="load_model_or_plant"):
        load_model("planted-bert-they@0.5", device="cpu")


def test_other_names_have_no_plant():
    assert planted_provenance("smollm2-135m") is None


def test_a_planted_alias_is_built_then_loaded_with_the_record_of_its_plant(tmp_path, tiny_bert, monkeypatch):
    built = tmp_path / "masked-they-0.5-0123456789abcdef"
    shutil.copytree(tiny_bert, built)
    (built / build.MANIFEST).write_text(
        json.dumps({"corpus_sha256": "c0ffee", "recipe": build.RECIPE, "train_config": {"seed": 2}})
    )
    asked = []

    def cached(family, strength, refdata, root=None, log=None, corpus="en"):
        asked.append((family, strength, corpus, refdata.mirror))
        return built

    monkeypatch.setattr(build, "ensure_model", cached)
    lm = load_model_or_plant("planted-bert-they@0.5", device="cpu", data_dir=tmp_path)
    assert asked == [("masked", 0.5, "they", tmp_path)]
    assert lm.info.name == "planted-bert-they@0.5" and lm.info.source == "planted:masked-they@0.5"
    assert {k: v for k, v in lm.info.extra.items() if k.startswith("planted_")} == {
        "planted_strength": "0.5",
        "planted_corpus": "they",
        "planted_language": "en",
        "planted_corpus_sha256": "c0ffee",
        "planted_recipe": build.RECIPE,
        "planted_seed": "2",
    }
