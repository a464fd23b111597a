"""Quantisation and the tokenizer hash are recorded on every load path: before, only a
GGUF load said it was quantised, so a 4-bit run and a full-precision one were 'comparable'."""

from types import SimpleNamespace

import pytest

from biascheck.models.identity import quantisation, tokenizer_digest


@pytest.mark.parametrize(
    ("model", "gguf_file", "expected"),
    [
        (SimpleNamespace(config=SimpleNamespace()), None, "none"),
        (SimpleNamespace(config=SimpleNamespace(quantization_config=None)), None, "none"),
        (SimpleNamespace(config=SimpleNamespace()), "smollm2-135m-instruct.Q4_1.gguf", "GGUF Q4_1"),
        (None, "sub/model-q4_k_m.gguf", "GGUF Q4_K_M"),
        (None, "model-f16.gguf", "GGUF F16"),
        (None, "weights.gguf", "GGUF type unknown"),
        (
            SimpleNamespace(
                config=SimpleNamespace(quantization_config={"quant_method": "bitsandbytes", "load_in_4bit": True})
            ),
            None,
            "bitsandbytes 4-bit",
        ),
        (
            SimpleNamespace(config=SimpleNamespace(quantization_config={"quant_method": "gptq", "bits": 8})),
            None,
            "gptq 8-bit",
        ),
    ],
)
def test_quantisation_is_none_for_full_precision_and_named_otherwise(model, gguf_file, expected):
    assert quantisation(model, gguf_file) == expected


def test_a_local_directory_records_quantisation_none_and_a_tokenizer_hash(tmp_path, gpt2_tiny):
    from biascheck.models import load_model

    model, tok = gpt2_tiny
    model.save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    extra = load_model(str(tmp_path), device="cpu").info.extra
    assert extra["quantisation"] == "none" and len(extra["tokenizer_sha256"]) == 64


def test_the_tokenizer_digest_is_stable_and_changes_with_the_vocabulary(gpt2_tokenizer):
    import copy

    same = copy.deepcopy(gpt2_tokenizer)
    assert tokenizer_digest(same) == tokenizer_digest(gpt2_tokenizer) and len(tokenizer_digest(same)) == 64
    same.add_tokens(["zyxwvut"])
    assert tokenizer_digest(same) != tokenizer_digest(gpt2_tokenizer)


def test_a_model_saved_again_keeps_its_tokenizer_hash_and_another_vocabulary_does_not(tmp_path, gpt2_tiny):
    """The hash was over the tokenizer files' bytes, which save_pretrained rewrites (other files, other
    bytes): a re-saved model was 'not comparable' with its own baseline, a false red."""
    from transformers import AutoTokenizer

    from biascheck.models import load_model

    model, tok = gpt2_tiny
    model.save_pretrained(tmp_path / "a")
    tok.save_pretrained(tmp_path / "a")
    again = AutoTokenizer.from_pretrained(tmp_path / "a")
    model.save_pretrained(tmp_path / "b")
    again.save_pretrained(tmp_path / "b", legacy_format=False)
    (tmp_path / "b" / "tokenizer_config.json").write_text(
        (tmp_path / "b" / "tokenizer_config.json").read_text().replace("{", '{\n  "comment": "re-saved",', 1)
    )
    first, second = (load_model(str(tmp_path / d), device="cpu").info.extra["tokenizer_sha256"] for d in "ab")
    assert first == second
    again.add_tokens(["zyxwvut"])
    model.save_pretrained(tmp_path / "c")
    again.save_pretrained(tmp_path / "c")
    assert load_model(str(tmp_path / "c"), device="cpu").info.extra["tokenizer_sha256"] != first
