"""`--dtype tf32`: float32 weights and activations, the body's matrix products on a CUDA card's tensor cores in
TF32 (each product's inputs rounded to 10 mantissa bits, the sums in float32); the LM head and log-softmax in
float32 as for every dtype. Measured on one H200 (docs/speed.md, 2026-11-30): the products 6.9x float32's rate,
BERT-large's full tier 399 -> 171 s, and the default model's full tier within 0.143 of an interval's half-width
of float32 on every metric, no gated verdict changed. Not the default: `auto` is float32, whose numbers on a card
are the CPU's. A CPU or MPS has no TF32, so there `tf32` runs (and is recorded) as float32.

Every other dtype runs its float32 products in full float32 inside the engine, whatever the process set: a
conftest or a library that turned TF32 on for itself does not move a gate's numbers."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

TF32 = "tf32"


def weights_dtype(dtype: str) -> str:
    """The torch dtype name the weights load in: float32 for `tf32`, else the dtype itself."""
    return "float32" if dtype == TF32 else dtype


def on_device(dtype: str, device: str) -> str:
    """`tf32` where a CUDA card runs it, float32 elsewhere (no TF32 there: the run is float32 and says so)."""
    return "float32" if dtype == TF32 and not str(device).startswith("cuda") else dtype


@contextmanager
def products_in_tf32(on: bool, device: str) -> Iterator[None]:
    """Within: a CUDA card's float32 matrix products in TF32 if `on`, in full float32 if not; the process's
    setting is restored after. Elsewhere nothing changes."""
    if not str(device).startswith("cuda"):
        yield
        return
    import torch

    matmul = torch.backends.cuda.matmul
    before = matmul.allow_tf32
    matmul.allow_tf32 = on
    try:
        yield
    finally:
        matmul.allow_tf32 = before
