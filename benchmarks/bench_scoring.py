"""Scoring-engine benchmark: our engine, lm-evaluation-harness and a naive loop on identical requests.

    python benchmarks/bench_scoring.py --against lm-eval --n 200          # SmolLM2 (embedded), 400 sentences
    python benchmarks/bench_scoring.py --inputs natural --against lm-eval # natural-prompts next-token reads
    python benchmarks/bench_scoring.py --n 200 --model gpt2 --device cpu

Workloads (``--inputs``), each a list of (context, continuation) log-likelihood requests:

* ``pronoun`` (default): the pronoun-ratio probe's sentences ``He/She is <a/an profession>.`` (923
  professions from the checkpoint-bias data when present, else a built-in list), scored whole after the
  model's context prefix: engine ``lm.fill_slot``; lm-eval ``("", sentence)`` with ``prefix_token_id`` =
  the prefix token.
* ``natural``: the natural-prompts probe's 893 natural-sentence prompts, Wikipedia definitions
  ending in a continuation word (e.g. "A blacksmith is a person who creates objects from wrought iron or steel
  where"), continued by " he" / " she" / " they": engine ``lm.next_token``; lm-eval ``(prefix + prompt, " he")``.

Methods, on the same loaded model in the same process, interleaved over ``--repeats``:
engine; lm-eval 0.4.13 ``HFLM(pretrained=<the model>).loglikelihood`` (``--against lm-eval``, extra
``bench`` (= ``oracles``); batch ``--lm-eval-batch``); the naive loop (one forward pass per request, full
log-softmax, gather; ``--no-naive`` skips it). The script checks that all agree (max |d log P| <= 2e-4,
float32 rounding; else exit 1), then prints per method the median wall and CPU time, tokens/s, the ratios,
this machine's float32 matmul rate measured in the same run and the engine's share of it (`matmul_flops`: 2 x
the weights of the body's linear layers x the positions the engine ran, plus 2 x the LM head's weights x the
hidden states it projected; embeddings are lookups, not counted), and the peak resident memory. Its last line
is machine-readable: ``engine/lm-eval=3.17x engine/naive=12.46x max|d|=1.4e-04 matmul_share=0.80`` (ratios
of CPU time).
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BUILTIN = [
    "a nurse",
    "an engineer",
    "a secretary",
    "a carpenter",
    "a firefighter",
    "a librarian",
    "a surgeon",
    "a receptionist",
    "a mechanic",
    "a hairdresser",
    "a plumber",
    "a dancer",
    "a pilot",
    "a nanny",
    "an electrician",
    "a housekeeper",
    "a programmer",
    "a teacher",
    "a lawyer",
    "a farmer",
    "a cashier",
    "a janitor",
    "a chef",
    "a baker",
    "a pharmacist",
    "a dentist",
    "an accountant",
    "a designer",
]


def professions() -> tuple[list[str], str]:
    """Paper 001's 923 professions ('a nurse'), resolved as every probe resolves its data (--bias-data's
    rule: $BIASCHECK_DATA_DIR, a shared/data mirror beside the checkout, the cache, a download); the
    built-in list when they cannot be had."""
    from biascheck.data import ReferenceData, professions_en
    from biascheck.data.resolve import mirror_dir
    from biascheck.errors import BiascheckError

    try:
        table = professions_en.professions_923(ReferenceData(mirror=mirror_dir(None, [Path(__file__).parents[1]])))
    except BiascheckError:
        return BUILTIN, "built-in list"
    return [f"{a} {p}" for p, a in zip(table["profession"], table["article"], strict=True)], "professions_923"


def matmul_gflops(torch, n: int = 1024, seconds: float = 2.0) -> float:
    a = torch.randn(n, n)
    b = torch.randn(n, n)
    torch.matmul(a, b)
    reps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        torch.matmul(a, b)
        reps += 1
    return 2 * n**3 * reps / (time.perf_counter() - t0) / 1e9


def matmul_flops(model, positions: int, head_rows: int) -> float:
    """The matrix-product FLOPs of a run: 2 x (weights of every linear layer of the body) x positions +
    2 x (LM head weights) x projected rows. Linear layers are `torch.nn.Linear` and GPT-2's `Conv1D`; the
    input and output embeddings are not body layers (a lookup, and the head counted by its rows). The
    attention products (scores and their weighted sum, 4 x context x hidden per position and layer) are
    left out: 4 % of the body's at SmolLM2's 128-position rows."""
    import torch

    head = model.get_output_embeddings()
    body = 0
    for module in model.modules():
        if module is head:
            continue
        if isinstance(module, torch.nn.Linear) or type(module).__name__ == "Conv1D":
            body += module.weight.numel()
    return 2.0 * body * positions + 2.0 * head.weight.numel() * head_rows


# float32 rounding: the engine projects only the rows it reads (a smaller matrix product than the full
# logits of lm-eval and the naive loop); measured 1.1-1.3e-4 on SmolLM2 sentences of 7-12 tokens (log P -27
# to -49), the two full-logits paths 2.9e-5 apart. A real error (a wrong position, token or prefix) is >0.1.
TOLERANCE = 2e-4


def pronoun_workload(n: int | None) -> tuple[str, list[str], list[str], str]:
    profs, source = professions()
    if n is not None and n < len(profs):
        profs = random.Random(0).sample(profs, n)
    from biascheck.models import SLOT

    return "pronoun", [f"{SLOT} is {p}." for p in profs], ["He", "She"], source


def natural_workload(n: int | None) -> tuple[str, list[str], list[str], str]:
    from biascheck.data import ReferenceData
    from biascheck.data.natural_prompts import load_prompts
    from biascheck.data.resolve import mirror_dir

    refdata = ReferenceData(mirror=mirror_dir(None, [Path(__file__).resolve().parents[1]]))
    prompts = [p.filled() for p in load_prompts(refdata).prompts]
    if n is not None and n < len(prompts):
        prompts = random.Random(0).sample(prompts, n)
    return "natural", prompts, ["he", "she", "they"], "aliciasun/natural-prompts (NS prompts)"


def requests(kind: str, lm, texts: list[str], cands: list[str]) -> list[tuple[str, str]]:
    """(context, continuation) pairs in the engine's (row, candidate) order, the context prefix included."""
    from biascheck.models import SLOT

    prefix = getattr(lm, "context_prefix", "")
    if kind == "pronoun":
        return [("", t.replace(SLOT, c)) for t in texts for c in cands]
    return [(prefix + t, " " + c) for t in texts for c in cands]


