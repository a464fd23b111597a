"""How many tokens a forward pass may hold on a CUDA card, from the card's free memory.

A fixed token budget is either too small for a large card (more forward passes than needed) or too
large for a small one (an out-of-memory error on the first batch, then halving until it fits). This
module sizes it from what the card has free once the model is loaded:

    budget = fraction x (free bytes - reserve) / activation bytes per token

* activation bytes per token (`activation_bytes_per_token`): the tensors one transformer layer holds
  at its peak under ``torch.inference_mode()`` (no activations kept for a backward pass), per input
  position, in the model's dtype: the residual stream and its normed copy, the query, key and value
  projections, the attention output, the MLP's intermediate activations (three, as a gated MLP
  holds: gate, up, product; a plain MLP holds two, so this over-counts it), the layer's output,
  and a row of attention scores over `attended` positions per head (an eager attention builds
  them; fused kernels do not, so this over-counts for them);
* reserve: the engine's LM-head chunk (``head_rows x vocabulary`` float32 logits and their
  log-sum-exp workspace, `biascheck.models.batching`), counted twice;
* fraction: half of what is left, for the allocator's fragmentation and what this estimate misses.
  The engine's out-of-memory back-off (halve the batch, keep the smaller budget) covers the rest.

Pure arithmetic except `cuda_budget`, which reads the card (``torch.cuda.mem_get_info``); `is_oom` tells
the out-of-memory error that the engine's back-off answers from any other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MIN_BUDGET = 1024  # never fewer tokens a batch than this (a card this full backs off on OOM anyway)
MAX_BUDGET = 1 << 20  # nor more: beyond a million tokens a batch no model here runs faster
FRACTION = 0.5
ATTENDED = 512  # positions a row of attention scores spans, for the estimate (the probes' inputs are shorter)


def _first(config: Any, names: tuple[str, ...], default: int | None = None) -> int:
    for name in names:
        value = getattr(config, name, None)
        if isinstance(value, int) and value > 0:
            return value
    if default is None:
        raise ValueError(f"{type(config).__name__} has none of {', '.join(names)}")
    return default


def activation_bytes_per_token(config: Any, dtype_bytes: int, attended: int = ATTENDED) -> int:
    """Peak bytes one input position costs inside one layer of `config`'s model (see the module doc).

    Reads hidden_size/n_embd/d_model, intermediate_size/n_inner/d_ff (default 4 x hidden),
    num_attention_heads/n_head, num_key_value_heads (default: the attention heads)."""
    hidden = _first(config, ("hidden_size", "n_embd", "d_model"))
    inner = _first(config, ("intermediate_size", "n_inner", "d_ff"), 4 * hidden)
    heads = _first(config, ("num_attention_heads", "n_head"))
    kv_heads = _first(config, ("num_key_value_heads",), heads)
    head_dim = hidden // heads
    mlp = 3 * inner
    # residual, normed, q, k, v, attention output, layer output
    stream = hidden + hidden + hidden + 2 * kv_heads * head_dim + hidden + hidden
    scores = heads * attended
    return int(dtype_bytes * (stream + mlp + scores))


def head_reserve_bytes(head_rows: int, vocab_size: int) -> int:
    """The LM head's float32 logits chunk and its log-sum-exp workspace (twice the chunk)."""
    return 2 * 4 * int(head_rows) * int(vocab_size)


def token_budget(free_bytes: int, per_token_bytes: int, reserve_bytes: int, fraction: float = FRACTION) -> int:
    """Tokens a forward pass may hold: `fraction` of the free memory left after `reserve_bytes`, over
    `per_token_bytes`, clamped to [MIN_BUDGET, MAX_BUDGET]."""
    if per_token_bytes <= 0:
        raise ValueError(f"per_token_bytes must be positive, got {per_token_bytes}")
    spare = max(0, int(free_bytes) - int(reserve_bytes))
    return max(MIN_BUDGET, min(MAX_BUDGET, int(fraction * spare) // per_token_bytes))


def cuda_budget(
    config: Any,
    dtype_bytes: int,
    device: str,
    head_rows: int,
    vocab_size: int,
    mem_get_info: Callable[[Any], tuple[int, int]] | None = None,
) -> tuple[int, str]:
    """(token budget, how it was found) for a model already loaded on `device` (a CUDA device)."""
    if mem_get_info is None:
        import torch

        mem_get_info = torch.cuda.mem_get_info
    free, total = mem_get_info(device)
    per_token = activation_bytes_per_token(config, dtype_bytes)
    reserve = head_reserve_bytes(head_rows, vocab_size)
    budget = token_budget(free, per_token, reserve)
    how = (
        f"{budget} tokens: half of {free / 2**30:.1f} of {total / 2**30:.1f} GiB free on {device} "
        f"(less {reserve / 2**30:.2f} GiB for the LM head), at {per_token / 1024:.1f} KiB a token"
    )
    return budget, how


def is_oom(exc: BaseException) -> bool:
    """True for a device out-of-memory error (torch.OutOfMemoryError or its RuntimeError text)."""
    import torch

    oom_type = getattr(torch, "OutOfMemoryError", None) or getattr(torch.cuda, "OutOfMemoryError", None)
    if oom_type is not None and isinstance(exc, oom_type):
        return True
    return isinstance(exc, RuntimeError) and "out of memory" in str(exc).lower()
