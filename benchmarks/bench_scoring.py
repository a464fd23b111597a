"""Scoring-engine benchmark: our engine, lm-evaluation-harness and a naive loop on identical requests.

    python benchmarks/bench_scoring.py --against lm-eval --n 200          # SmolLM2 (embedded), 400 sentences
    python benchmarks/bench_scoring.py --inputs natural --against lm-eval # natural-prompts next-token reads
    python benchmarks/bench_scoring.py --n 200 --model gpt2 --device cpu

Request sets (``--inputs``, comma-separated or ``all``), each found as the probes find their data (mirror,
cache, download; a set whose data cannot be had stops the run with the resolver's message):

* ``pronoun``: paper 001's sentences ``He/She is <a/an profession>.`` over the 923 professions, scored whole
  after the model's context prefix: engine ``lm.fill_slot``; lm-eval ``("", sentence)`` with
  ``prefix_token_id`` = the prefix token.
* ``winogender``, ``winobias``, ``crows``: the sentences those probes score whole (Winogender's all.tsv,
  WinoBias dev + test, CrowS-Pairs' gender pairs): engine ``lm.sentence_logprob``; lm-eval as above. ``--n``
  draws them in whole groups (a WinoBias or CrowS-Pairs pair, a Winogender he/she/they triple), as the probes
  score them: the sentences of a group share their words up to the one that differs.
* ``natural``: the natural-prompts probe's prompts continued by " he" / " she" / " they": engine
  ``lm.next_token``; lm-eval ``(prefix + prompt, " he")``.

Methods, on the same loaded model in the same process, interleaved over ``--repeats``: engine; lm-eval
0.4.13 ``HFLM(pretrained=<the model>).loglikelihood`` (``--against lm-eval``, batch ``--lm-eval-batch``);
the naive loop (one forward pass per request; ``--no-naive`` skips it). Agreement is checked per request
against float32 rounding scaled to its length (`tolerance`: 6.1e-5 a token); beyond it, exit 1.
Times are CPU (process) time, the matmul share too (the engine's matrix-product FLOPs per CPU second over
this machine's float32 matmul rate per CPU second, measured in the same run). Each request set ends with one
JSON line: {"set", "requests", "tokens", "cpu_s": {method: s}, "engine/lm-eval", "engine/naive",
"max_abs_diff", "max_diff_over_limit", "matmul_share", "engine/lm-eval ceiling"} (ratios of CPU time). The
ceiling is lm-eval's CPU time over the engine's matrix products alone at this machine's matmul rate: the ratio an
engine doing the same arithmetic would reach with nothing else to compute (`ceiling`), which no change of
layout, batching or bookkeeping can pass; only reading fewer positions can.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from biascheck.models.causal_paths import shared_prefix_body  # noqa: E402 - the checkout, put on the path above
from biascheck.models.work import matmul_flops, matmul_rate  # noqa: E402 - the checkout, put on the path above


def _refdata():
    """Reference data resolved as every probe resolves it (--bias-data's rule: $BIASCHECK_DATA_DIR, a
    shared/data mirror beside the checkout, the cache, a download). A request set whose data cannot be had
    stops the benchmark with the resolver's message (which file, where it looked, how to provide it)."""
    from biascheck.data import ReferenceData
    from biascheck.data.resolve import mirror_dir

    return ReferenceData(mirror=mirror_dir(None, [Path(__file__).resolve().parents[1]]))


def professions() -> tuple[list[str], str]:
    """Paper 001's 923 professions ('a nurse')."""
    from biascheck.data import professions_en

    table = professions_en.professions_923(_refdata())
    return [f"{a} {p}" for p, a in zip(table["profession"], table["article"], strict=True)], "professions_923"


# float32 rounding, per token: a request's log P is a sum of one log-softmax term per continuation token, and
# the methods run differently shaped matrix products (the engine projects only the rows it reads, in packed
# rows), so each term is rounded differently, by some ulps of the logits it is a difference of (SmolLM2's reach
# about 32 in magnitude). Allowed: 16 ulps of a logit of 32 per token, 6.1e-5 a token: 1e-3 for a 16-token
# sentence. Measured on SmolLM2: 2.3e-5 on one-token reads, 3.2e-4 on 16-token sentences. A real error (a
# wrong position, token or prefix) moves a log P by 0.1 or more.
ULPS = 16
LOGIT_SCALE = 32.0
PER_TOKEN = ULPS * 2.0**-23 * LOGIT_SCALE


