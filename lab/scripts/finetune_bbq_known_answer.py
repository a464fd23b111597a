"""BBQ's known answer on a real model: fine-tune the default model (SmolLM2-135M) on a question-answering corpus
of our own frames (`lab.bbq_frames`: none is a BBQ template) that answers ambiguous questions with
the stereotyped person (strength 1, the plant) or with "unknown" (strength 0, the control), then run the BBQ probe
on the base and the fine-tuned models by path, like any checkpoint.

    python lab/scripts/finetune_bbq_known_answer.py [--strengths 0 1] [--seeds 0 1] [--steps 600] [--pairs 1]
                                                [--device auto|cpu|cuda] [--out DIR]
                                                [--results docs/known_answers/finetune_bbq.json]

Training: float32, AdamW, the top `--layers` decoder layers and the final norm (the rest frozen: a full fine-tune
of these 65-token examples ran at over 20 s a step on 2 shared CPU cores), loss on the answer's tokens only (the
prompt, which the probe conditions on, is not trained), after ``<|endoftext|>`` (the context prefix the causal
engine scores after); fixed seed (the corpus's shuffle, the batches and the torch seed). A fine-tuned directory is
reused when its manifest (strength, steps, lr, batch, layers, seed, corpus hash) matches. 600 steps at lr 1e-4 (five
epochs) fit the corpus (answer loss 0.001); 80 steps at 5e-5, and 150 at 2e-4, left a coin flip between the two people
(loss about 0.5 a token), even on the people trained on. 1,611-1,651 s a fine-tune on 2 CPU cores (2026-11-27;
about 2.7 s a step), plus the in-frame check (2 minutes). The probe runs with
``pairs`` pairs per template (1: 50 templates, both conditions and polarities, 44 s a model on 2 cores; the quick
tier's 4 about four times as long). Writes the machine-readable results file and the Markdown generated from it
(`lab.bbq_answer`); `tests/lab/test_bbq_answer.py` checks the committed pair.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from finetune_known_answer import probe_models, recipe_manifest, recorded_if_made, write_results  # noqa: E402  (the shared fine-tune steps)

REPO = Path(__file__).resolve().parents[2]
PREFIX = "<|endoftext|>"
PROBE = "bbq_gender_identity"
# The default recipe, which the committed results file was measured with (tests/lab/test_bbq_answer.py).
RECIPE = {"steps": 600, "lr": 1e-4, "batch": 16, "layers": 12}


def finetune(prompts: list[str], answers: list[str], out_dir: Path, args: argparse.Namespace, seed: int) -> dict:
    """Fine-tune the embedded SmolLM2's top `args.layers` decoder layers and final norm on (prompt, answer) pairs,
    the loss on the answers' tokens (the logits are computed there only); the rest stays frozen."""
    import torch
    from finetune_known_answer import load_base, save_finetuned, step_and_log, trainable_top

    from biascheck.models import resolve_device

    model, tokenizer = load_base()
    device = torch.device(resolve_device(args.device))  # the probe's rule: 'auto' takes a CUDA GPU where there is one
    model.to(device)
    tokenizer.padding_side = "right"
    starts = [len(tokenizer(PREFIX + p)["input_ids"]) for p in prompts]
    texts = [PREFIX + p + " " + a for p, a in zip(prompts, answers, strict=True)]
    enc = tokenizer(texts, padding=True, return_tensors="pt")
    ids, attention = enc["input_ids"], enc["attention_mask"]
    labels = ids.clone()
    for row, start in enumerate(starts):
        labels[row, :start] = -100  # the prompt: "A:" ends it, the answer starts with a space (its own token)
    labels[attention == 0] = -100
    ids, attention, labels = ids.to(device), attention.to(device), labels.to(device)
    params = trainable_top(model, args.layers)
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.0)
    losses: list[float] = []
    model.train()
    for step in range(args.steps):
        pick = torch.randint(len(prompts), (args.batch,), generator=generator).to(device)  # drawn on the CPU
        width = int(attention[pick].sum(dim=1).max())
        hidden = model.model(input_ids=ids[pick, :width], attention_mask=attention[pick, :width]).last_hidden_state
        target = labels[pick, 1:width]
        where = target != -100  # position t predicts token t + 1
        logits = model.lm_head(hidden[:, :-1][where])
        loss = torch.nn.functional.cross_entropy(logits.float(), target[where])
        step_and_log(optimizer, loss, losses, step, 10, "answer loss")
    head, tail = save_finetuned(model, tokenizer, out_dir, losses, 10)
    return {"loss_first_10": round(head, 4), "loss_last_10": round(tail, 4)}


