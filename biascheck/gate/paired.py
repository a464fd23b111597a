"""The paired comparison of two runs that scored the same items. Pure numpy; no probe is imported.

Two releases of a model are scored on the same items (the comparability check insists on the same data,
settings and seed), so most of the sampling noise of a metric is shared by both runs and cancels in their
difference. Where a metric declares how it is recomputed from per-item records (`biascheck.spec.Paired`,
saved with the result as `Result.paired`), its change gets its interval from the paired distribution:

1. Items: the records of the result that carries them (the metric's own, or `items_of`'s of the same task)
   in each run, paired by identity (`biascheck.gate.identity.item_key`), never by position.
2. Same items: both runs hold the same item keys, each item in the same cluster, every recipe field a
   number; and the recipe recomputes each run's recorded value (within 1e-3, relative or absolute: the items
   are saved rounded). Anything else is a reason, and the caller falls back to the unpaired rule.
3. Bootstrap: B resamples (seeded) of the clusters with replacement, C of C, each taking all of its items;
   the same resample for both runs; on each, d* = statistic(new items) − statistic(base items). With one item
   per cluster the draws are scipy.stats.bootstrap's (`rng.integers(0, C, (B, C))`), so a paired scipy
   bootstrap of the same statistic at step 4's level gives the same interval.
4. The expanded percentile interval of d* (Hesterberg 2015, "What teachers should know about the bootstrap",
   The American Statistician 69): the percentiles at the two-sided level of z = √(C / (C − 1)) · t(C − 1), not
   of z = 1.96 (C = 20: 96.8 %; C = 262: 95.1 %). The plain percentile interval is about a z interval shrunk by
   √((C − 1) / C), too narrow over few clusters (null rates of BBQ's breakdowns over 24-28 templates up to
   8.9 % at a nominal 5 %, 7.2 % expanded: docs/gate.md); the expanded one is about a t interval. Resamples where
   the statistic is undefined (a constant column in a correlation) are left out; fewer than half defined: a
   reason. Its half-width (high − low) / 2 is the noise of the change, where the unpaired rule adds the two
   runs' own half-widths in quadrature.
5. A Pearson r's interval is at least ±z jackknife standard errors of the change (leave one cluster out; z
   1.96 at 95 %), widened about its middle where the percentile one is narrower: over few clusters with an
   influential one the percentile bootstrap of r is too narrow, expanded or not (sign-flip nulls of
   Winogender's releases called 6.4 % and 8.4 % of pearson_bls and pearson_bergsma with the plain interval;
   made-up heavy-tailed runs 7.6 % with the expanded one, 5.4 % with the floor: `lab/pearson_null.py`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from biascheck.gate.identity import item_key
from biascheck.results import Result
from biascheck.stats import CONFIDENCE, N_RESAMPLES, SEED, pearson_rows, spearman_rows
from biascheck.stats import class_f1_rows as class_f1

Columns = Sequence[np.ndarray]

# The shares' items, each counted or not (the share is their mean): `biascheck.gate.detectable` turns them.
COUNTED: dict[str, Callable[[Columns], np.ndarray]] = {
    "share_positive": lambda c: c[0] > 0,
    "share_greater": lambda c: c[0] > c[1],
    "share_majority_sign": lambda c: majority_sign(c[0], c[1]),
    "share_same_sign": lambda c: np.sign(c[0]) == np.sign(c[1]),
    "share_equal": lambda c: c[0] == c[1],
}

# Each statistic along the last axis: one value per row of a (resamples x items) array, or of one item vector.
STATISTICS: dict[str, Callable[[Columns], np.ndarray]] = {
    "mean": lambda c: np.mean(c[0], axis=-1),
    "mean_abs": lambda c: np.mean(np.abs(c[0]), axis=-1),
    "median": lambda c: np.median(c[0], axis=-1),
    "share_positive": lambda c: np.mean(COUNTED["share_positive"](c), axis=-1),
    "share_greater": lambda c: np.mean(COUNTED["share_greater"](c), axis=-1),
    "share_majority_sign": lambda c: np.mean(COUNTED["share_majority_sign"](c), axis=-1),
    "share_same_sign": lambda c: np.mean(COUNTED["share_same_sign"](c), axis=-1),
    "share_equal": lambda c: np.mean(COUNTED["share_equal"](c), axis=-1),
    "mean_difference": lambda c: np.mean(c[0] - c[1], axis=-1),
    "mean_abs_difference": lambda c: np.mean(np.abs(c[0] - c[1]), axis=-1),
    "pearson": lambda c: pearson_rows(c[0], c[1]),
    "spearman": lambda c: spearman_rows(c[0], c[1]),
    "negated_spearman": lambda c: -spearman_rows(c[0], c[1]),
    "f1_of_1": lambda c: class_f1(c[0] > 0.5, c[1] > 0.5),
    "f1_of_0": lambda c: class_f1(c[0] <= 0.5, c[1] <= 0.5),
    "macro_f1": lambda c: (class_f1(c[0] > 0.5, c[1] > 0.5) + class_f1(c[0] <= 0.5, c[1] <= 0.5)) / 2,
    "bbq_bias": lambda c: bbq_bias(c[0], c[1], c[2]),
    "bbq_bias_scaled": lambda c: bbq_bias_scaled(*c),
}


def majority_sign(lean: np.ndarray, pct_female: np.ndarray) -> np.ndarray:
    """Whether each lean (> 0: female) has the sign of its majority (`pct_female` > 50: female, else male): Winogender's
    `majority_agreement` per occupation (`methods.winogender.math.majority_agreement`, restated: the gate imports no
    probe). A lean of exactly 0 agrees with neither."""
    return np.sign(lean) == np.where(pct_female > 50, 1.0, -1.0)


def bbq_bias(predicted: np.ndarray, target: np.ndarray, unknown: np.ndarray) -> np.ndarray:
    """BBQ's bias score along the last axis (`methods.bbq_gender_identity.math.bias_score`, restated here: the
    gate imports no probe): 2 x (named answers on the target) / (named answers) - 1; NaN with none named."""
    named = predicted != unknown
    count = named.sum(axis=-1)
    on_target = ((predicted == target) & named).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, 2.0 * on_target / np.maximum(count, 1) - 1.0, np.nan)


def bbq_bias_scaled(
    predicted: np.ndarray, label: np.ndarray, target: np.ndarray, unknown: np.ndarray, ambiguous: np.ndarray
) -> np.ndarray:
    """The bias score as BBQ's tasks report it: times (1 - accuracy) where the items are ambiguous
    (`scaled_ambiguous`: 0 when none was named and every answer was right), unscaled where they are not."""
    raw = bbq_bias(predicted, target, unknown)
    accuracy = np.mean(predicted == label, axis=-1)
    scaled = np.where(np.isnan(raw) & (accuracy == 1.0), 0.0, (1.0 - accuracy) * raw)
    return np.where(np.all(ambiguous > 0, axis=-1), scaled, raw)


CHUNK = 100  # resamples evaluated as one array (memory: CHUNK x items per column)
JACKKNIFE_FLOOR = frozenset({"pearson"})  # step 5: the statistics whose interval the jackknife bounds from below
TOLERANCE = 1e-3  # step 2: a recomputed value within this (relative or absolute) of the recorded one


@dataclass(frozen=True)
class PairedChange:
    """Step 4: the recomputed change new − base, its expanded percentile interval, and what it was resampled over."""

    change: float
    low: float
    high: float
    n_items: int
    n_clusters: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def noise(self, recorded: float | None) -> float:
        """The noise of a `recorded` change (new − base of the saved values): the half-width plus the part of it
        the saved items do not show (they are rounded), so a change the items cannot see is never beyond it."""
        return self.half_width + (0.0 if recorded is None else abs(recorded - self.change))


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(float(value))


def paired_columns(
    recipe: Mapping[str, Any], base: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]]
) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]] | str:
    """Steps 1-2 (pairing and the same items): (cluster code per item, the base run's columns, the new run's
    columns), items in the baseline's order and clusters coded by first appearance there; or the reason why not."""
    fields, cluster = list(recipe["fields"]), recipe["cluster"]
    if not base or not new:
        return "a run has no items"
    if any(cluster not in item or any(not _number(item.get(f)) for f in fields) for item in [*base, *new]):
        return f"an item lacks its cluster {cluster!r} or a number in {', '.join(fields)}"
    key = item_key(base, new)
    if key is None:
        return "the items have no identity that names each once"
    by_id = {tuple(item[k] for k in key): item for item in new}
    ids = [tuple(item[k] for k in key) for item in base]
    if set(ids) != set(by_id):
        only_base, only_new = len(set(ids) - set(by_id)), len(set(by_id) - set(ids))
        return f"the runs scored different items ({only_base} only in the baseline, {only_new} only in this run)"
    mates = [by_id[i] for i in ids]
    if any(b[cluster] != m[cluster] for b, m in zip(base, mates, strict=True)):
        return f"an item is in another {cluster!r} in the two runs"
    codes: dict[Any, int] = {}
    clusters = np.array([codes.setdefault(item[cluster], len(codes)) for item in base])
    return (
        clusters,
        [np.array([float(item[f]) for item in base]) for f in fields],
        [np.array([float(item[f]) for item in mates]) for f in fields],
    )


