"""The forward-pass scheduler both model families share.

A probe's question is turned into *reads*: "log P(token t at position p of input s)" (a target
read) or "the k best tokens at position p of input s" (a top-k read). The engine

* deduplicates identical inputs across the whole call (all single-piece candidates of one masked
  template share one input; all single-piece continuations of one causal prompt share one input);
* for causal models, cuts each input just after its last read position and lets an input that is a
  prefix of another be served by the longer one's forward pass (causal attention makes the
  hidden states of a prefix independent of what follows);
* sorts inputs longest first (an out-of-memory shows on the first batch), pads per batch and runs
  the model body under ``torch.inference_mode()``;
* applies the vocabulary projection (the LM head) only to the hidden states at read positions,
  in row chunks, with a fused ``logsumexp`` so that no (batch, length, vocab) tensor is built;
* sizes batches by a token budget (or a fixed ``batch_size``) and, on a CUDA out-of-memory error,
  halves the batch and retries (the smaller budget is kept for the rest of the call).

Results do not depend on the order of the reads, on duplicates or on the batch size, up to
float rounding of padded matrix products (about 1e-6 in float32).
"""
from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

Seq = tuple[int, ...]
TargetRead = tuple[Seq, int, int]  # (input ids, position, target id)
TopRead = tuple[Seq, int]  # (input ids, position)

DEFAULT_TOKEN_BUDGET = {"cpu": 4096, "cuda": 65536, "mps": 16384}
MAX_ROWS = 2048  # at most this many sequences per batch, whatever the budget
PROGRESS_MIN_BATCHES = 8


def is_oom(exc: BaseException) -> bool:
    """True for a device out-of-memory error (torch.OutOfMemoryError or its RuntimeError text)."""
    import torch

    oom_type = getattr(torch, "OutOfMemoryError", None) or getattr(torch.cuda, "OutOfMemoryError", None)
    if oom_type is not None and isinstance(exc, oom_type):
        return True
    return isinstance(exc, RuntimeError) and "out of memory" in str(exc).lower()


