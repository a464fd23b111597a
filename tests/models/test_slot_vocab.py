"""`slot_vocab`: one gathered read per template equals the per-candidate scores of `fill_slot` /
`next_token` (the base class's reference path), and, for masked LMs, transformers' fill-mask pipeline."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import logprob_approx
from test_masked import _pipeline_logprob

from biascheck.models import CAUSAL_NEXT, MLM_SLOT
from biascheck.models.base import LanguageModel
from biascheck.models.causal import CausalLM
from biascheck.models.masked import MaskedLM
from biascheck.models.text import TemplateError

WORDS = ["nurse", "Nurse", "doctor", "long", "helped", "firefighter", "phlebologist", "the", "he", "She"]
MASKED_TEMPLATES = ["[SLOT] Ada Lovelace", "[SLOT] Alan Turing", "Ada Lovelace [SLOT]"]
CAUSAL_TEMPLATES = ["Ada Lovelace [SLOT]", "Alan Turing [SLOT]", "The nurse said that [SLOT]"]


def _reference(lm, templates, words):
    return LanguageModel.slot_vocab(lm, templates, words)  # per-candidate fill_slot / next_token


@pytest.mark.parametrize("fixture", ["bert_real", "bert_tiny", "roberta_tiny", "xlmr_tiny"])
def test_masked_equals_fill_slot_and_pipeline(fixture, request):
    model, tok = request.getfixturevalue(fixture)
    lm = MaskedLM(model, tok)
    templates = MASKED_TEMPLATES[:2]  # the slot in the same place (sentence start) in every template
    got = lm.slot_vocab(templates, WORDS)
    ref = _reference(lm, templates, WORDS)
    assert got.estimator == MLM_SLOT and got.logprob.shape == (2, len(WORDS))
    np.testing.assert_array_equal(got.n_pieces, ref.n_pieces)
    one = got.n_pieces[0] == 1
    assert one.any() and (~one).any(), "the word list should hold both one-piece and split words"
    assert np.all(np.isneginf(got.logprob[:, ~one]))
    for i, t in enumerate(templates):
        for j in np.flatnonzero(one):
            assert got.logprob[i, j] == logprob_approx(ref.logprob[i, j])
            assert got.logprob[i, j] == logprob_approx(_pipeline_logprob(model, tok, t, WORDS[j]))


@pytest.mark.parametrize("fixture", ["gpt2_tiny", "llama_tiny"])
def test_causal_equals_next_token(fixture, request):
    model, tok = request.getfixturevalue(fixture)
    lm = CausalLM(model, tok)
    got = lm.slot_vocab(CAUSAL_TEMPLATES, WORDS)
    ref = _reference(lm, CAUSAL_TEMPLATES, WORDS)
    assert got.estimator == CAUSAL_NEXT
    np.testing.assert_array_equal(got.n_pieces, ref.n_pieces)
    one = got.n_pieces[0] == 1
    assert one.any()
    assert np.all(np.isneginf(got.logprob[:, ~one]))
    for i in range(len(CAUSAL_TEMPLATES)):
        for j in np.flatnonzero(one):
            assert got.logprob[i, j] == logprob_approx(ref.logprob[i, j])


def test_one_forward_per_template(bert_real):
    lm = MaskedLM(*bert_real, batch_size=1)
    lm.slot_vocab(MASKED_TEMPLATES[:2], WORDS * 50)
    assert lm.engine.work.forward_calls == 2 and lm.engine.work.head_rows == 2


def test_causal_slot_must_end_the_template(gpt2_tiny):
    with pytest.raises(TemplateError, match="at the end"):
        CausalLM(*gpt2_tiny).slot_vocab(["[SLOT] Ada Lovelace"], WORDS)


@pytest.mark.parametrize(
    "fixture,family",
    [("bert_tiny", "masked"), ("xlmr_tiny", "masked"), ("gpt2_tiny", "causal"), ("llama_tiny", "causal")],
)
def test_slot_ids_reads_the_same_numbers_by_token_id(fixture, family, request):
    model, tok = request.getfixturevalue(fixture)
    lm = MaskedLM(model, tok) if family == "masked" else CausalLM(model, tok)
    templates = MASKED_TEMPLATES[:2] if family == "masked" else CAUSAL_TEMPLATES
    got = lm.slot_vocab(templates, WORDS)
    one = np.flatnonzero(got.token_ids >= 0)
    assert one.size
    by_id = lm.slot_ids(templates, got.token_ids[one])
    np.testing.assert_array_equal(by_id, got.logprob[:, one])  # the same reads: identical, not close
    with pytest.raises(ValueError, match="token ids"):
        lm.slot_ids(templates, [lm.vocab_size])


def test_slot_ids_is_left_to_the_engine_models():
    from biascheck.testing import FakeLM

    with pytest.raises(NotImplementedError, match="use slot_vocab"):
        FakeLM("fake", "masked").slot_ids(["[SLOT] Ada"], [3])
