"""Result records: one per (model, probe, task, metric), and the recorder a probe writes them with.

A probe test receives a `ProbeRecorder` as the fixture `bias`, records the `Metric` list its probe's
`metrics.py` computed (`bias.record_all(task, metrics)`), saves what `figures.draw` gave (`bias.save_all`),
then calls `bias.check()` once (`biascheck.protocol` shows the whole protocol): the test fails if any
recorded metric is outside its threshold, listing all of them (not only the first).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from biascheck.power import Power, gate_power
from biascheck.spec import COMPETENCE, Artifact, Metric, ProbeSpec
from biascheck.thresholds import Threshold, ThresholdSet
from biascheck.timing import stage

# A run's figures are written into PLOTS_STAGING under the report directory as its probes go, and become
# its PLOTS directory only when the run ends and writes its report (`biascheck.report.summary`): an interrupted
# run leaves the previous run's plots as they were, and a report never shows an older run's figures.
PLOTS = "plots"
PLOTS_STAGING = ".plots-partial"

# results.json layout: 2 adds settings, metric kinds (better, target) and the baseline verdicts; 3 adds
# coverage, the profile's thresholds_sha256 and each model's quantisation and tokenizer_sha256 (a run of
# another version is not compared with: `biascheck.gate.admit.schema_problem`).
SCHEMA_VERSION = 3


@dataclass
class Result:
    model: str
    probe: str
    task: str
    metric: str
    value: float
    ci_low: float | None
    ci_high: float | None
    n: int | None
    estimator: str
    reference: str
    higher_is_better: bool | None
    threshold: Threshold | None
    passed: bool | None  # None: no threshold for this metric in the profile
    paper_value: float | None = None
    note: str = ""
    items: list[dict[str, Any]] | None = None  # per-item scores (per profession, ...)
    better: str = "none"  # spec.BETTER: higher, lower, zero, target, none
    target: float | None = None  # the ideal of a 'target' metric
    tier: str = ""  # the run's tier (biascheck.tiers): quick or full; "" in runs from before tiers
    power: dict[str, float] | None = None  # a gated result's power at its n (`biascheck.power.Power.to_json`)
    paired: dict[str, Any] | None = None  # the metric's recipe from items (`biascheck.spec.Paired.to_json`)

    @property
    def key(self) -> str:
        return f"{self.probe}.{self.task}.{self.metric}"

    def gate_power(self) -> Power | None:
        """The gate's power at this result's n (`biascheck.power`), from its value, interval and threshold."""
        return gate_power(self.value, self.ci_low, self.ci_high, self.threshold)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON values: every non-finite number, at any depth (the per-item records too), is
        null, since JSON has no NaN or infinity (the store and results.json refuse them)."""
        data = asdict(self)
        data["threshold"] = self.threshold.to_json() if self.threshold else None
        return finite_json(data)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        """The inverse of `to_json` (null numbers come back as nan)."""
        data = dict(data)
        threshold = data.pop("threshold", None)
        if data.get("value") is None:
            data["value"] = float("nan")
        return cls(**data, threshold=None if threshold is None else Threshold(**threshold))


class ThresholdFailure(AssertionError):
    """A probe test's metrics outside their thresholds (`ProbeRecorder.check`): the report shows its message
    alone, the failing metrics and where their limits are set, not the test's source and locals."""


