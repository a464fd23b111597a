"""`biascheck fluctuation`: paper 001's pronoun-ratio scores over a sweep of checkpoints and seeds.

1. Read the model list (`biascheck.checkpoints`), the 923 professions (reference data).
2. Load each checkpoint in turn (one in memory at a time) and score both verbs with
   `biascheck.methods.pronoun_ratio.score.score_professions`; keep log r, log n and the chosen verb's certainty.
3. Corpus frequencies from wordfreq when installed (`fluctuation.wordfreq_frequencies`, in the probe's package).
4. `biascheck.methods.pronoun_ratio.fluctuation.analyse`; write the matrices (checkpoints x professions) as CSV,
   the CV per profession, the tables (text and Markdown) and the figure into the output directory.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from biascheck.checkpoints import Checkpoint, read_model_list
from biascheck.files import atomic_write
from biascheck.methods.pronoun_ratio import fluctuation as fl

Scores = tuple[np.ndarray, np.ndarray, "np.ndarray | None", str]  # log r, log n, certainty, estimator


def score_checkpoint(lm: Any, professions: pd.DataFrame, verb: str = "is") -> Scores:
    """One checkpoint's log r, log n and certainty for `verb`, and the estimator: the body of the serial
    loop and of a Ray task alike."""
    from biascheck.methods.pronoun_ratio.score import score_professions

    scores = score_professions(lm, professions).by_verb[verb]
    return scores.log_r, scores.log_n, scores.certainty, scores.estimator


def gather(
    checkpoints: Sequence[Checkpoint], scored: Mapping[str, Scores]
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray | None], str]:
    log_r, log_n, certainty, estimators = {}, {}, {}, set()
    for cp in checkpoints:
        log_r[cp.model], log_n[cp.model], certainty[cp.model], estimator = scored[cp.model]
        estimators.add(estimator)
    return log_r, log_n, certainty, ", ".join(sorted(estimators))


def score_sweep(
    checkpoints: Sequence[Checkpoint], professions: pd.DataFrame, load: Callable[[str], Any], verb: str = "is"
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray | None], str]:
    """Step 2: per model name, log r, log n and certainty for `verb`; and the estimator (one model in memory
    at a time)."""
    scored = {}
    for cp in checkpoints:
        lm = load(cp.model)
        scored[cp.model] = score_checkpoint(lm, professions, verb)
        del lm
    return gather(checkpoints, scored)


def load_and_score(name: str, professions: pd.DataFrame, device: str, dtype: str, data: Any, verb: str) -> Scores:
    """A Ray task's body: load one checkpoint as the serial sweep does and score it."""
    from biascheck.planted.resolve import load_model_or_plant

    return score_checkpoint(load_model_or_plant(name, device=device, dtype=dtype, data_dir=data), professions, verb)


def score_sweep_on_ray(
    checkpoints: Sequence[Checkpoint],
    professions: pd.DataFrame,
    args: argparse.Namespace,
    body: Callable = load_and_score,
) -> tuple[dict[str, Scores], list[str]]:
    """Step 2 on Ray: one task a checkpoint; the scores of those that succeeded and a line for each that
    failed after its retries."""
    from biascheck.sweeps import on_ray

    ray = on_ray.connect(args.ray_address, log=lambda line: print(line, file=sys.stderr))
    calls = [(cp.model, (cp.model, professions, args.device, args.dtype, args.data, args.verb)) for cp in checkpoints]

    def said(outcome: on_ray.Outcome) -> None:
        print(f"{'FAILED' if outcome.failed else 'scored'} {outcome.label}", file=sys.stderr)

    outcomes = on_ray.run_tasks(ray, body, calls, on_ray.resource_request(ray, args.device), on_done=said)
    failed = [f"{o.label}: {o.error}" for o in outcomes if o.failed]
    return {o.label: o.value for o in outcomes if not o.failed}, failed


