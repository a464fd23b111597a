"""Causal engine against plain per-sentence / per-prompt loops (full logits, log_softmax, gather)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import F32_EPS, causal_next, causal_sentence, causal_terms, causal_top, logprob_approx, n_tokens

from biascheck.errors import TokenizationError
from biascheck.models import CAUSAL_NEXT, CAUSAL_SENTENCE, SLOT
from biascheck.models.causal import CausalLM
from biascheck.models.text import TemplateError

MODELS = ["gpt2_tiny", "llama_tiny"]
TEMPLATES = ["[SLOT] is a nurse.", "The nurse said that [SLOT] would come.", "[SLOT] works as a [BLANK] here."]
WORDS = ["He", "She", "he", "she", "firefighter", "nurse"]
PROMPTS = ["The nurse said that", "He is a", "It was a long day at the hospital, but", "She"]


@pytest.mark.parametrize("fixture", MODELS)
def test_default_context_prefix(fixture, request):
    model, tok = request.getfixturevalue(fixture)
    lm = CausalLM(model, tok)
    assert lm.fast_head
    assert lm.prefix_ids == (tok.bos_token_id,)  # GPT-2: <|endoftext|>; Llama-style: <s>


@pytest.mark.parametrize("fixture", MODELS)
def test_fill_slot_equals_sentence_loop(fixture, request):
    model, tok = request.getfixturevalue(fixture)
    lm = CausalLM(model, tok)
    res = lm.fill_slot(TEMPLATES, WORDS)
    assert res.estimator == CAUSAL_SENTENCE and res.logprob.dtype == np.float64
    prefix = list(lm.prefix_ids)
    for i, t in enumerate(TEMPLATES):
        for j, w in enumerate(WORDS):
            text = t.replace(SLOT, w).split("[BLANK]")[0].rstrip()
            assert res.logprob[i, j] == logprob_approx(causal_sentence(model, tok, prefix, text), n_tokens(tok, text))
    vals, est = lm.sentence_logprob(["He is a nurse.", "She works as a"])
    assert est == CAUSAL_SENTENCE
    assert vals[0] == logprob_approx(res.logprob[0, 0], n_tokens(tok, "He is a nurse."))
    assert vals[1] == logprob_approx(res.logprob[2, 1], n_tokens(tok, "She works as a"))


@pytest.mark.parametrize("fixture", MODELS)
def test_next_token_equals_prompt_loop(fixture, request):
    model, tok = request.getfixturevalue(fixture)
    lm = CausalLM(model, tok)
    res = lm.next_token(PROMPTS, WORDS)
    assert res.estimator == CAUSAL_NEXT
    prefix = list(lm.prefix_ids)
    for i, p in enumerate(PROMPTS):
        for j, w in enumerate(WORDS):
            assert res.logprob[i, j] == logprob_approx(causal_next(model, tok, prefix, p, w), res.n_pieces[i, j])
    assert res.multi_piece


@pytest.mark.parametrize("fixture", MODELS)
def test_next_token_rows_equals_the_loop_over_each_prompts_own_candidates(fixture, request):
    model, tok = request.getfixturevalue(fixture)
    lm = CausalLM(model, tok)
    rows = [["he", "she"], ["nurse", "firefighter"], ["he", "nurse"], ["She", "He"]]
    res = lm.next_token_rows(PROMPTS, rows)
    assert res.estimator == CAUSAL_NEXT and res.logprob.shape == (4, 2)
    prefix = list(lm.prefix_ids)
    for i, p in enumerate(PROMPTS):
        for j, w in enumerate(rows[i]):
            assert res.logprob[i, j] == logprob_approx(causal_next(model, tok, prefix, p, w), res.n_pieces[i, j])
    with pytest.raises(TemplateError, match="same number of candidates"):
        lm.next_token_rows(PROMPTS[:2], [["he"], ["he", "she"]])
    with pytest.raises(TemplateError, match="rows of candidates"):
        lm.next_token_rows(PROMPTS, rows[:3])


@pytest.mark.parametrize("fixture", MODELS)
def test_top_next_equals_topk(fixture, request):
    model, tok = request.getfixturevalue(fixture)
    lm = CausalLM(model, tok)
    vals, toks = lm.top_next(PROMPTS, 7)
    assert vals.shape == (len(PROMPTS), 7) and vals.dtype == np.float64
    for i, p in enumerate(PROMPTS):
        v, ids = causal_top(model, tok, list(lm.prefix_ids), p, 7)
        np.testing.assert_allclose(vals[i], v, atol=1e-5, rtol=16 * F32_EPS)  # see helpers.logprob_approx
        assert toks[i] == [tok.decode([int(x)]) for x in ids]
        assert np.all(np.diff(vals[i]) <= 0)


@pytest.mark.parametrize("fixture", MODELS)
def test_word_logprobs_sum_to_sentence(fixture, request):
    model, tok = request.getfixturevalue(fixture)
    lm = CausalLM(model, tok)
    sents = ["The farmer's daughter became a pilot.", "He is a nurse."]
    words = lm.word_logprobs(sents)
    vals, _ = lm.sentence_logprob(sents)
    for s, ws, v in zip(sents, words, vals, strict=False):
        assert [w for w, *_ in ws] == s.split()
        assert all(s[a:b] == w for w, a, b, _ in ws)
        assert sum(x for *_, x in ws) == logprob_approx(v, n_tokens(tok, s))
    # the first word's score is its chain-rule log-prob given the prefix alone
    ids = tok(sents[1], add_special_tokens=False, return_offsets_mapping=True)
    terms = causal_terms(model, list(lm.prefix_ids), ids["input_ids"])
    first = [q for q, (a, b) in enumerate(ids["offset_mapping"]) if b <= 2 and b > a]
    assert words[1][0][3] == logprob_approx(terms[first].sum(), len(first))


def test_no_prefix_leaves_first_piece_unscored(gpt2_tiny):
    model, tok = gpt2_tiny
    lm = CausalLM(model, tok, context_prefix="")
    assert lm.prefix_ids == ()
    words = lm.word_logprobs(["He is a nurse."])[0]
    assert np.isnan(words[0][3]) and not np.isnan(words[1][3])
    with pytest.raises(TokenizationError):
        lm.next_token([""], ["he"])


def test_explicit_prefix_and_fallback_head(gpt2_tiny, monkeypatch):
    model, tok = gpt2_tiny
    fast = CausalLM(model, tok, context_prefix="<|endoftext|>")
    monkeypatch.setattr(CausalLM, "_head_module", lambda self: None)
    slow = CausalLM(model, tok, context_prefix="<|endoftext|>")
    assert fast.fast_head and not slow.fast_head
    np.testing.assert_allclose(
        fast.fill_slot(TEMPLATES, WORDS).logprob, slow.fill_slot(TEMPLATES, WORDS).logprob, atol=1e-5
    )
    np.testing.assert_allclose(
        fast.next_token(PROMPTS, WORDS).logprob, slow.next_token(PROMPTS, WORDS).logprob, atol=1e-5
    )


def test_single_piece_next_tokens_share_one_forward(gpt2_tiny):
    model, tok = gpt2_tiny
    lm = CausalLM(model, tok, batch_size=1)
    res = lm.next_token(["The nurse said that"], ["he", "she"])
    assert (res.n_pieces == 1).all()
    assert lm.engine.work.forward_calls == 1


@pytest.mark.parametrize("fixture", MODELS)
@pytest.mark.parametrize("batch_size", [None, 3])
def test_shared_prefix_kv_reuse_equals_loop(fixture, batch_size, request):
    model, tok = request.getfixturevalue(fixture)
    lm = CausalLM(model, tok, batch_size=batch_size, share_prefix_kv=True, pack=False)
    assert lm.engine.prefix_body is not None
    jobs = ["a nurse", "an engineer", "a firefighter", "a surgeon", "a pilot", "a librarian", "an aide", "a plumber"]
    templates = [f"[SLOT] is {j}." for j in jobs] + [f"The doctor said that [SLOT] is {j}." for j in jobs]
    res = lm.fill_slot(templates, ["He", "She"])
    full_tokens = sum(
        len(lm.prefix_ids) + len(tok(t.replace(SLOT, c), add_special_tokens=False)["input_ids"])
        for t in templates
        for c in ["He", "She"]
    )
    assert lm.engine.work.tokens < full_tokens  # a shared prefix ran once per batch
    for i, t in enumerate(templates):
        for j, c in enumerate(["He", "She"]):
            want = causal_sentence(model, tok, list(lm.prefix_ids), t.replace(SLOT, c))
            assert res.logprob[i, j] == logprob_approx(want, n_tokens(tok, t.replace(SLOT, c)))
    nt = lm.next_token([f"The doctor said that he is {j}" for j in jobs], ["here", "she", "firefighter"])
    for i, j in enumerate(jobs):
        for c_i, c in enumerate(["here", "she", "firefighter"]):
            want = causal_next(model, tok, list(lm.prefix_ids), f"The doctor said that he is {j}", c)
            assert nt.logprob[i, c_i] == logprob_approx(want, nt.n_pieces[i, c_i])


def test_auto_packs_on_the_devices_packing_was_measured_on():
    from biascheck.models.packing import packs_by_default

    assert packs_by_default("cpu") and packs_by_default("cuda") and packs_by_default("cuda:1")
    assert not packs_by_default("mps") and not packs_by_default("xpu:0")


@pytest.mark.parametrize("fixture", MODELS)
@pytest.mark.parametrize(("batch_size", "row_len"), [(None, 128), (None, 16), (2, 128)])
def test_prefix_tree_packing_equals_padded_batches_and_the_loop(fixture, batch_size, row_len, request):
    """The packed path (the default on a CPU) against padded batches and a one-input loop: same numbers;
    fewer positions through the model. Row length 16 splits the inputs over many rows."""
    model, tok = request.getfixturevalue(fixture)
    packed = CausalLM(model, tok, batch_size=batch_size)
    padded = CausalLM(model, tok, batch_size=batch_size, pack=False)
    assert packed.engine.pack_body is not None and padded.engine.pack_body is None
    assert packed.info.extra["engine_layout"] == "prefix-tree rows of 128"
    assert padded.info.extra["engine_layout"] == "padded batches"
    packed.engine.pack_row_len = row_len
    jobs = ["a nurse", "an engineer", "a firefighter", "a surgeon", "a pilot", "a librarian", "an aide"]
    templates = [f"[SLOT] is {j}." for j in jobs] + [f"The doctor said that [SLOT] is {j}." for j in jobs]
    got, want = packed.fill_slot(templates, ["He", "She"]), padded.fill_slot(templates, ["He", "She"])
    assert packed.engine.work.tokens < padded.engine.work.tokens
    for i, t in enumerate(templates):
        for j, c in enumerate(["He", "She"]):
            text = t.replace(SLOT, c)
            loop = causal_sentence(model, tok, list(packed.prefix_ids), text)
            assert got.logprob[i, j] == logprob_approx(loop, n_tokens(tok, text))
            assert want.logprob[i, j] == logprob_approx(loop, n_tokens(tok, text))
    for lm_a, lm_b in ((packed, padded),):
        np.testing.assert_allclose(
            lm_a.next_token(PROMPTS, WORDS).logprob, lm_b.next_token(PROMPTS, WORDS).logprob, rtol=1e-5, atol=1e-5
        )
        top_a, top_b = lm_a.top_next(PROMPTS, 3), lm_b.top_next(PROMPTS, 3)
        np.testing.assert_allclose(top_a[0], top_b[0], rtol=1e-5, atol=1e-5)
        assert top_a[1] == top_b[1]


def test_packing_is_refused_with_a_warning_when_it_does_not_reproduce_the_model(gpt2_tiny, monkeypatch):
    """A model whose attention ignores a custom 4-D mask would score packed rows wrongly: the load-time
    check finds it and the engine keeps padded batches."""
    model, tok = gpt2_tiny
    from biascheck.models import packing

    monkeypatch.setattr(packing, "ancestor_mask", lambda row, width: np.ones((width, width), dtype=bool))
    with pytest.warns(RuntimeWarning, match="packing disabled"):
        lm = CausalLM(model, tok)
    assert lm.engine.pack_body is None
    with pytest.raises(ValueError, match="pack must be"):
        CausalLM(model, tok, pack="yes")


def test_an_input_longer_than_the_position_table_is_a_clear_error(gpt2_tiny):
    """128 positions, one of them taken by the context prefix; rotary models (Llama) have no table."""
    model, tok = gpt2_tiny
    lm = CausalLM(model, tok)
    fits = "and go " * 20
    n = len(tok(fits)["input_ids"])
    assert n < 127
    with pytest.raises(TokenizationError, match="longer than the 128 positions"):
        lm.sentence_logprob([fits * 7])
    lm.sentence_logprob([fits])


def test_a_rotary_model_has_no_position_table_to_run_off(llama_tiny):
    from biascheck.models.common import max_positions

    assert max_positions(llama_tiny[0].config) is None
    assert max_positions(llama_tiny[0].config.__class__(max_position_embeddings=8)) is None


def test_a_sliding_attention_window_keeps_longer_inputs_out_of_packed_rows(llama_tokenizer):
    """Packed rows carry their own 4-D mask, which replaces a model's sliding window (Gemma 3: 512 positions;
    a 676-token input packed was 24 nats off past 520): inputs longer than the window run padded, where the
    model applies it, and rows are no longer than it. Without that (the last lines) the numbers differ."""
    import torch
    from transformers import MistralConfig, MistralForCausalLM

    torch.manual_seed(5)
    tok = llama_tokenizer
    cfg = MistralConfig(
        vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=2, max_position_embeddings=128, sliding_window=8, bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
    )  # fmt: skip
    model = MistralForCausalLM(cfg).eval()
    lm = CausalLM(model, tok)
    assert lm.engine.pack_body is not None and (lm.engine.pack_max_len, lm.engine.pack_row_len) == (8, 8)
    templates = ["The doctor said that [SLOT] is a nurse.", "[SLOT] is here."]
    texts = [t.replace(SLOT, c) for t in templates for c in ("He", "She")]
    assert max(n_tokens(tok, x) for x in texts) + len(lm.prefix_ids) > 8  # one input at least past the window
    loop = [causal_sentence(model, tok, list(lm.prefix_ids), x) for x in texts]
    got = lm.fill_slot(templates, ["He", "She"]).logprob.ravel()
    assert [g == logprob_approx(w, n_tokens(tok, x)) for g, w, x in zip(got, loop, texts, strict=True)] == [True] * 4
    lm.engine.pack_max_len, lm.engine.pack_row_len = None, 128  # packed as before: the window is lost
    wrong = lm.fill_slot(templates, ["He", "She"]).logprob.ravel()
    assert not np.allclose(wrong, got, atol=1e-4)
