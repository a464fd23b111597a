"""Masked engine against transformers' own fill-mask pipeline and naive per-input loops."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from helpers import F32_EPS, logprob_approx, mlm_pll, mlm_sequential, n_tokens, span_pieces

from biascheck.errors import TokenizationError
from biascheck.models import MLM_PLL, MLM_SLOT, SLOT
from biascheck.models.masked import MaskedLM

TEMPLATES = [
    "[SLOT] is a nurse.",
    "The nurse said that [SLOT] would come.",
    "It was a long day at the hospital, but [SLOT] helped.",
]
WORDS = ["he", "she", "He", "She", "the", "nurse", "doctor", "a", "engineer"]
MODELS = ["bert_real", "bert_tiny", "roberta_tiny", "xlmr_tiny"]


_PIPES: dict[int, object] = {}


def _pipeline_logprob(model, tok, template: str, word: str) -> float | None:
    """log score of `word` from pipeline('fill-mask', targets=[piece]); None if it is not one piece."""
    from transformers import pipeline

    s = template.index(SLOT)
    text = template.replace(SLOT, word)
    ids, idx = span_pieces(tok, text, s, s + len(word))
    if len(idx) != 1:
        return None
    piece = tok.convert_ids_to_tokens(ids[idx[0]])
    fm = _PIPES.get(id(model))
    if fm is None:
        fm = _PIPES[id(model)] = pipeline("fill-mask", model=model, tokenizer=tok, device=-1)
    masked = template.replace(SLOT, tok.mask_token)
    out = fm(masked, targets=[piece])
    return float(np.log(out[0]["score"]))


@pytest.mark.parametrize("fixture", MODELS)
def test_single_piece_equals_fill_mask_pipeline(fixture, request):
    model, tok = request.getfixturevalue(fixture)
    lm = MaskedLM(model, tok)
    assert lm.fast_head, "the MLM head should be applied only at the mask positions"
    res = lm.fill_slot(TEMPLATES, WORDS)
    assert res.estimator == MLM_SLOT and res.logprob.dtype == np.float64 and res.logprob.shape == (3, len(WORDS))
    checked = 0
    for i, t in enumerate(TEMPLATES):
        for j, w in enumerate(WORDS):
            want = _pipeline_logprob(model, tok, t, w)
            if want is None:
                assert res.n_pieces[i, j] > 1
                continue
            assert res.n_pieces[i, j] == 1
            assert res.logprob[i, j] == logprob_approx(want)
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize("fixture", MODELS)
def test_multi_piece_equals_sequential_loop(fixture, request):
    model, tok = request.getfixturevalue(fixture)
    lm = MaskedLM(model, tok)
    words = ["firefighter", "phlebologist", "she", "Xylophonist"]
    res = lm.fill_slot(TEMPLATES, words)
    assert res.multi_piece
    for i, t in enumerate(TEMPLATES):
        for j, w in enumerate(words):
            assert res.logprob[i, j] == logprob_approx(mlm_sequential(model, tok, t, w), res.n_pieces[i, j])
            s = t.index(SLOT)
            assert res.n_pieces[i, j] == len(span_pieces(tok, t.replace(SLOT, w), s, s + len(w))[1])


def test_one_forward_per_template_for_single_piece(bert_real):
    lm = MaskedLM(*bert_real, batch_size=1)
    lm.fill_slot(TEMPLATES, ["he", "she", "they", "it", "nurse"])
    assert lm.engine.work.forward_calls == len(TEMPLATES)


def test_blank_is_one_mask(bert_real):
    from transformers import pipeline

    model, tok = bert_real
    lm = MaskedLM(model, tok)
    res = lm.fill_slot(["[SLOT] is a [BLANK].", "The [BLANK] said that [SLOT] would come."], ["he", "she"])
    fm = pipeline("fill-mask", model=model, tokenizer=tok, device=-1)
    out = fm("[MASK] is a [MASK].", targets=["he", "she"])[0]  # first mask
    want = {d["token_str"]: np.log(d["score"]) for d in out}
    assert res.logprob[0, 0] == logprob_approx(want["he"])
    assert res.logprob[0, 1] == logprob_approx(want["she"])
    out = fm("The [MASK] said that [MASK] would come.", targets=["he", "she"])[1]  # second mask
    want = {d["token_str"]: np.log(d["score"]) for d in out}
    assert res.logprob[1, 0] == logprob_approx(want["he"])


@pytest.mark.parametrize("fixture", ["bert_real", "roberta_tiny"])
def test_pll_equals_loop(fixture, request):
    model, tok = request.getfixturevalue(fixture)
    lm = MaskedLM(model, tok)
    sents = ["He is a nurse.", "The farmer's daughter became a pilot.", "He is a nurse."]
    vals, est = lm.sentence_logprob(sents)
    assert est == MLM_PLL
    for v, s in zip(vals, sents, strict=False):
        assert v == logprob_approx(mlm_pll(model, tok, s), n_tokens(tok, s))
    words = lm.word_logprobs(sents)
    for v, ws, s in zip(vals, words, sents, strict=False):
        assert [w[0] for w in ws] == s.split()
        assert all(s[a:b] == w for w, a, b, _ in ws)
        assert sum(w[3] for w in ws) == logprob_approx(v, n_tokens(tok, s))


def test_top_next_and_next_token(bert_real):
    model, tok = bert_real
    lm = MaskedLM(model, tok)
    vals, toks = lm.top_next(["The nurse said that"], 5)
    with torch.inference_mode():
        ids = tok("The nurse said that [MASK]", return_tensors="pt")["input_ids"]
        q = int((ids[0] == tok.mask_token_id).nonzero()[0, 0])
        lp = model(input_ids=ids).logits[0, q].log_softmax(-1)
    v, i = torch.topk(lp, 5)
    np.testing.assert_allclose(vals[0], v.double().numpy(), atol=1e-5, rtol=16 * F32_EPS)  # helpers.logprob_approx
    assert toks[0] == [tok.decode([int(x)]) for x in i]
    nt = lm.next_token(["The nurse said that"], [toks[0][0].strip(), "she"])
    assert nt.estimator == MLM_SLOT
    assert nt.logprob[0, 0] == logprob_approx(vals[0][0])
    assert nt.logprob[0, 1] == logprob_approx(float(lp[tok.convert_tokens_to_ids("she")]))


def test_next_token_rows_groups_the_prompts_by_their_candidates(bert_real):
    """The masked model reads `next_token_rows` through the interface's default: the rows grouped by their
    candidates, one `next_token` call per group, each row's numbers its own call's."""
    model, tok = bert_real
    lm = MaskedLM(model, tok)
    prompts = ["The nurse said that", "The doctor said that", "My friend told me that"]
    rows = [["he", "she"], ["nurse", "doctor"], ["he", "she"]]
    res = lm.next_token_rows(prompts, rows)
    assert res.estimator == MLM_SLOT and res.logprob.shape == (3, 2)
    for i, p in enumerate(prompts):
        alone = lm.next_token([p], rows[i])
        np.testing.assert_allclose(res.logprob[i], alone.logprob[0], rtol=1e-6, atol=1e-6)
        assert list(res.n_pieces[i]) == list(alone.n_pieces[0])


def test_fast_head_equals_full_logits(roberta_tiny, monkeypatch):
    fast = MaskedLM(*roberta_tiny)
    monkeypatch.setattr(MaskedLM, "_head_module", lambda self: None)
    slow = MaskedLM(*roberta_tiny)
    assert fast.fast_head and not slow.fast_head
    a = fast.fill_slot(TEMPLATES, WORDS).logprob
    b = slow.fill_slot(TEMPLATES, WORDS).logprob
    np.testing.assert_allclose(a, b, atol=1e-5)


def test_straddling_candidate_is_an_error(bert_real):
    lm = MaskedLM(*bert_real)
    with pytest.raises(TokenizationError, match="unable"):
        lm.fill_slot(["It is un[SLOT] to come."], ["able"])


@pytest.mark.parametrize("fixture", ["bert_tiny", "roberta_tiny"])
def test_an_input_longer_than_the_position_table_is_a_clear_error(fixture, request):
    """bert_tiny has 128 positions, roberta_tiny 130 (128 usable): no silent truncation, no torch error."""
    model, tok = request.getfixturevalue(fixture)
    lm = MaskedLM(model, tok)
    filler = "and go " * 20
    assert len(tok(filler)["input_ids"]) < 100
    with pytest.raises(TokenizationError, match=r"longer than the 1[23][08] positions of .*does not truncate"):
        lm.fill_slot(["The nurse said that [SLOT] would come " + filler * 7 + ".", "[SLOT] is a nurse."], ["he", "she"])
    lm.fill_slot(["The nurse said that [SLOT] would come " + filler + "."], ["he"])  # fits