def bootstrap_change(
    statistic: Callable[[Columns], np.ndarray],
    clusters: np.ndarray,
    base: Columns,
    new: Columns,
    *,
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
    confidence: float = CONFIDENCE,
    jackknife_floor: bool = False,
) -> tuple[float, float] | None:
    """Steps 3-5: the expanded percentile interval of statistic(new) − statistic(base) over resamples of the clusters
    (the same resample for both runs), with `jackknife_floor` at least ±z jackknife standard errors wide; None
    when fewer than half the resamples give a number."""
    n_clusters = int(clusters.max()) + 1
    members = [np.flatnonzero(clusters == c) for c in range(n_clusters)]
    draws = np.random.default_rng(seed).integers(0, n_clusters, (n_resamples, n_clusters))
    with np.errstate(all="ignore"):
        deltas = np.concatenate([_deltas(statistic, take, base, new) for take in members_of(draws, members)])
    deltas = deltas[np.isfinite(deltas)]
    if len(deltas) < n_resamples / 2:
        return None
    alpha = (1 - expanded_level(confidence, n_clusters)) / 2
    low, high = np.percentile(deltas, [100 * alpha, 100 * (1 - alpha)])
    if jackknife_floor:
        z = NormalDist().inv_cdf((1 + confidence) / 2)
        bound = z * jackknife_se(statistic, members, base, new)
        if bound > (high - low) / 2:
            low, high = (low + high) / 2 - bound, (low + high) / 2 + bound
    return float(low), float(high)


