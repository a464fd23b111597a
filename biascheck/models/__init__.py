"""Model loading and scoring. Importing this package does not import torch or transformers.

    from biascheck.models import load_model
    lm = load_model("smollm2-135m")            # alias, local directory or hub id
    lm.fill_slot(["[SLOT] is a nurse."], ["He", "She"]).logprob

See `biascheck.models.base` for the interface and the text conventions, `masked` / `causal` for
the estimators, `batching` for how forward passes are scheduled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from biascheck.models.base import (
    BLANK,
    CAUSAL_NEXT,
    CAUSAL_SENTENCE,
    MLM_PLL,
    MLM_SLOT,
    SLOT,
    LanguageModel,
    ModelInfo,
    SlotScores,
)
from biascheck.models.loading import Provenance, load_model  # imports torch only when a model loads
from biascheck.models.text import TemplateError

if TYPE_CHECKING:  # pragma: no cover
    from biascheck.models.causal import CausalLM
    from biascheck.models.masked import MaskedLM

__all__ = [
    "BLANK",
    "CAUSAL_NEXT",
    "CAUSAL_SENTENCE",
    "MLM_PLL",
    "MLM_SLOT",
    "SLOT",
    "CausalLM",
    "LanguageModel",
    "MaskedLM",
    "ModelInfo",
    "Provenance",
    "SlotScores",
    "TemplateError",
    "load_model",
    "resolve_device",
    "resolve_dtype",
]


def resolve_device(device: str) -> str:
    """ "auto" → "cuda" if available, else "mps", else "cpu"; validates cpu / cuda / cuda:N / mps."""
    from biascheck.models.loading import resolve_device as _rd

    return _rd(device)


def resolve_dtype(dtype: str, device: str) -> str:
    """ "auto" → float32 on every device (half precision only on a card float32 does not fit). Canonical name out."""
    from biascheck.models.loading import resolve_dtype as _rt

    return _rt(dtype, device)


def __getattr__(name: str):  # lazy MaskedLM / CausalLM (they import nothing heavy either, but keep it cheap)
    if name == "MaskedLM":
        from biascheck.models.masked import MaskedLM

        return MaskedLM
    if name == "CausalLM":
        from biascheck.models.causal import CausalLM

        return CausalLM
    raise AttributeError(f"module 'biascheck.models' has no attribute {name!r}")
