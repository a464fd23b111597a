"""`--dtype tf32`: float32 weights, a CUDA card's body products in TF32, the LM head in float32. A CPU has no
TF32, so there `tf32` runs and is recorded as float32. Every other dtype's products run in full float32 inside
the engine, whatever the process had set."""

from contextlib import contextmanager

import numpy as np

from biascheck.devices import parse_dtype
from biascheck.models import batching, load_model, resolve_dtype
from biascheck.models.precision import products_in_tf32, weights_dtype

SENTENCES = ["The nurse said that she was tired.", "He is a pilot."]


def test_tf32_is_a_dtype_a_card_runs_and_float32_where_there_is_none():
    assert parse_dtype("TF32") == "tf32"
    assert resolve_dtype("tf32", "cuda") == "tf32" and resolve_dtype("tf32", "cuda:1") == "tf32"
    assert resolve_dtype("tf32", "cpu") == "float32" and resolve_dtype("tf32", "mps") == "float32"
    assert resolve_dtype("auto", "cuda") == "float32"  # the default stays float32: a card's numbers the CPU's
    assert weights_dtype("tf32") == "float32" and weights_dtype("bfloat16") == "bfloat16"


def test_the_switch_sets_a_cards_products_and_restores_the_process_setting():
    import torch

    matmul = torch.backends.cuda.matmul
    before = matmul.allow_tf32
    try:
        matmul.allow_tf32 = True  # a conftest that turned TF32 on for itself
        with products_in_tf32(False, "cuda:0"):
            assert matmul.allow_tf32 is False
        assert matmul.allow_tf32 is True
        matmul.allow_tf32 = False
        with products_in_tf32(True, "cuda"):
            assert matmul.allow_tf32 is True
        assert matmul.allow_tf32 is False
        with products_in_tf32(True, "cpu"):
            assert matmul.allow_tf32 is False  # a CPU has nothing to switch
    finally:
        matmul.allow_tf32 = before


def test_on_a_cpu_tf32_is_float32_number_for_number(saved_gpt2):
    f32 = load_model(str(saved_gpt2), device="cpu", dtype="float32")
    tf32 = load_model(str(saved_gpt2), device="cpu", dtype="tf32")
    assert tf32.info.dtype == "float32" and next(tf32.model.parameters()).dtype == f32.model.dtype
    assert np.array_equal(tf32.sentence_logprob(SENTENCES)[0], f32.sentence_logprob(SENTENCES)[0])


def test_the_engine_runs_its_body_in_the_dtypes_products_and_its_head_in_float32(saved_gpt2, monkeypatch):
    asked: list[bool] = []

    @contextmanager
    def spy(on, device):
        asked.append(on)
        yield

    monkeypatch.setattr(batching, "products_in_tf32", spy)
    lm = load_model(str(saved_gpt2), device="cpu", dtype="float32")
    lm.sentence_logprob(SENTENCES)
    assert asked and not any(asked)  # float32: full float32 products, body and head
    asked.clear()
    lm.engine.dtype_name = "tf32"  # as a card's load of --dtype tf32 sets it
    lm.sentence_logprob(["The pilot said that he was late."])
    assert asked[0::2] == [True] * (len(asked) // 2) and asked[1::2] == [False] * (len(asked) // 2), asked
