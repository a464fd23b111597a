"""The CUDA token budget from the card's free memory (biascheck.models.memory), by hand calculation."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from biascheck.models.memory import (
    MAX_BUDGET,
    MIN_BUDGET,
    activation_bytes_per_token,
    head_reserve_bytes,
    token_budget,
)

transformers = pytest.importorskip("transformers")
GiB = 2**30


def test_a_llama_token_costs_its_streams_mlp_and_score_row():
    # SmolLM2-135M's sizes: hidden 576, MLP 1536, 9 query heads of 64, 3 key/value heads.
    cfg = transformers.LlamaConfig(
        hidden_size=576,
        intermediate_size=1536,
        num_attention_heads=9,
        num_key_value_heads=3,
        num_hidden_layers=30,
        vocab_size=49152,
    )
    stream = 5 * 576 + 2 * 3 * 64  # residual, normed, q, attention output, layer output + k and v
    mlp = 3 * 1536  # gate, up, product
    scores = 9 * 512
    assert activation_bytes_per_token(cfg, 2) == 2 * (stream + mlp + scores) == 24960


def test_gpt2_names_and_defaults_are_read():
    cfg = transformers.GPT2Config(n_embd=768, n_head=12, n_layer=12)  # n_inner None: 4 x 768
    assert activation_bytes_per_token(cfg, 4, attended=100) == 4 * (5 * 768 + 2 * 768 + 3 * 3072 + 12 * 100)


def test_bert_large_sizes():
    cfg = transformers.BertConfig(hidden_size=1024, intermediate_size=4096, num_attention_heads=16)
    assert activation_bytes_per_token(cfg, 2) == 2 * (7 * 1024 + 3 * 4096 + 16 * 512)


def test_a_config_without_sizes_is_refused():
    with pytest.raises(ValueError, match="hidden_size"):
        activation_bytes_per_token(object(), 2)


def test_budget_is_half_the_spare_memory_over_the_cost_clamped():
    per_token, reserve = 24960, head_reserve_bytes(1365, 49152)
    assert reserve == 8 * 1365 * 49152
    assert token_budget(40 * GiB, per_token, reserve) == int(0.5 * (40 * GiB - reserve)) // per_token == 849_618
    assert token_budget(78 * GiB, per_token, reserve) == MAX_BUDGET  # 1,666,969 by the formula
    assert token_budget(2 * GiB, per_token, reserve) == int(0.5 * (2 * GiB - reserve)) // per_token == 32_266
    assert token_budget(10**5, per_token, reserve) == MIN_BUDGET  # a full card: the floor, then OOM back-off
    assert token_budget(10**15, per_token, 0) == MAX_BUDGET
    with pytest.raises(ValueError):
        token_budget(GiB, 0, 0)


def test_an_engine_model_takes_the_budget_from_the_card_and_records_how(gpt2_tiny):
    from biascheck.models import CausalLM

    model, tok = gpt2_tiny
    lm = CausalLM(model, tok)
    assert "token_budget" not in lm.info.extra  # on a CPU the fixed budget stays
    fixed = lm.engine.token_budget
    lm._size_budget_from_card("cuda:0", mem_get_info=lambda device: (3 * GiB, 16 * GiB))
    per_token = 4 * (5 * 32 + 2 * 32 + 3 * 128 + 2 * 512)  # float32, n_embd 32, 2 heads, n_inner 4 x 32
    reserve = 8 * lm.engine.head_rows * lm.vocab_size
    assert lm.engine.token_budget == int(0.5 * (3 * GiB - reserve)) // per_token != fixed
    assert lm.info.extra["token_budget"].startswith(f"{lm.engine.token_budget} tokens: half of 3.0 of 16.0 GiB free")


def test_an_unreadable_config_keeps_the_fixed_budget_and_says_why(gpt2_tiny, monkeypatch):
    from biascheck.models import CausalLM

    model, tok = gpt2_tiny
    lm = CausalLM(model, tok)
    fixed = lm.engine.token_budget
    monkeypatch.setattr(lm.model, "config", SimpleNamespace(model_type="custom", vocab_size=lm.vocab_size))
    lm._size_budget_from_card("cuda:0", mem_get_info=lambda device: (3 * GiB, 16 * GiB))
    assert lm.engine.token_budget == fixed
    assert "fixed default" in lm.info.extra["token_budget"]


def test_the_lm_head_chunk_is_sized_by_the_devices_budget_not_a_fixed_element_count():
    """32 rows of a 262k vocabulary on a CPU left the head bound by reading its weight once per chunk."""
    from biascheck.models.head import HEAD_BUDGET_BYTES, HEAD_MAX_ROWS, head_chunk_rows
    from biascheck.models.memory import head_reserve_bytes

    assert head_chunk_rows(262_144, "cpu") == 256  # Gemma 3: 2**29 / (8 * 2**18)
    assert head_chunk_rows(49_152, "cpu") == 1365  # SmolLM2: floor(2**29 / 393,216)
    assert head_chunk_rows(262_144, "mps") == 128 and head_chunk_rows(10, "cuda") == HEAD_MAX_ROWS
    assert head_chunk_rows(2**40, "cpu") == 1  # a row larger than the budget: one at a time
    for vocab in (30_522, 49_152, 250_002, 262_144):
        assert head_reserve_bytes(head_chunk_rows(vocab, "cpu"), vocab) <= HEAD_BUDGET_BYTES["cpu"]
