"""Masked LMs (BERT, RoBERTa, XLM-R, ...): the masked-slot and pseudo-log-likelihood estimators.

fill_slot (estimator `MLM_SLOT`): the template is filled with the candidate and tokenized; the
candidate's k pieces (found by character offsets) are replaced by k mask tokens; each BLANK is one
mask token. k = 1: log-softmax at the mask, so all single-piece candidates of a template share one
forward pass. k > 1: left to right, mask all k and read piece 1, reveal piece 1 and read piece 2,
..., summing the log-probabilities.

sentence_logprob / word_logprobs (estimator `MLM_PLL`, Salazar et al. 2020): every non-special
piece is masked in turn (the rest visible) and its log-probability read; a sentence is the sum, a
word the sum over its pieces.

The vocabulary projection runs only at the read positions: the encoder (``model.base_model``) runs
on the batch, and the model's own MLM head module (BERT ``cls``, RoBERTa/XLM-R ``lm_head``, ALBERT
``predictions``) is applied to the hidden states at the masks. An unknown head is detected at load
time (its output must reproduce the model's logits) and falls back to the full logits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from biascheck.errors import TokenizationError
from biascheck.models.base import BLANK, MLM_PLL, MLM_SLOT, SLOT, SlotScores, TokenTerms
from biascheck.models.common import Encoded, EngineModel
from biascheck.models.memo import MemoKey
from biascheck.models.planning import TargetArrays, TopRead, target_arrays
from biascheck.models.text import (
    TemplateError,
    check_candidates,
    check_templates,
    check_texts,
    covering_pieces,
    fill,
)
from biascheck.models.words import WordLayout, piece_positions, word_layout, word_sums

_HEAD_ATTRS = ("cls", "lm_head", "predictions")


class MaskedLM(EngineModel):
    family_name = "masked"

    def __init__(self, model: Any, tokenizer: Any, **kwargs: Any) -> None:
        if tokenizer.mask_token is None or tokenizer.mask_token_id is None:
            raise TokenizationError(
                f"the tokenizer of {type(model).__name__} has no mask token, so it cannot be used as a masked LM."
            )
        super().__init__(model, tokenizer, **kwargs)
        self.mask_id = int(tokenizer.mask_token_id)

    def _head_module(self) -> Any:
        import torch

        for attr in _HEAD_ATTRS:
            m = getattr(self.model, attr, None)
            if isinstance(m, torch.nn.Module):
                return m
        return None

    def _check_ids(self) -> list[int]:
        ids = super()._check_ids()
        ids[3] = int(self.tokenizer.mask_token_id)
        return ids

    # ------------------------------------------------------------------ slot
    def _slot_reads(
        self, templates: Sequence[str], candidates: Sequence[str]
    ) -> tuple[tuple[TargetArrays, np.ndarray, np.ndarray], MemoKey]:
        """(the reads, the template x candidate cell each read adds to, pieces per cell), kept for the process
        by tokenizer (`_kept`) so that a sweep's next checkpoint does not fill and check them again; and their key,
        under which the engine keeps its plan."""
        key = self._memo_key("slot_reads", tuple(templates), tuple(candidates))

        def build() -> tuple[TargetArrays, np.ndarray, np.ndarray]:
            reads, owner, n_pieces = self._build_slot_reads(templates, candidates)
            arrays = target_arrays(reads)
            for a in (*arrays[1:], owner, n_pieces):
                a.flags.writeable = False  # shared with the next model: read, never changed
            return arrays, owner, n_pieces

        return self._kept(key, build), key

    def _build_slot_reads(
        self, templates: Sequence[str], candidates: Sequence[str]
    ) -> tuple[list[tuple[tuple[int, ...], int, int]], np.ndarray, np.ndarray]:
        nc = len(candidates)
        mask_text = self.tokenizer.mask_token
        filled = {(i, j): fill(t, c, mask_text) for i, t in enumerate(templates) for j, c in enumerate(candidates)}
        enc = self._encode([f[0] for f in filled.values()], add_special_tokens=True, keep=False)  # reads kept
        reads: list[tuple[tuple[int, ...], int, int]] = []
        owner: list[int] = []
        n_pieces = np.zeros((len(templates), nc), dtype=np.int64)
        for (i, j), (text, s, e) in filled.items():
            e_ = enc[text]
            what = f"template {templates[i]!r} with candidate {candidates[j]!r}"
            pieces = covering_pieces(text, e_.offsets, e_.special, s, e, what=what, tokens=e_.tokens)
            n_blank = templates[i].count(BLANK)
            n_mask = sum(1 for q, t in enumerate(e_.ids) if t == self.mask_id and q not in pieces)
            if n_mask != n_blank:
                raise TokenizationError(
                    f"{what}: expected {n_blank} mask token(s) for {BLANK} but the tokenizer produced {n_mask} "
                    f"in {e_.tokens}."
                )
            base = list(e_.ids)
            for q in pieces:
                base[q] = self.mask_id
            for step, q in enumerate(pieces):
                seq = list(base)
                for r in pieces[:step]:
                    seq[r] = e_.ids[r]
                reads.append((tuple(seq), q, e_.ids[q]))
                owner.append(i * nc + j)
            n_pieces[i, j] = len(pieces)
        return reads, np.asarray(owner, dtype=np.int64), n_pieces

    def fill_slot(self, templates: Sequence[str], candidates: Sequence[str]) -> SlotScores:
        check_templates(templates)
        check_candidates(candidates)
        (reads, owner, n_pieces), key = self._slot_reads(templates, candidates)
        vals, _, _ = self.engine.run(reads, plan_key=key)
        logprob = np.zeros(len(templates) * len(candidates), dtype=np.float64)
        np.add.at(logprob, owner, vals)
        return SlotScores(logprob.reshape(len(templates), len(candidates)), n_pieces.copy(), MLM_SLOT)

    def next_token(self, prompts: Sequence[str], candidates: Sequence[str]) -> SlotScores:
        check_texts(prompts, "prompts")
        return self.fill_slot([p + " " + SLOT for p in prompts], candidates)

    def _mask_reads(self, templates: Sequence[str], what: str) -> tuple[tuple[TopRead, ...], MemoKey]:
        """(input ids, position) of the single mask token each template's SLOT becomes, kept (`_kept`); and their
        key, under which the engine keeps its plan."""
        key = self._memo_key("mask_reads", tuple(templates), what)
        return self._kept(key, lambda: tuple(self._build_mask_reads(templates, what))), key

    def _build_mask_reads(self, templates: Sequence[str], what: str) -> list[TopRead]:
        mask_text = self.tokenizer.mask_token
        filled = [fill(t, mask_text, mask_text) for t in templates]
        enc = self._encode([f[0] for f in filled], add_special_tokens=True, keep=False)  # the reads are kept
        reads = []
        for t, (text, s, e) in zip(templates, filled, strict=True):
            e_ = enc[text]
            pieces = covering_pieces(text, e_.offsets, e_.special, s, e, what=f"{what} {t!r}", tokens=e_.tokens)
            slot = [q for q in pieces if e_.ids[q] == self.mask_id]
            if len(slot) != 1:
                raise TokenizationError(f"{what} {t!r}: the slot did not tokenize as one mask token: {e_.tokens}.")
            reads.append((e_.ids, slot[0]))
        return reads

    def _one_piece_ids(self, template: str, candidates: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Each candidate's token id when it fills `template`'s SLOT as one piece, else -1; and piece counts."""
        text, start, _ = fill(template, "", self.tokenizer.mask_token)
        before, after = text[:start], text[start:]
        return self._slot_pieces(
            [before + c + after for c in candidates],
            [(start, start + len(c)) for c in candidates],
            add_special_tokens=True,
            what=lambda j: f"template {template!r} with candidate {candidates[j]!r}",
        )

    @staticmethod
    def _check_slot_templates(templates: Sequence[str]) -> None:
        check_templates(templates)
        if any(BLANK in t for t in templates):
            raise TemplateError(f"slot_vocab templates take no {BLANK}: {[t for t in templates if BLANK in t][:3]}")

    def slot_ids(self, templates: Sequence[str], token_ids: Sequence[int]) -> np.ndarray:
        self._check_slot_templates(templates)
        return self._read_ids(templates, token_ids)

    def _read_ids(self, templates: Sequence[str], token_ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """(n_templates, n_ids): log P(each id) at each (checked) template's mask, one gathered read each."""
        reads, key = self._mask_reads(templates, "template")
        _, vals, _ = self.engine.run((), reads, gather=token_ids, plan_key=key)
        return vals

    def slot_vocab(self, templates: Sequence[str], candidates: Sequence[str]) -> SlotScores:
        self._check_slot_templates(templates)
        check_candidates(candidates)
        ids, pieces = self._one_piece_ids(templates[0], candidates)
        logprob = np.full((len(templates), len(candidates)), -np.inf)
        one = np.flatnonzero(ids >= 0)
        if one.size:
            logprob[:, one] = self._read_ids(templates, ids[one])
        return SlotScores(logprob, np.broadcast_to(pieces, logprob.shape).copy(), MLM_SLOT, ids)

    def top_next(self, prompts: Sequence[str], k: int) -> tuple[np.ndarray, list[list[str]]]:
        check_texts(prompts, "prompts")
        reads, key = self._mask_reads([p + " " + SLOT for p in prompts], "prompt")
        _, vals, ids = self.engine.run((), reads, k, plan_key=key)
        return vals, self._decode_ids(ids)

    # ------------------------------------------------------------------ PLL
    def _pll(self, sentences: Sequence[str]) -> dict[str, tuple[Encoded, np.ndarray]]:
        """Per distinct sentence, its encoding and each piece's log P(piece | the rest), read with the piece masked
        (NaN at special tokens). The reads are kept by tokenizer (`_kept`), with the engine's plan of them."""
        enc, texts, flat, starts = self._pll_flat(sentences)
        return {t: (enc[t], flat[starts[i] : starts[i + 1]]) for i, t in enumerate(texts)}

    def _pll_flat(self, sentences: Sequence[str]) -> tuple[dict[str, Encoded], tuple[str, ...], np.ndarray, np.ndarray]:
        """`_pll` laid end to end: (the encodings, the distinct sentences in order, every piece's term, where each
        sentence starts among them and one more: the end)."""
        enc = self._encode(sentences, add_special_tokens=True)
        texts = tuple(enc)
        key = self._memo_key("pll", texts)
        reads, slots, starts = self._kept(
            key, lambda: self._pll_reads([enc[t].ids for t in texts], [enc[t].special for t in texts])
        )
        vals, _, _ = self.engine.run(reads, plan_key=key)
        flat = np.full(int(starts[-1]), np.nan)
        flat[slots] = vals
        return enc, texts, flat, starts

    def _pll_reads(
        self, ids: Sequence[tuple[int, ...]], special: Sequence[Sequence[int]]
    ) -> tuple[TargetArrays, np.ndarray, np.ndarray]:
        """Every sentence with each of its non-special pieces masked in turn, as reads; each read's place among
        all the sentences' pieces laid end to end; and where each sentence starts there (one more: the end)."""
        starts = np.concatenate([[0], np.cumsum([len(e) for e in ids])]).astype(np.int64)
        reads, slots = [], []
        for i, (e_ids, e_special) in enumerate(zip(ids, special, strict=True)):
            for q, (t, sp) in enumerate(zip(e_ids, e_special, strict=False)):
                if sp:
                    continue
                seq = list(e_ids)
                seq[q] = self.mask_id
                reads.append((tuple(seq), q, t))
                slots.append(starts[i] + q)
        arrays, slot_array = target_arrays(reads), np.asarray(slots, dtype=np.int64)
        for a in (*arrays[1:], slot_array, starts):
            a.flags.writeable = False  # shared with the next model: read, never changed
        return arrays, slot_array, starts

    def sentence_logprob(self, sentences: Sequence[str]) -> tuple[np.ndarray, str]:
        check_texts(sentences, "sentences")
        pll = self._pll(sentences)
        out = np.array([float(np.nansum(pll[s][1])) for s in sentences], dtype=np.float64)
        return out, MLM_PLL

    def word_logprobs(self, sentences: Sequence[str]) -> list[list[tuple[str, int, int, float]]]:
        check_texts(sentences, "sentences")
        enc, distinct, flat, starts = self._pll_flat(sentences)
        texts = tuple(sentences)

        def build() -> tuple[WordLayout, np.ndarray]:
            """The layout and where each of `texts`' pieces lies in `flat` (a sentence given twice: twice)."""
            positions = piece_positions(distinct, starts[:-1], np.diff(starts), texts)
            layout = word_layout(texts, [enc[s].offsets for s in texts], [enc[s].special for s in texts])
            return layout, positions

        layout, positions = self._kept(self._memo_key("words", texts), build)
        return word_sums(layout, flat[positions])

    def token_logprobs(self, sentences: Sequence[str]) -> list[TokenTerms]:
        check_texts(sentences, "sentences")
        pll = self._pll(sentences)
        return [TokenTerms(tuple(pll[s][0].ids), pll[s][1]) for s in sentences]
