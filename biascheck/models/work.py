"""What the engine computed, and what that arithmetic costs: forward passes, sequences, the tokens and the
positions the body ran (a padded batch's padding included: the body computes it), the rows the LM head
projected, and their matrix-product FLOPs. Recorded with the model in results.json (`extra.engine_work`), so
that a run's forward and LM-head seconds can be set against the arithmetic they did (`benchmarks/gpu_kit.py`
prints the rate, `matmul_rate` the device's ceiling). Also `settle`, which makes a stage's time on a card its own."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class EngineWork:
    """Counters of one `batching.ForwardEngine`; each forward pass adds to them."""

    forward_calls: int = 0
    sequences: int = 0
    tokens: int = 0  # input tokens through the body (a shared prefix run once counts once)
    positions: int = 0  # positions the body computed: tokens plus a padded batch's padding
    head_rows: int = 0  # hidden states projected onto the vocabulary
    host_copies: int = 0  # device-to-host copies of what the head read: one a batch (`head.BatchReads`)

    def record(self, model: Any = None) -> dict[str, Any]:
        """The counters as JSON, with the matrix-product GFLOPs they cost on `model` when it is given."""
        out: dict[str, Any] = asdict(self)
        if model is not None:
            out["matmul_gflop"] = round(matmul_flops(model, self.positions, self.head_rows) / 1e9, 1)
        return out


def matmul_flops(model: Any, positions: int, head_rows: int) -> float:
    """The matrix-product FLOPs of a run: 2 x (weights of every linear layer of the body) x positions +
    2 x (LM head weights) x projected rows. Linear layers are `torch.nn.Linear` and GPT-2's `Conv1D`; the
    input and output embeddings are not body layers (a lookup, and the head counted by its rows; a masked
    LM's head transform is a body layer here, run at the read rows only: a small overcount). The attention
    products (scores and their weighted sum, 4 x context x hidden per position and layer) are left out: 4 % of
    the body's at SmolLM2's 128-position rows."""
    import torch

    head = model.get_output_embeddings()
    body = 0
    for module in model.modules():
        if module is head:
            continue
        if isinstance(module, torch.nn.Linear) or type(module).__name__ == "Conv1D":
            body += module.weight.numel()
    return 2.0 * body * positions + 2.0 * head.weight.numel() * head_rows


def matmul_rate(
    device: str = "cpu", dtype: str = "float32", seconds: float = 1.0, clock: Callable[[], float] = time.perf_counter
) -> float:
    """The device's matrix-product rate in GFLOP per second of `clock` for `dtype`: square products (8192 on a
    card, 1024 on a CPU) repeated for about `seconds` after a warm-up, each waited for. The ceiling a run's
    forward and LM head are set against: by the wall clock for stages timed by it (`benchmarks/gpu_kit.py`), by
    process time for CPU seconds (`benchmarks/bench_scoring.py`: other processes on a shared machine take wall
    time, not this one's CPU time). `dtype` as the engine runs it (`precision`): float32 without TF32 on a card,
    "tf32" float32 matrices with TF32 products (on a CPU the same as float32)."""
    import torch

    from biascheck.models.precision import TF32, products_in_tf32, weights_dtype

    cuda = device.startswith("cuda")
    n = 8192 if cuda else 1024
    kind = getattr(torch, weights_dtype(dtype))
    gen = torch.Generator(device=device).manual_seed(0)
    a = torch.randn(n, n, device=device, dtype=kind, generator=gen)
    b = torch.randn(n, n, device=device, dtype=kind, generator=gen)
    with products_in_tf32(dtype == TF32, device):
        torch.matmul(a, b)
        settle(device)
        reps, t0 = 0, clock()
        while clock() - t0 < seconds:
            torch.matmul(a, b)
            reps += 1
            settle(device)
    return 2 * n**3 * reps / (clock() - t0) / 1e9


def note_work(lm: Any) -> None:
    """Put what `lm`'s engine computed into its record (`extra.engine_work`), if it has one; called when a
    run writes its results and when a model list releases a checkpoint."""
    engine = getattr(lm, "engine", None)
    if engine is not None and getattr(lm, "info", None) is not None:
        lm.info.extra["engine_work"] = engine.work.record(getattr(lm, "model", None))


def settle(device: str) -> None:
    """Wait for a CUDA device's queued work. A card runs asynchronously: without the wait a forward pass's
    time lands in the LM head's stage, where its results are first read (on one H200 a BERT-large run's
    `lm_head` read 286 s and its `forward` 10 s). Elsewhere a no-op."""
    if device.startswith("cuda"):
        import torch

        torch.cuda.synchronize(device)
