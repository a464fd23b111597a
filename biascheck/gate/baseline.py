"""Compare a run with a saved baseline: per metric, the change, the noise, and a verdict. Pure.

Inputs are results.json payloads (dicts, as `biascheck.results.run_payload` builds and
`biascheck.gate.store.ResultStore.load_run` returns). Their result records are read once, on the way in,
into `Result`s (`saved_results`), and everything after works on those. Whether two runs may be compared
at all (versions, data, settings, how each model was loaded) is `biascheck.gate.comparability`'s question.

A metric is identified by `probe.task.metric` (`Result.key`) and compared per model (`partners`): a
model is paired with the baseline's model of the same name; otherwise (a new checkpoint of the same
model has a new name) a one-model baseline is the reference for every new model, and a several-model
baseline (checkpoints / seeds) is summarised by its mean and spread.

Noise of a change (`compare`):
1. Interval noise: each value's 95 % interval has half-width h = (high − low) / 2; for the
   difference of two independent estimates, h_diff = sqrt(h_base² + h_new²) (half-widths add in
   quadrature, as standard errors do). Missing intervals count as 0.
2. Fluctuation band: where the same metric was measured on several checkpoints or seeds (a
   several-model baseline, or a saved fluctuation run given as `bands`), the band is
   z · SD(values) with z = 1.96 and the sample SD (ddof = 1): how far a metric moves between
   checkpoints that should be equivalent (paper 001, section 3.2).
   Paired (`biascheck.gate.paired`): where the two runs scored the same items and the metric declares how it is
   recomputed from them (a one-model baseline or the same model), the interval noise is instead the half-width
   of a paired bootstrap of the change (the same resampled items for both runs), plus what the saved items'
   rounding leaves out of the recorded change; `noise_source` says which rule ("paired" or "intervals").
3. noise = max(interval noise, band). With neither (no intervals, one checkpoint), the noise is
   unknown: the change is reported, never judged.
A baseline metric the new run lacks for a model is `not in this run` (a model dropped from a
several-model baseline lacks all of its metrics); a metric the new run measured and the baseline's
partner models did not is `not in baseline` (the baseline does not cover it, so it cannot be judged).
Both fail the gate as a regression does. A value that is not a number (NaN, saved as null: a metric its
probe could not measure, e.g. the politicians probe's gaps on too few words) is not measured: `n/a`, which
fails the gate (`unmeasured`) where a number was expected: measured in one run and not in the other, or
gated by the profile. Only a report-only metric that neither run could measure is shown and not judged.
Verdict: `regressed` when |change| > noise and the new value is further from the metric's ideal
than the baseline's (`biascheck.spec.distance_from_ideal`: lower for 'higher' metrics, higher for
'lower' ones, further from 0 for a signed lean ('zero': −0.8 → −2.0 is worse), further from the
target for 'target' metrics); `improved` the other way; `changed` beyond noise for a metric with no
better direction; `within noise` otherwise. Of the verdicts only `regressed` fails the gate. Runs saved before
metrics declared `better` carry only `higher_is_better`, which is read as 'higher' / 'lower' / 'none'.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from biascheck import verdict
from biascheck.gate.paired import PairedChange, paired_noise
from biascheck.results import Result
from biascheck.spec import COMPETENCE, distance_from_ideal
from biascheck.thresholds import Threshold

Z95 = 1.96

REGRESSED, IMPROVED, CHANGED, WITHIN, UNKNOWN_NOISE, NEW, MISSING, NOT_A_NUMBER = (
    "regressed",
    "improved",
    "changed",
    "within noise",
    "no noise estimate",
    "not in baseline",
    "not in this run",
    "n/a",
)


@dataclass(frozen=True)
class Comparison:
    model: str
    key: str  # probe.task.metric
    base: float | None
    new: float | None
    change: float | None
    noise: float | None
    noise_source: str  # "paired", "intervals", "fluctuation", "—"
    better: str  # spec.BETTER
    status: str
    profile_verdict: str  # the new value against the profile: pass / FAIL / report

    @property
    def regressed(self) -> bool:
        return self.status == REGRESSED


def _num(value: Any) -> float | None:
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


_FROM_HIGHER_IS_BETTER: dict[Any, str] = {True: "higher", False: "lower"}


def better_of(record: Mapping[str, Any]) -> str:
    """A saved result record's `better` (older runs: from `higher_is_better`)."""
    if record.get("better"):
        return str(record["better"])
    return _FROM_HIGHER_IS_BETTER.get(record.get("higher_is_better"), "none")


