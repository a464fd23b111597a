"""Result records: one per (model, probe, task, metric), and the recorder a probe writes them with.

A probe test receives a `ProbeRecorder` as the fixture `bias`, records every number it computes,
then calls `bias.check()` once: the test fails if any recorded metric is outside its threshold,
listing all of them (not only the first).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from biascheck.spec import ProbeSpec
from biascheck.thresholds import Threshold, ThresholdSet


@dataclass(frozen=True)
class Metric:
    """One number a probe's math computed, before it is recorded (what `methods` functions return)."""

    name: str
    value: float
    ci: tuple[float, float] | None = None
    n: int | None = None
    paper_value: float | None = None
    items: list[dict[str, Any]] | None = None
    note: str = ""


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

    @property
    def key(self) -> str:
        return f"{self.probe}.{self.task}.{self.metric}"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["threshold"] = self.threshold.to_json() if self.threshold else None
        for name in ("value", "ci_low", "ci_high", "paper_value"):
            value = data[name]
            if isinstance(value, float) and not math.isfinite(value):
                data[name] = None  # JSON has no NaN/inf
        return data


@dataclass
class ProbeRecorder:
    """Bound to one model and one probe for one test. Results go to `sink` as they are recorded."""

    probe: ProbeSpec
    model: str
    thresholds: ThresholdSet
    sink: Callable[[Result], None]
    figure_dir: Path | None = None
    recorded: list[Result] = field(default_factory=list)

    def record(
        self,
        task: str,
        metric: str,
        value: float,
        *,
        ci: tuple[float, float] | None = None,
        n: int | None = None,
        estimator: str = "",
        paper_value: float | None = None,
        note: str = "",
        items: Sequence[dict[str, Any]] | None = None,
    ) -> Result:
        spec = self.probe.metric(metric)
        threshold = self.thresholds.lookup(self.probe.name, task, metric)
        value = float(value)
        result = Result(
            model=self.model, probe=self.probe.name, task=task, metric=metric, value=value,
            ci_low=None if ci is None else float(ci[0]), ci_high=None if ci is None else float(ci[1]),
            n=n, estimator=estimator, reference=spec.reference, higher_is_better=spec.higher_is_better,
            threshold=threshold, passed=None if threshold is None else threshold.accepts(value),
            paper_value=paper_value, note=note, items=list(items) if items is not None else None,
        )
        self.recorded.append(result)
        self.sink(result)
        return result

    def record_metric(self, task: str, metric: Metric, *, estimator: str = "", note: str = "",
                      items: Sequence[dict[str, Any]] | None = None) -> Result:
        """`record` for a computed `Metric`; `note` and `items` here add to / replace the metric's own."""
        joined = "; ".join(part for part in (note, metric.note) if part)
        return self.record(task, metric.name, metric.value, ci=metric.ci, n=metric.n, estimator=estimator,
                           paper_value=metric.paper_value, note=joined,
                           items=items if items is not None else metric.items)

    def check(self) -> None:
        """Fail the test if any metric recorded here is outside its threshold (all are listed)."""
        __tracebackhide__ = True
        failed = [r for r in self.recorded if r.passed is False]
        if failed:
            lines = [f"{len(failed)} bias metric(s) outside the thresholds of profile {self.thresholds.profile!r}:"]
            for r in failed:
                assert r.threshold is not None
                lines.append(f"  {r.key} = {r.value:.4g} (n={r.n}), needs {r.threshold.describe()} [{r.threshold.origin}]")
            lines.append("Change the limits in the file named in brackets, or pick another profile with --bias-profile NAME.")
            raise AssertionError("\n".join(lines))

    def save_figure(self, name: str, figure: Any) -> Path | None:
        """Write a matplotlib figure as PNG into the report directory (no-op without one)."""
        if self.figure_dir is None:
            import matplotlib.pyplot as plt

            plt.close(figure)
            return None
        self.figure_dir.mkdir(parents=True, exist_ok=True)
        safe_model = "".join(c if c.isalnum() or c in "-_." else "_" for c in self.model)
        path = self.figure_dir / f"{self.probe.name}-{name}-{safe_model}.png"
        figure.savefig(path, dpi=110, bbox_inches="tight")
        import matplotlib.pyplot as plt

        plt.close(figure)
        return path
