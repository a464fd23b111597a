"""Compare a run with a saved baseline: per metric, the change, the noise, and a verdict. Pure.

Inputs are results.json payloads (dicts, as `biascheck.report.summary.results_payload` builds and
`biascheck.gate.store.ResultStore.load_run` returns). A metric is identified by `probe.task.metric` and
compared per model (`partners`): a model is paired with the baseline's model of the same name;
otherwise (a new checkpoint of the same model has a new name) a one-model baseline is the reference
for every new model, and a several-model baseline (checkpoints / seeds) is summarised by its mean
and spread.

Noise of a change (`compare`):
1. Interval noise: each value's 95 % interval has half-width h = (high − low) / 2; for the
   difference of two independent estimates, h_diff = sqrt(h_base² + h_new²) (half-widths add in
   quadrature, as standard errors do). Missing intervals count as 0.
2. Fluctuation band: where the same metric was measured on several checkpoints or seeds (a
   several-model baseline, or a saved fluctuation run given as `bands`), the band is
   z · SD(values) with z = 1.96 and the sample SD (ddof = 1): how far a metric moves between
   checkpoints that should be equivalent (paper 001, section 3.2).
3. noise = max(interval noise, band). With neither (no intervals, one checkpoint), the noise is
   unknown: the change is reported, never judged.
A baseline metric the new run lacks for a model is `not in this run` (a model dropped from a
several-model baseline lacks all of its metrics); a metric the new run measured and the baseline's
partner models did not is `not in baseline` (the baseline does not cover it, so it cannot be judged).
Both fail the gate as a regression does.
Verdict: `regressed` when |change| > noise and the new value is further from the metric's ideal
than the baseline's (`biascheck.spec.distance_from_ideal`: lower for 'higher' metrics, higher for
'lower' ones, further from 0 for a signed lean ('zero': −0.8 → −2.0 is worse), further from the
target for 'target' metrics); `improved` the other way; `changed` beyond noise for a metric with no
better direction; `within noise` otherwise. Of the verdicts only `regressed` fails the gate. Runs saved before
metrics declared `better` carry only `higher_is_better`, which is read as 'higher' / 'lower' / 'none'.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from tabulate import tabulate

from biascheck.spec import BETTER_SHORT, COMPETENCE, distance_from_ideal

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
    noise_source: str  # "intervals", "fluctuation", "—"
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


def key_of(result: dict[str, Any]) -> str:
    return f"{result['probe']}.{result['task']}.{result['metric']}"


def half_width(result: dict[str, Any]) -> float | None:
    """Step 1: half the 95 % interval, None where there is none."""
    low, high = _num(result.get("ci_low")), _num(result.get("ci_high"))
    return None if low is None or high is None else (high - low) / 2


def interval_noise(base: dict[str, Any] | None, new: dict[str, Any]) -> float | None:
    """Step 1: sqrt(h_base² + h_new²); None when neither side has an interval."""
    widths = [w for w in (half_width(new), None if base is None else half_width(base)) if w is not None]
    return float(math.sqrt(sum(w * w for w in widths))) if widths else None


def fluctuation_band(values: Iterable[float | None], z: float = Z95) -> float | None:
    """Step 2: z · sample SD of one metric over checkpoints/seeds; None with fewer than 2 values."""
    finite = [v for v in (_num(x) for x in values) if v is not None]
    if len(finite) < 2:
        return None
    return float(z * np.std(finite, ddof=1))


def bands_from_run(payload: dict[str, Any], z: float = Z95) -> dict[str, float]:
    """Fluctuation band per metric key from a run of several models (checkpoints or seeds)."""
    by_key: dict[str, list[float | None]] = {}
    for r in payload.get("results", []):
        by_key.setdefault(key_of(r), []).append(r.get("value"))
    bands = {key: fluctuation_band(values, z) for key, values in by_key.items()}
    return {key: band for key, band in bands.items() if band is not None}


def better_of(result: dict[str, Any]) -> str:
    """A saved result's `better` (older runs: from `higher_is_better`)."""
    if result.get("better"):
        return str(result["better"])
    return {True: "higher", False: "lower"}.get(result.get("higher_is_better"), "none")


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


def _verdict(result: dict[str, Any]) -> str:
    passed = result.get("passed")
    return "report" if passed is None else ("pass" if passed else "FAIL")


def models_of(payload: dict[str, Any]) -> list[str]:
    """A run's model names: its `models` records, else the models of its results."""
    return list(payload.get("models") or {}) or list(dict.fromkeys(r["model"] for r in payload.get("results", [])))


def partners(model: str, base_models: Collection[str]) -> list[str]:
    """The baseline models a new `model` is compared with: the same name, else every baseline model (the
    only one, or the checkpoints / seeds whose mean and spread stand for it)."""
    return [model] if model in base_models else list(base_models)


