"""A loaded model put on its device, in float32 unless asked otherwise or unless float32 does not fit.

`--dtype auto` is float32 on every device. Half precision was the default on a GPU until it was measured
(docs/numbers/dtype_agreement.json, the default model's quick tier with its body in bfloat16 against float32):
no verdict changed, but 5 of 47 gated metrics moved by more than a quarter of their interval's half-width and a
reported median by 3.8 half-widths. A gate's numbers must not depend on the card, so half precision is what a user
asks for (`--dtype bfloat16`) or what a card too small for float32 gets:

1. The model moves to the device in its loaded dtype (`_move`).
2. Where that runs out of CUDA memory with `auto` and float32, the model goes back to the CPU, a float32 copy stays
   there as the reference, and the model moves again in bfloat16 (float16 on a card without it), with a warning.
   The caller then checks it against the reference on a few sentences (`biascheck.models.dtype_check.checked`)
   and stops the run where they disagree: a body that cannot be checked against float32 is not trusted.
3. Out of memory in any other case (an explicit dtype, or half precision too) is a `ConfigError` that says what
   fits and what to do.
"""

from __future__ import annotations

import copy
import warnings
from dataclasses import dataclass
from typing import Any

from biascheck.errors import ConfigError


@dataclass
class Placed:
    model: Any  # the torch module, on the device
    dtype: str  # what it runs in
    reference: Any = None  # a float32 copy on the CPU when auto fell back to half precision (step 2)
    note: str = ""


def _move(model: Any, device: str) -> Any:
    return model.to(device)


def half_dtype(device: str) -> str:
    """The half precision a device gets: bfloat16, float16 on a CUDA card without bfloat16."""
    import torch

    return "float16" if str(device).startswith("cuda") and not torch.cuda.is_bf16_supported() else "bfloat16"


def _back_to_cpu(model: Any) -> None:
    """After a move that ran out of memory: the model whole on the CPU again, the card's cached blocks freed."""
    import torch

    model.to("cpu")
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


def place(model: Any, device: str, dtype: str, auto: bool) -> Placed:
    """Steps 1-3 of the module docstring."""
    import torch

    try:
        return Placed(_move(model, device), dtype)
    except torch.cuda.OutOfMemoryError as exc:
        _back_to_cpu(model)
        if not (auto and dtype == "float32"):
            raise ConfigError(
                f"the model's weights in {dtype} do not fit in {device}'s memory ({exc}). Free the card, use a "
                "larger one, run with --device cpu, or load it in half precision with --dtype bfloat16."
            ) from exc
    half = half_dtype(device)
    reference = copy.deepcopy(model)  # float32, on the CPU
    try:
        moved = _move(model.to(getattr(torch, half)), device)
    except torch.cuda.OutOfMemoryError as exc:
        _back_to_cpu(model)
        raise ConfigError(
            f"the model's weights fit {device}'s memory neither in float32 nor in {half} ({exc}). Use a larger card "
            "or run with --device cpu."
        ) from exc
    note = f"float32 did not fit in {device}'s memory: the body runs in {half}"
    warnings.warn(
        f"biascheck: --dtype auto: {note}, checked against float32 on the CPU at load; its numbers can differ from "
        "a float32 run's by more than rounding (docs/options.md, --dtype).",
        RuntimeWarning,
        stacklevel=3,
    )
    return Placed(moved, half, reference, note)