def _progress(total: int, n_batches: int, desc: str) -> Any:
    stream = sys.__stderr__
    enabled = n_batches >= PROGRESS_MIN_BATCHES and stream is not None and stream.isatty()
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a declared dependency
        return None
    return tqdm(total=total, desc=desc, unit="seq", file=stream, leave=False)


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
    ) -> None:
        if batch_size is not None and batch_size < 1:
            from biascheck.errors import ConfigError

            raise ConfigError(f"batch_size must be a positive integer, got {batch_size!r}.")
        self.body = body
        self.head = head
        self.device = device
        self.pad_id = int(pad_id)
        self.causal = causal
        self.vocab_size = int(vocab_size)
        self.batch_size = batch_size
        kind = device.split(":")[0]
        self.token_budget = int(token_budget or DEFAULT_TOKEN_BUDGET.get(kind, 4096))
        # Rows of (rows, vocab) float32 logits materialised at once.
        head_elems = 2**26 if kind == "cuda" else 2**23
        self.head_rows = max(1, head_elems // max(1, self.vocab_size))
        self.desc = desc
        self.forward_calls = 0  # statistics, for tests and benchmarks
        self.sequences_run = 0
        self.tokens_run = 0

    # ------------------------------------------------------------------ planning
    def _plan(self, target_reads: Sequence[TargetRead], top_reads: Sequence[TopRead]):
        """Unique hosts and, per host, its unique read rows and the reads each row answers."""
        # Causal: an input only needs to run up to its last read position.
        all_reads: list[tuple[Seq, int]] = [(s, p) for s, p, _ in target_reads] + [(s, p) for s, p in top_reads]
        for s, p in all_reads:
            if not 0 <= p < len(s):
                raise IndexError(f"read position {p} outside an input of length {len(s)}")
        if self.causal:
            need: dict[Seq, int] = {}
            for s, p in all_reads:
                if need.get(s, -1) < p:
                    need[s] = p
            cut = {s: s[: p + 1] for s, p in need.items()}
            unique = sorted(set(cut.values()))
            # A sequence that is a prefix of another is a prefix of its lexicographic successor.
            host_of: dict[Seq, Seq] = {}
            for i in range(len(unique) - 1, -1, -1):
                s = unique[i]
                if i + 1 < len(unique):
                    nxt = unique[i + 1]
                    if len(nxt) >= len(s) and nxt[: len(s)] == s:
                        host_of[s] = host_of[nxt]
                        continue
                host_of[s] = s
            seq_host = {s: host_of[c] for s, c in cut.items()}
        else:
            seq_host = {s: s for s, _ in all_reads}
        hosts = sorted(set(seq_host.values()), key=lambda s: (-len(s), s))
        host_index = {h: i for i, h in enumerate(hosts)}
        # rows[h] : {pos: row id}; row_targets[row] : {target: [read indices]}
        row_key: dict[tuple[int, int], int] = {}
        row_targets: list[dict[int, list[int]]] = []
        row_top: list[list[int]] = []
        row_of_read_host: list[tuple[int, int]] = []

        def row_for(s: Seq, p: int) -> int:
            key = (host_index[seq_host[s]], p)
            r = row_key.get(key)
            if r is None:
                r = len(row_targets)
                row_key[key] = r
                row_targets.append({})
                row_top.append([])
                row_of_read_host.append(key)
            return r

        for i, (s, p, t) in enumerate(target_reads):
            row_targets[row_for(s, p)].setdefault(int(t), []).append(i)
        for i, (s, p) in enumerate(top_reads):
            row_top[row_for(s, p)].append(i)
        host_rows: list[list[int]] = [[] for _ in hosts]
        for r, (h, _p) in enumerate(row_of_read_host):
            host_rows[h].append(r)
        return hosts, host_rows, row_of_read_host, row_targets, row_top

    def _batches(self, hosts: Sequence[Seq], rows_limit: int | None, budget: int) -> list[list[int]]:
        out: list[list[int]] = []
        cur: list[int] = []
        cur_len = 0
        for h_i, h in enumerate(hosts):
            longest = max(cur_len, len(h))
            too_many = rows_limit is not None and len(cur) + 1 > rows_limit
            too_big = rows_limit is None and ((len(cur) + 1) * longest > budget or len(cur) + 1 > MAX_ROWS)
            if cur and (too_many or too_big):
                out.append(cur)
                cur, longest = [], len(h)
            cur.append(h_i)
            cur_len = longest
        if cur:
            out.append(cur)
        return out

    # ------------------------------------------------------------------ running
    def run(
        self, target_reads: Sequence[TargetRead], top_reads: Sequence[TopRead] = (), k: int = 0
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Returns (target log-probs (n_t,), top-k log-probs (n_k, k), top-k ids (n_k, k))."""
        import torch

        n_t, n_k = len(target_reads), len(top_reads)
        out_t = np.full(n_t, np.nan, dtype=np.float64)
        out_kv = np.full((n_k, k), np.nan, dtype=np.float64)
        out_ki = np.zeros((n_k, k), dtype=np.int64)
        if n_t == 0 and n_k == 0:
            return out_t, out_kv, out_ki
        if n_k and not 1 <= k <= self.vocab_size:
            raise ValueError(f"k must be between 1 and the vocabulary size {self.vocab_size}, got {k}")
        hosts, host_rows, row_pos, row_targets, row_top = self._plan(target_reads, top_reads)

        pending = self._batches(hosts, self.batch_size, self.token_budget)
        pending.reverse()  # used as a stack; longest batch first
        bar = _progress(len(hosts), len(pending), self.desc)
        try:
            with torch.inference_mode():
                while pending:
                    batch = pending.pop()
                    try:
                        self._run_batch(batch, hosts, host_rows, row_pos, row_targets, row_top, k, out_t, out_kv, out_ki)
                    except Exception as exc:  # noqa: BLE001 - only OOM is handled
                        if not is_oom(exc):
                            raise
                        if self.device.startswith("cuda"):
                            torch.cuda.empty_cache()
                        if len(batch) == 1:
                            raise MemoryError(
                                f"out of memory on {self.device} scoring one input of {len(hosts[batch[0]])} tokens; "
                                "use a smaller model, --model-dtype float16/bfloat16, or another device."
                            ) from exc
                        half = len(batch) // 2
                        if self.batch_size is not None:
                            self.batch_size = max(1, min(self.batch_size, half))
                        self.token_budget = max(1, half * len(hosts[batch[0]]))
                        warnings.warn(
                            f"biascheck: out of memory with {len(batch)} sequences per batch on {self.device}; "
                            f"retrying with {half}.",
                            RuntimeWarning,
                            stacklevel=2,
                        )
                        pending.append(batch[half:])
                        pending.append(batch[:half])
                        continue
                    if bar is not None:
                        bar.update(len(batch))
        finally:
            if bar is not None:
                bar.close()
        return out_t, out_kv, out_ki

    def _run_batch(self, batch, hosts, host_rows, row_pos, row_targets, row_top, k, out_t, out_kv, out_ki) -> None:
        import torch

        lengths = [len(hosts[h]) for h in batch]
        width = max(lengths)
        ids = torch.full((len(batch), width), self.pad_id, dtype=torch.long)
        mask = torch.zeros((len(batch), width), dtype=torch.long)
        for b, h in enumerate(batch):
            ids[b, : lengths[b]] = torch.tensor(hosts[h], dtype=torch.long)
            mask[b, : lengths[b]] = 1
        ids = ids.to(self.device)
        mask = mask.to(self.device)
        hidden = self.body(ids, mask)
        self.forward_calls += 1
        self.sequences_run += len(batch)
        self.tokens_run += int(sum(lengths))

        rows = [r for h in batch for r in host_rows[h]]
        b_of_host = {h: b for b, h in enumerate(batch)}
        rb = torch.tensor([b_of_host[row_pos[r][0]] for r in rows], dtype=torch.long, device=hidden.device)
        rp = torch.tensor([row_pos[r][1] for r in rows], dtype=torch.long, device=hidden.device)
        picked = hidden[rb, rp]  # (N, H)
        del hidden
        for c0 in range(0, len(rows), self.head_rows):
            chunk = rows[c0 : c0 + self.head_rows]
            logits = self.head(picked[c0 : c0 + len(chunk)]).float()
            lse = torch.logsumexp(logits, dim=-1)
            t_row, t_id, t_reads = [], [], []
            for local, r in enumerate(chunk):
                for tgt, reads in row_targets[r].items():
                    t_row.append(local)
                    t_id.append(tgt)
                    t_reads.append(reads)
            if t_row:
                tr = torch.tensor(t_row, dtype=torch.long, device=logits.device)
                ti = torch.tensor(t_id, dtype=torch.long, device=logits.device)
                vals = (logits[tr, ti] - lse[tr]).double().cpu().numpy()
                for v, reads in zip(vals, t_reads):
                    out_t[reads] = v
            top_local = [local for local, r in enumerate(chunk) if row_top[r]]
            if top_local:
                tl = torch.tensor(top_local, dtype=torch.long, device=logits.device)
                v, i = torch.topk(logits[tl], k, dim=-1)
                v = (v - lse[tl, None]).double().cpu().numpy()
                i = i.cpu().numpy()
                for n, local in enumerate(top_local):
                    for read in row_top[chunk[local]]:
                        out_kv[read] = v[n]
                        out_ki[read] = i[n]