def saved_result(record: Mapping[str, Any]) -> Result:
    """One result record of a saved run as the `Result` it was saved from. Read as saved, never judged
    again: a field a record lacks (an older run, a hand-written one) takes its empty value (a missing value
    is nan, as in `Result.from_json`), `better` comes from `higher_is_better` in runs saved before it, and
    what a record carries besides a result's fields (its `regression`) is left out."""
    value, threshold = record.get("value"), record.get("threshold")
    return Result(
        model=record["model"],
        probe=record["probe"],
        task=record["task"],
        metric=record["metric"],
        value=float("nan") if value is None else float(value),
        ci_low=record.get("ci_low"),
        ci_high=record.get("ci_high"),
        n=record.get("n"),
        estimator=record.get("estimator") or "",
        reference=record.get("reference") or "",
        higher_is_better=record.get("higher_is_better"),
        threshold=None
        if threshold is None
        else Threshold(
            min=threshold.get("min"),
            max=threshold.get("max"),
            why=threshold.get("why") or "",
            origin=threshold.get("origin") or "",
        ),
        passed=record.get("passed"),
        paper_value=record.get("paper_value"),
        note=record.get("note") or "",
        items=record.get("items"),
        better=better_of(record),
        target=record.get("target"),
        tier=record.get("tier") or "",
        power=record.get("power"),
        paired=record.get("paired"),
    )


def saved_results(payload: Mapping[str, Any]) -> list[Result]:
    """Every result record of a saved run (a results.json payload), in order, as `Result`s."""
    return [saved_result(record) for record in payload.get("results", [])]


def half_width(result: Result) -> float | None:
    """Step 1: half the 95 % interval, None where there is none."""
    low, high = _num(result.ci_low), _num(result.ci_high)
    return None if low is None or high is None else (high - low) / 2


def interval_noise(base: Result | None, new: Result) -> float | None:
    """Step 1: sqrt(h_base² + h_new²); None when neither side has an interval."""
    widths = [w for w in (half_width(new), None if base is None else half_width(base)) if w is not None]
    return float(math.sqrt(sum(w * w for w in widths))) if widths else None


def fluctuation_band(values: Iterable[float | None], z: float = Z95) -> float | None:
    """Step 2: z · sample SD of one metric over checkpoints/seeds; None with fewer than 2 values."""
    finite = [v for v in (_num(x) for x in values) if v is not None]
    if len(finite) < 2:
        return None
    return float(z * np.std(finite, ddof=1))


def bands_from_run(payload: Mapping[str, Any], z: float = Z95) -> dict[str, float]:
    """Fluctuation band per metric key from a saved run of several models (checkpoints or seeds)."""
    by_key: dict[str, list[float | None]] = {}
    for r in saved_results(payload):
        by_key.setdefault(r.key, []).append(r.value)
    bands = {key: fluctuation_band(values, z) for key, values in by_key.items()}
    return {key: band for key, band in bands.items() if band is not None}


def judge(base: float | None, new: float | None, noise: float | None, better: str, target: float | None = None) -> str:
    """The verdict of one change (see the module docstring)."""
    if base is None or new is None:
        return NOT_A_NUMBER
    if noise is None:
        return UNKNOWN_NOISE
    if abs(new - base) <= noise:
        return WITHIN
    before, after = distance_from_ideal(better, base, target), distance_from_ideal(better, new, target)
    if before is None or after is None or after == before:
        return CHANGED
    return REGRESSED if after > before else IMPROVED


def models_of(payload: Mapping[str, Any]) -> list[str]:
    """A run's model names: its `models` records, else the models of its results."""
    return list(payload.get("models") or {}) or list(dict.fromkeys(r["model"] for r in payload.get("results", [])))


def partners(model: str, base_models: Collection[str]) -> list[str]:
    """The baseline models a new `model` is compared with: the same name, else every baseline model (the
    only one, or the checkpoints / seeds whose mean and spread stand for it)."""
    return [model] if model in base_models else list(base_models)


def baseline_model(model: str, base_models: Collection[str]) -> str | None:
    """The baseline model a new `model` is paired with: the same name, else the baseline's only
    model; None when the baseline has several others (`compare` then uses their mean and spread)."""
    if model in base_models:
        return model
    return next(iter(base_models)) if len(base_models) == 1 else None