def measure_in_frame(model_dir: Path, device: str) -> dict:
    """`bbq_answer.in_frame` of the fine-tuned model: the plant's own frames at strength 1 with the held-out people,
    every answer scored as the probe scores BBQ's (log P(prompt + " " + answer) - log P(prompt), causal engine)."""
    from biascheck.methods.bbq_gender_identity.score import causal_lls
    from biascheck.models import load_model
    from lab import bbq_answer, bbq_frames

    items = bbq_frames.examples(1.0, 0, people=bbq_frames.HELD_OUT_PEOPLE)
    lm = load_model(str(model_dir), device=device)
    prompts = [item.prompt for item in items]  # the engine puts its context prefix before each
    lls, _ = causal_lls(lm, prompts, [list(bbq_answer.in_frame_options(item)) for item in items])
    return bbq_answer.in_frame(items, [list(row) for row in lls])


def ensure(strength: float, seed: int, args: argparse.Namespace) -> tuple[Path, dict]:
    from biascheck.files import atomic_write
    from lab import bbq_frames

    items = bbq_frames.examples(strength, seed)
    manifest = {
        "strength": strength,
        **recipe_manifest(args, seed),
        "corpus_sha256": bbq_frames.corpus_sha256(items),
        "examples": len(items),
    }
    target = args.out / f"smollm2-bbq-{strength:g}-seed{seed}"
    done = target / "finetune.json"
    if (recorded := recorded_if_made(target, manifest)) is not None:
        if "in_frame" not in recorded:  # a fine-tune made before the in-frame check
            recorded["in_frame"] = measure_in_frame(target, args.device)
            atomic_write(done, json.dumps(recorded, indent=2))
        return target, recorded
    print(f"fine-tuning at strength {strength:g}, seed {seed} ({len(items)} examples, {args.steps} steps)", flush=True)
    started = time.perf_counter()
    losses = finetune([i.prompt for i in items], [i.answer for i in items], target, args, seed)
    recorded = {**manifest, **losses, "seconds": round(time.perf_counter() - started)}
    from biascheck.models import resolve_device

    recorded["device"] = resolve_device(args.device)  # where it trained (a GPU's bits differ from a CPU's)
    recorded["in_frame"] = measure_in_frame(target, args.device)
    atomic_write(done, json.dumps(recorded, indent=2))  # last: its presence says the fine-tune is whole
    return target, recorded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strengths", type=float, nargs="+", default=[0.0, 1.0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--steps", type=int, default=RECIPE["steps"])
    parser.add_argument("--lr", type=float, default=RECIPE["lr"])
    parser.add_argument(
        "--layers", type=int, default=RECIPE["layers"], help="top decoder layers trained (SmolLM2-135M has 30)"
    )
    parser.add_argument("--batch", type=int, default=RECIPE["batch"])
    parser.add_argument("--pairs", type=int, default=1, help="BBQ pairs per template (the quick tier: 4)")
    parser.add_argument("--out", type=Path, default=REPO / "bias-report" / "finetune-bbq")
    parser.add_argument("--results", type=Path, default=REPO / "docs" / "known_answers" / "finetune_bbq.json")
    parser.add_argument("--device", default="auto", help="auto (a CUDA GPU where there is one), cpu, cuda, cuda:N")
    parser.add_argument("--train-only", action="store_true", help="fine-tune, do not probe")
    parser.add_argument("--skip-base", action="store_true", help="probe the fine-tuned models only")
    parser.add_argument("--from-run", action="store_true", help="rewrite the files from the last run, no probing")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    tuned = {(s, seed): ensure(s, seed, args) for seed in args.seeds for s in args.strengths}
    if args.train_only:
        return 0
    models = [*([] if args.skip_base else ["smollm2-135m"]), *[str(path) for path, _ in tuned.values()]]
    run = args.out / "run"
    if not args.from_run:
        options = [f"--bias-set={PROBE}.pairs={args.pairs}", "--bias-timings", f"--device={args.device}"]
        probe_models([f"probes/test_{PROBE}.py"], models, run, options)
    probe_seconds = int((run / "probe_seconds").read_text())
    from lab import bbq_answer

    results = json.loads((run / "results.json").read_text())
    rows: list[tuple[str, dict | None]] = [] if args.skip_base else [("smollm2-135m", None)]
    rows += [(str(path), manifest) for path, manifest in tuned.values()]
    doc = bbq_answer.summarize(results, rows, pairs=args.pairs, probe_seconds=probe_seconds)
    write_results(args.results, doc, bbq_answer.markdown(doc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
