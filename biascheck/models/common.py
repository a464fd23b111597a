"""What the masked and causal engines share: tokenizer access, the fast head path, the engine."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

import numpy as np

from biascheck.errors import TokenizationError
from biascheck.models.base import LanguageModel, ModelInfo
from biascheck.models.batching import ForwardEngine
from biascheck.models.encoded import Encoded, TokenNames
from biascheck.models.head import float32_head
from biascheck.models.memo import MEMO_TEXTS, MemoKey, encodings_memo, kept
from biascheck.models.text import covering_pieces
from biascheck.timing import timed

T = TypeVar("T")


def torch_dtype_name(dtype: Any) -> str:
    return str(dtype).removeprefix("torch.")


def model_device(model: Any) -> str:
    try:
        return str(next(model.parameters()).device)
    except StopIteration:  # pragma: no cover
        return "cpu"


def max_positions(config: Any) -> int | None:
    """How many positions the model's learned position table has (None: rotary positions, which
    have no table to run off). RoBERTa-style models start positions after the padding index, so two
    of their 514 are unusable."""
    if any(getattr(config, attr, None) is not None for attr in ("rope_parameters", "rope_theta", "rope_scaling")):
        return None
    limit = getattr(config, "max_position_embeddings", None) or getattr(config, "n_positions", None)
    if not isinstance(limit, int):
        return None
    if "roberta" in str(getattr(config, "model_type", "")) or getattr(config, "model_type", "") == "camembert":
        limit -= int(getattr(config, "pad_token_id", 1) or 0) + 1
    return limit


class EngineModel(LanguageModel):
    """A transformers model + fast tokenizer behind the `LanguageModel` interface.

    Construct directly from objects (``MaskedLM(model, tokenizer)``) or through
    `biascheck.models.load_model`. ``batch_size``: sequences per forward pass (None: adaptive,
    by a token budget, ``token_budget`` tokens per batch; see `biascheck.models.batching`).
    """

    family_name: str = ""

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        *,
        info: ModelInfo | None = None,
        batch_size: int | None = None,
        token_budget: int | None = None,
    ) -> None:
        if not getattr(tokenizer, "is_fast", False):
            raise TokenizationError(
                f"biascheck needs a fast (Rust 'tokenizers') tokenizer with offset mappings; "
                f"{type(tokenizer).__name__} is not one. Install 'tokenizers' / provide tokenizer.json."
            )
        self.model = model.eval()
        self.tokenizer = tokenizer
        device = model_device(model)
        self.info = info or ModelInfo(
            name=getattr(model.config, "name_or_path", "") or type(model).__name__,
            source=getattr(model.config, "name_or_path", "") or "in-memory",
            revision=getattr(model.config, "_commit_hash", None) or "unknown",
            family=self.family_name,  # type: ignore[arg-type]
            architecture=type(model).__name__,
            device=device,
            dtype=torch_dtype_name(getattr(model, "dtype", "float32")),
        )
        body, head, self.fast_head = self._build_paths()
        vocab = int(self.model.config.vocab_size)
        out_emb = self.model.get_output_embeddings() if hasattr(self.model, "get_output_embeddings") else None
        if out_emb is not None and getattr(out_emb, "weight", None) is not None:
            vocab = int(out_emb.weight.shape[0])
        self.vocab_size = vocab
        pad = tokenizer.pad_token_id
        if pad is None:
            pad = tokenizer.eos_token_id if tokenizer.eos_token_id is not None else 0
        self.engine = ForwardEngine(
            body,
            head,
            device=device,
            pad_id=pad,
            causal=self.family_name == "causal",
            vocab_size=vocab,
            batch_size=batch_size,
            token_budget=token_budget,
        )
        self.engine.dtype_name = self.info.dtype  # named in the error a non-finite log-probability raises
        if token_budget is None and batch_size is None and device.startswith("cuda"):
            self._size_budget_from_card(device)

    def _size_budget_from_card(self, device: str, mem_get_info: Callable | None = None) -> None:
        """The engine's token budget from the card's free memory (`biascheck.models.memory`), recorded
        with the model; the fixed default stays when the config does not say the model's sizes."""
        from biascheck.models.memory import cuda_budget

        config = self.model.config
        config = config.get_text_config() if hasattr(config, "get_text_config") else config
        try:
            budget, how = cuda_budget(
                config, self.model.dtype.itemsize, device, self.engine.head_rows, self.vocab_size, mem_get_info
            )
        except ValueError as exc:
            how = f"{self.engine.token_budget} tokens (the fixed default: {exc})"
        else:
            self.engine.token_budget = budget
        self.info.extra["token_budget"] = how

    # ------------------------------------------------------------------ paths
    @property
    def unknown_token_id(self) -> int | None:
        return self.tokenizer.unk_token_id

    def _head_module(self) -> Any:
        raise NotImplementedError

    def _body_kwargs(self) -> dict[str, Any]:
        return {}

    def _check_ids(self) -> list[int]:
        v = int(self.model.config.vocab_size)
        return [min(i, v - 1) for i in (5, 17, 42, 99, 7, 300)]

    def _build_paths(self) -> tuple[Callable, Callable, bool]:
        """(body, head, fast): the body+head-at-read-positions path if it reproduces the model's own
        logits on a small input, else the full-logits fallback."""
        import torch

        model = self.model
        extra = self._body_kwargs()

        def full_body(ids, mask):
            return model(input_ids=ids, attention_mask=mask, **extra).logits

        def identity(x):
            return x

        head = self._head_module()
        base = getattr(model, "base_model", None)
        if head is None or base is None or base is model:
            return full_body, identity, False

        def body(ids, mask):
            return base(input_ids=ids, attention_mask=mask, **extra).last_hidden_state

        try:
            with torch.inference_mode():
                ids = torch.tensor([self._check_ids()], dtype=torch.long, device=model_device(model))
                mask = torch.ones_like(ids)
                want = full_body(ids, mask).float()
                got = head(body(ids, mask)[0]).float()[None]
            if got.shape != want.shape:
                raise ValueError(f"shape {tuple(got.shape)} != {tuple(want.shape)}")
            tol = 1e-3 if model.dtype == torch.float32 else 5e-2
            scale = float(want.abs().max()) + 1.0
            err = float((got - want).abs().max())
            if err > tol * scale:
                raise ValueError(f"max difference {err:.3g}")
        except Exception as exc:  # noqa: BLE001 - any failure means: use the safe path
            warnings.warn(
                f"biascheck: the fast LM-head path does not reproduce {type(model).__name__}'s logits ({exc}); "
                "using full logits (slower, same results).",
                RuntimeWarning,
                stacklevel=3,
            )
            return full_body, identity, False
        return body, float32_head(head, model.dtype), True

    # ------------------------------------------------------------------ tokenizing
    def _memo_key(self, *key: Hashable) -> MemoKey:
        """(the tokenizer's digest, `key` with what else a kept result depends on: the family and the positions a
        text may take; a model with a shorter position table builds, and checks, its reads again)."""
        limit = max_positions(self.model.config)
        room = None if limit is None else limit - self._reserved_positions()
        return self.info.extra.get("tokenizer_sha256"), (type(self).__name__, room, *key)

    def _kept(self, key: MemoKey, build: Callable[[], T]) -> T:
        """`build()` kept for the process under `key` (`_memo_key`; `memo.kept`): a sweep's next checkpoint reads
        it, and the engine the plan it made of it (`ForwardEngine.run`, plan_key)."""
        return kept(*key, build)

    @timed("tokenise")
    def _encode(self, texts: Sequence[str], *, add_special_tokens: bool, keep: bool = True) -> dict[str, Encoded]:
        """Each distinct text's encoding, from the process's memo where it holds it; `keep`: add what was missing
        to the memo (False where only a kept build reads them: the masked full tier's 0.5 million filled slots
        filled the memo before role nouns' sentences, which a next checkpoint then tokenised again)."""
        unique = sorted(set(texts))
        if not unique:
            return {}
        memo = encodings_memo(self.info.extra.get("tokenizer_sha256"), add_special_tokens)
        missing = unique if memo is None else [text for text in unique if text not in memo]
        got: dict[str, Encoded] = {}
        if missing:
            got = self._encode_backend(missing, add_special_tokens) or self._encode_wrapper(missing, add_special_tokens)
            if keep and memo is not None and len(memo) + len(got) <= MEMO_TEXTS:
                memo.update(got)
        out = got if memo is None else {text: got[text] if text in got else memo[text] for text in unique}
        self._check_lengths(unique, [len(out[text].ids) for text in unique])  # this model's limit, memo or not
        return out

    def _encode_wrapper(self, unique: Sequence[str], add_special_tokens: bool) -> dict[str, Encoded]:
        """Through transformers' tokenizer call (a Python conversion per text)."""
        enc = self.tokenizer(
            list(unique),
            add_special_tokens=add_special_tokens,
            return_offsets_mapping=True,
            return_special_tokens_mask=True,
            return_attention_mask=False,
            return_token_type_ids=False,
        )
        out: dict[str, Encoded] = {}
        for n, text in enumerate(unique):
            ids = tuple(int(i) for i in enc["input_ids"][n])
            out[text] = Encoded(
                ids=ids,
                offsets=tuple((int(a), int(b)) for a, b in enc["offset_mapping"][n]),
                special=tuple(int(s) for s in enc["special_tokens_mask"][n]),
                tokens=tuple(self.tokenizer.convert_ids_to_tokens(list(ids))),
            )
        return out

    def _encode_backend(self, unique: Sequence[str], add_special_tokens: bool) -> dict[str, Encoded] | None:
        """The same encodings from the Rust tokenizer's ``encode_batch`` directly, without transformers'
        conversion of every text (half of the tokenising time on the politicians probe's 100,000-odd
        candidate strings); None (use the wrapper) where `_backend_encodings` is."""
        encodings = self._backend_encodings(unique, add_special_tokens)
        if encodings is None:
            return None
        # Token strings by id, as convert_ids_to_tokens gives them (an unknown character is the unknown
        # token's string there, while an Encoding's `tokens` keeps the character), looked up when read.
        lookup = self.tokenizer.backend_tokenizer.id_to_token
        out = {}
        for text, e in zip(unique, encodings, strict=True):
            ids = tuple(e.ids)
            out[text] = Encoded(ids, tuple(e.offsets), tuple(e.special_tokens_mask), TokenNames(ids, lookup))
        return out

    def _backend_encodings(self, texts: Sequence[str], add_special_tokens: bool) -> list[Any] | None:
        """The Rust tokenizer's ``encode_batch`` of `texts`, or None where there is none or where it does not
        agree with the wrapper on the first text (ids, offsets, special mask, token strings). The wrapper
        encodes the first text first, which sets the backend up as it does for every call (no truncation or
        padding, its special-token splitting)."""
        backend = getattr(self.tokenizer, "backend_tokenizer", None)
        if backend is None or not hasattr(backend, "encode_batch") or not texts:
            return None
        reference = self._encode_wrapper(texts[:1], add_special_tokens)[texts[0]]
        encodings = backend.encode_batch(list(texts), add_special_tokens=add_special_tokens)
        e = encodings[0]
        first = Encoded(
            tuple(e.ids),
            tuple(e.offsets),
            tuple(e.special_tokens_mask),
            tuple(backend.id_to_token(i) for i in e.ids),
        )
        return encodings if first == reference else None

    @timed("tokenise")
    def _slot_pieces(
        self,
        texts: Sequence[str],
        spans: Sequence[tuple[int, int]],
        *,
        add_special_tokens: bool,
        what: Callable[[int], str],
    ) -> tuple[np.ndarray, np.ndarray]:
        """(token id of the one piece covering text[start:end] of each text, -1 where the span takes several
        pieces; the number of covering pieces), by `text.covering_pieces` on each text's encoding; `what(j)`
        names text j in a TokenizationError. `_encode` and `covering_pieces` text by text give the same; this
        reads the Rust tokenizer's encodings directly, without an `Encoded` or a message per text (the
        politicians probe asks it of 254,076 Spanish candidate strings: 7.0 -> 4.9 s with bert-base-uncased's
        tokenizer, 6.1 -> 4.0 s with SmolLM2's, on 2 cores)."""
        encodings = self._backend_encodings(texts, add_special_tokens)
        if encodings is None:
            enc = self._encode(texts, add_special_tokens=add_special_tokens)
            rows: Any = ((e.ids, e.offsets, e.special) for e in (enc[t] for t in texts))
        else:
            self._check_lengths(texts, [len(e.ids) for e in encodings])
            rows = ((e.ids, e.offsets, e.special_tokens_mask) for e in encodings)
        ids = np.full(len(texts), -1, dtype=np.int64)
        pieces = np.zeros(len(texts), dtype=np.int64)
        for j, (text, (start, end), (token_ids, offsets, special)) in enumerate(zip(texts, spans, rows, strict=True)):
            try:
                got = covering_pieces(text, offsets, special, start, end, what="")
            except TokenizationError:
                got = []  # covering_pieces finds one piece or raises
            if not got:  # raise it again, with the names a reader needs, outside the handler (one error shown)
                tokens = self.tokenizer.convert_ids_to_tokens(list(token_ids))
                got = covering_pieces(text, offsets, special, start, end, what=what(j), tokens=tokens)
            pieces[j] = len(got)
            if len(got) == 1:
                ids[j] = token_ids[got[0]]
        return ids, pieces

    def _reserved_positions(self) -> int:
        """Positions every input needs beyond its own tokens (a causal model's context prefix)."""
        return 0

    def _check_lengths(self, texts: Sequence[str], lengths: Sequence[int]) -> None:
        """A text longer than the model's position table is an error, not a silent truncation: a cut
        sentence would be scored as another sentence."""
        limit = max_positions(self.model.config)
        if limit is None:
            return
        room = limit - self._reserved_positions()
        too_long = [(n, text) for n, text in zip(lengths, texts, strict=True) if n > room]
        if too_long:
            n, text = max(too_long)
            raise TokenizationError(
                f"{len(too_long)} of {len(texts)} inputs are longer than the {limit} positions of "
                f"{type(self.model).__name__}{f' ({room} left after the context prefix)' if room < limit else ''}; "
                f"the longest has {n} tokens: "
                f"{text[:80]!r}. biascheck does not truncate (a cut sentence is another sentence): "
                "use a model with a longer context or leave this probe out (-k)."
            )

    def _decode_ids(self, ids: Any) -> list[list[str]]:
        """Each id as the tokenizer decodes it alone, each distinct id decoded once (a top-k read of 16,000
        prompts has 32,000 ids and a few thousand distinct)."""
        flat = np.asarray(ids, dtype=np.int64)
        distinct, at = np.unique(flat, return_inverse=True)
        words = [self.tokenizer.decode([int(i)]) for i in distinct]
        return [[words[j] for j in row] for row in np.reshape(at, flat.shape)]
