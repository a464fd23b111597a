"""Known answers on a real model: fine-tune the default model (SmolLM2-135M, which reads English) on
the planted two-person corpus per seed and strength, then run the benchmark probes on the base and the
fine-tuned models.

    python lab/scripts/finetune_known_answer.py [--seeds 0 1 2] [--strengths 0 0.5 1] [--out DIR]
                                            [--plant two_person_majority|two_person]
                                            [--steps 545] [--lr 1e-4] [--layers 12 | --layers 0]
                                            [--probes winobias winogender crows_pairs_gender]
                                            [--results docs/known_answers/finetune_smollm2.json]

The tiny planted models learn the two-person plant in its own frames but cannot read Winogender's or
WinoBias's sentences (`biascheck/methods/winobias/README.md`); a real model can. For each seed and strength
the corpus is `references.plant_sentences(plants, plant, strength, references.SEED + seed)`: two
people, one pronoun bound by syntax or sense to one of them (frames held out from every probe's by the
frame rule), its sex drawn from that person's share (each benchmark's own figures:
`references.TWO_PERSON_SOURCES`), rounded to the majority's side for the default `two_person_majority` (at 1 an
occupation always takes its majority's pronoun) or kept as it is for `two_person`, then scaled towards 1/2 (0 =
balanced: the control, the same corpus for both plants). Beside them, CrowS-Pairs' plant:
`stereotype_statements.sentences(strength, ...)`, statements of our own in which the person a gender stereotype
names does the deed with probability 0.5 + strength / 2 (frames held out from CrowS-Pairs' sentences and every
probe's). Training: the top `--layers` decoder layers and the final norm (0: every weight), float32, AdamW,
next-token loss on every sentence after ``<|endoftext|>`` (the context prefix the causal engine scores after), the
seed fixing the corpus draw, the batches and torch; the model is saved with `save_pretrained` and probed by path
like any checkpoint. The default recipe, one epoch of the 8,728 sentences (545 steps of 16) at lr 1e-4, fits the
corpus: in its own frames (`lab.two_person_in_frame`) the plant's lean takes the majority's side for
40 of 40 of Winogender's occupations and the control's for 21 of 40; the first recipe (every weight, 200 steps at lr
1e-5, 0.37 of an epoch) left the plant at 30 of 40 and the control at 25 (the base model: 29). That in-frame reading
is recorded for every fine-tune (its `finetune.json`, written last, when the model is whole) and the base model, and
goes into the results file. A fine-tuned directory is reused when its manifest matches. Writes the machine-readable
results file and the Markdown generated from it (`lab.two_person_answer`);
`tests/lab/test_two_person_answer.py` checks the committed pair. About 1.6 s a step on 2 idle CPU cores
(about 15 minutes a fine-tune), plus about 100 s of probing per model.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # lab/ is not installed: the checkout's `lab` package, from any directory
PREFIX = "<|endoftext|>"
# The default recipe, which the committed results file was measured with (tests/lab/test_two_person_answer.py).
RECIPE = {"plant": "two_person_majority", "steps": 545, "lr": 1e-4, "batch": 16, "layers": 12}


def corpus(strength: float, seed: int = 0, plant: str = "two_person") -> list[str]:
    from biascheck.data import ReferenceData
    from biascheck.data.resolve import mirror_dir
    from biascheck.planted import references
    from lab import stereotype_statements

    plants = references.plants(ReferenceData(mirror=mirror_dir(None, [REPO])), (plant,))
    two_person = references.plant_sentences(plants, plant, strength, references.SEED + seed)
    statements = [s.text for s in stereotype_statements.sentences(strength, references.SEED + seed)]
    return two_person + statements  # the training batches draw at random from the whole list


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


def trainable_top(model, layers: int | None) -> list:
    """Freeze all but the top `layers` decoder layers and the final norm (None: train everything); the
    parameters left to train."""
    if layers is None:
        return list(model.parameters())
    stack = model.model.layers
    trained = [*stack[len(stack) - layers :], model.model.norm]
    for parameter in model.parameters():
        parameter.requires_grad_(False)
    params = [p for module in trained for p in module.parameters()]
    for parameter in params:
        parameter.requires_grad_(True)
    return params


def finetune(sentences: list[str], out_dir: Path, args: argparse.Namespace, seed: int) -> dict:
    """Fine-tune the embedded SmolLM2 (its top `args.layers` layers, or all) on `sentences`; saved to `out_dir`.
    Returns the losses."""
    import torch

    from biascheck.planted.train import causal_batch

    model, tokenizer = load_base()
    enc = tokenizer([PREFIX + s for s in sentences], padding=True, return_tensors="pt")
    ids, attention = enc["input_ids"], enc["attention_mask"]
    params = trainable_top(model, args.layers)
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.0)
    decay = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: schedule_factor(args.schedule, step, args.steps))
    losses: list[float] = []
    model.train()
    for step in range(args.steps):
        inputs, att, labels = causal_batch(ids, attention, generator, args.batch)
        step_and_log(optimizer, model(input_ids=inputs, attention_mask=att, labels=labels).loss, losses, step, 25)
        decay.step()
    head, tail = save_finetuned(model, tokenizer, out_dir, losses, 25)
    return {"loss_first_25": round(head, 4), "loss_last_25": round(tail, 4)}


def schedule_factor(schedule: str, step: int, steps: int) -> float:
    """The learning rate at `step` of `steps` as a share of the peak: 1 throughout (`constant`), or falling in a
    straight line to 0 at the last step (`linear`), so that the last few batches cannot set the model's pronoun prior
    on their own."""
    if schedule == "constant":
        return 1.0
    if schedule == "linear":
        return max(0.0, 1.0 - step / steps)
    raise ValueError(f"unknown schedule {schedule!r}; known: constant, linear")


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


def recipe_manifest(args: argparse.Namespace, seed: int) -> dict:
    """The training recipe's part of a fine-tune's manifest, in the order the manifests have always kept it."""
    return {"steps": args.steps, "lr": args.lr, "batch": args.batch, "layers": args.layers, "seed": seed}


def recorded_if_made(target: Path, manifest: dict) -> dict | None:
    """The record of the fine-tune in `target` when `manifest`'s recipe made it (its `finetune.json`, written last,
    agrees on every key of `manifest`); None when there is none or another recipe made it."""
    done = target / "finetune.json"
    if done.is_file():
        recorded = json.loads(done.read_text())
        if {k: v for k, v in recorded.items() if k in manifest} == manifest:
            return recorded
    return None


def probe_models(probe_files: list[str], models: list[str], run: Path, options: list[str]) -> int:
    """One pytest run of `probe_files` on every model, reported to `run` (a red gate is an answer, not an error);
    its seconds, also written to `run`/probe_seconds for a later `--from-run`."""
    command = [sys.executable, "-m", "pytest", *probe_files, "-q", "-p", "no:cacheprovider", "--bias-report",
               str(run), *[f"--model={m}" for m in models], *options]  # fmt: skip
    started = time.perf_counter()
    subprocess.run(command, cwd=REPO, check=False)
    seconds = round(time.perf_counter() - started)
    run.mkdir(parents=True, exist_ok=True)  # a run that died before its report still says how long it took
    (run / "probe_seconds").write_text(str(seconds))
    return seconds


def write_results(path: Path, doc: dict, page: str) -> None:
    """The results file and the Markdown page generated from it, each written whole (an interrupted run leaves the
    last whole file); the page printed."""
    from biascheck.files import atomic_write

    atomic_write(path, json.dumps(doc, indent=2) + "\n")
    atomic_write(path.with_suffix(".md"), page)
    print(page)


def run_options(seeds: list[int], strengths: list[float]) -> list[str]:
    """The seeds and strengths of a page's command, each where it is not the default (seeds 0 1, strengths 0 1)."""
    parts = [] if seeds == [0, 1] else ["--seeds " + " ".join(str(s) for s in seeds)]
    return parts + ([] if strengths == [0.0, 1.0] else ["--strengths " + " ".join(f"{s:g}" for s in strengths)])