def finite_json(value: Any) -> Any:
    """`value` with every non-finite float (NaN, ±inf; numpy's too) replaced by None, at any depth of dicts,
    lists and tuples; numpy scalars become Python numbers. Pure."""
    if isinstance(value, dict):
        return {key: finite_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite_json(item) for item in value]
    if hasattr(value, "item") and callable(value.item) and getattr(value, "shape", None) == ():  # a numpy scalar
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def safe_name(text: str) -> str:
    """`text` usable in a file name: anything but letters, digits, '-', '_' and '.' becomes '_'."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text)


@dataclass
class ProbeRecorder:
    """Bound to one model and one probe for one test. Results go to `sink` as they are recorded."""

    probe: ProbeSpec
    model: str
    thresholds: ThresholdSet
    sink: Callable[[Result], None]
    figure_dir: Path | None = None
    draws: bool = True  # --bias-plots: the probe test calls its `draw` only when set (`RunConfig.draws`)
    recorded: list[Result] = field(default_factory=list)
    done: set[tuple[str, str, str]] = field(default_factory=set)  # shared by the run: see `_first_time`
    tier: str = ""
    before_record: Callable[[str], None] | None = None  # called with the task before each record (the guard's)

    def record(self, task: str, metric: Metric) -> Result:
        """The one way a number is recorded: a `Metric` a probe's `metrics.task_metrics` computed (or a test
        built), judged against its threshold for `task` (its estimator, note, items and paper value kept)."""
        spec = self.probe.metric(metric.name)
        if self.before_record is not None:
            self.before_record(task)
        threshold = self.thresholds.lookup(self.probe.name, task, metric.name)
        value = float(metric.value)
        result = Result(
            model=self.model,
            probe=self.probe.name,
            task=task,
            metric=metric.name,
            value=value,
            ci_low=None if metric.ci is None else float(metric.ci[0]),
            ci_high=None if metric.ci is None else float(metric.ci[1]),
            n=metric.n,
            estimator=metric.estimator,
            reference=spec.reference,
            higher_is_better=spec.higher_is_better,
            threshold=threshold,
            passed=None if threshold is None else threshold.accepts(value),
            paper_value=metric.paper_value,
            note=metric.note,
            items=list(metric.items) if metric.items is not None else None,
            better=spec.better,
            target=spec.target if metric.target is None else float(metric.target),
            tier=self.tier,
            paired=spec.paired.to_json() if spec.paired is not None and spec.paired.holds_for(task) else None,
        )
        return self._keep(result)

    def record_competence(self, task: str, found: Any, line: float, why: str) -> Result:
        """The competence guard's verdict for this test (`biascheck.competence.math.Competence`), judged
        against the guard's `line`, not a profile: a model below it cannot be measured by this probe."""
        note = found.summary()
        if found.token_problems:
            note = f"tokens: {'; '.join(found.token_problems)}; {note}"
        threshold = Threshold(min=line, max=None, why=why, origin="biascheck competence guard")
        result = Result(
            model=self.model,
            probe=self.probe.name,
            task=task,
            metric=COMPETENCE,
            value=float(found.agreement),
            ci_low=found.ci[0],
            ci_high=found.ci[1],
            n=found.n_pairs,
            estimator=found.estimator,
            reference="model",
            higher_is_better=True,
            threshold=threshold,
            passed=found.passed,
            note=note,
            items=list(found.items),
            better="higher",
            tier=self.tier,
        )
        return self._keep(result)

    def _keep(self, result: Result) -> Result:
        """A finished result, with its gate's power, into this test's list and the run's sink."""
        power = result.gate_power()
        result.power = None if power is None else power.to_json()
        self.recorded.append(result)
        self.sink(result)
        return result

    def record_all(self, task: str, metrics: Iterable[Metric]) -> list[Result]:
        """Record every metric of one task, in order."""
        return [self.record(task, metric) for metric in metrics]

    def _first_time(self, what: str) -> bool:
        """True once per (model, probe, `what`) in a run: for work done once per model by whichever
        task runs first (a figure over all tasks), also when `-k` selects a single task."""
        key = (self.model, self.probe.name, what)
        if key in self.done:
            return False
        self.done.add(key)
        return True

    def check(self) -> None:
        """Fail the test if any metric recorded here is outside its threshold (all are listed)."""
        __tracebackhide__ = True
        failed = [r for r in self.recorded if r.passed is False]
        if failed:
            lines = [f"{len(failed)} bias metric(s) outside the thresholds of profile {self.thresholds.profile!r}:"]
            for r in failed:
                assert r.threshold is not None
                lines.append(
                    f"  {r.key} = {r.value:.4g} (n={r.n}), needs {r.threshold.describe()} [{r.threshold.origin}]"
                )
                if not math.isfinite(r.value):  # not measured: the one-paragraph reason is in its note
                    lines.append(f"    why no number: {r.note or 'the probe gave none (no note says why)'}")
            lines.append(
                "Change the limits in the file named in brackets, or pick another profile with --bias-profile NAME."
            )
            raise ThresholdFailure("\n".join(lines))

    def _report_path(self, name: str, suffix: str) -> Path | None:
        if self.figure_dir is None:
            return None
        self.figure_dir.mkdir(parents=True, exist_ok=True)
        return self.figure_dir / f"{self.probe.name}-{name}-{safe_name(self.model)}{suffix}"

    def save_figure(self, name: str, figure: Any) -> Path | None:
        """Write a matplotlib figure as PNG into the report's plot directory (no-op without one)."""
        import matplotlib.pyplot as plt

        path = self._report_path(name, ".png")
        with stage("plots"):
            if path is not None:
                figure.savefig(path, dpi=110, bbox_inches="tight")
            plt.close(figure)
        return path

    def save_all(self, artifacts: Iterable[Artifact]) -> None:
        """Save what a probe's `figures.draw` returned: each figure as PNG, each text as .txt (and printed);
        an artifact drawn `once` per model is saved by the first of the model's tests that reaches it."""
        for artifact in artifacts:
            if artifact.once and not self._first_time(f"artifact:{artifact.name}"):
                if artifact.figure is not None:
                    import matplotlib.pyplot as plt

                    plt.close(artifact.figure)
                continue
            if artifact.figure is not None:
                self.save_figure(artifact.name, artifact.figure)
            else:
                self.save_text(artifact.name, str(artifact.text))

    def save_text(self, name: str, text: str) -> Path | None:
        """Print `text` (shown with -s) and write it beside the plots (no-op without a report directory)."""
        print(text)
        path = self._report_path(name, ".txt")
        if path is not None:
            path.write_text(text + "\n", encoding="utf-8")
        return path