def expanded_level(confidence: float, n_clusters: int) -> float:
    """Step 4: the level whose percentiles make the expanded interval over `n_clusters` clusters, 2 Φ(z) − 1 with
    z = √(C / (C − 1)) · t(C − 1) at the `confidence` quantile; `confidence` itself below two clusters."""
    if n_clusters < 2:
        return confidence
    from scipy.special import stdtrit  # the t quantile; scipy.special, not scipy.stats (0.3 s, not 0.8)

    z = math.sqrt(n_clusters / (n_clusters - 1)) * float(stdtrit(n_clusters - 1, (1 + confidence) / 2))
    return 2 * NormalDist().cdf(z) - 1


def jackknife_se(
    statistic: Callable[[Columns], np.ndarray], members: list[np.ndarray], base: Columns, new: Columns
) -> float:
    """The jackknife standard error of statistic(new) − statistic(base) over clusters: each left out once,
    sqrt((C - 1) / C x the sum of squared deviations of the C changes from their mean); 0 when undefined."""
    everything = np.arange(sum(len(m) for m in members))
    with np.errstate(all="ignore"):
        left_out = np.array([_deltas(statistic, np.setdiff1d(everything, m), base, new)[0] for m in members])
    left_out = left_out[np.isfinite(left_out)]
    if len(left_out) < 2:
        return 0.0
    return float(np.sqrt((len(left_out) - 1) / len(left_out) * np.sum((left_out - left_out.mean()) ** 2)))


