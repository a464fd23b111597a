"""Scoring-engine benchmark: the pronoun-ratio probe's sentences, engine vs a naive per-sentence loop.

    python benchmarks/bench_scoring.py                 # SmolLM2 (embedded), all 923 professions
    python benchmarks/bench_scoring.py --n 200 --model gpt2 --device cpu

Inputs: ``[SLOT] is <a/an profession>.`` with He / She (923 professions from the checkpoint-bias
data when present, else a built-in list). Both paths score the same sentences on the same loaded
model; the script checks they agree, then prints the speed ratio (measured in this run), tokens/s,
the share of this machine's float32 matmul throughput the engine reaches (engine FLOPs estimated as
2 x parameters x tokens), and the peak resident memory.
"""
from __future__ import annotations

import argparse
import glob
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BUILTIN = [
    "a nurse", "an engineer", "a secretary", "a carpenter", "a firefighter", "a librarian", "a surgeon",
    "a receptionist", "a mechanic", "a hairdresser", "a plumber", "a dancer", "a pilot", "a nanny",
    "an electrician", "a housekeeper", "a programmer", "a teacher", "a lawyer", "a farmer", "a cashier",
    "a janitor", "a chef", "a baker", "a pharmacist", "a dentist", "an accountant", "a designer",
]
GLOB = "/work/shared/data/github/kt2k01/checkpoint-bias/*/data/923-professions.txt"


def professions() -> tuple[list[str], str]:
    for path in sorted(glob.glob(GLOB)):
        rows = [line.strip() for line in Path(path).read_text().splitlines() if line.strip()]
        if rows:
            return rows, path
    return BUILTIN, "built-in list"