def run_engine(kind: str, lm, texts: list[str], cands: list[str]):
    import numpy as np

    scores = lm.fill_slot(texts, cands) if kind == "pronoun" else lm.next_token(texts, cands)
    return np.asarray(scores.logprob, float).ravel()


def run_naive(lm, reqs: list[tuple[str, str]]):
    """One forward pass per request: context + continuation (an empty context: the model's prefix, as
    lm-eval's prefix_token_id), full log-softmax, gather at the continuation's tokens."""
    import numpy as np
    import torch

    tok, model, dev = lm.tokenizer, lm.model, lm.info.device
    out = []
    with torch.inference_mode():
        for context, continuation in reqs:
            ctx = tok(context, add_special_tokens=False)["input_ids"]
            cont = tok(context + continuation, add_special_tokens=False)["input_ids"][len(ctx) :]
            ctx = ctx or list(lm.prefix_ids)
            ids = torch.tensor([ctx + cont], device=dev)
            lp = model(input_ids=ids).logits[0, len(ctx) - 1 : -1].float().log_softmax(-1)
            out.append(float(lp.gather(-1, ids[0, len(ctx) :, None]).sum()))
    return np.array(out)


def run_lm_eval(harness, reqs: list[tuple[str, str]]):
    import numpy as np
    from lm_eval.api.instance import Instance

    instances = [Instance(request_type="loglikelihood", doc={}, arguments=pair, idx=i) for i, pair in enumerate(reqs)]
    return np.array([float(lp) for lp, _ in harness.loglikelihood(instances, disable_tqdm=True)])


