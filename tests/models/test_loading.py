"""load_model, device/dtype resolution, bad input, the lazy import, and the OOM back-off."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import torch

from biascheck.errors import (
    ConfigError,
    MissingTokenizerError,
    ModelTypeError,
    TokenizationError,
    UnknownModelError,
    did_you_mean,
)
from biascheck.models import TemplateError, load_model, resolve_device, resolve_dtype
from biascheck.models.batching import ForwardEngine
from biascheck.models.causal import CausalLM, default_context_prefix
from biascheck.models.loading import tokenizer_problems
from biascheck.models.masked import MaskedLM


def test_import_does_not_import_torch():
    code = (
        "import sys, biascheck.models as m; m.SLOT; "
        "bad = [k for k in ('torch', 'transformers') if k in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_resolve_device_and_dtype():
    assert resolve_device("cpu") == "cpu"
    assert resolve_device("auto") in ("cpu", "cuda", "mps")
    with pytest.raises(ConfigError, match="gpu"):
        resolve_device("gpu")
    if not torch.cuda.is_available():
        with pytest.raises(ConfigError, match="CUDA is not available"):
            resolve_device("cuda:0")
    assert resolve_dtype("auto", "cpu") == "float32"
    assert resolve_dtype("bfloat16", "cpu") == "bfloat16"
    with pytest.raises(ConfigError, match="Did you mean .bfloat16."):
        resolve_dtype("bf16", "cpu")
    assert resolve_dtype("auto", "cuda") == "float32"  # half precision only where float32 does not fit
    with pytest.raises(ConfigError, match="float64"):
        resolve_dtype("float64", "cpu")


def test_unknown_alias_suggests(monkeypatch):
    with pytest.raises(UnknownModelError, match="Did you mean 'smollm2-135m'"):
        load_model("smolm2-135m")


def test_unloadable_hub_id_is_unknown_model(monkeypatch):
    import transformers

    def offline(*args, **kwargs):  # what from_pretrained raises without network (no real network call here)
        raise OSError("We couldn't connect to 'https://huggingface.co' to load the files.")

    monkeypatch.setattr(transformers.AutoConfig, "from_pretrained", offline)
    with pytest.raises(UnknownModelError, match="could not load hub id 'nobody-here/no-such-model'.*couldn't connect"):
        load_model("nobody-here/no-such-model", device="cpu")
    with pytest.raises(UnknownModelError, match="Did you mean 'gpt2'"):
        load_model("openai/gpt2", device="cpu")
    # A known alias whose weights cannot be fetched: the name is right, so no "did you mean" (it used to
    # suggest the very alias typed) and no "check the name".
    with pytest.raises(UnknownModelError) as got:
        load_model("nb-bert-large", device="cpu")
    message = str(got.value)
    assert "could not load hub id 'NbAiLab/nb-bert-large'" in message and "alias for that hub id" in message
    assert "Did you mean" not in message and "Check the name" not in message


def test_biascheck_offline_asks_the_hub_nothing(monkeypatch):
    """BIASCHECK_OFFLINE=1 stopped the data downloads but not a hub lookup (an unknown id was retried for
    53 s): from_pretrained now gets local_files_only, and the error says why nothing was fetched."""
    import transformers

    asked = []

    def cache_only(*args, **kwargs):  # transformers' answer with local_files_only and an empty cache
        asked.append(kwargs.get("local_files_only"))
        raise OSError("couldn't find them in the cached files")

    monkeypatch.setattr(transformers.AutoConfig, "from_pretrained", cache_only)
    monkeypatch.setenv("BIASCHECK_OFFLINE", "1")
    with pytest.raises(UnknownModelError, match="BIASCHECK_OFFLINE is set, so the hub was not asked"):
        load_model("nobody-here/no-such-model", device="cpu")
    monkeypatch.delenv("BIASCHECK_OFFLINE")
    with pytest.raises(UnknownModelError) as online:
        load_model("nobody-here/no-such-model", device="cpu")
    assert asked == [True, None] and "BIASCHECK_OFFLINE" not in str(online.value)


def test_a_biascheck_offline_run_reads_no_model_card_from_the_hub(monkeypatch):
    import huggingface_hub

    from biascheck.languages import card_languages

    asked = []

    def hub(self, name, **kwargs):  # what the hub would be asked (caught by card_languages: record it)
        asked.append(name)
        raise OSError("no network")

    monkeypatch.setattr(huggingface_hub.HfApi, "model_info", hub)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("BIASCHECK_OFFLINE", "1")
    card_languages.cache_clear()
    assert card_languages("nobody-here/no-such-model") == () and asked == []
    monkeypatch.delenv("BIASCHECK_OFFLINE")
    card_languages.cache_clear()
    assert card_languages("nobody-here/no-such-model") == () and asked == ["nobody-here/no-such-model"]


def test_did_you_mean_never_offers_the_value_itself():
    assert did_you_mean("gpt2", ["gpt2", "gpt2-large"]) == " Did you mean 'gpt2-large'?"
    assert did_you_mean("gpt2", ["gpt2"]) == ""


def test_local_dir_without_lm_head_is_model_type_error(tmp_path, bert_tokenizer):
    from transformers import BertConfig, BertForSequenceClassification

    cfg = BertConfig(
        vocab_size=bert_tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
    )
    BertForSequenceClassification(cfg).save_pretrained(tmp_path)
    bert_tokenizer.save_pretrained(tmp_path)
    with pytest.raises(ModelTypeError, match="BertForSequenceClassification.*masked LM"):
        load_model(str(tmp_path), device="cpu")


@pytest.mark.parametrize("fixture,family", [("gpt2_tiny", "causal"), ("roberta_tiny", "masked")])
def test_local_dir_loads_and_detects_family(tmp_path, fixture, family, request):
    model, tok = request.getfixturevalue(fixture)
    model.save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    lm = load_model(str(tmp_path), device="cpu", batch_size=3)
    assert lm.family == family and lm.info.family == family
    assert lm.info.architecture == type(model).__name__ and lm.info.dtype == "float32" and lm.info.device == "cpu"
    assert lm.info.revision == "unknown" and lm.info.source == str(tmp_path)
    assert len(lm.info.extra["weights_sha256"]) == 64 and len(lm.info.extra["tokenizer_sha256"]) == 64
    copy = tmp_path.parent / f"{tmp_path.name}-copy"  # the same files elsewhere: the same identity
    import shutil

    shutil.copytree(tmp_path, copy)
    again = load_model(str(copy), device="cpu")
    assert again.info.extra["weights_sha256"] == lm.info.extra["weights_sha256"]
    assert again.info.extra["tokenizer_sha256"] == lm.info.extra["tokenizer_sha256"]
    if family == "causal":  # the prefix is recorded with the model (results.json), the same one the engine uses
        assert lm.info.extra["context_prefix"] == lm.context_prefix == default_context_prefix(tok)
    else:
        assert "context_prefix" not in lm.info.extra
    ref = (CausalLM if family == "causal" else MaskedLM)(model, tok)
    t = ["[SLOT] is a nurse.", "The doctor said that [SLOT] would come."]
    np.testing.assert_allclose(
        lm.fill_slot(t, ["he", "she"]).logprob, ref.fill_slot(t, ["he", "she"]).logprob, atol=1e-5
    )


def test_template_errors(gpt2_tiny, bert_real):
    for lm in (CausalLM(*gpt2_tiny), MaskedLM(*bert_real)):
        with pytest.raises(TemplateError, match="has 0 \\[SLOT\\]"):
            lm.fill_slot(["He is a nurse."], ["he"])
        with pytest.raises(TemplateError, match="has 2 \\[SLOT\\]"):
            lm.fill_slot(["[SLOT] and [SLOT]."], ["he"])
        with pytest.raises(TemplateError, match="single string"):
            lm.fill_slot("[SLOT] is here.", ["he"])
        with pytest.raises(TemplateError, match="whitespace"):
            lm.fill_slot(["[SLOT] is here."], [" he"])
    with pytest.raises(TemplateError, match="cannot come after"):
        CausalLM(*gpt2_tiny).fill_slot(["The [BLANK] met [SLOT]."], ["he"])


def test_straddling_candidate_causal(gpt2_tiny):
    lm = CausalLM(*gpt2_tiny)
    with pytest.raises(TokenizationError, match="together with neighbouring text"):
        lm.fill_slot(["The [SLOT]urse said."], ["n"])  # 'nurse' is one piece: the candidate 'n' is inside it


def test_empty_inputs(gpt2_tiny, bert_real):
    for lm in (CausalLM(*gpt2_tiny), MaskedLM(*bert_real)):
        assert lm.fill_slot([], ["he"]).logprob.shape == (0, 1)
        assert lm.fill_slot(["[SLOT] is."], []).logprob.shape == (1, 0)
        assert lm.sentence_logprob([])[0].shape == (0,)


class _FakeOOM:
    """A body that runs out of memory above `limit` sequences per batch."""

    def __init__(self, limit: int, vocab: int = 11):
        self.limit, self.vocab, self.sizes = limit, vocab, []

    def body(self, ids, mask):
        self.sizes.append(ids.shape[0])
        if ids.shape[0] > self.limit:
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return torch.nn.functional.one_hot(ids % self.vocab, self.vocab).float() * 3.0


def test_oom_halves_and_retries():
    fake = _FakeOOM(limit=3)
    eng = ForwardEngine(fake.body, lambda h: h, device="cpu", pad_id=0, causal=False, vocab_size=11, batch_size=16)
    seqs = [tuple(range(i, i + 4 + i % 3)) for i in range(20)]
    reads = [(s, 1, t) for s in seqs for t in (0, 5)]
    with pytest.warns(RuntimeWarning, match="out of memory"):
        vals, _, _ = eng.run(reads)
    assert max(s for s in fake.sizes if s <= 3) <= 3 and 16 in fake.sizes and eng.batch_size <= 3
    ref = ForwardEngine(
        _FakeOOM(limit=100).body, lambda h: h, device="cpu", pad_id=0, causal=False, vocab_size=11, batch_size=1
    ).run(reads)[0]
    np.testing.assert_allclose(vals, ref)
    # adaptive (token budget) mode backs off too
    fake2 = _FakeOOM(limit=2)
    eng2 = ForwardEngine(
        fake2.body, lambda h: h, device="cpu", pad_id=0, causal=False, vocab_size=11, token_budget=4096
    )
    with pytest.warns(RuntimeWarning):
        np.testing.assert_allclose(eng2.run(reads)[0], ref)


def test_oom_on_a_single_input_is_a_clear_error():
    fake = _FakeOOM(limit=0)
    eng = ForwardEngine(fake.body, lambda h: h, device="cpu", pad_id=0, causal=False, vocab_size=11, batch_size=1)
    with pytest.raises(MemoryError, match="one input of 3 tokens"):
        eng.run([((1, 2, 3), 0, 1)])


def test_causal_prefix_sharing_runs_the_longest_input_only():
    fake = _FakeOOM(limit=100)
    eng = ForwardEngine(fake.body, lambda h: h, device="cpu", pad_id=0, causal=True, vocab_size=11, batch_size=1)
    s = (1, 2, 3, 4, 5)
    eng.run([(s, 0, 2), (s[:3], 1, 3), (s[:2], 1, 4), (s, 4, 1), ((9, 9), 1, 1)])
    assert eng.work.forward_calls == 2 and sorted(fake.sizes) == [1, 1]


class _Tokenizer:
    def __init__(self, vocab, bos, eos):
        self.vocab, self.bos_token, self.eos_token = vocab, bos, eos

    def get_vocab(self):
        return dict.fromkeys(self.vocab, 0)


@pytest.mark.parametrize(
    ("vocab", "bos", "eos", "prefix"),
    [
        # SmolLM2-Instruct: a chat bos, and the document separator it was pre-trained with
        (["<|endoftext|>", "<|im_start|>", "<|im_end|>"], "<|im_start|>", "<|im_end|>", "<|endoftext|>"),
        (["<|endoftext|>"], "<|endoftext|>", "<|endoftext|>", "<|endoftext|>"),  # GPT-2
        (["<s>", "</s>"], "<s>", "</s>", "<s>"),  # Llama
        (["</s>"], None, "</s>", "</s>"),
        (["a"], None, None, ""),
    ],
)
def test_context_prefix_depends_on_the_tokenizer_not_the_name(vocab, bos, eos, prefix):
    """A local copy of SmolLM2 got <|im_start|> while the alias got <|endoftext|>, which moved
    log_prior_ratio from -0.79 to -3.92; the rule now reads the tokenizer only."""
    assert default_context_prefix(_Tokenizer(vocab, bos, eos)) == prefix


def test_model_args_reach_from_pretrained_and_are_recorded(tmp_path, gpt2_tiny):
    model, tok = gpt2_tiny
    model.save_pretrained(tmp_path / "sub")
    tok.save_pretrained(tmp_path / "sub")
    lm = load_model(str(tmp_path), device="cpu", model_args={"subfolder": "sub"})
    assert lm.family == "causal" and lm.info.extra["model_args"] == "subfolder=sub"
    assert len(lm.info.extra["weights_sha256"]) == 64
    with pytest.raises(UnknownModelError):
        load_model(str(tmp_path), device="cpu")  # the directory itself holds no model


def test_an_adapter_without_peft_is_a_clear_error(tmp_path, gpt2_tiny, monkeypatch):
    import sys

    model, tok = gpt2_tiny
    model.save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    monkeypatch.setitem(sys.modules, "peft", None)  # as if not installed
    with pytest.raises(ConfigError, match="needs the peft package"):
        load_model(str(tmp_path), device="cpu", model_args={"adapter": str(tmp_path / "adapter")})


def test_a_directory_without_tokenizer_files_is_refused(tmp_path, monkeypatch):
    """A config.json and weights with no tokenizer loaded with an empty tokenizer (5 tokens, every
    word [UNK], he = she), and every bias metric came out perfect. The weights are not even read."""
    from transformers import BertForMaskedLM

    from biascheck.testing import tiny_bert_config

    BertForMaskedLM(tiny_bert_config(200)).save_pretrained(tmp_path)
    monkeypatch.setattr(BertForMaskedLM, "from_pretrained", lambda *a, **k: pytest.fail("the weights were loaded"))
    with pytest.raises(MissingTokenizerError) as got:
        load_model(str(tmp_path), device="cpu")
    message = str(got.value)
    assert f"--model '{tmp_path}'" in message and "no tokenizer files (no tokenizer.json" in message
    assert "tokenizer_config.json" in message and "vocabulary has 5 tokens" in message
    assert "'he', 'she' and 'the' are the unknown token '[UNK]'" in message
    assert f"tokenizer.save_pretrained('{tmp_path}')" in message and "\n" not in message


@pytest.mark.parametrize(
    "fixture", ["bert_tokenizer", "roberta_tokenizer", "xlmr_tokenizer", "gpt2_tokenizer", "llama_tokenizer"]
)
def test_real_tokenizers_pass_the_tokenizer_check(fixture, request):
    """The check refuses only what is not a tokenizer: the test tokenizers have 94 to 400 tokens, trained
    on a dozen sentences, and pass."""
    assert tokenizer_problems(request.getfixturevalue(fixture)) == []


def test_a_hub_id_loads_as_before_and_its_empty_tokenizer_is_named_as_the_hubs(gpt2_tiny, tmp_path, monkeypatch):
    import transformers

    model, tok = gpt2_tiny
    transformers.BertConfig().save_pretrained(tmp_path)
    empty = transformers.AutoTokenizer.from_pretrained(tmp_path)  # what a config without tokenizer files gives
    monkeypatch.setattr(transformers.AutoConfig, "from_pretrained", lambda *a, **k: model.config)
    monkeypatch.setattr(transformers.AutoModelForCausalLM, "from_pretrained", lambda *a, **k: model)
    monkeypatch.setattr(transformers.AutoTokenizer, "from_pretrained", lambda *a, **k: tok)
    assert load_model("someone/tiny-gpt2", device="cpu").family == "causal"
    monkeypatch.setattr(transformers.AutoTokenizer, "from_pretrained", lambda *a, **k: empty)
    with pytest.raises(MissingTokenizerError, match="the tokenizer of 'someone/tiny-gpt2' is not a real one"):
        load_model("someone/tiny-gpt2", device="cpu")
