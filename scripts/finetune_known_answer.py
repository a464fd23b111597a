"""Known answers on a real model: fine-tune the default model (SmolLM2-135M, which reads English) on
the planted two-person corpus, then run the benchmark probes on the base and the fine-tuned models.

    python scripts/finetune_known_answer.py [--strengths 0 1] [--steps 200] [--out DIR]
                                            [--probes winobias winogender crows_pairs_gender]

The tiny planted models learn the two-person plant in its own frames but cannot read Winogender's or
WinoBias's sentences (`biascheck/methods/winobias/README.md`); a real model can. For each strength the
corpus is `references.plant_sentences(plants, "two_person", strength)`: two people, one pronoun bound
by syntax to one of them, its sex drawn from that person's BLS share scaled towards 1/2 (0 = balanced:
a control, which also counts as a counter-stereotypical fine-tune). Training: full fine-tuning in
float32, AdamW, next-token loss on every sentence after ``<|endoftext|>`` (the context prefix the
causal engine scores after), fixed seed; the model is saved with `save_pretrained` and probed by path
like any checkpoint. A fine-tuned directory is reused when its manifest matches. Writes
``<out>/finetune_known_answer.md`` (key metrics with 95 % intervals and the default gate per model).
About 2.4 s per step of 16 sentences on 2 CPU cores, plus about 6 minutes of probing per model.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PREFIX = "<|endoftext|>"
KEY_METRICS = (
    ("winobias", "type1", "pro_share"),
    ("winobias", "type2", "pro_share"),
    ("winobias", "type2", "mean_pro_anti"),
    ("winogender", "pronouns", "spearman_bls"),
    ("winogender", "pronouns", "majority_agreement"),
    ("crows_pairs_gender", "all", "stereo_share"),
)


def corpus(strength: float) -> list[str]:
    from biascheck.data import ReferenceData
    from biascheck.data.resolve import mirror_dir
    from biascheck.planted import references

    plants = references.plants(ReferenceData(mirror=mirror_dir(None, [REPO])), ("two_person",))
    return references.plant_sentences(plants, "two_person", strength)


def load_base():  # -> (model, tokenizer)
    """The embedded SmolLM2 in float32, ready to train and to `save_pretrained`; its tokenizer with a pad token."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from biascheck.registry import ALIASES, embedded_dir

    spec = ALIASES["smollm2-135m"]
    source = embedded_dir(spec)
    tokenizer = AutoTokenizer.from_pretrained(source, gguf_file=spec.gguf_file)
    model = AutoModelForCausalLM.from_pretrained(source, gguf_file=spec.gguf_file, dtype=torch.float32)
    # The GGUF weights are dequantised to float32 as they load; what is saved is that float32 model, so
    # the GGUF marker (which forbids save_pretrained) goes.
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    tokenizer.pad_token = tokenizer.pad_token or tokenizer.eos_token
    return model, tokenizer


def finetune(sentences: list[str], out_dir: Path, steps: int, lr: float, batch: int, seed: int) -> dict:
    """Full fine-tune of the embedded SmolLM2 on `sentences`; saved to `out_dir`. Returns the losses."""
    import torch

    from biascheck.planted.train import causal_batch

    model, tokenizer = load_base()
    enc = tokenizer([PREFIX + s for s in sentences], padding=True, return_tensors="pt")
    ids, attention = enc["input_ids"], enc["attention_mask"]
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    losses = []
    model.train()
    for step in range(steps):
        inputs, att, labels = causal_batch(ids, attention, generator, batch)
        step_and_log(optimizer, model(input_ids=inputs, attention_mask=att, labels=labels).loss, losses, step, 25)
    head, tail = save_finetuned(model, tokenizer, out_dir, losses, 25)
    return {"loss_first_25": head, "loss_last_25": tail}


def step_and_log(optimizer, loss, losses: list[float], step: int, every: int, what: str = "loss") -> None:
    """One optimiser step on `loss`, its value kept in `losses` and printed every `every` steps."""
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    if step % every == 0:
        print(f"  step {step}: {what} {loss.item():.3f}", flush=True)


def save_finetuned(model, tokenizer, out_dir: Path, losses: list[float], window: int) -> tuple[float, float]:
    """Save the fine-tuned model and tokenizer to `out_dir` (probed by path like any checkpoint); the mean loss
    of the first and of the last `window` steps."""
    model.eval()
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    head, tail = losses[:window], losses[-window:]
    return sum(head) / len(head), sum(tail) / len(tail)


def ensure(strength: float, out: Path, args: argparse.Namespace) -> Path:
    from biascheck.planted import references

    sentences = corpus(strength)
    manifest = {
        "strength": strength,
        "steps": args.steps,
        "lr": args.lr,
        "batch": args.batch,
        "seed": args.seed,
        "corpus_sha256": references.corpus_sha256(sentences),
        "sentences": len(sentences),
    }
    target = out / f"smollm2-two_person-{strength:g}"
    done = target / "finetune.json"
    if done.is_file() and {k: v for k, v in json.loads(done.read_text()).items() if k in manifest} == manifest:
        return target
    print(f"fine-tuning at strength {strength:g} ({len(sentences)} sentences, {args.steps} steps)", flush=True)
    started = time.perf_counter()
    losses = finetune(sentences, target, args.steps, args.lr, args.batch, args.seed)
    done.write_text(json.dumps({**manifest, **losses, "seconds": round(time.perf_counter() - started)}, indent=2))
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strengths", type=float, nargs="+", default=[0.0, 1.0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--lr", type=float, default=1e-5)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--probes", nargs="+", default=["winobias", "winogender", "crows_pairs_gender"])
    parser.add_argument("--out", type=Path, default=REPO / "bias-report" / "finetune")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    tuned = [ensure(s, args.out, args) for s in args.strengths]
    models = ["smollm2-135m", *[str(d) for d in tuned]]
    command = [
        sys.executable,
        "-m",
        "pytest",
        *[f"probes/test_{p}.py" for p in args.probes],
        "-q",
        "-p",
        "no:cacheprovider",
        "--bias-report",
        str(args.out / "run"),
        *[f"--model={m}" for m in models],
    ]
    from biascheck.tiers import untiered_settings

    command += [f"--bias-set={s}" for s in untiered_settings()]  # WinoBias's both splits, as measured
    subprocess.run(command, cwd=REPO, check=False)
    results = json.loads((args.out / "run" / "results.json").read_text())
    sys.path.insert(0, str(Path(__file__).parent))
    from dose_response import table

    keys = tuple(k for k in KEY_METRICS if k[0] in args.probes)
    text, _values = table(results, models, tuple(args.probes), keys)
    header = (
        "# Known answers on a real model: SmolLM2-135M fine-tuned on the two-person plant\n\nWritten by "
        f"`python scripts/finetune_known_answer.py` ({args.steps} steps of {args.batch} sentences, lr "
        f"{args.lr:g}, seed {args.seed}); biascheck {results.get('biascheck_version')}, "
        f"{results.get('created_utc')}. Rows: the base model, then one fine-tuned model per strength "
        "(0 = balanced pronouns: the control).\n"
    )
    (args.out / "finetune_known_answer.md").write_text(header + text + "\n", encoding="utf-8")
    print(header + text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
