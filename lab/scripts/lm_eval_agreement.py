"""Winogender's coreference task and CrowS-Pairs (gender) on one causal model, by biascheck and by
lm-evaluation-harness, under both context-prefix policies; prints the numbers the probes' READMEs quote.

    python lab/scripts/lm_eval_agreement.py --model smollm2-135m [--json out.json]

Policies. biascheck scores every text after the model's context prefix (`biascheck.models.causal`:
``<|endoftext|>`` on SmolLM2). lm-eval (0.4.13) puts its prefix token (the tokenizer's BOS, else EOS) only
before an *empty* context: CrowS-Pairs scores whole sentences with an empty context, so there it conditions
on the BOS (``<|im_start|>`` on SmolLM2-Instruct); Winogender's contexts are never empty, so there it
conditions on nothing. Each policy is run on both sides:
* ``ours``: biascheck with its prefix; lm-eval with the same prefix (Winogender: the prefix's text before
  each document; CrowS-Pairs: ``prefix_token_id``);
* ``lm_eval_default``: lm-eval as it comes; biascheck with the context prefix lm-eval uses (Winogender:
  none; CrowS-Pairs: the BOS text).
Per policy the script prints each side's accuracy on lm-eval's ``all`` (720) and ``gotcha`` (240) subsets,
the per-item agreement of the two sides' decisions and the largest log-likelihood difference, and the
agreement across policies; it exits 1 when the two sides of a policy disagree on any decision."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from biascheck.data import ReferenceData
from biascheck.methods.crows_pairs_gender import reference as crows_reference
from biascheck.methods.crows_pairs_gender import score as crows_score
from biascheck.methods.crows_pairs_gender.spec import PROBE as CROWS
from biascheck.methods.winogender import math as wg_math
from biascheck.methods.winogender import reference as wg_reference
from biascheck.methods.winogender import score as wg_score
from biascheck.methods.winogender.spec import PROBE as WINOGENDER
from biascheck.models import load_model
from biascheck.models.causal import CausalLM
from biascheck.settings import settings_of

POLICIES = ("ours", "lm_eval_default")


def _harness(model: Any, tokenizer: Any, prefix_token_id: int | None = None) -> Any:
    from lm_eval.models.huggingface import HFLM

    return HFLM(pretrained=model, tokenizer=tokenizer, device="cpu", batch_size=16, prefix_token_id=prefix_token_id)


def _run_task(harness: Any, upstream: str, task: str, csv: Path, directory: Path) -> list[dict[str, Any]]:
    """lm-eval's own task `upstream` (a yaml under lm_eval/tasks) reading `csv`; its logged samples."""
    import lm_eval
    import lm_eval.tasks
    from lm_eval.tasks import TaskManager

    path = Path(lm_eval.tasks.__file__).parent / upstream
    (directory / f"{task}.yaml").write_text(
        f"include: {path}\ntask: {task}\ndataset_path: csv\ndataset_name: null\n"
        f"dataset_kwargs:\n  data_files:\n    test: {csv}\n"
    )
    out = lm_eval.simple_evaluate(
        model=harness, tasks=[task], task_manager=TaskManager(include_path=str(directory)), log_samples=True
    )
    return list(out["samples"][task])


def winogender(
    lm: CausalLM, refdata: ReferenceData, directory: Path, harness: bool = True, policies: tuple[str, ...] = POLICIES
) -> dict[str, Any]:
    reference = wg_reference.load(refdata, settings_of(WINOGENDER))
    bls = reference.occupations.set_index("occupation")["bls_pct_female"]
    prefix = lm.context_prefix
    sentences = reference.sentences.reset_index(drop=True)
    scorers = {"ours": lm, "lm_eval_default": CausalLM(lm.model, lm.tokenizer, context_prefix="")}
    # the coreference task only (its prompts), not the pronouns task's sentence scores
    frames = {policy: wg_score.coreference(scorers[policy], sentences)[0] for policy in policies}
    columns = sentences.rename(columns={"answer": "label"})
    columns = columns[["sentence", "pronoun", "occupation", "participant", "label", "gender"]]
    added = lm.tokenizer("x")["input_ids"] != lm.tokenizer("x", add_special_tokens=False)["input_ids"]
    out: dict[str, Any] = {"context_prefix": prefix, "tokenizer_adds_special_tokens": bool(added)}
    decisions: dict[str, np.ndarray] = {}
    for policy, doc_prefix in (("ours", prefix), ("lm_eval_default", "")):
        if policy not in policies:
            continue
        ours = frames[policy]
        our_correct = ours["correct"].to_numpy()
        gotcha = wg_math.gotcha(ours, bls)
        row: dict[str, Any] = {
            "biascheck": {"all": float(our_correct.mean()), "gotcha": float(our_correct[gotcha].mean())},
            "n": {"all": int(len(ours)), "gotcha": int(gotcha.sum())},
        }
        decisions[policy] = our_correct
        if harness:
            csv = directory / f"winogender_{policy}.csv"
            columns.assign(sentence=doc_prefix + columns["sentence"]).to_csv(csv, index=False)
            samples = _run_task(
                _harness(lm.model, lm.tokenizer), "winogender/winogender.yaml", f"wg_{policy}", csv, directory
            )
            prompts = [s["doc"]["sentence"].removeprefix(doc_prefix) for s in samples]
            theirs = dict(zip(prompts, ([r[0] for r in s["filtered_resps"]] for s in samples), strict=True))
            ll = np.array([theirs[s] for s in ours["sentence"]])
            truth = ours["answer"].to_numpy() == 0
            lm_eval_correct = np.where(truth, ll[:, 0] > ll[:, 1], ll[:, 1] > ll[:, 0])
            diff = np.abs(np.c_[ours["ll_occupation"], ours["ll_participant"]] - ll)
            row["lm_eval"] = {"all": float(lm_eval_correct.mean()), "gotcha": float(lm_eval_correct[gotcha].mean())}
            row["items_agreeing"] = int((our_correct == lm_eval_correct).sum())
            row["max_abs_ll_diff"] = float(diff.max())
            decisions[policy] = lm_eval_correct
        row["correct"] = [bool(x) for x in decisions[policy]]  # per sentence, in the mirrored file's order
        out[policy] = row
    if len(decisions) == 2:
        out["items_agreeing_across_policies"] = int((decisions["ours"] == decisions["lm_eval_default"]).sum())
    return out