def matrices_frame(
    checkpoints: Sequence[Checkpoint],
    values: Mapping[str, np.ndarray | None],
    professions: list[str],
    transform: Callable[[np.ndarray], np.ndarray] = np.exp,
) -> pd.DataFrame:
    """One row per checkpoint (_model, _step, _seed: underscored, as "model" is also a profession),
    one column per profession."""
    rows = [c for c in checkpoints if values.get(c.model) is not None]
    frame = pd.DataFrame([transform(np.asarray(values[c.model])) for c in rows], columns=professions)
    frame.insert(0, "_seed", [c.seed for c in rows])
    frame.insert(0, "_step", [c.step for c in rows])
    frame.insert(0, "_model", [c.model for c in rows])
    return frame


def write_outputs(
    out: Path,
    checkpoints: Sequence[Checkpoint],
    result: fl.FluctuationAnalysis,
    log_r: dict[str, np.ndarray],
    log_n: dict[str, np.ndarray],
    certainty: dict[str, np.ndarray | None],
) -> list[Path]:
    """Step 4: R.csv, N.csv, C.csv (matrices), cv.csv (per profession and seed), fluctuation.md/.txt,
    fluctuation.png."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    names = result.professions
    for label, values, transform in (("R", log_r, np.exp), ("N", log_n, np.exp), ("C", certainty, lambda x: x)):
        if any(v is not None for v in values.values()):
            path = out / f"{label}.csv"
            atomic_write(path, matrices_frame(checkpoints, values, names, transform).to_csv(index=False))
            written.append(path)
    cv = pd.DataFrame({"profession": names})
    for s in result.seeds:
        cv[f"cv_n_seed_{s.seed}"], cv[f"cv_r_seed_{s.seed}"] = s.cv_n, s.cv_r
        cv[f"mean_n_seed_{s.seed}"] = s.mean_n
        if s.mean_certainty is not None:
            cv[f"mean_certainty_seed_{s.seed}"] = s.mean_certainty
    atomic_write(out / "cv.csv", cv.to_csv(index=False))
    atomic_write(out / "fluctuation.txt", fl.report_text(result))
    atomic_write(out / "fluctuation.md", "## biascheck fluctuation\n\n" + fl.report_text(result, "github"))
    fig = fl.figure(result)
    fig.savefig(out / "fluctuation.png", dpi=110, bbox_inches="tight")  # type: ignore[attr-defined]
    import matplotlib.pyplot as plt

    plt.close(fig)  # type: ignore[arg-type]
    return [*written, out / "cv.csv", out / "fluctuation.txt", out / "fluctuation.md", out / "fluctuation.png"]


def run_fluctuation(args: argparse.Namespace) -> int:
    from biascheck.data import ReferenceData, professions_en
    from biascheck.planted.resolve import load_model_or_plant

    checkpoints = read_model_list(args.model_list)
    professions = professions_en.professions_923(ReferenceData(mirror=args.data))
    names = list(professions["profession"])

    def load(name: str) -> Any:
        print(f"scoring {name}", file=sys.stderr)
        return load_model_or_plant(name, device=args.device, dtype=args.dtype, data_dir=args.data)

    if getattr(args, "ray", False):
        scored, failed = score_sweep_on_ray(checkpoints, professions, args)
        if failed:  # a sweep with holes is not the sweep asked for: nothing is written, every failure named
            print(
                f"biascheck fluctuation: {len(failed)} of {len(checkpoints)} checkpoints failed on Ray; nothing "
                "was written:\n  " + "\n  ".join(failed),
                file=sys.stderr,
            )
            return 1
        log_r, log_n, certainty, estimator = gather(checkpoints, scored)
    else:
        log_r, log_n, certainty, estimator = score_sweep(checkpoints, professions, load, args.verb)
    frequency = fl.wordfreq_frequencies(names)
    source = (
        "wordfreq (one blended frequency per word; no yearly weights)"
        if frequency is not None
        else "none (pip install wordfreq)"
    )
    result = fl.analyse(checkpoints, log_r, log_n, certainty, names, args.after_step, frequency, source)
    written = write_outputs(args.out, checkpoints, result, log_r, log_n, certainty)
    print(f"estimator: {estimator}; template verb: {args.verb}")
    print(fl.report_text(result, "github" if args.markdown else "simple"))
    print("written: " + ", ".join(str(p) for p in written), file=sys.stderr)
    return 0
