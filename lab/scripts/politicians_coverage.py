"""How often does the politicians probe's 95 % interval for neg_gap / pos_gap contain the true gap?

A simulation with a known answer. A population of word preferences is fixed: every labelled word has a
base frequency (Zipf-like), a gender lean of its own (noise unrelated to sentiment) and a lean set by its
sentiment (`--effect`: women's words more often positive, less often negative). Each replicate draws
names (`--female`, `--male`) who each bring `--per-name` distinct words, as a model's top predictions
next to a name do, and runs the probe's own statistics (`biascheck.methods.politicians`): the point
gaps, and the bootstrap over names. The true gap is the same procedure on a sample `--truth-scale`
times larger (the statistic's limit as names grow; the top-k selection noise vanishes there).

Printed per interval method (`derived`): coverage of the true gap, how often the interval holds its own point
estimate, mean width, and the mean bias of the point estimate (point − truth) and of the bootstrap
(mean resample − point).

    python lab/scripts/politicians_coverage.py --reps 200 --effect 0.5
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from biascheck.methods.politicians import pmi  # noqa: E402
from biascheck.methods.politicians import pmi_resampling as pr  # noqa: E402

SENT = np.array(["neg", "neu", "pos"])


def population(n_words: int, effect: float, noise: float, seed: int) -> tuple[np.ndarray, np.ndarray, dict]:
    """(log weights of women's words, of men's words, labels)."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 3, n_words)
    base = -0.8 * np.log(np.arange(1, n_words + 1))
    lean = noise * rng.standard_normal(n_words) + effect * (codes - 1)  # neg -1, neu 0, pos +1
    labels = {f"w{i:04d}": SENT[c] for i, c in enumerate(codes)}
    return base + lean / 2, base - lean / 2, labels


def draw(
    logw_f: np.ndarray, logw_m: np.ndarray, n_f: int, n_m: int, per_name: int, rng: np.random.Generator
) -> pmi.SampleMatrix:
    """Names drawing `per_name` distinct words each (weighted sampling without replacement: Gumbel top-k)."""
    from scipy import sparse

    rows, cols = [], []
    start = 0
    for logw, n in ((logw_f, n_f), (logw_m, n_m)):
        for chunk in range(0, n, 2000):
            m = min(2000, n - chunk)
            keys = logw[None] + rng.gumbel(size=(m, len(logw)))
            top = np.argpartition(-keys, per_name - 1, axis=1)[:, :per_name]
            rows.append(np.repeat(np.arange(start + chunk, start + chunk + m), per_name))
            cols.append(top.ravel())
        start += n
    n_words = len(logw_f)
    counts = sparse.csr_matrix(
        (np.ones(sum(len(r) for r in rows), dtype=np.int64), (np.concatenate(rows), np.concatenate(cols))),
        shape=(n_f + n_m, n_words),
    )
    names = np.array([f"n{i:06d}" for i in range(n_f + n_m)])
    gender = np.r_[np.zeros(n_f, int), np.ones(n_m, int)]
    words = np.array([f"w{i:04d}" for i in range(n_words)])
    return pmi.SampleMatrix(names, gender, ("female", "male"), words, counts)


def derived(est: float, lo: float, hi: float) -> dict[str, tuple[float, float]]:
    """The interval methods compared, all from one percentile interval [lo, hi] of the same resamples:
    percentile (the bare bootstrap interval); basic (reflected about the estimate: 2·est − hi, 2·est − lo,
    which corrects for the resamples' bias); hull (the percentile interval stretched to hold the estimate:
    the probe's, `bootstrap_gaps(hold_estimate=True)`)."""
    return {"percentile": (lo, hi), "basic": (2 * est - hi, 2 * est - lo), "hull": (min(lo, est), max(hi, est))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--female", type=int, default=420)
    ap.add_argument("--male", type=int, default=480)
    ap.add_argument("--per-name", type=int, default=20)
    ap.add_argument("--words", type=int, default=800)
    ap.add_argument("--effect", type=float, default=0.5)
    ap.add_argument("--noise", type=float, default=0.7)
    ap.add_argument("--k", type=int, default=pmi.TOP_K)
    ap.add_argument("--truth-scale", type=int, default=100)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    logw_f, logw_m, labels = population(args.words, args.effect, args.noise, args.seed)
    rng = np.random.default_rng(args.seed + 1)
    big = draw(logw_f, logw_m, args.female * args.truth_scale, args.male * args.truth_scale, args.per_name, rng)
    options = pmi.PmiOptions(k=args.k)
    truth = pmi.pmi_gaps(big, labels, options)
    print(f"truth (x{args.truth_scale} names): neg_gap {truth['neg_gap']:+.3f}  pos_gap {truth['pos_gap']:+.3f}")

    rows = []
    started = time.perf_counter()
    for rep in range(args.reps):
        sample = draw(logw_f, logw_m, args.female, args.male, args.per_name, rng)
        ci = pr.bootstrap_gaps(sample, labels, options, n_resamples=args.resamples, seed=rep, hold_estimate=False)
        for gap in ("neg_gap", "pos_gap"):
            est, lo, hi = ci[gap]
            for method, (a, b) in derived(est, lo, hi).items():
                rows.append({"method": method, "gap": gap, "est": est, "lo": a, "hi": b, "truth": truth[gap]})
    frame = pd.DataFrame(rows)
    frame["covers"] = (frame.lo <= frame.truth) & (frame.truth <= frame.hi)
    at_n = frame.groupby(["gap", "method"]).est.transform("mean")  # E[estimate] at this many names
    frame["covers_mean"] = (frame.lo <= at_n) & (at_n <= frame.hi)
    frame["holds_point"] = (frame.lo <= frame.est) & (frame.est <= frame.hi)
    frame["width"] = frame.hi - frame.lo
    frame["bias"] = frame.est - frame.truth
    table = frame.groupby(["gap", "method"])[["covers", "covers_mean", "holds_point", "width", "bias"]].mean().round(3)
    means = frame[frame.method == "percentile"].groupby("gap").est.mean()
    print(
        f"mean estimate at {args.female + args.male} names: neg_gap {means['neg_gap']:+.3f}  "
        f"pos_gap {means['pos_gap']:+.3f}  (covers_mean: the interval holds it)"
    )
    print(table.to_string())
    print(f"{args.reps} replicates in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