def ceiling(peer_cpu_s: float, flops: float, gflops: float) -> float:
    """The CPU-time ratio peer / engine if the engine's `flops` of matrix products ran at `gflops` (GFLOP per CPU
    second) and it computed nothing else."""
    return peer_cpu_s / (flops / (gflops * 1e9))


def tolerance(tokens):
    import numpy as np

    return np.asarray(tokens, float) * PER_TOKEN


def pronoun_workload(n: int | None) -> tuple[str, list[str], list[str], str]:
    profs, source = professions()
    from biascheck.models import SLOT

    return "pronoun", [f"{SLOT} is {p}." for p in _sample(profs, n)], ["He", "She"], source


def natural_workload(n: int | None) -> tuple[str, list[str], list[str], str]:
    from biascheck.data.natural_prompts import load_prompts

    prompts = [p.filled() for p in load_prompts(_refdata()).prompts]
    return "natural", _sample(prompts, n), ["he", "she", "they"], "aliciasun/natural-prompts (NS prompts)"


def _sample(items: list[str], n: int | None) -> list[str]:
    return random.Random(0).sample(items, n) if n is not None and n < len(items) else items


def _sample_groups(groups: list[list[str]], n: int | None) -> list[str]:
    """About `n` sentences in whole groups (a pair or triple the probe scores together, which share their words up
    to the one that differs: drawing sentences one by one would break them apart), seeded; every group without
    `n`. Each sentence once, in the groups' order."""
    if n is not None and n < sum(map(len, groups)):
        order = random.Random(0).sample(range(len(groups)), len(groups))
        chosen, count = [], 0
        for i in order:
            if count >= n:
                break
            chosen.append(i)
            count += len(groups[i])
        groups = [groups[i] for i in sorted(chosen)]
    return list(dict.fromkeys(s for group in groups for s in group))


def _grouped(sentences, keys) -> list[list[str]]:
    """The sentences grouped by key, groups in first-seen order."""
    out: dict = {}
    for sentence, key in zip(sentences, keys, strict=True):
        out.setdefault(key, []).append(str(sentence))
    return list(out.values())


def winogender_workload(n: int | None) -> tuple[str, list[str], list[str], str]:
    """The sentences the Winogender probe scores whole (lm.sentence_logprob)."""
    from biascheck.data.winogender import winogender_sentences

    frame = winogender_sentences(_refdata())
    triples = _grouped(frame["sentence"], [sid.rsplit(".", 2)[0] for sid in frame["sentid"]])  # he / she / they
    return "sentences", _sample_groups(triples, n), [], "rudinger/winogender-schemas (all.tsv)"


def winobias_workload(n: int | None) -> tuple[str, list[str], list[str], str]:
    """The sentences the WinoBias probe scores whole, both splits and types."""
    import pandas as pd

    from biascheck.data.winobias import winobias_pairs

    refdata = _refdata()
    frame = pd.concat([winobias_pairs(refdata, split) for split in ("dev", "test")])
    pairs = _grouped(frame["sentence"], frame["pair_id"])  # the pro- and anti-stereotypical sentence
    return "sentences", _sample_groups(pairs, n), [], "uclanlp/corefBias (WinoBias dev + test)"


def crows_workload(n: int | None) -> tuple[str, list[str], list[str], str]:
    """The gender pairs' two sentences the CrowS-Pairs probe scores whole."""
    from biascheck.data.crows_pairs import crows_pairs

    frame = crows_pairs(_refdata(), "gender")
    pairs = [[more, less] for more, less in zip(frame["sent_more"], frame["sent_less"], strict=True)]
    return "sentences", _sample_groups(pairs, n), [], "nyu-mll/crows-pairs (gender)"


WORKLOADS = {
    "pronoun": pronoun_workload,
    "winogender": winogender_workload,
    "winobias": winobias_workload,
    "crows": crows_workload,
    "natural": natural_workload,
}


