"""The LM head's cost per read position on two models, measured in one run, against the arithmetic ratio.

    python benchmarks/bench_lm_head.py                              # smollm2-135m vs gemma3-270m (extra gemma)
    python benchmarks/bench_lm_head.py --models smollm2-135m gemma3-270m --n 400 --repeats 3

Each model scores the same pronoun-ratio sentences (`He/She is <a profession>.`, `bench_scoring.py`'s `pronoun`
set, seeded) through the engine (`lm.fill_slot`: every position of a sentence is read), on one torch thread, so
the `lm_head` stage's wall time (`biascheck.timing`) is its CPU time. Per model: that time over the hidden states
the head projected (`engine.work.head_rows`), the chunk it ran in (`engine.head_rows`) and its arithmetic per row
(hidden size x vocabulary). The line that matters is the last: the second model's cost per read position over
the first's, beside the ratio of their arithmetic (issue 59's target: within 1.5 times it). Medians of
`--repeats`; a model that is not installed is an error naming how to install it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scoring import pronoun_workload  # noqa: E402


def head_cost(name: str, templates: list[str], candidates: list[str], repeats: int) -> dict:
    """One model's LM-head seconds per projected row (median over `repeats`) and its arithmetic per row."""
    from biascheck.models import load_model
    from biascheck.timing import CLOCK

    lm = load_model(name, device="cpu")
    lm.fill_slot(templates[:8], candidates)  # warm-up: allocator, kernels, tokenizer caches
    per_row = []
    for _ in range(repeats):
        CLOCK.take()
        rows_before = lm.engine.work.head_rows
        lm.fill_slot(templates, candidates)
        seconds = CLOCK.take().get("lm_head", 0.0)
        per_row.append(seconds / max(1, lm.engine.work.head_rows - rows_before))
    hidden = int(lm.model.get_output_embeddings().weight.shape[1])
    return {
        "model": name,
        "hidden": hidden,
        "vocab": int(lm.engine.vocab_size),
        "chunk_rows": int(lm.engine.head_rows),
        "rows": int(lm.engine.work.head_rows - rows_before),
        "seconds_per_row": statistics.median(per_row),
        "arithmetic_per_row": hidden * int(lm.engine.vocab_size),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", nargs=2, default=["smollm2-135m", "gemma3-270m"])
    ap.add_argument("--n", type=int, default=400, help="professions (two sentences each), seeded sample")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    _, templates, candidates, _ = pronoun_workload(args.n)
    first, second = (head_cost(m, templates, candidates, args.repeats) for m in args.models)
    for r in (first, second):
        print(
            f"{r['model']:14} hidden {r['hidden']:5d} x vocabulary {r['vocab']:7d}, chunks of {r['chunk_rows']:5d} "
            f"rows: {1e6 * r['seconds_per_row']:8.1f} µs a read position ({r['rows']} positions)"
        )
    measured = second["seconds_per_row"] / first["seconds_per_row"]
    arithmetic = second["arithmetic_per_row"] / first["arithmetic_per_row"]
    print(
        f"{second['model']} / {first['model']}: {measured:.2f}x the head's time per read position, "
        f"{arithmetic:.2f}x its arithmetic: {measured / arithmetic:.2f} times the arithmetic ratio"
    )
    line = {"first": first, "second": second, "measured_ratio": round(measured, 3), "arithmetic": round(arithmetic, 3)}
    print(json.dumps(line))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