def _reference(
    base_results: list[dict[str, Any]], model: str, key: str, base_models: Collection[str]
) -> tuple[dict[str, Any] | None, float | None]:
    """The baseline record a new (model, key) is compared with, and the band its own spread gives. Only
    the model's partners count: another model's value of the same metric is not a reference."""
    mates = set(partners(model, base_models))
    same_key = [r for r in base_results if key_of(r) == key and r["model"] in mates]
    if not same_key:
        return None, None
    if len(same_key) == 1:
        return same_key[0], None
    values = [v for v in (_num(r.get("value")) for r in same_key) if v is not None]
    mean = float(np.mean(values)) if values else None
    ensemble = {**same_key[0], "model": f"mean of {len(same_key)}", "value": mean, "ci_low": None, "ci_high": None}
    return ensemble, fluctuation_band(r.get("value") for r in same_key)


def compare(base: dict[str, Any], new: dict[str, Any], bands: dict[str, float] | None = None) -> list[Comparison]:
    """One `Comparison` per new result, then one per (baseline model, metric) the new run lacks. The
    competence guard's results are not compared: their own line judges them in every run."""
    bands = bands or {}
    base_results = [r for r in base.get("results", []) if r.get("metric") != COMPETENCE]
    base_models = models_of(base)
    out: list[Comparison] = []
    seen: set[tuple[str, str]] = set()  # (baseline model, key) that a new result stands for
    for r in new.get("results", []):
        if r.get("metric") == COMPETENCE:
            continue
        key = key_of(r)
        seen.update((m, key) for m in partners(r["model"], base_models))
        ref, own_band = _reference(base_results, r["model"], key, base_models)
        new_value = _num(r.get("value"))
        if ref is None:
            out.append(Comparison(r["model"], key, None, new_value, None, None, "—", better_of(r), NEW, _verdict(r)))
            continue
        base_value = _num(ref.get("value"))
        change = None if new_value is None or base_value is None else new_value - base_value
        from_intervals = interval_noise(ref, r)
        band_candidates = [b for b in (own_band, bands.get(key)) if b is not None]
        band = max(band_candidates) if band_candidates else None
        if band is not None and (from_intervals is None or band > from_intervals):
            noise, source = band, "fluctuation"
        else:
            noise, source = from_intervals, "intervals" if from_intervals is not None else "—"
        out.append(
            Comparison(
                r["model"],
                key,
                base_value,
                new_value,
                change,
                noise,
                source,
                better_of(r),
                judge(base_value, new_value, noise, better_of(r), _num(r.get("target"))),
                _verdict(r),
            )
        )
    for r in base_results:
        key = key_of(r)
        if (r["model"], key) not in seen:
            seen.add((r["model"], key))
            out.append(
                Comparison(
                    r["model"],
                    key,
                    _num(r.get("value")),
                    None,
                    None,
                    None,
                    "—",
                    better_of(r),
                    MISSING,
                    "—",
                )
            )
    return out


# What changes numbers besides the model's weights: a comparison across any of these is refused
# unless asked for (--bias-allow-mismatch / --allow-mismatch).
MODEL_FIELDS = ("family", "dtype", "device_class", "context_prefix", "weights", "quantisation", "tokenizer_sha256")


def model_identity(record: dict[str, Any]) -> dict[str, Any]:
    """The fields of a saved model record that change numbers besides the weights (`MODEL_FIELDS`)."""
    extra = record.get("extra") or {}
    device = record.get("device")
    return {
        "family": record.get("family"),
        "dtype": record.get("dtype"),
        "device_class": None if device is None else str(device).split(":")[0],
        "context_prefix": extra.get("context_prefix"),
        "weights": extra.get("weights"),
        "quantisation": extra.get("quantisation"),
        "tokenizer_sha256": extra.get("tokenizer_sha256"),
    }


def _shown(value: Any) -> str:
    return "not recorded" if value is None else repr(value)


def baseline_model(model: str, base_models: Collection[str]) -> str | None:
    """The baseline model a new `model` is paired with: the same name, else the baseline's only
    model; None when the baseline has several others (`compare` then uses their mean and spread)."""
    if model in base_models:
        return model
    return next(iter(base_models)) if len(base_models) == 1 else None