def requests(kind: str, lm, texts: list[str], cands: list[str]) -> list[tuple[str, str]]:
    """(context, continuation) pairs in the engine's (row, candidate) order, the context prefix included."""
    from biascheck.models import SLOT

    prefix = getattr(lm, "context_prefix", "")
    if kind == "pronoun":
        return [("", t.replace(SLOT, c)) for t in texts for c in cands]
    if kind == "sentences":
        return [("", t) for t in texts]
    return [(prefix + t, " " + c) for t in texts for c in cands]


def run_engine(kind: str, lm, texts: list[str], cands: list[str]):
    import numpy as np

    if kind == "sentences":
        return np.asarray(lm.sentence_logprob(texts)[0], float)
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
    ap.add_argument("--inputs", default="pronoun", help=f"request sets, comma-separated: {', '.join(WORKLOADS)}, all")
    ap.add_argument(
        "--n",
        type=int,
        default=None,
        help="subsample about this many items of each request set (seeded; sentence sets in whole pairs or triples)",
    )
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
    names = list(WORKLOADS) if args.inputs == "all" else [x.strip() for x in args.inputs.split(",") if x.strip()]
    unknown = [x for x in names if x not in WORKLOADS]
    if unknown:
        ap.error(f"--inputs: unknown request set(s) {unknown}; known: {', '.join(WORKLOADS)}, all")

    import torch

    from biascheck.planted.resolve import load_model_or_plant

    if args.threads:
        torch.set_num_threads(args.threads)
    workloads = {name: WORKLOADS[name](args.n) for name in names}  # data first: a missing file stops here

    t0 = time.perf_counter()
    lm = load_model_or_plant(args.model, device=args.device, dtype=args.dtype, batch_size=args.batch_size)
    load_s = time.perf_counter() - t0
    if lm.family != "causal" and (args.against or not args.no_naive):
        print("lm-eval and the naive loop here score causal LMs; use --no-naive for a masked model", file=sys.stderr)
        return 2
    n_params = sum(p.numel() for p in lm.model.parameters())
    print(
        f"model {lm.info.name} ({lm.info.architecture}, {n_params / 1e6:.1f} M params, {lm.info.dtype}, "
        f"{lm.info.device}) loaded in {load_s:.1f} s; torch threads {torch.get_num_threads()}",
        flush=True,
    )
    if args.token_budget:
        lm.engine.token_budget = args.token_budget
    harness = None
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
    # per CPU second (process time, all threads), as the engine's CPU time is
    gflops = (
        matmul_rate("cpu", seconds=2.0, clock=time.process_time)
        if not str(lm.info.device).startswith("cuda")
        else float("nan")
    )
    print(f"matmul     : {gflops:.1f} GFLOP/s float32 per CPU second (torch.matmul 1024^2, process time)")
    agree = [bench_one(lm, harness, args, name, workloads[name], gflops) for name in names]
    print(f"peak RSS   : {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    if not all(agree):
        print("DISAGREEMENT: the methods do not give the same log-probabilities", file=sys.stderr)
        return 1
    return 0


def bench_one(lm, harness, args, name: str, workload, gflops: float) -> bool:
    """One request set: every method timed on it, the table, and its JSON line; whether the methods agree."""
    import numpy as np

    kind, texts, cands, source = workload
    reqs = requests(kind, lm, texts, cands)
    print(f"\n== {name}: {len(reqs)} requests ({kind}) from {source}", flush=True)
    methods = {"engine": lambda: run_engine(kind, lm, texts, cands)}

    from biascheck.devices import device_kind
    from biascheck.models.batching import DEFAULT_TOKEN_BUDGET

    # the padded layouts at the engine's padded default budget (packed rows have a smaller one on a CPU)
    padded_budget = args.token_budget or DEFAULT_TOKEN_BUDGET.get(device_kind(lm.info.device), 4096)

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
        methods["engine+kv"] = variant(None, shared_prefix_body(lm._path_check()))
    if harness is not None:
        methods["lm-eval"] = lambda: run_lm_eval(harness, reqs)
    if not args.no_naive:
        methods["naive"] = lambda: run_naive(lm, reqs)

    for method, fn in methods.items():  # warm-up: allocator, kernels, tokenizer caches
        run_naive(lm, reqs[:4]) if method == "naive" else fn()
    walls: dict[str, list[float]] = {m: [] for m in methods}
    cpus: dict[str, list[float]] = {m: [] for m in methods}
    values: dict[str, np.ndarray] = {}
    engine_tokens = engine_rows = 0
    for _ in range(max(1, args.repeats)):
        for method, fn in methods.items():
            before, rows_before = lm.engine.work.tokens, lm.engine.work.head_rows
            values[method], wall, cpu = timed(fn)
            walls[method].append(wall)
            cpus[method].append(cpu)
            if method == "engine":
                engine_tokens = lm.engine.work.tokens - before
                engine_rows = lm.engine.work.head_rows - rows_before
    per_request = np.array([len(lm.tokenizer(c + x, add_special_tokens=False)["input_ids"]) for c, x in reqs])
    if kind != "natural":
        per_request += len(lm.prefix_ids)
    continuation = np.array(
        [
            len(lm.tokenizer(c + x, add_special_tokens=False)["input_ids"])
            - len(lm.tokenizer(c, add_special_tokens=False)["input_ids"])
            if c
            else len(lm.tokenizer(x, add_special_tokens=False)["input_ids"])
            for c, x in reqs
        ]
    )
    tokens = int(per_request.sum())
    limit = tolerance(continuation)
    worst = max(float((np.abs(v - values["engine"]) / limit).max()) for v in values.values())
    diff = max(float(np.abs(v - values["engine"]).max()) for v in values.values())
    med = {m: (statistics.median(walls[m]), statistics.median(cpus[m])) for m in methods}
    eng_wall, eng_cpu = med["engine"]
    flops = matmul_flops(lm.model, engine_tokens, engine_rows)
    engine_gflops = flops / eng_cpu / 1e9  # per CPU second
    share = engine_gflops / gflops
    print(f"{'method':13} {'wall s':>8} {'CPU s':>8} {'tokens/s':>9} {'CPU ratio':>9}  (median of {args.repeats})")
    for method, (wall, cpu) in med.items():
        spread = f"wall {min(walls[method]):.2f}-{max(walls[method]):.2f}" if args.repeats > 1 else ""
        print(f"{method:13} {wall:8.2f} {cpu:8.2f} {tokens / wall:9.0f} {cpu / eng_cpu:8.2f}x  {spread}")
    print(
        f"agreement  : max |d log P| = {diff:.2e}, at most {worst:.2f} of the float32 limit ({PER_TOKEN:.1e} a "
        f"token; log P {float(values['engine'].min()):.1f} to {float(values['engine'].max()):.1f})"
    )
    layout = lm.info.extra.get("engine_layout", "padded batches")  # masked models: padded
    print(
        f"engine     : {engine_tokens} positions run ({layout}), {engine_rows} hidden states through the LM head, "
        f"{engine_gflops:.1f} GFLOP per CPU second = {100 * share:.0f}% of the matmul rate"
    )
    line = {
        "set": name,
        "requests": len(reqs),
        "tokens": tokens,
        "cpu_s": {m: round(c, 3) for m, (_, c) in med.items()},
        **{f"engine/{m}": round(med[m][1] / eng_cpu, 2) for m in methods if not m.startswith("engine")},
        "max_abs_diff": float(f"{diff:.2e}"),
        "max_diff_over_limit": round(worst, 3),
        "matmul_share": round(share, 3),
    }
    if "lm-eval" in med:
        line["engine/lm-eval ceiling"] = round(ceiling(med["lm-eval"][1], flops, gflops), 2)
        print(
            f"ceiling    : {line['engine/lm-eval ceiling']:.2f}x lm-eval, were the engine's matrix products all it "
            f"computed, at {gflops:.1f} GFLOP/s (now {line['engine/lm-eval']:.2f}x)"
        )
    print(json.dumps(line), flush=True)
    return worst <= 1.0


if __name__ == "__main__":
    raise SystemExit(main())