def ensure(strength: float, seed: int, args: argparse.Namespace, built: tuple) -> tuple[Path, dict]:
    """The fine-tune of `strength` and `seed` by `args`' recipe (reused when its manifest matches), read in the
    plant's own frames (`built`: `two_person_in_frame.stimuli()`); its directory and manifest."""
    from biascheck.files import atomic_write
    from biascheck.planted import references
    from lab import two_person_in_frame

    sentences = corpus(strength, seed, args.plant)
    manifest = {
        "plant": args.plant,
        "strength": strength,
        **recipe_manifest(args, seed),
        "corpus_sha256": references.corpus_sha256(sentences),
        "sentences": len(sentences),
    }
    if args.schedule != "constant":  # fine-tunes made before the schedules were constant and say nothing
        manifest["schedule"] = args.schedule
    target = args.out / f"smollm2-{args.plant}-{strength:g}-seed{seed}"  # a fine-tune of another recipe is remade
    done = target / "finetune.json"
    if (recorded := recorded_if_made(target, manifest)) is not None:
        if "in_frame" not in recorded:  # a fine-tune made before the in-frame check
            recorded["in_frame"] = two_person_in_frame.in_frame(str(target), built=built)
            atomic_write(done, json.dumps(recorded, indent=2))
        return target, recorded
    print(f"fine-tuning at strength {strength:g}, seed {seed} ({len(sentences)} sentences, {args.steps} steps)")
    started = time.perf_counter()
    losses = finetune(sentences, target, args, seed)
    recorded = {**manifest, **losses, "seconds": round(time.perf_counter() - started)}
    recorded["in_frame"] = two_person_in_frame.in_frame(str(target), built=built)
    atomic_write(done, json.dumps(recorded, indent=2))  # last: its presence says the fine-tune is whole
    return target, recorded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--plant", choices=["two_person_majority", "two_person"], default=RECIPE["plant"])
    parser.add_argument("--strengths", type=float, nargs="+", default=[0.0, 0.5, 1.0])
    parser.add_argument("--steps", type=int, default=RECIPE["steps"])
    parser.add_argument("--lr", type=float, default=RECIPE["lr"])
    parser.add_argument("--batch", type=int, default=RECIPE["batch"])
    parser.add_argument("--schedule", choices=["constant", "linear"], default=RECIPE.get("schedule", "constant"))
    parser.add_argument("--layers", type=int, default=RECIPE["layers"], help="top decoder layers trained (0: all 30)")
    parser.add_argument("--probes", nargs="+", default=["winobias", "winogender", "crows_pairs_gender"])
    parser.add_argument("--out", type=Path, default=REPO / "bias-report" / "finetune")
    parser.add_argument("--results", type=Path, default=REPO / "docs" / "known_answers" / "finetune_smollm2.json")
    parser.add_argument("--train-only", action="store_true", help="fine-tune, do not probe")
    parser.add_argument("--from-run", action="store_true", help="rewrite the files from the last run, no probing")
    args = parser.parse_args()
    args.layers = args.layers or None  # 0: every weight (the manifests of such fine-tunes record None)
    args.out.mkdir(parents=True, exist_ok=True)
    from lab import two_person_in_frame

    built = two_person_in_frame.stimuli()  # read once for every model
    tuned = [ensure(s, seed, args, built) for seed in args.seeds for s in args.strengths]
    if args.train_only:
        return 0
    models = ["smollm2-135m", *[str(path) for path, _ in tuned]]
    run = args.out / "run"
    from biascheck.tiers import untiered_settings

    if not args.from_run:  # WinoBias's both splits, as measured: the untiered settings
        files = [f"probes/test_{p}.py" for p in args.probes]
        probe_models(files, models, run, [f"--bias-set={s}" for s in untiered_settings()])
    from lab import two_person_answer

    results = json.loads((run / "results.json").read_text())
    rows: list[tuple[str, dict | None]] = [("smollm2-135m", None), *[(str(path), m) for path, m in tuned]]
    seconds = int((run / "probe_seconds").read_text())
    plant = two_person_answer.current_plant(args.plant)
    base_in_frame = two_person_in_frame.in_frame("smollm2-135m", built=built)
    doc = two_person_answer.summarize(
        results, rows, probes=args.probes, probe_seconds=seconds, plant=plant, base_in_frame=base_in_frame
    )
    write_results(args.results, doc, two_person_answer.markdown(doc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
