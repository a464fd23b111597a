"""What a probe declares about itself: its tasks, its metrics and which way each one is better.

Probe specs live beside the probe's math in `biascheck/methods/<probe>.py` and are collected in
`biascheck.catalog`, so that threshold files can be checked (unknown keys are errors) without
importing any test module, torch or transformers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Reference = Literal["gold", "human", "model"]


@dataclass(frozen=True)
class MetricSpec:
    name: str
    description: str
    higher_is_better: bool | None  # None: no better direction (closeness to a target, reported only)
    reference: Reference  # gold = real-world statistics, human = experiment, model = intrinsic


@dataclass(frozen=True)
class ProbeSpec:
    name: str  # module probes/test_<name>.py, threshold table [<name>]
    title: str
    paper: str  # seed file number, e.g. "001"
    language: str  # ISO 639-1 code of the templates
    tasks: tuple[str, ...]  # parametrisation ids; threshold keys may be per task
    metrics: tuple[MetricSpec, ...]
    families: tuple[str, ...] = ("masked", "causal")

    def metric(self, name: str) -> MetricSpec:
        for metric in self.metrics:
            if metric.name == name:
                return metric
        from biascheck.errors import ConfigError, did_you_mean

        known = [m.name for m in self.metrics]
        raise ConfigError(f"Probe {self.name!r} has no metric {name!r}.{did_you_mean(name, known)} Known: {', '.join(known)}.")
