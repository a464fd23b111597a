"""Causal LMs (GPT-2, Llama/SmolLM2, ...): chain-rule scores given a context prefix.

Context prefix: every sentence and prompt is scored *after* a short context so that its first
piece gets a real probability (a document start) instead of none. The prefix is, in order:

1. ``context_prefix`` when given explicitly (a registry entry or a caller may override);
2. else ``<|endoftext|>`` when the tokenizer has it as a token: the document separator of GPT-2-style
   byte-level vocabularies (GPT-2, SmolLM2, ...), also where the tokenizer's ``bos_token`` is a chat
   marker (SmolLM2-Instruct: ``<|im_start|>``). The prefix depends on the tokenizer, never on how
   the model was named: the alias, the hub id and a local copy of the same model score the same;
3. else the tokenizer's ``bos_token``. Texts are always tokenized with
   ``add_special_tokens=False``, so a tokenizer that adds its own BOS (Llama) gets exactly that one
   BOS here, never two;
4. else its ``eos_token`` (GPT-2 style document separator, as lm-evaluation-harness does);
5. else nothing, and the first piece of a text is left unscored (NaN in `word_logprobs`, left out
   of sums; `next_token` / `top_next` on an empty prompt is then an error).
The prefix used is recorded with the model (`ModelInfo.extra["context_prefix"]`, in results.json).

The prefix is tokenized on its own and its ids put before the text's ids.

fill_slot (estimator `CAUSAL_SENTENCE`): log P(filled text cut at the first BLANK | prefix).
next_token (`CAUSAL_NEXT`): log P(" " + candidate | prefix + prompt): prompt + " " + candidate is
tokenized as one text, and the pieces covering " candidate" are scored by the chain rule.
sentence_logprob / word_logprobs: the chain-rule log-probabilities of each piece given all before.

Only the hidden states at read positions go through the output embedding (``lm_head``); inputs
that are prefixes of others share the longer input's forward pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from biascheck.errors import TokenizationError
from biascheck.models.base import BLANK, CAUSAL_NEXT, CAUSAL_SENTENCE, SLOT, SlotScores, TokenTerms
from biascheck.models.causal_paths import PathCheck, packed_body, shared_prefix_body
from biascheck.models.common import EngineModel
from biascheck.models.memo import MemoKey
from biascheck.models.packing import packs_by_default, sliding_window
from biascheck.models.planning import TargetArrays, target_arrays
from biascheck.models.terms import FlatTerms, TermReads, term_reads
from biascheck.models.text import (
    TemplateError,
    check_candidate_rows,
    check_candidates,
    check_templates,
    check_texts,
    covering_pieces,
    fill,
)
from biascheck.models.words import WordLayout, piece_positions, word_layout, word_sums

DOCUMENT_SEPARATOR = "<|endoftext|>"


def default_context_prefix(tokenizer: Any) -> str:
    """The prefix rule above, steps 2-5 (<|endoftext|>, else bos_token, else eos_token, else "")."""
    if DOCUMENT_SEPARATOR in tokenizer.get_vocab():
        return DOCUMENT_SEPARATOR
    for tok in (tokenizer.bos_token, tokenizer.eos_token):
        if tok:
            return str(tok)
    return ""


class CausalLM(EngineModel):
    family_name = "causal"

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        *,
        context_prefix: str | None = None,
        share_prefix_kv: bool = False,
        pack: bool | str = "auto",
        **kwargs: Any,
    ) -> None:
        """pack: run each batch as prefix trees (`biascheck.models.packing`), every distinct prefix once.
        "auto": on a CPU and a CUDA card, where it was measured (2.2x fewer CPU seconds on the pronoun-ratio
        sentences, benchmarks/README.md; on one H200 the full tier's forward stage 3.8x shorter for a 1.7B
        and 2.7x for a 135M, docs/speed.md); not on other devices (MPS), where it has not been. Used only if
        it reproduces the padded forward pass at load (models whose attention takes no custom mask fall back).
        share_prefix_kv: run a prefix shared by a whole batch once and reuse its KV cache (inputs are
        then clustered by prefix); used only when not packing. Off by default: on 2 CPU cores it cut
        the body tokens of the pronoun-ratio benchmark by 35 % but was not faster (0.93x)."""
        super().__init__(model, tokenizer, **kwargs)
        self.context_prefix = default_context_prefix(tokenizer) if context_prefix is None else context_prefix
        self.prefix_ids: tuple[int, ...] = (
            tuple(int(i) for i in tokenizer(self.context_prefix, add_special_tokens=False)["input_ids"])
            if self.context_prefix
            else ()
        )
        if pack not in (True, False, "auto"):
            raise ValueError(f"pack must be True, False or 'auto', got {pack!r}")
        if pack == "auto":
            pack = packs_by_default(self.engine.device)
        self.engine.pack_body = packed_body(self._path_check()) if pack else None
        window = sliding_window(model)
        if window is not None:  # packed rows replace the window with their own mask: rows and inputs within it
            self.engine.pack_max_len = window
            self.engine.pack_row_len = min(self.engine.pack_row_len, window)
        if self.engine.pack_body is not None and self.engine.device == "cpu" and kwargs.get("token_budget") is None:
            from biascheck.models.packing import CPU_TOKEN_BUDGET

            self.engine.token_budget = CPU_TOKEN_BUDGET
        self.engine.prefix_body = (
            shared_prefix_body(self._path_check()) if share_prefix_kv and not self.engine.pack_body else None
        )
        # recorded with the model (results.json): same numbers to float32 rounding, other speed
        self.info.extra["engine_layout"] = (
            f"prefix-tree rows of {self.engine.pack_row_len}" if self.engine.pack_body is not None else "padded batches"
        )

    def _path_check(self) -> PathCheck:
        """What `causal_paths` needs to build a path and check it against this model's padded forward pass."""
        return PathCheck(
            self.model, self.fast_head, self._check_ids, self.engine.device, self.engine.pad_id, self.engine.body
        )

    def _head_module(self) -> Any:
        cfg = self.model.config
        for attr in ("final_logit_softcapping", "logit_scale", "output_mult", "logits_scaling"):
            if getattr(cfg, attr, None) not in (None, 1, 1.0):
                return None  # logits are post-processed after the projection: use the model's own
        return self.model.get_output_embeddings()

    def _body_kwargs(self) -> dict[str, Any]:
        return {"use_cache": False}

    def _reserved_positions(self) -> int:
        return len(self.prefix_ids)

    # ------------------------------------------------------------------ reads
    def _terms(self, texts: Sequence[str]) -> FlatTerms:
        """Every piece of every distinct text read at once (`terms.term_reads`), the reads kept by tokenizer and
        context prefix (`_kept`) with the engine's plan of them (the encodings memo'd: word_logprobs reads them)."""
        order = tuple(sorted(set(texts)))
        key = self._memo_key("terms", self.prefix_ids, order)

        def build() -> TermReads:
            enc = self._encode(order, add_special_tokens=False)
            return term_reads(order, [enc[text].ids for text in order], self.prefix_ids)

        reads = self._kept(key, build)
        return self._run_terms(reads, key)

    def _run_terms(self, reads: TermReads, key: MemoKey) -> FlatTerms:
        values = np.full(reads.read.size, np.nan)
        values[reads.read] = self.engine.run(reads.targets, plan_key=key)[0]
        return FlatTerms(reads, values)

    # ------------------------------------------------------------------ interface
    def fill_slot(self, templates: Sequence[str], candidates: Sequence[str]) -> SlotScores:
        check_templates(templates)
        check_candidates(candidates)
        key = self._memo_key("slot_terms", self.prefix_ids, tuple(templates), tuple(candidates))
        reads, cell_text, n_pieces = self._kept(key, lambda: self._slot_terms(templates, candidates))
        sums = self._run_terms(reads, key).sum_values()
        logprob = sums[cell_text].reshape(len(templates), len(candidates))
        return SlotScores(logprob, n_pieces.copy(), CAUSAL_SENTENCE)

    def _slot_terms(
        self, templates: Sequence[str], candidates: Sequence[str]
    ) -> tuple[TermReads, np.ndarray, np.ndarray]:
        """The reads of every filled template (cut at its first BLANK), each cell's text among them and the pieces
        covering each candidate (checked: `covering_pieces`); kept for the next checkpoint by `fill_slot`."""
        filled = [fill(t, c, None) for t in templates for c in candidates]
        order = tuple(sorted({f[0] for f in filled}))
        enc = self._encode(order, add_special_tokens=False, keep=False)  # only these kept reads read them
        n_pieces = np.zeros(len(filled), dtype=np.int64)
        for n, (text, s, e) in enumerate(filled):
            e_ = enc[text]
            what = f"template {templates[n // len(candidates)]!r} with candidate {candidates[n % len(candidates)]!r}"
            n_pieces[n] = len(covering_pieces(text, e_.offsets, e_.special, s, e, what=what, tokens=e_.tokens))
        index = {text: n for n, text in enumerate(order)}
        cell_text = np.fromiter((index[f[0]] for f in filled), dtype=np.int64, count=len(filled))
        cell_text.flags.writeable = n_pieces.flags.writeable = False  # shared with the next model
        reads = term_reads(order, [enc[text].ids for text in order], self.prefix_ids)
        return reads, cell_text, n_pieces.reshape(len(templates), len(candidates))

    def next_token(self, prompts: Sequence[str], candidates: Sequence[str]) -> SlotScores:
        check_candidates(candidates)
        return self.next_token_rows(prompts, [candidates] * len(prompts))

    def next_token_rows(self, prompts: Sequence[str], candidates: Sequence[Sequence[str]]) -> SlotScores:
        check_texts(prompts, "prompts")
        nc = check_candidate_rows(prompts, candidates)
        key = self._memo_key("next_reads", self.prefix_ids, tuple(prompts), tuple(map(tuple, candidates)))
        reads, owner, n_pieces = self._kept(key, lambda: self._next_reads(prompts, candidates, nc))
        vals, _, _ = self.engine.run(reads, plan_key=key)
        logprob = np.zeros(len(prompts) * nc, dtype=np.float64)
        np.add.at(logprob, owner, vals)
        return SlotScores(logprob.reshape(len(prompts), nc), n_pieces.copy(), CAUSAL_NEXT)

    def _next_reads(
        self, prompts: Sequence[str], candidates: Sequence[Sequence[str]], nc: int
    ) -> tuple[TargetArrays, np.ndarray, np.ndarray]:
        """The reads of each prompt's candidates, the cell each adds to and the pieces per cell (checked), kept by
        `next_token_rows` for the next checkpoint."""
        pairs = {(i, j): p + " " + c for i, p in enumerate(prompts) for j, c in enumerate(candidates[i])}
        enc = self._encode(list(pairs.values()), add_special_tokens=False, keep=False)  # the reads are kept
        reads, owner = [], []
        n_pieces = np.zeros((len(prompts), nc), dtype=np.int64)
        for (i, j), text in pairs.items():
            e_ = enc[text]
            what = f"prompt {prompts[i]!r} with candidate {candidates[i][j]!r}"
            pieces = covering_pieces(
                text, e_.offsets, e_.special, len(prompts[i]), len(text), what=what, tokens=e_.tokens
            )
            if not self.prefix_ids and pieces[0] == 0:
                raise TokenizationError(
                    f"{what}: nothing comes before the candidate and the tokenizer has no BOS/EOS token to use as a "
                    "context prefix; give a non-empty prompt or a context prefix."
                )
            seq, p0 = self.prefix_ids + e_.ids, len(self.prefix_ids)  # log P(piece q | prefix + earlier pieces)
            for q in (q for q in pieces if p0 + q >= 1):  # a piece without context is left out
                reads.append((seq, p0 + q - 1, e_.ids[q]))
                owner.append(i * nc + j)
            n_pieces[i, j] = len(pieces)
        arrays, owner_array = target_arrays(reads), np.asarray(owner, dtype=np.int64)
        for a in (*arrays[1:], owner_array, n_pieces):
            a.flags.writeable = False  # shared with the next model: read, never changed
        return arrays, owner_array, n_pieces

    def _last_reads(self, prompts: Sequence[str], what: str) -> list[tuple[tuple[int, ...], int]]:
        """(context prefix + prompt ids, last position) per prompt: where the next token is read."""
        enc = self._encode(prompts, add_special_tokens=False)
        reads = []
        for p in prompts:
            seq = self.prefix_ids + enc[p].ids
            if not seq:
                raise TokenizationError(f"{what} needs a context prefix (the tokenizer has no BOS/EOS token).")
            reads.append((seq, len(seq) - 1))
        return reads

    @staticmethod
    def _slot_prompts(templates: Sequence[str]) -> list[str]:
        """The text before each template's SLOT, which must end the template."""
        check_templates(templates)
        prompts = []
        for t in templates:
            before, after = t.split(SLOT)
            if after.strip() or BLANK in before:
                raise TemplateError(
                    f"template {t!r}: a causal LM reads left to right, so slot_vocab needs {SLOT} at the end of the "
                    f"template (the next word) and no {BLANK}."
                )
            prompts.append(before.rstrip())
        check_texts(prompts, "prompts")
        return prompts

    def slot_ids(self, templates: Sequence[str], token_ids: Sequence[int]) -> np.ndarray:
        return self._read_ids(self._slot_prompts(templates), token_ids)

    def _read_ids(self, prompts: Sequence[str], token_ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """(n_prompts, n_ids): log P(each id next) after each (checked) prompt, one gathered read each."""
        reads = self._last_reads(prompts, "slot_vocab with nothing before the slot")
        _, vals, _ = self.engine.run([], reads, gather=token_ids)
        return vals

    def slot_vocab(self, templates: Sequence[str], candidates: Sequence[str]) -> SlotScores:
        prompts = self._slot_prompts(templates)
        check_candidates(candidates)
        first = prompts[0]
        texts = [first + " " + c for c in candidates]
        ids, pieces = self._slot_pieces(
            texts,
            [(len(first), len(text)) for text in texts],
            add_special_tokens=False,
            what=lambda j: f"prompt {first!r} with candidate {candidates[j]!r}",
        )
        logprob = np.full((len(templates), len(candidates)), -np.inf)
        one = np.flatnonzero(ids >= 0)
        if one.size:
            logprob[:, one] = self._read_ids(prompts, ids[one])
        return SlotScores(logprob, np.broadcast_to(pieces, logprob.shape).copy(), CAUSAL_NEXT, ids)

    def top_next(self, prompts: Sequence[str], k: int) -> tuple[np.ndarray, list[list[str]]]:
        check_texts(prompts, "prompts")
        reads = self._last_reads(prompts, "top_next with an empty prompt")
        _, vals, ids = self.engine.run([], reads, k)
        return vals, self._decode_ids(ids)

    def sentence_logprob(self, sentences: Sequence[str]) -> tuple[np.ndarray, str]:
        check_texts(sentences, "sentences")
        sums = self._terms(sentences).sums()
        return np.array([sums[s] for s in sentences], dtype=np.float64), CAUSAL_SENTENCE

    def token_logprobs(self, sentences: Sequence[str]) -> list[TokenTerms]:
        check_texts(sentences, "sentences")
        flat = self._terms(sentences)
        at = {text: n for n, text in enumerate(flat.texts)}
        return [TokenTerms(flat.ids(at[s]), flat.of(at[s])) for s in sentences]

    def word_logprobs(self, sentences: Sequence[str]) -> list[list[tuple[str, int, int, float]]]:
        check_texts(sentences, "sentences")
        flat = self._terms(sentences)
        texts = tuple(sentences)

        def build() -> tuple[WordLayout, np.ndarray]:
            enc = self._encode(texts, add_special_tokens=False)  # the memo's, from _terms
            positions = piece_positions(flat.texts, flat.reads.starts, flat.reads.lengths, texts)
            return word_layout(texts, [enc[s].offsets for s in texts], None), positions

        layout, positions = self._kept(self._memo_key("words", texts), build)
        return word_sums(layout, flat.values[positions])  # an unscored first piece: NaN