class BaselineBlock(TypedDict, total=False):
    """results.json's `baseline`: the regression gate's verdict on this run (`biascheck.gate_plugin.tracking`)."""

    name: str | None
    failed: bool
    failures: list[str]
    mismatches_allowed: list[str]
    comparisons: list[dict[str, Any]]  # `biascheck.gate.baseline.Comparison` as JSON
    regen_command: str | None


class RunPayload(TypedDict, total=False):
    """A run as results.json holds it and the results store saves it: what the run was (metadata) and
    every result. The gate (`biascheck.gate`) and the report (`biascheck.report`) both read this record;
    the session and the tracking plugin write its metadata, `run_payload` adds the results."""

    schema_version: int
    biascheck_version: str
    created_utc: str
    exit_status: int
    profile: dict[str, Any]  # name, files, thresholds_sha256
    batch_size: int | str
    tier: dict[str, str]  # name, why
    settings: dict[str, Any]
    models: dict[str, dict[str, Any]]  # name -> `ModelInfo` as JSON
    data: list[dict[str, Any]]  # the reference data's provenance
    timings: list[dict[str, Any]]
    checkpoints: list[dict[str, Any]]
    coverage: dict[str, Any]
    not_measured: list[dict[str, str]]
    baseline: BaselineBlock
    gate_warnings: list[str]
    results: list[dict[str, Any]]  # `Result.to_json`, with `regression` when the run was compared


def comparisons_by_key(meta: Mapping[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """The baseline comparisons a run payload carries (`baseline.comparisons`), by (model, probe.task.metric);
    empty when the run was not compared. The one reader of them as records (the report's regression table reads
    them as the gate's `Comparison`s, `biascheck.report.regression.comparisons`)."""
    found = (meta.get("baseline") or {}).get("comparisons") or []
    return {(c["model"], c["key"]): c for c in found}


def run_payload(results: list[Result], meta: RunPayload) -> RunPayload:
    """`meta` plus every result; when the run was compared with a baseline, each result carries its
    comparison under `regression` (status, baseline value, change, noise and where the noise came from:
    paired, intervals, fluctuation; None for a metric the baseline lacks)."""
    by_key = comparisons_by_key(meta)
    rows = []
    for result in results:
        row = result.to_json()
        if by_key:
            found = by_key.get((row["model"], f"{row['probe']}.{row['task']}.{row['metric']}"))
            row["regression"] = (
                None
                if found is None
                else {
                    "status": found["status"],
                    "baseline": found["base"],
                    "change": found["change"],
                    "noise": found["noise"],
                    "noise_source": found["noise_source"],
                }
            )
        rows.append(row)
    return {**meta, "results": rows}