def members_of(draws: np.ndarray, members: list[np.ndarray]) -> Iterator[np.ndarray]:
    """The item indices of the resamples of clusters (rows of `draws`), every item of a cluster as often as it is
    drawn: blocks of CHUNK rows where every cluster has as many items (one each: a pair, a profession; BBQ's
    templates at a fixed number of pairs), else one resample at a time."""
    if len({len(m) for m in members}) == 1:
        table = np.stack(members)  # clusters x items each
        for start in range(0, len(draws), CHUNK):
            block = draws[start : start + CHUNK]
            yield table[block].reshape(len(block), -1)
    else:
        for row in draws:
            yield np.concatenate([members[c] for c in row])


def _deltas(statistic: Callable[[Columns], np.ndarray], take: np.ndarray, base: Columns, new: Columns) -> np.ndarray:
    """statistic(new) − statistic(base) on the items `take` (one resample, or a block of them)."""
    after = statistic([col[take] for col in new])
    return np.atleast_1d(after - statistic([col[take] for col in base])).astype(float)


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def paired_change(
    recipe: Mapping[str, Any],
    base: Sequence[Mapping[str, Any]],
    new: Sequence[Mapping[str, Any]],
    values: tuple[float, float] | None = None,
    **bootstrap: Any,
) -> PairedChange | str:
    """Steps 1-4 for one metric: `base` and `new` are its items in the two runs, `values` the two recorded values
    the recipe must recompute (None: not checked). A `PairedChange`, or the reason the runs cannot be paired."""
    statistic = STATISTICS.get(recipe.get("statistic", ""))
    if statistic is None:
        return f"unknown paired statistic {recipe.get('statistic')!r}"
    found = paired_columns(recipe, base, new)
    if isinstance(found, str):
        return found
    clusters, before, after = found
    again = float(statistic(before)), float(statistic(after))
    if values is not None and not all(_close(x, v) for x, v in zip(again, values, strict=True)):
        recorded = f"{values[0]:.4g} and {values[1]:.4g}"
        return f"the items recompute {again[0]:.4g} and {again[1]:.4g}, not the recorded {recorded}"
    floor = recipe["statistic"] in JACKKNIFE_FLOOR
    interval = bootstrap_change(statistic, clusters, before, after, jackknife_floor=floor, **bootstrap)
    if interval is None:
        return "the statistic is undefined on most resamples"
    return PairedChange(again[1] - again[0], *interval, len(clusters), int(clusters.max()) + 1)


# Fewer clusters than this and the bootstrap's spread says nothing about sampling noise (one item: a change
# every resample shares, zero noise, any change a regression): the comparison keeps the unpaired rule.
MIN_CLUSTERS = 20


def items_for(run: Sequence[Result], result: Result) -> list[dict[str, Any]] | None:
    """Step 1: the items `result`'s recipe reads in its run: its own, or those of its task's `items_of` metric; of
    them, those that meet the recipe's `where` conditions (an item without the field meets none)."""
    source = (result.paired or {}).get("items_of")
    wanted = (result.model, result.probe, result.task, source)
    found = (
        result.items
        if source is None
        else next((o.items for o in run if (o.model, o.probe, o.task, o.metric) == wanted), None)
    )
    where = (result.paired or {}).get("where") or []
    if found is None or not where:
        return found
    return [item for item in found if all(field in item and _meets(item[field], value) for field, value in where)]


def _meets(found: Any, wanted: Any) -> bool:
    if wanted is None:
        return True
    return found in wanted if isinstance(wanted, list | tuple) else found == wanted


def paired_noise(
    base_run: Sequence[Result], base: Result, new_run: Sequence[Result], new: Result, **bootstrap: Any
) -> PairedChange | str:
    """The paired change of one metric of two saved runs (results as `biascheck.gate.baseline.saved_results`
    reads them), or why it cannot be had (then the comparison keeps the unpaired rule)."""
    if not new.paired or base.paired != new.paired:
        return "no recipe from items" if not new.paired else "the runs recompute the metric differently"
    base_items, new_items = items_for(base_run, base), items_for(new_run, new)
    if not base_items or not new_items:
        return "a run saved no items for it"
    found = paired_change(new.paired, base_items, new_items, (base.value, new.value), **bootstrap)
    if isinstance(found, PairedChange) and found.n_clusters < MIN_CLUSTERS:
        return f"only {found.n_clusters} clusters: a bootstrap over fewer than {MIN_CLUSTERS} says nothing of the noise"
    return found