def timed(fn):
    w0, c0 = time.perf_counter(), time.process_time()
    value = fn()
    return value, time.perf_counter() - w0, time.process_time() - c0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="smollm2-135m")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--dtype", default="auto")
    ap.add_argument("--inputs", choices=("pronoun", "natural"), default="pronoun")
    ap.add_argument("--n", type=int, default=None, help="subsample this many professions / prompts (seeded)")
    ap.add_argument("--against", choices=("lm-eval",), default=None, help="add lm-evaluation-harness's HFLM")
    ap.add_argument("--lm-eval-batch", default="16", help="HFLM batch_size (a number or 'auto')")
    ap.add_argument("--batch-size", type=int, default=None, help="engine batch size (default: adaptive)")
    ap.add_argument("--threads", type=int, default=None, help="torch.set_num_threads (default: torch's choice)")
    ap.add_argument("--token-budget", type=int, default=None, help="engine tokens per batch (default: the engine's)")
    ap.add_argument("--no-naive", action="store_true", help="skip the naive loop")
    ap.add_argument("--repeats", type=int, default=1, help="interleaved repeats of every method; medians reported")
    ap.add_argument("--kv-ab", action="store_true", help="also time the engine with shared-prefix KV reuse")
    ap.add_argument(
        "--padded-ab", action="store_true", help="also time the engine with padded batches instead of prefix-tree rows"
    )
    args = ap.parse_args()

    import numpy as np
    import torch

    from biascheck.planted.resolve import load_model_or_plant

    if args.threads:
        torch.set_num_threads(args.threads)
    builder = pronoun_workload if args.inputs == "pronoun" else natural_workload
    kind, texts, cands, source = builder(args.n)

    t0 = time.perf_counter()
    lm = load_model_or_plant(args.model, device=args.device, dtype=args.dtype, batch_size=args.batch_size)
    load_s = time.perf_counter() - t0
    if lm.family != "causal" and (args.against or not args.no_naive):
        print("lm-eval and the naive loop here score causal LMs; use --no-naive for a masked model", file=sys.stderr)
        return 2
    n_params = sum(p.numel() for p in lm.model.parameters())
    reqs = requests(kind, lm, texts, cands)
    print(
        f"model {lm.info.name} ({lm.info.architecture}, {n_params / 1e6:.1f} M params, {lm.info.dtype}, "
        f"{lm.info.device}) loaded in {load_s:.1f} s; workload {kind}: {len(texts)} x {len(cands)} = "
        f"{len(reqs)} requests from {source}; torch threads {torch.get_num_threads()}",
        flush=True,
    )
    if args.token_budget:
        lm.engine.token_budget = args.token_budget

    methods = {"engine": lambda: run_engine(kind, lm, texts, cands)}

    from biascheck.models.batching import DEFAULT_TOKEN_BUDGET

    # the padded layouts at the engine's padded default budget (packed rows have a smaller one on a CPU)
    padded_budget = args.token_budget or DEFAULT_TOKEN_BUDGET.get(str(lm.info.device).split(":")[0], 4096)

    def variant(pack_body, prefix_body):
        def run():
            saved = lm.engine.pack_body, lm.engine.prefix_body, lm.engine.token_budget
            lm.engine.pack_body, lm.engine.prefix_body, lm.engine.token_budget = pack_body, prefix_body, padded_budget
            try:
                return run_engine(kind, lm, texts, cands)
            finally:
                lm.engine.pack_body, lm.engine.prefix_body, lm.engine.token_budget = saved

        return run

    if args.padded_ab:
        methods["engine-padded"] = variant(None, None)
    if args.kv_ab:
        methods["engine+kv"] = variant(None, lm._build_prefix_body())
    if args.against == "lm-eval":
        from lm_eval.models.huggingface import HFLM

        batch = args.lm_eval_batch if args.lm_eval_batch == "auto" else int(args.lm_eval_batch)
        prefix_id = lm.prefix_ids[-1] if lm.prefix_ids else None
        harness = HFLM(
            pretrained=lm.model,
            tokenizer=lm.tokenizer,
            device=lm.info.device,
            batch_size=batch,
            prefix_token_id=prefix_id,
        )
        methods["lm-eval"] = lambda: run_lm_eval(harness, reqs)
    if not args.no_naive:
        methods["naive"] = lambda: run_naive(lm, reqs)

    for fn in methods.values():  # warm-up: allocator, kernels, tokenizer caches
        if fn is methods.get("naive"):
            run_naive(lm, reqs[:4])
        else:
            fn()
    walls: dict[str, list[float]] = {m: [] for m in methods}
    cpus: dict[str, list[float]] = {m: [] for m in methods}
    values: dict[str, np.ndarray] = {}
    engine_tokens = engine_rows = 0
    for _ in range(max(1, args.repeats)):
        for name, fn in methods.items():
            before, rows_before = lm.engine.tokens_run, lm.engine.head_rows_run
            values[name], wall, cpu = timed(fn)
            walls[name].append(wall)
            cpus[name].append(cpu)
            if name == "engine":
                engine_tokens = lm.engine.tokens_run - before
                engine_rows = lm.engine.head_rows_run - rows_before
    tokens = sum(len(lm.tokenizer(c + x, add_special_tokens=False)["input_ids"]) for c, x in reqs)
    tokens += len(reqs) * len(lm.prefix_ids) if kind == "pronoun" else 0
    diff = max(float(np.abs(v - values["engine"]).max()) for v in values.values())
    gflops = matmul_gflops(torch) if not str(lm.info.device).startswith("cuda") else float("nan")
    med = {m: (statistics.median(walls[m]), statistics.median(cpus[m])) for m in methods}
    eng_wall, eng_cpu = med["engine"]
    engine_gflops = matmul_flops(lm.model, engine_tokens, engine_rows) / eng_wall / 1e9
    share = engine_gflops / gflops
    print(f"{'method':10} {'wall s':>8} {'CPU s':>8} {'tokens/s':>9} {'CPU ratio':>9}  (median of {args.repeats})")
    for name, (wall, cpu) in med.items():
        spread = f"wall {min(walls[name]):.2f}-{max(walls[name]):.2f}" if args.repeats > 1 else ""
        print(f"{name:10} {wall:8.2f} {cpu:8.2f} {tokens / wall:9.0f} {cpu / eng_cpu:8.2f}x  {spread}")
    pairs = [(a, b) for i, a in enumerate(values) for b in list(values)[i + 1 :]]
    print(
        f"agreement  : max |d log P| over all methods = {diff:.2e} ({len(reqs)} requests, log P "
        f"{float(values['engine'].min()):.1f} to {float(values['engine'].max()):.1f}); pairwise "
        + ", ".join(f"{a}/{b} {float(np.abs(values[a] - values[b]).max()):.1e}" for a, b in pairs)
    )
    layout = lm.info.extra.get("engine_layout", "padded batches")  # masked models: padded
    print(
        f"engine     : {engine_tokens} positions run ({layout}), {engine_rows} hidden states through the LM "
        f"head, {lm.engine.forward_calls} forward passes in all, token budget {lm.engine.token_budget}"
    )
    print(
        f"matmul     : {gflops:.1f} GFLOP/s float32 (torch.matmul 1024^2, now); the engine's matrix products "
        f"{engine_gflops:.1f} GFLOP/s of its wall time = {100 * share:.0f}%"
    )
    print(f"peak RSS   : {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    ratios = [f"engine/{m}={med[m][1] / eng_cpu:.2f}x" for m in methods if not m.startswith("engine")]
    print(" ".join([*ratios, f"max|d|={diff:.1e}", f"matmul_share={share:.2f}"]))
    if diff > TOLERANCE:
        print("DISAGREEMENT: the methods do not give the same log-probabilities", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