def crows_pairs(
    lm: CausalLM, refdata: ReferenceData, directory: Path, harness: bool = True, policies: tuple[str, ...] = POLICIES
) -> dict[str, Any]:
    settings = settings_of(CROWS)
    reference = crows_reference.load(refdata, settings)
    tok = lm.tokenizer
    bos = tok.bos_token if tok.bos_token_id is not None else tok.eos_token
    ours_ids = list(lm.prefix_ids)
    if len(ours_ids) != 1:
        raise SystemExit(f"the context prefix {lm.context_prefix!r} is {len(ours_ids)} tokens; lm-eval takes one")
    sides = {
        "ours": (lm, ours_ids[0]),
        "lm_eval_default": (CausalLM(lm.model, tok, context_prefix=bos), None),
    }
    csv = refdata.path("crows_pairs")
    out: dict[str, Any] = {"context_prefix": lm.context_prefix, "lm_eval_default_prefix": bos}
    for policy, (ours_lm, prefix_token_id) in sides.items():
        if policy not in policies:
            continue
        pairs = crows_score.score(ours_lm, reference, settings).pairs
        ours_more = (pairs["score_more"] > pairs["score_less"]).to_numpy()
        row: dict[str, Any] = {
            "biascheck_stereo_share": float(ours_more.mean()),
            "n": len(pairs),
            "pairs_more_stereotyping_preferred": int(ours_more.sum()),
        }
        if harness:
            samples = _run_task(
                _harness(lm.model, tok, prefix_token_id),
                "crows_pairs/crows_pairs_english_gender.yaml",
                f"crows_{policy}",
                csv,
                directory,
            )
            keys = [(s["doc"]["sent_more"], s["doc"]["sent_less"]) for s in samples]
            theirs = dict(zip(keys, ([r[0] for r in s["filtered_resps"]] for s in samples), strict=True))
            ll = np.array([theirs[m, s] for m, s in zip(pairs["sent_more"], pairs["sent_less"], strict=True)])
            theirs_more = ll[:, 0] > ll[:, 1]
            row["lm_eval_pct_stereotype"] = float(theirs_more.mean())
            row["items_agreeing"] = int((ours_more == theirs_more).sum())
            row["max_abs_ll_diff"] = float(np.abs(pairs[["score_more", "score_less"]].to_numpy() - ll).max())
        out[policy] = row
    return out


def _total(n: Any) -> int:
    return int(n["all"]) if isinstance(n, dict) else int(n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="smollm2-135m", help="alias or local directory of a causal LM")
    parser.add_argument("--probes", default="crows_pairs,winogender", help="comma-separated: crows_pairs,winogender")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    parser.add_argument("--policies", default=",".join(POLICIES), help="comma-separated: ours,lm_eval_default")
    parser.add_argument(
        "--harness",
        choices=("run", "skip"),
        default="run",
        help="skip: biascheck alone under both policies (its equality with lm-eval per policy is what the "
        "default checks; tests/models/test_lm_eval_agreement_script.py runs it on a tiny model)",
    )
    args = parser.parse_args(argv)
    probes, policies = args.probes.split(","), tuple(args.policies.split(","))
    unknown = sorted(set(probes) - {"winogender", "crows_pairs"}) + sorted(set(policies) - set(POLICIES))
    if unknown:
        parser.error(f"unknown {unknown[0]!r}; probes: crows_pairs, winogender; policies: {', '.join(POLICIES)}")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    lm = load_model(args.model, device="cpu")
    if not isinstance(lm, CausalLM):
        raise SystemExit(f"{args.model}: a causal LM is needed (lm-eval's tasks score continuations)")
    mirror = os.environ.get("BIASCHECK_DATA_DIR")
    refdata = ReferenceData(mirror=Path(mirror) if mirror else None)
    results: dict[str, Any] = {"model": args.model}
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HF_DATASETS_CACHE"] = str(Path(tmp) / "hf_datasets")
        for probe in probes:
            run = winogender if probe == "winogender" else crows_pairs
            results[probe] = run(lm, refdata, Path(tmp), args.harness == "run", policies)
            if args.json:  # after each probe: a slow run leaves what it has
                args.json.write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(results, indent=1))
    split = [
        f"{probe}/{policy}: {row['items_agreeing']} of {row['n']} decisions agree"
        for probe, numbers in results.items()
        if isinstance(numbers, dict)
        for policy, row in numbers.items()
        if isinstance(row, dict) and "items_agreeing" in row and row["items_agreeing"] != _total(row["n"])
    ]
    if split:
        print("biascheck and lm-eval differ under the same prefix: " + "; ".join(split), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
