"""Independent, deliberately naive reference computations (one input at a time, full logits)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

SLOT = "[SLOT]"
F32_EPS = float(np.finfo(np.float32).eps)  # 2**-23, about 1.19e-7


def logprob_approx(expected: float, n_terms: int = 1, *, ulps: float = 16, floor: float = 1e-5):
    """pytest.approx for a natural-log probability that is a sum of `n_terms` float32 log-softmax terms,
    computed once by the engine (batched, padded, longest-first) and once by a naive one-input loop.

    Why this tolerance: the two paths run differently shaped matrix products, so every term is rounded
    differently, by a few float32 ulps of the numbers involved; a log-softmax term is no larger than the
    sum it is part of, so the two sums differ by at most about n_terms · ulps · eps32 · |expected|. The
    worst difference seen on the test models is 2.5 ulps per term (-46.9700232 vs -46.9700089 for a
    5-piece word on the real 2-layer BERT); ulps=16 leaves a margin of 6x, and is still far below any
    real scoring error (a wrong piece or position moves a log-probability by 0.1 or more). `floor`
    covers values near 0, where the logits' magnitude, not the log-probability's, sets the rounding.
    An absolute tolerance (the old abs=1e-5) was wrong: it is 3e-7 relative at -47, below float32 noise.
    """
    return pytest.approx(expected, abs=max(floor, ulps * max(n_terms, 1) * F32_EPS * abs(expected)))


def n_tokens(tok, text: str) -> int:
    """Number of pieces `text` takes (the number of log-prob terms of its sentence score, at most)."""
    return len(tok(text, add_special_tokens=False)["input_ids"])


def span_pieces(tok, text: str, start: int, end: int, *, special_tokens: bool = True) -> tuple[list[int], list[int]]:
    """(ids, indices of the pieces whose offsets overlap [start, end), plus a split-off space piece before)."""
    enc = tok(text, return_offsets_mapping=True, add_special_tokens=special_tokens, return_special_tokens_mask=True)
    offs, special = enc["offset_mapping"], enc["special_tokens_mask"]
    idx = [i for i, (a, b) in enumerate(offs) if not special[i] and a < b and a < end and b > start]
    ws = start
    while ws > 0 and text[ws - 1].isspace():
        ws -= 1
    while idx and idx[0] > 0 and not special[idx[0] - 1] and ws <= offs[idx[0] - 1][0] <= offs[idx[0] - 1][1] <= start:
        idx.insert(0, idx[0] - 1)
    return list(enc["input_ids"]), idx


@torch.inference_mode()
def mlm_sequential(model, tok, template: str, word: str) -> float:
    """Left-to-right sequential masked score of `word` in the SLOT, one forward per piece."""
    text = template.replace(SLOT, word)
    s = template.index(SLOT)
    ids, idx = span_pieces(tok, text, s, s + len(word))
    ids = torch.tensor(ids)
    total = 0.0
    cur = ids.clone()
    cur[idx] = tok.mask_token_id
    for q in idx:
        lp = model(input_ids=cur[None]).logits[0, q].float().log_softmax(-1)
        total += float(lp[ids[q]])
        cur[q] = ids[q]
    return total


@torch.inference_mode()
def mlm_pll(model, tok, sentence: str) -> float:
    enc = tok(sentence, return_special_tokens_mask=True)
    ids = torch.tensor(enc["input_ids"])
    total = 0.0
    for q, sp in enumerate(enc["special_tokens_mask"]):
        if sp:
            continue
        cur = ids.clone()
        cur[q] = tok.mask_token_id
        total += float(model(input_ids=cur[None]).logits[0, q].float().log_softmax(-1)[ids[q]])
    return total


@torch.inference_mode()
def causal_terms(model, prefix_ids: list[int], ids: list[int]) -> np.ndarray:
    """log P(ids[q] | prefix + ids[:q]) for each q (NaN where there is no context)."""
    full = torch.tensor(prefix_ids + ids)[None]
    lp = model(input_ids=full).logits[0].float().log_softmax(-1)
    p0 = len(prefix_ids)
    out = np.full(len(ids), np.nan)
    for q in range(len(ids)):
        if p0 + q >= 1:
            out[q] = float(lp[p0 + q - 1, ids[q]])
    return out


def causal_sentence(model, tok, prefix_ids: list[int], text: str) -> float:
    ids = tok(text, add_special_tokens=False)["input_ids"]
    return float(np.nansum(causal_terms(model, prefix_ids, ids)))


def causal_next(model, tok, prefix_ids: list[int], prompt: str, word: str) -> float:
    text = prompt + " " + word
    ids, idx = span_pieces(tok, text, len(prompt), len(text), special_tokens=False)
    return float(causal_terms(model, prefix_ids, ids)[idx].sum())


@torch.inference_mode()
def causal_top(model, tok, prefix_ids: list[int], prompt: str, k: int):
    ids = prefix_ids + tok(prompt, add_special_tokens=False)["input_ids"]
    lp = model(input_ids=torch.tensor(ids)[None]).logits[0, -1].float().log_softmax(-1)
    v, i = torch.topk(lp, k)
    return v.double().numpy(), i.numpy()