def _reference(
    base_results: list[Result], model: str, key: str, base_models: Collection[str]
) -> tuple[Result | None, float | None]:
    """The baseline result a new (model, key) is compared with, and the band its own spread gives. Only
    the model's partners count: another model's value of the same metric is not a reference. Several
    partners stand as one result: their mean, with no interval (their spread is the band)."""
    mates = set(partners(model, base_models))
    same_key = [r for r in base_results if r.key == key and r.model in mates]
    if not same_key:
        return None, None
    if len(same_key) == 1:
        return same_key[0], None
    values = [v for v in (_num(r.value) for r in same_key) if v is not None]
    mean = float(np.mean(values)) if values else float("nan")
    ensemble = replace(same_key[0], model=f"mean of {len(same_key)}", value=mean, ci_low=None, ci_high=None)
    return ensemble, fluctuation_band(r.value for r in same_key)


def compare(base: Mapping[str, Any], new: Mapping[str, Any], bands: dict[str, float] | None = None) -> list[Comparison]:
    """One `Comparison` per new result, then one per (baseline model, metric) the new run lacks. The
    competence guard's results are not compared: their own line judges them in every run. `base` and
    `new` are saved runs (results.json payloads); their results are read here, once (`saved_results`)."""
    bands = bands or {}
    base_all, new_all = saved_results(base), saved_results(new)
    base_results = [r for r in base_all if r.metric != COMPETENCE]
    base_models = models_of(base)
    out: list[Comparison] = []
    seen: set[tuple[str, str]] = set()  # (baseline model, key) that a new result stands for
    for r in new_all:
        if r.metric == COMPETENCE:
            continue
        key = r.key
        seen.update((m, key) for m in partners(r.model, base_models))
        ref, own_band = _reference(base_results, r.model, key, base_models)
        new_value = _num(r.value)
        if ref is None:
            out.append(
                Comparison(r.model, key, None, new_value, None, None, "—", r.better, NEW, verdict.of_profile(r.passed))
            )
            continue
        base_value = _num(ref.value)
        change = None if new_value is None or base_value is None else new_value - base_value
        pair = paired_noise(base_all, ref, new_all, r) if ref.model in base_models else None
        from_items, rule = (pair.noise(change), "paired") if isinstance(pair, PairedChange) else (None, "intervals")
        from_intervals = interval_noise(ref, r) if from_items is None else from_items
        band_candidates = [b for b in (own_band, bands.get(key)) if b is not None]
        band = max(band_candidates) if band_candidates else None
        noise: float | None
        if band is not None and (from_intervals is None or band > from_intervals):
            noise, source = band, "fluctuation"
        else:
            noise, source = from_intervals, rule if from_intervals is not None else "—"
        out.append(
            Comparison(
                r.model,
                key,
                base_value,
                new_value,
                change,
                noise,
                source,
                r.better,
                judge(base_value, new_value, noise, r.better, _num(r.target)),
                verdict.of_profile(r.passed),
            )
        )
    for r in base_results:
        key = r.key
        if (r.model, key) not in seen:
            seen.add((r.model, key))
            out.append(Comparison(r.model, key, _num(r.value), None, None, None, "—", r.better, MISSING, "—"))
    return out


def regressions(comparisons: list[Comparison]) -> list[Comparison]:
    return [c for c in comparisons if c.regressed]


def missing(comparisons: list[Comparison]) -> list[Comparison]:
    """Baseline metrics the new run lacks: they fail the gate too (an unmeasured metric cannot pass)."""
    return [c for c in comparisons if c.status == MISSING]


def uncovered(comparisons: list[Comparison]) -> list[Comparison]:
    """New metrics the baseline does not cover: they fail the gate too (an unjudged metric cannot pass)."""
    return [c for c in comparisons if c.status == NEW]


def unmeasured(comparisons: list[Comparison]) -> list[Comparison]:
    """Metrics that are not a number where a number was expected: measured in one run and NaN in the other,
    or gated by the profile. They fail the gate too (a metric that was not measured cannot pass); a
    report-only metric that neither run could measure is left alone."""
    return [
        c
        for c in comparisons
        if c.status == NOT_A_NUMBER and (c.base is not None or c.new is not None or c.profile_verdict != verdict.REPORT)
    ]


def failing(comparisons: list[Comparison]) -> list[Comparison]:
    """Every comparison that fails the gate: regressed, missing, not covered by the baseline, not measured."""
    return regressions(comparisons) + missing(comparisons) + uncovered(comparisons) + unmeasured(comparisons)
