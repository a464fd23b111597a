"""Property tests: probabilities normalise; results ignore order, duplicates and batch size."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import logprob_approx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from biascheck.models.causal import CausalLM
from biascheck.models.masked import MaskedLM

SETTINGS = settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TEMPLATES = [
    "[SLOT] is a nurse.",
    "The doctor said that [SLOT] would come.",
    "[SLOT] met the [BLANK].",
    "We asked [SLOT] about the book.",
]
WORDS = ["he", "she", "they", "nurse", "firefighter", "the", "pilot", "surgeon"]
SENTS = ["He is a nurse.", "She is an engineer.", "The farmer's daughter became a pilot.", "We asked."]


@pytest.fixture(scope="module")
def mlm(roberta_tiny):
    return MaskedLM(*roberta_tiny)


@pytest.fixture(scope="module")
def clm(llama_tiny):
    return CausalLM(*llama_tiny)


def _slot_distribution(lm, template):
    """log P(every vocabulary id) at the (single-mask) slot of `template`, read through the engine."""
    text = template.replace("[SLOT]", lm.tokenizer.mask_token)
    enc = lm.tokenizer(text)["input_ids"]
    pos = enc.index(lm.mask_id)
    vals, _, _ = lm.engine.run([(tuple(enc), pos, t) for t in range(lm.vocab_size)])
    return vals


@pytest.mark.parametrize(
    "template,space", [("[SLOT] is a nurse.", ""), ("The doctor said that [SLOT] would come.", "Ġ")]
)
def test_single_piece_candidates_are_the_slot_distribution(mlm, template, space):
    dist = _slot_distribution(mlm, template)
    assert np.exp(dist).sum() == pytest.approx(1.0, abs=1e-5)
    vocab = mlm.tokenizer.get_vocab()
    words = sorted({t[len(space) :] for t in vocab if t.startswith(space) and t[len(space) :].isalpha()})
    res = mlm.fill_slot([template], words)
    single = [(w, v) for w, v, n in zip(words, res.logprob[0], res.n_pieces[0], strict=False) if n == 1]
    assert len(single) > 20
    for w, v in single:
        assert v == logprob_approx(dist[vocab[space + w]])


@SETTINGS
@given(prompt=st.lists(st.sampled_from(["the", "nurse", "said", "that", "He", "is", "a", "doctor"]), max_size=6))
def test_top_next_over_whole_vocabulary_sums_to_one(mlm, clm, prompt):
    text = " ".join(prompt)
    for lm in (mlm, clm):
        vals, toks = lm.top_next([text], lm.vocab_size)
        assert len(toks[0]) == lm.vocab_size
        assert np.exp(vals[0]).sum() == pytest.approx(1.0, abs=1e-5)
        assert np.all(np.diff(vals[0]) <= 0)


def _perm_dup(draw_perm, items):
    return [items[i] for i in draw_perm]


index_lists = st.lists(st.integers(0, 7), min_size=1, max_size=10)


@SETTINGS
@given(
    t_idx=st.lists(st.integers(0, 3), min_size=1, max_size=6),
    w_idx=index_lists,
    bs=st.one_of(st.none(), st.integers(1, 5)),
)
def test_masked_fill_slot_invariant(mlm, t_idx, w_idx, bs):
    ref = mlm.fill_slot(TEMPLATES, WORDS)
    lm = MaskedLM(mlm.model, mlm.tokenizer, batch_size=bs)
    got = lm.fill_slot([TEMPLATES[i] for i in t_idx], [WORDS[j] for j in w_idx])
    np.testing.assert_allclose(got.logprob, ref.logprob[np.ix_(t_idx, w_idx)], atol=1e-5, rtol=0)
    np.testing.assert_array_equal(got.n_pieces, ref.n_pieces[np.ix_(t_idx, w_idx)])


@SETTINGS
@given(
    t_idx=st.lists(st.integers(0, 3), min_size=1, max_size=6),
    w_idx=index_lists,
    bs=st.one_of(st.none(), st.integers(1, 5)),
)
def test_causal_fill_slot_and_next_invariant(clm, t_idx, w_idx, bs):
    ref = clm.fill_slot(TEMPLATES, WORDS)
    lm = CausalLM(clm.model, clm.tokenizer, batch_size=bs)
    got = lm.fill_slot([TEMPLATES[i] for i in t_idx], [WORDS[j] for j in w_idx])
    np.testing.assert_allclose(got.logprob, ref.logprob[np.ix_(t_idx, w_idx)], atol=1e-5, rtol=0)
    prompts = ["The doctor said that", "He is a", "We asked", "She"]
    ref_n = clm.next_token(prompts, WORDS)
    got_n = lm.next_token([prompts[i] for i in t_idx], [WORDS[j] for j in w_idx])
    np.testing.assert_allclose(got_n.logprob, ref_n.logprob[np.ix_(t_idx, w_idx)], atol=1e-5, rtol=0)


@settings(SETTINGS, max_examples=5)
@given(idx=st.lists(st.integers(0, 3), min_size=1, max_size=8), bs=st.one_of(st.none(), st.integers(1, 3)))
def test_sentence_scores_invariant(mlm, clm, idx, bs):
    for base, cls in ((mlm, MaskedLM), (clm, CausalLM)):
        ref, _ = base.sentence_logprob(SENTS)
        lm = cls(base.model, base.tokenizer, batch_size=bs)
        got, _ = lm.sentence_logprob([SENTS[i] for i in idx])
        np.testing.assert_allclose(got, ref[idx], atol=1e-5, rtol=0)
        words = lm.word_logprobs([SENTS[i] for i in idx])
        ref_w = base.word_logprobs(SENTS)
        for i, w in zip(idx, words, strict=False):
            np.testing.assert_allclose([x[3] for x in w], [x[3] for x in ref_w[i]], atol=1e-5)
