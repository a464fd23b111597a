"""What a probe's `score` function may ask of a model: the `LanguageModel` protocol and the records it
returns, declared without torch, transformers or the model layer, so that probe code (`biascheck/methods/`) is
typed against it and mypy checks every call. The engine models (`biascheck.models`) implement it; a test's
fake model only has to have these methods. `biascheck/models/base.py` documents each method's contract (the
text conventions, estimators, shapes); this module holds only their signatures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

import numpy as np

Family = Literal["masked", "causal"]


@dataclass(frozen=True)
class ModelInfo:
    """What a result needs to say about the model that produced it."""

    name: str  # what the user typed (alias, hub id or path)
    source: str  # what was loaded: hub id, local path, or "gguf:<package>/<file>"
    revision: str  # commit hash, package version or "unknown"
    family: Family
    architecture: str  # e.g. "LlamaForCausalLM"
    device: str
    dtype: str
    languages: tuple[str, ...] = ()  # empty = unknown (probes of every language run)
    extra: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SlotScores:
    """Result of `LanguageModel.fill_slot`.

    logprob[i, j]  score of candidate j in template i (natural log), see `estimator`.
    n_pieces[i, j] number of word pieces candidate j took in template i (1 = exact single-token score).
    token_ids[j]   (`slot_vocab` of the engine models only) candidate j's token id, -1 if several pieces:
                   two candidates with one id are one token (an uncased vocabulary's "Former", "former").
    """

    logprob: np.ndarray  # (n_templates, n_candidates) float64
    n_pieces: np.ndarray  # (n_templates, n_candidates) int
    estimator: str
    token_ids: np.ndarray | None = None  # (n_candidates,) int64

    @property
    def multi_piece(self) -> bool:
        return bool((self.n_pieces > 1).any())


@dataclass(frozen=True)
class TokenTerms:
    """One sentence's tokens (`ids`) and each token's log-prob (`logprob`, same length; NaN = not scored)."""

    ids: tuple[int, ...]
    logprob: np.ndarray


class LanguageModel(Protocol):
    """A loaded language model as a probe sees it (contracts: `biascheck.models.base.LanguageModel`)."""

    info: ModelInfo

    @property
    def family(self) -> Family: ...

    @property
    def unknown_token_id(self) -> int | None: ...

    def fill_slot(self, templates: Sequence[str], candidates: Sequence[str]) -> SlotScores: ...

    def next_token(self, prompts: Sequence[str], candidates: Sequence[str]) -> SlotScores: ...

    def next_token_rows(self, prompts: Sequence[str], candidates: Sequence[Sequence[str]]) -> SlotScores: ...

    def slot_vocab(self, templates: Sequence[str], candidates: Sequence[str]) -> SlotScores: ...

    def slot_ids(self, templates: Sequence[str], token_ids: Sequence[int]) -> np.ndarray: ...

    def top_next(self, prompts: Sequence[str], k: int) -> tuple[np.ndarray, list[list[str]]]: ...

    def sentence_logprob(self, sentences: Sequence[str]) -> tuple[np.ndarray, str]: ...

    def word_logprobs(self, sentences: Sequence[str]) -> list[list[tuple[str, int, int, float]]]: ...

    def token_logprobs(self, sentences: Sequence[str]) -> list[TokenTerms]: ...