def _paired_models(base: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    """(baseline model, new model) pairs, by `partners`: a new name is checked against every baseline model
    it is compared with, one or several."""
    base_models = list(base.get("models") or {})
    return [(b, m) for m in new.get("models") or {} for b in partners(m, base_models)]


def mismatches(base: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Everything besides the weights that differs between two runs and changes numbers: biascheck
    version, threshold profile (its resolved thresholds, `ThresholdSet.digest`, not its name), tier, batch
    policy, data checksums, probe settings (of the probes both ran) and, per paired model, family, dtype,
    device class, context prefix, weights format, quantisation and tokenizer. A run-level field neither or
    one run records is not counted (runs of an older schema are refused before: `biascheck.gate.admit`); a model
    field one model records and its partner does not is a difference (they were loaded differently)."""
    out = []
    for key, label in (("biascheck_version", "biascheck version"), ("batch_size", "batch size")):
        a, b = base.get(key), new.get(key)
        if a is not None and b is not None and a != b:
            out.append(f"{label}: {a} vs {b}")
    base_profile, new_profile = base.get("profile") or {}, new.get("profile") or {}
    a, b = base_profile.get("thresholds_sha256"), new_profile.get("thresholds_sha256")
    if (a is not None or b is not None) and a != b:
        out.append(
            f"threshold profile: {base_profile.get('name')} (thresholds sha256 {str(a)[:12]}…) vs "
            f"{new_profile.get('name')} ({str(b)[:12]}…): the resolved thresholds differ"
        )
    a, b = (base.get("tier") or {}).get("name"), (new.get("tier") or {}).get("name")
    if a and b and a != b:
        out.append(f"tier: {a} vs {b} (a quick run scores a subsample of the items a full run scores)")
    base_data = {d["name"]: d.get("sha256") for d in base.get("data") or []}
    for d in new.get("data") or []:
        if d["name"] in base_data and base_data[d["name"]] != d.get("sha256"):
            old, new_sum = str(base_data[d["name"]])[:12], str(d.get("sha256"))[:12]
            out.append(f"reference data {d['name']}: sha256 {old}… vs {new_sum}…")
    probes = {r["probe"] for r in base.get("results", [])} & {r["probe"] for r in new.get("results", [])}
    base_settings, new_settings = base.get("settings") or {}, new.get("settings") or {}
    for probe in sorted(probes & set(base_settings) & set(new_settings)):
        for name, entry in new_settings[probe].items():
            old = base_settings[probe].get(name)
            if old is not None and old.get("value") != entry.get("value"):
                out.append(f"setting {probe}.{name}: {old.get('value')} vs {entry.get('value')}")
    for base_model, new_model in _paired_models(base, new):
        a, b = model_identity(base["models"][base_model]), model_identity(new["models"][new_model])
        against = "" if base_model == new_model else f" (vs baseline model {base_model})"
        for field_name in MODEL_FIELDS:
            if a[field_name] != b[field_name]:
                out.append(f"{new_model} {field_name}: {_shown(a[field_name])} vs {_shown(b[field_name])}{against}")
    return out


def regressions(comparisons: list[Comparison]) -> list[Comparison]:
    return [c for c in comparisons if c.regressed]


def missing(comparisons: list[Comparison]) -> list[Comparison]:
    """Baseline metrics the new run lacks: they fail the gate too (an unmeasured metric cannot pass)."""
    return [c for c in comparisons if c.status == MISSING]


def uncovered(comparisons: list[Comparison]) -> list[Comparison]:
    """New metrics the baseline does not cover: they fail the gate too (an unjudged metric cannot pass)."""
    return [c for c in comparisons if c.status == NEW]


HEADERS = [
    "model",
    "metric",
    "better",
    "baseline",
    "new",
    "change",
    "noise ±",
    "noise from",
    "change vs noise",
    "profile",
]


def _fmt(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "—"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def table(comparisons: list[Comparison], fmt: str = "simple") -> str:
    """The comparison as a table (fmt 'simple' for the terminal, 'github' for Markdown)."""
    rows = [
        [
            c.model,
            c.key,
            BETTER_SHORT.get(c.better, c.better),
            _fmt(c.base),
            _fmt(c.new),
            _fmt(c.change, True),
            _fmt(c.noise),
            c.noise_source,
            c.status.upper() if c.regressed else c.status,
            c.profile_verdict,
        ]
        for c in comparisons
    ]
    return tabulate(rows, headers=HEADERS, tablefmt=fmt, disable_numparse=True)


def summary_line(comparisons: list[Comparison], baseline: str) -> str:
    counts: dict[str, int] = {}
    for c in comparisons:
        counts[c.status] = counts.get(c.status, 0) + 1
    parts = ", ".join(f"{n} {s}" for s, n in sorted(counts.items(), key=lambda kv: (kv[0] != REGRESSED, kv[0])))
    return f"against baseline {baseline!r}: {parts or 'nothing to compare'}"


def markdown(comparisons: list[Comparison], baseline: str, regen_command: str | None = None) -> str:
    """Job-summary section: a headline, the regressions first, then the whole table."""
    bad = regressions(comparisons) + missing(comparisons) + uncovered(comparisons)
    head = [f"## biascheck regression check against `{baseline}`", ""]
    if bad:
        head.append(
            f"**{len(bad)} metric(s) regressed beyond the noise or missing:** "
            + ", ".join(f"`{c.key}` ({c.model}: {c.status})" for c in bad)
        )
        if regen_command:
            head.append(f"\nIf the change is intended, regenerate the baseline: `{regen_command}`")
    else:
        head.append("No metric regressed beyond the noise.")
    head += ["", summary_line(comparisons, baseline), "", table(comparisons, "github"), ""]
    return "\n".join(head)
