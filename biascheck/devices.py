"""The one parser of device and dtype names, used by the pytest options, `load_model` and the
`biascheck fluctuation` command alike (so all three accept exactly the same values). Pure: what
the machine actually has is checked where the model loads (`biascheck.models.loading`)."""

from __future__ import annotations

import re

from biascheck.errors import ConfigError, did_you_mean

DEVICES = ("auto", "cpu", "cuda", "cuda:N", "mps")
DTYPES = ("auto", "float32", "tf32", "bfloat16", "float16")
_DTYPE_ALIASES = {"fp32": "float32", "float": "float32", "fp16": "float16", "half": "float16", "bf16": "bfloat16"}


def parse_device(value: str) -> str:
    """'auto', 'cpu', 'cuda', 'cuda:N' or 'mps' (case-insensitive), canonical lower case; else ConfigError."""
    device = str(value).strip().lower()
    if device in ("auto", "cpu", "cuda", "mps") or re.fullmatch(r"cuda:\d+", device):
        return device
    raise ConfigError(
        f"{value!r} is not a device.{did_you_mean(str(value), ['auto', 'cpu', 'cuda', 'mps'])} "
        "Use auto, cpu, cuda, cuda:N or mps."
    )


def device_kind(device: object) -> str:
    """A device's kind without its index: "cuda:1" -> "cuda", "cpu" -> "cpu" (a str or a torch.device)."""
    return str(device).partition(":")[0]


def parse_dtype(value: str) -> str:
    """One of `DTYPES` (case-insensitive, an optional 'torch.' prefix); else ConfigError.

    Short forms (fp16, bf16, ...) are refused with the canonical name to use, so that a saved run
    names its dtype one way only."""
    dtype = str(value).strip().lower().removeprefix("torch.")
    if dtype in DTYPES:
        return dtype
    hint = f" Did you mean {_DTYPE_ALIASES[dtype]!r}?" if dtype in _DTYPE_ALIASES else did_you_mean(dtype, DTYPES)
    raise ConfigError(f"{value!r} is not a dtype.{hint} Use one of: {', '.join(DTYPES)}.")
