"""The card's numbers are the CPU's: a 16-bit body's log-probabilities go through a float32 LM head (they
carried bfloat16's resolution, steps of 1/16 nat in a log-ratio), and a NaN is an error that names the dtype
(summed with nansum, it was a log-probability of 0)."""

import numpy as np
import pytest

from biascheck.errors import NumericalError
from biascheck.models import load_model
from biascheck.models.head import check_finite

SENTENCES = ["The nurse said that she was tired.", "He is a pilot.", "The doctor asked the clerk a question."]


def test_a_bfloat16_body_is_read_through_a_float32_head(saved_gpt2):
    import torch

    f32 = load_model(str(saved_gpt2), device="cpu", dtype="float32")
    b16 = load_model(str(saved_gpt2), device="cpu", dtype="bfloat16")
    assert b16.info.dtype == "bfloat16"
    hidden = torch.randn(4, f32.model.config.n_embd, dtype=torch.bfloat16)
    assert b16.engine.head(hidden).dtype == torch.float32  # the head itself runs in float32
    exact, _ = f32.sentence_logprob(SENTENCES)
    rounded, _ = b16.sentence_logprob(SENTENCES)
    # Only the body's bfloat16 rounding is left: relative 2**-8 per activation, measured here within 2 % of
    # each sentence's log-probability, where a bfloat16 head added steps of 2**-8 * |logit| on every token.
    assert np.allclose(rounded, exact, rtol=0.02), (rounded, exact)
    ratios = b16.fill_slot(["[SLOT] is a nurse.", "The pilot said that [SLOT] was late."], ["he", "she"]).logprob
    steps = (ratios[:, 0] - ratios[:, 1]) * 16
    assert not np.allclose(steps, np.round(steps)), "log-ratios in steps of 1/16 nat: a bfloat16 head"


def test_check_finite_names_the_dtype_and_lets_minus_infinity_through():
    check_finite(np.array([-1.0, -np.inf]), np.zeros((1, 2)), "float16")
    with pytest.raises(NumericalError, match=r"1 of 4 log-probabilities that are not numbers .* in float16"):
        check_finite(np.array([-1.0, np.nan]), np.zeros((1, 2)), "float16")


def test_a_model_whose_activations_overflow_is_an_error_not_a_likely_word(saved_gpt2):
    """A NaN log-probability (Gemma 3 in float16 goes NaN from layer 9) became 0.0 under nansum."""
    import torch

    lm = load_model(str(saved_gpt2), device="cpu", dtype="float32")
    with torch.no_grad():
        lm.model.transformer.h[0].mlp.c_fc.weight.fill_(float("nan"))
    with pytest.raises(NumericalError, match="in float32: its activations left the dtype's range"):
        lm.sentence_logprob(SENTENCES)
