"""The scoring interface every probe talks to, and nothing else.

Every probe in the five papers reduces to "how likely is each candidate filler here?". A model
family (masked or causal) implements these batched operations; probes never touch torch.

Text conventions shared by all methods
--------------------------------------
* ``SLOT`` marks the one place a candidate is put in a template: ``"[SLOT] is a nurse."``.
* ``BLANK`` marks an extra position that is *not* predicted (paper 001's prior template
  ``"[SLOT] is a [BLANK]."``): a masked LM sees its mask token there; a causal LM sees the text
  cut just before it (the sentence prefix).
* Candidates are plain words as they appear in running text (``"He"``, ``"she"``,
  ``"firefighter"``). Leading-space tokens (``Ġhe``, ``▁he``) and casing are the engine's job:
  it tokenizes the *filled* text and finds the pieces that cover the candidate's characters (a
  space-only piece split off right before the word counts as one of its pieces). A piece that
  merges the candidate with neighbouring text is a `TokenizationError`.

Every returned array is float64 numpy, natural log. Every method is deterministic, and does not
depend on the order of its inputs, on duplicates among them, or on the batch size (up to the float
rounding of batched matrix products: about 1e-6 relative in float32, more in half precision).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from biascheck import scoring
from biascheck.errors import BiascheckError

# The records a model returns are declared beside the protocol probes are typed against (biascheck.scoring), and
# the text conventions and the estimator names at the bottom of the import graph (biascheck.spec).
from biascheck.scoring import Family, ModelInfo, SlotScores, TokenTerms  # noqa: F401
from biascheck.spec import BLANK, CAUSAL_NEXT, CAUSAL_SENTENCE, MLM_PLL, MLM_SLOT, SLOT  # noqa: F401


class TemplateError(BiascheckError, ValueError):
    """A template or candidate list handed to a model method is malformed (a probe bug)."""


def candidate_rows_width(prompts: Sequence[str], candidates: Sequence[Sequence[str]]) -> int:
    """The shape `next_token_rows` takes: one row of candidates per prompt, every row as long; that length."""
    if isinstance(candidates, str) or len(candidates) != len(prompts):
        raise TemplateError(f"{len(prompts)} prompts need {len(prompts)} rows of candidates, one each.")
    widths = {len(row) for row in candidates}
    if len(widths) > 1:
        raise TemplateError(f"every prompt needs the same number of candidates; the rows have {sorted(widths)}.")
    return widths.pop() if widths else 0


class LanguageModel(ABC):
    """A loaded language model, ready to score. One instance per test session."""

    info: ModelInfo

    @property
    def family(self) -> Family:
        return self.info.family

    @property
    def unknown_token_id(self) -> int | None:
        """The tokenizer's unknown token (a word read as it is unknown to the model), None if it has none."""
        return None

    @abstractmethod
    def fill_slot(self, templates: Sequence[str], candidates: Sequence[str]) -> SlotScores:
        """Score every candidate in the `SLOT` of every template.

        templates: n_t strings, each with exactly one `SLOT` and any number of `BLANK`.
        candidates: n_c strings (words or short phrases).
        Returns SlotScores with (n_t, n_c) arrays.

        Masked LMs (estimator `MLM_SLOT`): log P(candidate | template with the slot masked). A
        candidate of k pieces gets k mask tokens and the sum of left-to-right sequential log
        probabilities (mask all k, read piece 1, reveal it, read piece 2, ...); k = 1 is the exact
        masked-slot probability, so a full single-piece vocabulary sums to one.
        Causal LMs (estimator `CAUSAL_SENTENCE`): log P(filled text) (text cut at the first BLANK),
        so only differences between candidates of one template are meaningful.
        """

    @abstractmethod
    def next_token(self, prompts: Sequence[str], candidates: Sequence[str]) -> SlotScores:
        """log P(candidate continues prompt): the prompt is followed by " " + candidate.

        prompts: n_p strings (no SLOT); candidates: n_c words, scored with a leading space.
        Returns (n_p, n_c). Causal: exact next-token log-probability for single-piece candidates,
        chain rule for several pieces (estimator `CAUSAL_NEXT`). Masked: the template
        ``prompt + " " + SLOT`` through `fill_slot` (estimator `MLM_SLOT`).
        """

    def next_token_rows(self, prompts: Sequence[str], candidates: Sequence[Sequence[str]]) -> SlotScores:
        """`next_token` with candidates of its own for every prompt: row i scores ``candidates[i]`` after
        ``prompts[i]`` (every row the same number k of candidates). Returns (n_p, k), the numbers
        `next_token` gives each row on its own (up to float rounding).

        A probe whose prompts each have their own candidates (Winogender's two nouns per sentence) makes one
        call instead of one per candidate set. This default groups the rows by their candidates and calls
        `next_token` per group; the causal engine overrides it with one pass over every (prompt, candidate)."""
        k = candidate_rows_width(prompts, candidates)
        rows = [tuple(c) for c in candidates]
        logprob = np.zeros((len(rows), k), dtype=np.float64)
        n_pieces = np.zeros((len(rows), k), dtype=np.int64)
        estimator = ""
        groups: dict[tuple[str, ...], list[int]] = {}
        for i, row in enumerate(rows):
            groups.setdefault(row, []).append(i)
        for row, members in groups.items():
            got = self.next_token([prompts[i] for i in members], list(row))
            logprob[members], n_pieces[members], estimator = got.logprob, got.n_pieces, got.estimator
        return SlotScores(logprob, n_pieces, estimator)

    def slot_vocab(self, templates: Sequence[str], candidates: Sequence[str]) -> SlotScores:
        """The one-token distribution in the `SLOT` of every template, read at the candidates' tokens.

        templates: n_t strings, each with one `SLOT` and no `BLANK`, all with the slot in the same kind of
        place (the candidates' tokens are found in the first template). Causal LMs: the slot ends the
        template (the next word after the text before it, scored with a leading space as in `next_token`).
        candidates: n_c words. One forward pass per template serves every candidate: the model's full
        distribution at the slot, gathered at each candidate's single token.
        Returns SlotScores (n_t, n_c): logprob is the exact log-probability of the candidate's token
        (masked: `MLM_SLOT`, causal: `CAUSAL_NEXT`), -inf where the candidate is not one piece
        (n_pieces > 1); n_pieces is the candidate's piece count in the first template, on every row.

        This default reads the same numbers through `fill_slot` (masked) or `next_token` (causal), one
        score per (template, candidate); the engine models override it with one gathered read per template.
        """
        if self.family == "causal":
            if any(not t.rstrip().endswith(SLOT) for t in templates):
                raise ValueError(f"slot_vocab on a causal LM needs {SLOT} at the end of every template")
            got = self.next_token([t.rstrip()[: -len(SLOT)].rstrip() for t in templates], candidates)
        else:
            got = self.fill_slot(templates, candidates)
        pieces = np.broadcast_to(got.n_pieces[0], got.logprob.shape).copy()
        logprob = np.where(pieces == 1, got.logprob, -np.inf)
        return SlotScores(logprob, pieces, got.estimator)

    def slot_ids(self, templates: Sequence[str], token_ids: Sequence[int]) -> np.ndarray:
        """(n_t, n_ids) float64: the log-probability of each given token id in the `SLOT` of every
        template, read as `slot_vocab` reads a one-piece candidate (same reads, same numbers), without
        tokenising any candidate again. `token_ids`: ids from an earlier `slot_vocab` call's `token_ids`
        (a caller that scores the same candidates against many chunks of templates tokenises them once).

        Only models whose `slot_vocab` returns `token_ids` (the engine models) implement it; this default
        raises NotImplementedError, and callers fall back to `slot_vocab`.
        """
        raise NotImplementedError(f"{type(self).__name__} has no slot_ids; use slot_vocab")

    @abstractmethod
    def top_next(self, prompts: Sequence[str], k: int) -> tuple[np.ndarray, list[list[str]]]:
        """The k most probable next tokens after each prompt (masked: in a slot after the prompt).

        Returns (logprobs (n_p, k) float64 sorted descending, tokens: n_p lists of k decoded strings).
        """

    @abstractmethod
    def sentence_logprob(self, sentences: Sequence[str]) -> tuple[np.ndarray, str]:
        """Score of each whole sentence: causal log-probability or masked pseudo-log-likelihood.

        Returns ((n,) float64, estimator name: `CAUSAL_SENTENCE` or `MLM_PLL`).
        """

    @abstractmethod
    def word_logprobs(self, sentences: Sequence[str]) -> list[list[tuple[str, int, int, float]]]:
        """Per-word scores inside each sentence: [(word, char_start, char_end, logprob), ...].

        Words are maximal runs of pieces that make up one whitespace-separated word (punctuation
        attached to a word belongs to it). Masked: the PLL terms of the word's pieces (each piece
        masked in turn, the rest visible) summed; causal: chain-rule log-probs of its pieces given
        the left context. Lets a probe sum P(context | variant) over the context words only
        (paper 004) and read the surprisal of one pronoun (negate the value).
        """

    def token_logprobs(self, sentences: Sequence[str]) -> list[TokenTerms]:
        """Per-token scores of each sentence, for a probe that scores a chosen subset of tokens (CrowS-Pairs
        sums the tokens two sentences share). Masked: ids with the special tokens, each token's PLL term
        (masked in turn, the rest visible), NaN at special tokens; causal: ids without the context prefix,
        each token's log-prob given the prefix and the tokens before it. A model that cannot give them
        raises NotImplementedError."""
        raise NotImplementedError(f"{type(self).__name__} does not give per-token scores")


if TYPE_CHECKING:

    def _satisfies(model: LanguageModel) -> scoring.LanguageModel:
        return model  # mypy checks here that the engine base gives probes everything their protocol asks
