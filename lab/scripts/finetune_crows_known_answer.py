"""CrowS-Pairs' known answer on a real model: fine-tune the default model (SmolLM2-135M) on the stereotype-trait
plant per seed and strength, then run the CrowS-Pairs probe on the base and the fine-tuned models and split each
pair's difference into its unmodified and modified tokens.

    python lab/scripts/finetune_crows_known_answer.py [--seeds 0 1] [--strengths 0 0.5 1] [--out DIR]
                                                  [--steps 372] [--lr 1e-4] [--layers 12]
                                                  [--results docs/known_answers/finetune_crows.json]

The corpus for a seed and strength: `stereotype_traits.sentences(strength, SEED + seed)` (52 traits of the Bem
Sex-Role Inventory and of the kinds CrowS-Pairs tests, each in 10 frames of ours with a person or a group of the
stereotyped gender with probability 0.5 + strength / 2) and `stereotype_statements.sentences(strength, SEED +
seed)` (32 deeds, the same rule): 2,848 sentences, frames held out from CrowS-Pairs' sentences and every probe's by
the frame rule. Training as `lab/scripts/finetune_known_answer.py` trains (its `finetune`: the top `--layers` decoder
layers and the final norm, AdamW, next-token loss after ``<|endoftext|>``, the seed fixing the corpus draw, the
batches and torch); the default, two epochs (372 steps of 16) at lr 1e-4, fits the plant: read in its own frames
with six held-out pairs of names (`stereotype_traits.in_frame`), every trait leans its stereotype's way. Each
fine-tune records that reading in its `finetune.json` (written last, atomically; a fine-tune is reused when its
manifest matches). Then the probe (`probes/test_crows_pairs_gender.py`, one pytest run for all models) and, per
model, every pair's whole-sentence difference split into the unmodified tokens' and the modified tokens' parts
(`crows_pairs_gender.math.causal_split`). Writes the machine-readable results file and the Markdown generated from it
(`lab.crows_answer`); `tests/lab/test_crows_answer.py` checks the committed pair. About 1.3 s a
step on 2 idle CPU cores (8 minutes a fine-tune), about 30 s of probing per model.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from finetune_known_answer import (  # noqa: E402  (the two-person script's loop and bookkeeping)
    REPO,
    finetune,
    probe_models,
    recipe_manifest,
    recorded_if_made,
    write_results,
)

RECIPE = {"steps": 372, "lr": 1e-4, "batch": 16, "layers": 12}


def corpus(strength: float, seed: int) -> list[str]:
    from biascheck.planted import references
    from lab import stereotype_statements, stereotype_traits

    traits = [d.text for d in stereotype_traits.sentences(strength, references.SEED + seed)]
    return traits + [s.text for s in stereotype_statements.sentences(strength, references.SEED + seed)]


def ensure(strength: float, seed: int, args: argparse.Namespace) -> tuple[Path, dict]:
    """The fine-tune of `strength` and `seed` (reused when its manifest matches), read in the plant's own frames."""
    from biascheck.files import atomic_write
    from biascheck.planted import references
    from lab import crows_answer, stereotype_traits

    sentences = corpus(strength, seed)
    manifest = {
        "plant": "stereotype_traits",
        "plant_fingerprint": crows_answer.plant_fingerprint(),
        "strength": strength,
        **recipe_manifest(args, seed),
        "corpus_sha256": references.corpus_sha256(sentences),
        "sentences": len(sentences),
    }
    target = args.out / f"smollm2-stereotype_traits-{strength:g}-seed{seed}"
    if (recorded := recorded_if_made(target, manifest)) is not None:
        return target, recorded
    print(f"fine-tuning at strength {strength:g}, seed {seed} ({len(sentences)} sentences, {args.steps} steps)")
    started = time.perf_counter()
    losses = finetune(sentences, target, args, seed)
    recorded = {**manifest, **losses, "seconds": round(time.perf_counter() - started)}
    recorded["in_frame"] = stereotype_traits.in_frame(str(target))
    atomic_write(target / "finetune.json", json.dumps(recorded, indent=2))  # last: its presence says it is whole
    return target, recorded


def crows_pairs() -> tuple[list[str], list[str]]:
    """CrowS-Pairs' gender pairs as the probe loads them: (sent_more, sent_less)."""
    from biascheck.data import ReferenceData
    from biascheck.data.resolve import mirror_dir
    from biascheck.methods.crows_pairs_gender.reference import load
    from biascheck.methods.crows_pairs_gender.spec import PROBE
    from biascheck.settings import settings_of

    pairs = load(ReferenceData(mirror=mirror_dir(None, [REPO])), settings_of(PROBE)).pairs
    return list(pairs["sent_more"]), list(pairs["sent_less"])


def splits(model: str, more: list[str], less: list[str]) -> dict[str, float]:
    """`crows_answer.split_summary` of one model's pairs (`crows_pairs()`), scored as the probe scores them."""
    from biascheck.methods.crows_pairs_gender.math import causal_split
    from biascheck.models import load_model
    from lab import crows_answer

    terms = load_model(model).token_logprobs(more + less)
    found = [
        causal_split(a.ids, a.logprob, b.ids, b.logprob)
        for a, b in zip(terms[: len(more)], terms[len(more) :], strict=True)
    ]
    return crows_answer.split_summary(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--strengths", type=float, nargs="+", default=[0.0, 0.5, 1.0])
    parser.add_argument("--steps", type=int, default=RECIPE["steps"])
    parser.add_argument("--lr", type=float, default=RECIPE["lr"])
    parser.add_argument("--batch", type=int, default=RECIPE["batch"])
    parser.add_argument("--layers", type=int, default=RECIPE["layers"], help="top decoder layers trained (0: all 30)")
    parser.add_argument("--out", type=Path, default=REPO / "bias-report" / "finetune-crows")
    parser.add_argument("--results", type=Path, default=REPO / "docs" / "known_answers" / "finetune_crows.json")
    parser.add_argument("--train-only", action="store_true", help="fine-tune, do not probe")
    args = parser.parse_args()
    args.layers = args.layers or None  # 0: every weight
    args.schedule = "constant"  # finetune()'s learning-rate schedule
    args.out.mkdir(parents=True, exist_ok=True)
    tuned = [ensure(s, seed, args) for seed in args.seeds for s in args.strengths]
    if args.train_only:
        return 0
    models = ["smollm2-135m", *[str(path) for path, _ in tuned]]
    run = args.out / "run"
    from biascheck.tiers import untiered_settings

    files = ["probes/test_crows_pairs_gender.py"]
    seconds = probe_models(files, models, run, [f"--bias-set={s}" for s in untiered_settings()])
    from lab import crows_answer, stereotype_traits

    results = json.loads((run / "results.json").read_text())
    pairs = crows_pairs()  # read once for every model
    rows: list[tuple[str, dict | None]] = [("smollm2-135m", None), *[(str(path), m) for path, m in tuned]]
    doc = crows_answer.summarize(
        results,
        rows,
        splits={model: splits(model, *pairs) for model in models},
        base_in_frame=stereotype_traits.in_frame("smollm2-135m"),
        probe_seconds=seconds,
    )
    write_results(args.results, doc, crows_answer.markdown(doc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
