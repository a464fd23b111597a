"""The LM head's part of the engine: how many rows it projects at once, in which precision, and the check
that what it returns are numbers. Used by `batching.ForwardEngine` and `common`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from biascheck.errors import NumericalError

# The LM head's chunk: rows of hidden states projected onto the vocabulary at once. Throughput wants many
# rows: the (vocab, hidden) weight is read from memory once per chunk, so with few rows a large vocabulary's
# head is bound by that read (Gemma 3 270M, 262k words: 32 rows, the old CPU chunk, cost 18.2 CPU s on its
# quick tier; 256 / 512 rows 11.1 / 10.2 s, numbers unchanged to 7.6e-6). Memory caps it: a chunk's
# float32 logits and their log-sum-exp workspace (`memory.head_reserve_bytes`, 8 bytes a logit) stay
# within the device's budget: 512 MiB (256 rows of a 262k vocabulary, 1,365 of SmolLM2's 49k).
HEAD_BUDGET_BYTES = {"cuda": 2**29, "cpu": 2**29, "mps": 2**28}
HEAD_MAX_ROWS = 4096


def head_chunk_rows(vocab_size: int, device_kind: str) -> int:
    """Rows per LM-head chunk: as many as the device's budget holds, 1 to `HEAD_MAX_ROWS`. Pure."""
    budget = HEAD_BUDGET_BYTES.get(device_kind, HEAD_BUDGET_BYTES["cpu"])
    return max(1, min(HEAD_MAX_ROWS, budget // (8 * max(1, int(vocab_size)))))


def check_finite(targets: np.ndarray, tops: np.ndarray, dtype: str) -> None:
    """Every log-probability the engine returns is a number: NaN (an activation past the dtype's range,
    e.g. Gemma 3 in float16 from layer 9 on) or +inf is an error naming the dtype. Summed with `nansum`
    downstream, a NaN became 0.0, a perfectly likely word. (-inf, a token the model rules out, is a value.)"""
    bad = int(np.isnan(targets).sum() + np.isnan(tops).sum() + np.isposinf(targets).sum() + np.isposinf(tops).sum())
    if bad:
        total = targets.size + tops.size
        raise NumericalError(
            f"the model returned {bad} of {total} log-probabilities that are not numbers (NaN or +inf) in "
            f"{dtype}: its activations left the dtype's range, so nothing it scored can be measured. Run with "
            "--dtype float32 (or bfloat16, which has float32's range)."
        )


def log_normaliser_(logits: Any) -> Any:
    """log Σ exp over the last axis of a (rows, vocab) float tensor, as ``torch.logsumexp`` computes it (the
    row's largest logit subtracted, an infinite one taken as 0), **overwriting** `logits` with the
    exponentials: no second (rows, vocab) tensor is allocated. Read what the logits say before calling it.
    On the CPU a fresh 268 MB temporary per chunk (1,365 rows of SmolLM2's 49,152 words) costs page faults
    that a narrow model's head spends more on than on its arithmetic. On the CPU the rows go in blocks of
    about 1 MB a thread, so that the passes (max, subtract, exp, sum) after the first read the block from the
    cores' caches, not from memory (SmolLM2's 1,365-row chunk, best of 5: one thread 159-182 -> 115-128 ms,
    two 74-81 -> 62 ms; the same numbers bit for bit); on a GPU in one go (a block per kernel launch would
    cost more than it saves)."""
    import torch

    rows = logits.shape[0]
    block = rows
    if logits.device.type == "cpu":  # a block's share of each thread's cache
        block = max(1, NORMALISER_BLOCK_BYTES * torch.get_num_threads() // (4 * max(1, logits.shape[-1])))
    if block >= rows:
        return _log_normaliser_block_(logits)
    return torch.cat([_log_normaliser_block_(logits[r : r + block]) for r in range(0, rows, block)])


NORMALISER_BLOCK_BYTES = 2**20  # a thread's share; measured best at 1-2 MB a thread on this 2-core VM (4 MB L2 a core)


def _log_normaliser_block_(logits: Any) -> Any:
    top = logits.amax(dim=-1, keepdim=True)
    top.masked_fill_(top.abs() == float("inf"), 0.0)
    return logits.sub_(top).exp_().sum(dim=-1).log_().add_(top[:, 0])


class HeadRunner:
    """The LM head applied chunk by chunk into one reused float32 buffer where the head is a plain linear
    projection (`torch.matmul(..., out=)`), else the head called as it is (a masked LM's transform + decoder,
    a float32 copy of a 16-bit head). The logits it returns are the caller's to overwrite until the next call."""

    def __init__(self, head: Callable[[Any], Any]) -> None:
        import torch

        self.head = head
        linear = head if isinstance(head, torch.nn.Linear) else None
        self._weight = linear.weight if linear is not None and linear.weight.dtype == torch.float32 else None
        self._bias = None if linear is None else linear.bias
        self._buffer: Any = None

    def __call__(self, hidden: Any) -> Any:
        import torch

        if self._weight is None or hidden.dtype != torch.float32:
            return self.head(hidden).float()
        rows, vocab = hidden.shape[0], self._weight.shape[0]
        buf = self._buffer
        if buf is None or buf.shape[0] < rows or buf.device != hidden.device:
            buf = self._buffer = torch.empty((rows, vocab), dtype=torch.float32, device=hidden.device)
        out = torch.matmul(hidden, self._weight.t(), out=buf[:rows])
        return out if self._bias is None else out.add_(self._bias)


def float32_head(head: Any, dtype: Any) -> Callable[[Any], Any]:
    """The LM head in float32 whatever the body's dtype: a float32 copy of a 16-bit head, applied to the
    hidden states cast to float32. In the model's own dtype every log-probability carried its resolution
    (bfloat16: the log-ratios came in steps of 1/16 nat, and moved a metric 5.9 times its interval's
    half-width on a GPU); the body's 16-bit states are the only rounding left. A float32 model's head is
    used as it is."""
    import copy

    import torch

    if dtype == torch.float32:
        return cast(Callable[[Any], Any], head)
    head32 = copy.deepcopy(head).float()

    def apply(hidden: Any) -> Any:
        return head32(hidden.float())

    return apply


class BatchReads:
    """What one batch's head chunks read, kept on the model's device until the batch ends and then copied to the
    host in one transfer: each chunk's target log-probabilities and its top reads (values and token ids) go into
    one float64 tensor (ids below 2^53 are exact in it), so a card syncs once a batch, not three times a chunk.
    The values are those an immediate copy gives, bit for bit (the same float32 differences, made float64)."""

    def __init__(self) -> None:
        self._targets: list[tuple[np.ndarray, Any]] = []  # (output rows, values)
        self._tops: list[tuple[np.ndarray, np.ndarray, Any, Any]] = []  # (output rows, slot, values, ids)

    def add_targets(self, which: np.ndarray, values: Any) -> None:
        self._targets.append((which, values))

    def add_tops(self, which: np.ndarray, slot: np.ndarray, values: Any, ids: Any) -> None:
        self._tops.append((which, slot.reshape(-1), values, ids))

    def to_host(self, out_t: np.ndarray, out_kv: np.ndarray, out_ki: np.ndarray) -> int:
        """Write what was read into the outputs; the number of device-to-host copies made (0 or 1)."""
        import torch

        parts = [values.reshape(-1) for _, values in self._targets]
        parts += [t.reshape(-1) for _, _, values, ids in self._tops for t in (values, ids)]
        if not parts:
            return 0
        flat = torch.cat([p.double() for p in parts]).cpu().numpy()
        at = 0
        for which, values in self._targets:
            out_t[which] = flat[at : at + values.numel()]
            at += values.numel()
        for which, slot, values, ids in self._tops:
            rows = values.shape
            read = flat[at : at + values.numel()].reshape(rows)
            at += values.numel()
            got = flat[at : at + ids.numel()].reshape(rows).astype(np.int64)
            at += ids.numel()
            out_kv[which] = read[slot]
            out_ki[which] = got[slot]
        return 1