def matmul_gflops(torch, n: int = 1024, seconds: float = 2.0) -> float:
    a = torch.randn(n, n)
    b = torch.randn(n, n)
    torch.matmul(a, b)
    reps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        torch.matmul(a, b)
        reps += 1
    return 2 * n**3 * reps / (time.perf_counter() - t0) / 1e9


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="smollm2-135m")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--dtype", default="auto")
    ap.add_argument("--n", type=int, default=None, help="subsample this many professions (seeded)")
    ap.add_argument("--batch-size", type=int, default=None, help="engine batch size (default: adaptive)")
    ap.add_argument("--threads", type=int, default=None, help="torch.set_num_threads (default: torch's choice)")
    ap.add_argument("--kv-ab", action="store_true", help="also time the engine without shared-prefix KV reuse")
    ap.add_argument("--token-budget", type=int, default=None, help="engine tokens per batch (default: the engine's)")
    ap.add_argument("--no-naive", action="store_true", help="skip the naive loop (engine timings only)")
    ap.add_argument("--repeats", type=int, default=1, help="engine timing: best of this many runs")
    args = ap.parse_args()

    import numpy as np
    import torch

    from biascheck.models import SLOT, load_model

    if args.threads:
        torch.set_num_threads(args.threads)

    profs, source = professions()
    if args.n is not None and args.n < len(profs):
        profs = random.Random(0).sample(profs, args.n)
    templates = [f"{SLOT} is {p}." for p in profs]
    cands = ["He", "She"]

    t0 = time.perf_counter()
    lm = load_model(args.model, device=args.device, dtype=args.dtype, batch_size=args.batch_size)
    load_s = time.perf_counter() - t0
    model, tok = lm.model, lm.tokenizer
    n_params = sum(p.numel() for p in model.parameters())
    print(f"model {lm.info.name} ({lm.info.architecture}, {n_params / 1e6:.1f} M params, {lm.info.dtype}, "
          f"{lm.info.device}) loaded in {load_s:.1f} s; {len(templates)} professions x {len(cands)} from {source}; "
          f"torch threads {torch.get_num_threads()}")

    if args.token_budget:
        lm.engine.token_budget = args.token_budget
    # warm-up both paths on a few inputs (allocator, kernels)
    lm.fill_slot(templates[:4], cands)

    # ---- engine (and, interleaved, the engine without shared-prefix KV-cache reuse)
    prefix_body = getattr(lm.engine, "prefix_body", None)
    if args.kv_ab and lm.family == "causal":
        prefix_body = lm._build_prefix_body()  # off by default; built here to compare
    best, best_nokv, kv_tokens, nokv_tokens = float("inf"), float("inf"), 0, 0
    for _ in range(max(1, args.repeats)):
        lm.engine.prefix_body = prefix_body
        c0, t0 = lm.engine.tokens_run, time.perf_counter()
        res = lm.fill_slot(templates, cands)
        best = min(best, time.perf_counter() - t0)
        kv_tokens = lm.engine.tokens_run - c0
        if args.kv_ab and prefix_body is not None:
            lm.engine.prefix_body = None
            c0, t0 = lm.engine.tokens_run, time.perf_counter()
            res_nokv = lm.fill_slot(templates, cands)
            best_nokv = min(best_nokv, time.perf_counter() - t0)
            nokv_tokens = lm.engine.tokens_run - c0
            lm.engine.prefix_body = prefix_body
    engine_s = best
    if args.kv_ab and prefix_body is not None:
        print(f"engine with shared-prefix KV reuse {engine_s:.2f} s ({kv_tokens} body tokens), without "
              f"{best_nokv:.2f} s ({nokv_tokens} body tokens): {best_nokv / engine_s:.2f}x; "
              f"max |diff| {float(np.abs(res.logprob - res_nokv.logprob).max()):.1e}")
        engine_s, res = best_nokv, res_nokv  # the default engine (no KV reuse) is what is compared below
    lm.engine.prefix_body = None
    print(f"engine done in {engine_s:.2f} s; running the naive loop ...", flush=True)

    if args.no_naive:
        print(f"engine: {engine_s:.2f} s, {lm.engine.forward_calls} forward passes in all")
        return 0
    # ---- naive loop: one sentence at a time, full logits, log_softmax, gather
    dev = lm.info.device
    texts = [t.replace(SLOT, c) for t in templates for c in cands]
    family = lm.family
    t0 = time.perf_counter()
    naive = []
    tokens = 0
    with torch.inference_mode():
        for text in texts:
            if family == "causal":
                ids = list(lm.prefix_ids) + tok(text, add_special_tokens=False)["input_ids"]
                x = torch.tensor([ids], device=dev)
                lp = model(input_ids=x).logits[0, :-1].float().log_softmax(-1)
                naive.append(float(lp.gather(-1, x[0, 1:, None]).sum()))
                tokens += len(ids)
            else:  # masked: the slot word is the first word; mask it and read it (single-piece)
                enc = tok(text)["input_ids"]
                x = torch.tensor([enc], device=dev)
                target = int(x[0, 1])
                x[0, 1] = tok.mask_token_id
                naive.append(float(model(input_ids=x).logits[0, 1].float().log_softmax(-1)[target]))
                tokens += len(enc)
    naive_s = time.perf_counter() - t0
    naive = np.array(naive).reshape(len(templates), len(cands))
    diff = float(np.abs(naive - res.logprob).max())

    gflops = matmul_gflops(torch) if not dev.startswith("cuda") else float("nan")
    engine_tps = tokens / engine_s
    naive_tps = tokens / naive_s
    engine_gflops = 2 * n_params * tokens / engine_s / 1e9
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    eng = lm.engine
    print(f"agreement: max |engine - naive| = {diff:.2e} (log-prob)")
    print(f"naive loop : {naive_s:8.2f} s  {naive_tps:8.0f} tokens/s  ({len(texts)} forward passes)")
    print(f"engine     : {engine_s:8.2f} s  {engine_tps:8.0f} tokens/s  ({eng.forward_calls} forward passes in all, "
          f"token budget {eng.token_budget}, batch size {eng.batch_size or 'adaptive'})")
    print(f"speed-up   : {naive_s / engine_s:.1f}x over the naive loop (same run)")
    print(f"matmul     : {gflops:.1f} GFLOP/s float32 (torch.matmul 1024^2, this machine, now); engine reaches "
          f"{engine_gflops:.1f} GFLOP/s = {100 * engine_gflops / gflops:.0f}% (2 x params x tokens)")
    print(f"peak RSS   : {peak_mb:.0f} MiB")
    if diff > 1e-3:
        print("DISAGREEMENT between engine and naive loop", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
