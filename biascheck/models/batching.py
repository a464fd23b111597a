"""The forward-pass scheduler both model families share.

A probe's question is turned into *reads*: "log P(token t at position p of input s)" (a target
read) or "the k best tokens at position p of input s" (a top-k read). The engine

* deduplicates identical inputs across the whole call (all single-piece candidates of one masked
  template share one input; all single-piece continuations of one causal prompt share one input);
* for causal models, cuts each input just after its last read position and lets an input that is a
  prefix of another be served by the longer one's forward pass (causal attention makes the
  hidden states of a prefix independent of what follows);
* causal models with a packed path (the default on a CPU): runs the inputs as prefix trees packed
  into rows (`biascheck.models.packing`), every distinct prefix once, no padding inside a row;
  otherwise sorts inputs longest first (an out-of-memory shows on the first batch) and pads per
  batch; either way the model body runs under ``torch.inference_mode()``;
* applies the vocabulary projection (the LM head) only to the hidden states at read positions,
  in row chunks, with the log-normaliser computed in place, so that no (batch, length, vocab) tensor is built;
* sizes batches by a token budget (or a fixed ``batch_size``) and, on a CUDA out-of-memory error,
  halves the batch and retries (the smaller budget is kept for the rest of the call).

Results do not depend on the order of the reads, on duplicates or on the batch size, up to
float rounding of padded matrix products (about 1e-6 in float32).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from biascheck.devices import device_kind
from biascheck.models.head import BatchReads, HeadRunner, check_finite, head_chunk_rows, log_normaliser_
from biascheck.models.memo import MemoKey, kept
from biascheck.models.memory import is_oom
from biascheck.models.packing import DEFAULT_ROW_LEN, PackedRow, ancestor_masks, pack_rows, padded_depths
from biascheck.models.padding import MAX_ROWS, HostTokens, descending_batches, greedy_batches, padded
from biascheck.models.planning import (
    Plan,
    ReadsByRow,
    Seq,
    TargetArrays,
    TargetRead,
    TopRead,
    plan_reads,
    sort_order,
    target_arrays,
)
from biascheck.models.precision import TF32, products_in_tf32
from biascheck.models.progress import progress as _progress
from biascheck.models.work import EngineWork, settle
from biascheck.timing import stage

DEFAULT_TOKEN_BUDGET = {"cpu": 2048, "cuda": 65536, "mps": 16384}


class ForwardEngine:
    """Runs reads through a model body + LM head, batched.

    body(input_ids (B, T) long, attention_mask (B, T) long) -> hidden (B, T, H)
    head(hidden rows (N, H)) -> logits (N, V)
    (With the full-logits fallback, body returns logits and head is the identity.)
    """

    def __init__(
        self,
        body: Callable[[Any, Any], Any],
        head: Callable[[Any], Any],
        *,
        device: str,
        pad_id: int,
        causal: bool,
        vocab_size: int,
        batch_size: int | None = None,
        token_budget: int | None = None,
        desc: str = "biascheck scoring",
        prefix_body: Callable[[Any, Any, Any], tuple[Any, Any]] | None = None,
        pack_body: Callable[[Any, Any, Any], Any] | None = None,
    ) -> None:
        if batch_size is not None and batch_size < 1:
            from biascheck.errors import ConfigError

            raise ConfigError(f"batch_size must be a positive integer, got {batch_size!r}.")
        self.body = body
        self.head = head  # the head as the model gave it (float32 for a 16-bit body: `head.float32_head`)
        self._head = HeadRunner(head)  # into one reused logits buffer where the head is a plain projection
        # causal only: prefix_body(prefix (P,), suffix ids (B, T), suffix mask (B, T)) -> (prefix hidden (P, H),
        # suffix hidden (B, T, H)): runs a prefix shared by the whole batch once and reuses its KV cache.
        self.prefix_body = prefix_body if causal else None
        # causal only: pack_body(ids (R, L), position ids (R, L), allowed (R, L, L) bool) -> hidden (R, L, H):
        # runs packed prefix-tree rows (`biascheck.models.packing`); when set, batches are packed rows.
        self.pack_body = pack_body if causal else None
        self.pack_row_len = DEFAULT_ROW_LEN
        # causal: the longest input the packed rows reproduce (a sliding attention window, which their own mask
        # replaces); a call with a longer input runs padded batches, where the model applies its window
        self.pack_max_len: int | None = None
        self.min_shared_prefix = 2
        self.device = device
        self.pad_id = int(pad_id)
        self.causal = causal
        self.vocab_size = int(vocab_size)
        self.batch_size = batch_size
        kind = device_kind(device)
        self.token_budget = int(token_budget or DEFAULT_TOKEN_BUDGET.get(kind, 4096))
        self.head_rows = head_chunk_rows(self.vocab_size, kind)  # rows of (rows, vocab) logits at once
        self.desc = desc
        self.dtype_name = "float32"  # the body's dtype, for the message of `check_finite`
        self.work = EngineWork()  # what it computed: for results.json, tests and benchmarks

    # ------------------------------------------------------------------ planning
    def _rows_per_batch(self, lengths: np.ndarray) -> int:
        if self.batch_size is not None:
            return self.batch_size
        median = int(np.sort(lengths)[len(lengths) // 2])
        return max(1, min(MAX_ROWS, self.token_budget // max(1, median)))

    def _order(self, hosts: list[Seq], lengths: np.ndarray, tokens: np.ndarray) -> np.ndarray:
        """The hosts' indices longest first; causal with a shared-prefix path: clustered by a common prefix first
        (`planning.sort_order`; `lengths` and `tokens`: the hosts laid end to end).

        The cluster key is the first k tokens, k as large as possible while the clusters stay at
        least a batch big, so that each batch shares a k-token prefix that runs once.
        """
        k = 0
        if self.prefix_body is not None and len(hosts) > 1:
            allowed = max(1, len(hosts) // self._rows_per_batch(lengths))
            shortest = int(lengths.min())
            while k + 1 < shortest and len({h[: k + 1] for h in hosts}) <= allowed:
                k += 1
        return sort_order(lengths, tokens, k, longest_first=True)

    @staticmethod
    def _batches(lengths: Sequence[int], rows_limit: int | None, budget: int) -> list[list[int]]:
        """Consecutive runs of the inputs (by index) whose padded size fits the budget (or `rows_limit`
        inputs each), the batch with the longest input first (`greedy_batches`; `descending_batches` where the
        lengths never grow, as in the masked order, longest first)."""
        if rows_limit is None and all(a >= b for a, b in zip(lengths, lengths[1:], strict=False)):
            return descending_batches(lengths, budget)
        return greedy_batches(lengths, rows_limit, budget)

    def _packed_batches(self, hosts: Sequence[Seq], lengths: np.ndarray, tokens: np.ndarray) -> list[list[PackedRow]]:
        """Prefix-tree rows of `pack_row_len` positions, grouped by the token budget (largest rows
        first, so an OOM shows on the first batch); with a fixed `batch_size`, each batch packs that
        many consecutive inputs (lexicographic order: `planning.sort_order` of the hosts laid end to end)."""
        order = sort_order(lengths, tokens).tolist()
        if self.batch_size is not None:
            chunks = [order[i : i + self.batch_size] for i in range(0, len(order), self.batch_size)]
            return [pack_rows(hosts, self.pack_row_len, chunk) for chunk in chunks]
        rows = sorted(pack_rows(hosts, self.pack_row_len, order), key=lambda r: -r.size)
        groups = self._batches([r.size for r in rows], None, self.token_budget)
        return [[rows[i] for i in g] for g in groups]

    def _plan(self, targets: TargetArrays, top_reads: Sequence[TopRead]) -> tuple[Plan, ReadsByRow, tuple, Any]:
        """(the plan, its reads by row, the batches in order, None where they are packed rows, else the inputs'
        tokens end to end that padded batches are cut from)."""
        plan = plan_reads(targets, top_reads, self.causal, self._order)
        lengths = np.diff(plan.starts)
        longest = int(lengths.max(initial=0))
        packed = self.pack_body is not None and (self.pack_max_len is None or longest <= self.pack_max_len)
        if packed:
            rows = self._packed_batches(plan.hosts, lengths, plan.tokens)
            return plan, ReadsByRow(plan, targets.target), tuple(rows), None
        batches = self._batches(lengths.tolist(), self.batch_size, self.token_budget)
        return plan, ReadsByRow(plan, targets.target), tuple(batches), HostTokens(plan.tokens, plan.starts)

    # ------------------------------------------------------------------ running
    def run(
        self,
        target_reads: Sequence[TargetRead] | TargetArrays,
        top_reads: Sequence[TopRead] = (),
        k: int = 0,
        gather: Sequence[int] | np.ndarray | None = None,
        plan_key: MemoKey | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Returns (target log-probs (n_t,), top-k log-probs (n_k, k), top-k ids (n_k, k)).

        gather: token ids; when given, each top read returns the log-probabilities of exactly these ids
        (in this order) instead of its top k: (n_k, len(gather)) values, ids repeated row by row.
        plan_key: (tokenizer digest, key) naming these reads for the process (`memo.kept`: reads a model keeps): the
        plan made of them is kept with the engine's settings, and an engine of the next checkpoint reuses it.
        """
        import torch

        if gather is not None:
            gather = [int(g) for g in gather]
            if not gather or min(gather) < 0 or max(gather) >= self.vocab_size:
                raise ValueError(f"gather ids must be 1 or more token ids in [0, {self.vocab_size})")
            k = len(gather)
        with stage("plan"):
            targets = target_arrays(target_reads)
        n_t, n_k = len(targets.seq), len(top_reads)
        out_t = np.full(n_t, np.nan, dtype=np.float64)
        out_kv = np.full((n_k, k), np.nan, dtype=np.float64)
        out_ki = np.zeros((n_k, k), dtype=np.int64)
        if n_t == 0 and n_k == 0:
            return out_t, out_kv, out_ki
        if n_k and not 1 <= k <= self.vocab_size:
            raise ValueError(f"k must be between 1 and the vocabulary size {self.vocab_size}, got {k}")
        with stage("plan"):
            packing = (self.pack_body is not None, self.pack_max_len, self.pack_row_len, self.prefix_body is not None)
            settings = (self.causal, *packing, self.batch_size, self.token_budget)
            digest, key = plan_key or (None, None)
            plan, reads, batches, tokens = kept(digest, ("plan", key, settings), lambda: self._plan(targets, top_reads))
            hosts, packed = plan.hosts, tokens is None
        pending = list(reversed(batches))  # used as a stack; longest batch first
        bar = _progress(len(hosts), len(pending), self.desc)
        try:
            with torch.inference_mode():
                while pending:
                    batch = pending.pop()
                    try:
                        self._run_batch(batch, plan, reads, k, out_t, out_kv, out_ki, gather, tokens)
                    except Exception as exc:  # noqa: BLE001 - only OOM is handled
                        if not is_oom(exc):
                            raise
                        if self.device.startswith("cuda"):
                            torch.cuda.empty_cache()
                        width = batch[0].size if packed else len(hosts[batch[0]])
                        what = "packed row" if packed else "input"
                        if len(batch) == 1:
                            raise MemoryError(
                                f"out of memory on {self.device} scoring one {what} of {width} tokens; "
                                "use a smaller model, --model-dtype float16/bfloat16, or another device."
                            ) from exc
                        half = len(batch) // 2
                        if self.batch_size is not None and not packed:
                            self.batch_size = max(1, min(self.batch_size, half))
                        self.token_budget = max(1, half * width)
                        warnings.warn(
                            f"biascheck: out of memory with {len(batch)} {what}s per batch on {self.device}; "
                            f"retrying with {half}.",
                            RuntimeWarning,
                            stacklevel=2,
                        )
                        pending.append(batch[half:])
                        pending.append(batch[:half])
                        continue
                    if bar is not None:
                        bar.update(sum(len(r.hosts) for r in batch) if packed else len(batch))
        finally:
            if bar is not None:
                bar.close()
        check_finite(out_t, out_kv, self.dtype_name)
        return out_t, out_kv, out_ki

    def _forward_padded(self, batch: list[int], hosts: HostTokens) -> tuple[Any, Callable[..., np.ndarray]]:
        """Hidden states (rows, H) of a padded batch of whole inputs, and where(hosts, positions): their rows in it."""
        import torch

        with stage("batching"):
            shared = None if self.prefix_body is None else self.min_shared_prefix
            batch_np = np.asarray(batch, dtype=np.int64)
            ids_np, filled, lengths, prefix_np = padded(hosts, batch_np, self.pad_id, shared)
            lcp, width = len(prefix_np), ids_np.shape[1]
            ids = torch.from_numpy(ids_np).to(self.device)
            mask = torch.from_numpy(filled.astype(np.int64)).to(self.device)
        with stage("forward"), products_in_tf32(self.dtype_name == TF32, self.device):
            if lcp:
                prefix = torch.from_numpy(prefix_np).to(self.device)
                assert self.prefix_body is not None  # lcp > 0 only with a prefix body
                pre_hidden, hidden = self.prefix_body(prefix, ids, mask)
            else:
                pre_hidden, hidden = None, self.body(ids, mask)
            settle(self.device)
        self.work.forward_calls += 1
        self.work.sequences += len(batch)
        self.work.tokens += int(lengths.sum()) + lcp
        self.work.positions += ids_np.size + lcp
        flat = hidden.reshape(-1, hidden.shape[-1])
        if pre_hidden is not None:
            flat = torch.cat([pre_hidden.reshape(-1, hidden.shape[-1]), flat])
        row_of = _lookup(batch_np, np.arange(len(batch), dtype=np.int64))

        def where(h: np.ndarray, p: np.ndarray) -> np.ndarray:
            return np.where(p < lcp, p, lcp + row_of(h) * width + (p - lcp))

        return flat, where

    def _forward_packed(self, batch: list[PackedRow], hosts: np.ndarray) -> tuple[Any, Callable[..., np.ndarray]]:
        """Hidden states (rows, H) of a batch of packed prefix-tree rows, and where(hosts, positions): their rows.
        hosts: the rows' hosts, row after row."""
        import torch

        with stage("batching"):
            width = max(row.size for row in batch)
            ids = np.full((len(batch), width), self.pad_id, dtype=np.int64)
            depths = padded_depths(batch, width)
            allowed, pos = ancestor_masks(depths), np.maximum(depths, 0)  # padding at position 0, seeing itself
            paths: list[np.ndarray] = []  # each row's paths end to end, as positions of the batch's rows laid flat
            starts: list[np.ndarray] = []  # where each host's path starts among them
            at = 0
            for b, row in enumerate(batch):
                ids[b, : row.size] = row.tokens
                paths.append(row.paths.flat + b * width)
                starts.append(row.paths.starts[:-1] + at)
                at += len(row.paths.flat)
            flat_paths = np.concatenate(paths)
            to = self.device
            ids_t, pos_t, allowed_t = (torch.from_numpy(a).to(to) for a in (ids, pos, allowed))
        with stage("forward"), products_in_tf32(self.dtype_name == TF32, self.device):
            assert self.pack_body is not None  # packed batches only with a pack body
            hidden = self.pack_body(ids_t, pos_t, allowed_t)
            settle(self.device)
        self.work.forward_calls += 1
        self.work.sequences += len(hosts)
        self.work.tokens += sum(row.size for row in batch)
        self.work.positions += ids.size
        start_of = _lookup(hosts, np.concatenate(starts))

        def where(h: np.ndarray, p: np.ndarray) -> np.ndarray:
            return flat_paths[start_of(h) + p]

        return hidden.reshape(-1, hidden.shape[-1]), where

    def _run_batch(self, batch, plan: Plan, reads: ReadsByRow, k, out_t, out_kv, out_ki, gather, tokens) -> None:
        """One batch through body and head into the outputs; tokens: the plan's `HostTokens` (None: packed rows)."""
        import torch

        if tokens is None:
            batch_hosts = np.fromiter((h for row in batch for h in row.hosts), np.int64)
            flat, where = self._forward_packed(batch, batch_hosts)
        else:
            flat, where = self._forward_padded(batch, tokens)
            batch_hosts = batch
        gather_ids = None if gather is None else torch.tensor(gather, dtype=torch.long, device=self.device)
        with stage("lm_head"), products_in_tf32(False, self.device):  # the head in float32
            rows = plan.rows_of(batch_hosts)
            index = where(plan.row_host[rows], plan.row_pos[rows])
            picked = flat[torch.from_numpy(index).to(flat.device)]  # (N, H)
            del flat
            self.work.head_rows += len(rows)
            found = BatchReads()  # on the device until the batch ends: one copy to the host
            for c0 in range(0, len(rows), self.head_rows):
                chunk = rows[c0 : c0 + self.head_rows]
                logits = self._head(picked[c0 : c0 + len(chunk)])
                # what the reads need of the raw logits first; the log-normaliser then overwrites them
                local, which = reads.targets(chunk)
                raw_t = None
                if len(which):
                    tr = torch.from_numpy(local).to(logits.device)
                    ti = torch.from_numpy(reads.target_ids[which]).to(logits.device)
                    raw_t = logits[tr, ti]
                top_local_np, top_which = reads.tops(chunk)
                raw_top = None
                if len(top_which):
                    top_local, slot = np.unique(top_local_np, return_inverse=True)  # rows with a top read, ascending
                    tl = torch.from_numpy(top_local).to(logits.device)
                    if gather_ids is None:
                        raw_top, i = torch.topk(logits[tl], k, dim=-1)
                    else:
                        raw_top = logits[tl[:, None], gather_ids.to(logits.device)[None, :]]  # no row copies
                        i = gather_ids.expand(len(top_local), -1)
                lse = log_normaliser_(logits)
                if raw_t is not None:
                    found.add_targets(which, raw_t - lse[tr])
                if raw_top is not None:
                    found.add_tops(top_which, slot, raw_top - lse[tl, None], i)
            self.work.host_copies += found.to_host(out_t, out_kv, out_ki)


def _lookup(keys: np.ndarray, values: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """h -> values[i] where keys[i] == h, for a batch's hosts (every h asked is among `keys`), by binary search
    among the batch's own keys: a table over every host of the call cost O(hosts) a batch (3.5 s a checkpoint on
    the masked full tier's 0.5 million reads)."""
    order = np.argsort(keys, kind="stable")
    sorted_keys, sorted_values = keys[order], values[order]
    return lambda h: sorted_values[np.searchsorted(sorted_keys, h)]
