"""Threshold profiles: TOML files in ``thresholds/``, checked against the probe catalog.

Layout of a profile file (every key is documented in docs/thresholds.md and in the file itself)::

    extends = "default"              # optional: start from another profile of the same folder

    [pronoun_ratio.mean_abs_log_n]   # <probe>.<metric>: applies to every task of the probe
    max = 1.0
    why = "..."                      # required: the rationale is part of the config

    [pronoun_ratio.is.mean_abs_log_n]  # <probe>.<task>.<metric>: one task only (wins)
    max = 0.8
    why = "..."

A bound may be ``min`` or ``max`` (or both). ``off = true`` removes an inherited threshold.
A probe the profile reports without judging any of its metrics says so, with its reason, in place of
thresholds (a later file that gives it thresholds judges it again)::

    [singular_they]
    report_only = true
    why = "..."
Unknown probes, tasks, metrics or fields, bounds on the wrong side of a metric's better
direction, and non-numbers are errors that name the file and the key.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biascheck.errors import ConfigError, did_you_mean
from biascheck.spec import ProbeSpec

_FIELDS = {"min", "max", "why", "off"}
REPORT_ONLY = "report_only"


@dataclass(frozen=True)
class Threshold:
    min: float | None
    max: float | None
    why: str
    origin: str  # "thresholds/default.toml: pronoun_ratio.mean_abs_log_n"

    def accepts(self, value: float) -> bool:
        if math.isnan(value):
            return False
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)

    def describe(self) -> str:
        if self.min is not None and self.max is not None:
            return f"{self.min:g} ≤ x ≤ {self.max:g}"
        return f"≥ {self.min:g}" if self.min is not None else f"≤ {self.max:g}"

    def to_json(self) -> dict[str, Any]:
        return {"min": self.min, "max": self.max, "why": self.why, "origin": self.origin}


@dataclass
class ThresholdSet:
    profile: str
    files: list[str] = field(default_factory=list)
    by_key: dict[tuple[str, str | None, str], Threshold] = field(default_factory=dict)
    switched_off: set[tuple[str, str | None, str]] = field(default_factory=set)  # `off = true` keys
    report_only: dict[str, str] = field(default_factory=dict)  # probe -> why, `report_only = true` tables

    def digest(self) -> str:
        """sha256 of the resolved table (each key's bounds, the switched-off keys), not of the name or the
        files: two profiles that judge every metric alike have one digest, a profile edited under its old
        name another (`biascheck.gate.comparability.mismatches` compares runs by it)."""
        import hashlib
        import json

        table = sorted([p, t or "*", m, th.min, th.max] for (p, t, m), th in self.by_key.items())
        off = sorted([p, t or "*", m] for p, t, m in self.switched_off)
        return hashlib.sha256(json.dumps([table, off]).encode()).hexdigest()

    def lookup(self, probe: str, task: str, metric: str) -> Threshold | None:
        """The task's own threshold, else the probe-wide one; a task key with `off = true` hides both."""
        for key in ((probe, task, metric), (probe, None, metric)):
            if key in self.switched_off:
                return None
            if key in self.by_key:
                return self.by_key[key]
        return None

    def gated(self, probes: list[ProbeSpec]) -> list[str]:
        """`probe.task.metric` of every metric of `probes` that this profile gives a threshold."""
        return [
            f"{p.name}.{task}.{m.name}"
            for p in probes
            for task in p.tasks
            for m in p.metrics
            if self.lookup(p.name, task, m.name) is not None
        ]


def profile_path(name_or_path: str, directories: list[Path]) -> Path:
    """A profile name (looked up as NAME.toml in `directories`) or a path to a .toml file."""
    if name_or_path.endswith(".toml"):
        path = Path(name_or_path).expanduser()
        if not path.is_file():
            raise ConfigError(f"--bias-profile {name_or_path!r}: no such file.")
        return path
    known: set[str] = set()
    for directory in directories:
        path = directory / f"{name_or_path}.toml"
        if path.is_file():
            return path
        if directory.is_dir():
            known.update(p.stem for p in directory.glob("*.toml"))
    where = ", ".join(str(d) for d in directories)
    raise ConfigError(
        f"--bias-profile {name_or_path!r} is not a threshold profile in {where}.{did_you_mean(name_or_path, known)}"
        f" Known profiles: {', '.join(sorted(known)) or 'none'}. A path to a .toml file also works."
    )


def _number(value: Any, where: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConfigError(f"{where}: '{name}' must be a finite number, got {value!r}.")
    return float(value)


def _parse_bound(table: Any, where: str, better: str) -> Threshold | None:
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table with min/max/why, got {table!r}.")
    unknown = set(table) - _FIELDS
    if unknown:
        bad = sorted(unknown)[0]
        raise ConfigError(
            f"{where}: unknown field {bad!r}.{did_you_mean(bad, _FIELDS)} Allowed: {', '.join(sorted(_FIELDS))}."
        )
    off = table.get("off", False)
    if not isinstance(off, bool):  # off = "yes" / 1: a typo for true or false, never read as either
        raise ConfigError(f"{where}: 'off' must be true or false (a TOML boolean, no quotes), got {off!r}.")
    if off:
        return None
    low = _number(table["min"], where, "min") if "min" in table else None
    high = _number(table["max"], where, "max") if "max" in table else None
    if low is None and high is None:
        raise ConfigError(f"{where}: give 'min', 'max' or both (or off = true).")
    if low is not None and high is not None and low > high:
        raise ConfigError(f"{where}: min {low:g} is above max {high:g}.")
    why = table.get("why")
    if not isinstance(why, str) or not why.strip():
        raise ConfigError(f"{where}: every threshold needs a 'why' string that gives its rationale.")
    if better == "higher" and high is not None and low is None:
        raise ConfigError(f"{where}: this metric is better when higher, so its threshold is a 'min', not a 'max'.")
    if better == "lower" and low is not None and high is None:
        raise ConfigError(f"{where}: this metric is better when lower, so its threshold is a 'max', not a 'min'.")
    # 'zero' / 'target' metrics (a signed lean) may be bounded on one side or both: a gate may care
    # about one direction only; 'none' metrics may take any bound.
    return Threshold(low, high, why.strip(), where)


def _apply_file(path: Path, data: dict[str, Any], probes: Mapping[str, ProbeSpec], into: ThresholdSet) -> None:
    for probe_name, probe_table in data.items():
        if probe_name == "extends":
            continue
        where = f"{path}: {probe_name}"
        if probe_name not in probes:
            raise ConfigError(
                f"{where}: unknown probe.{did_you_mean(probe_name, probes)} Known: {', '.join(sorted(probes))}."
            )
        if not isinstance(probe_table, dict):
            raise ConfigError(f"{where}: expected a table of metrics.")
        if REPORT_ONLY in probe_table:
            _mark_report_only(probe_name, probe_table, where, into)
            continue
        into.report_only.pop(probe_name, None)  # thresholds in a later file judge the probe again
        probe = probes[probe_name]
        metric_names = {m.name: m for m in probe.metrics}
        for key, value in probe_table.items():
            if key in metric_names:
                entries = [(None, key, value)]
            elif key in probe.tasks:
                if not isinstance(value, dict):
                    raise ConfigError(f"{where}.{key}: expected a table of metrics for task {key!r}.")
                entries = [(key, metric, bound) for metric, bound in value.items()]
            else:
                choices = list(metric_names) + list(probe.tasks)
                raise ConfigError(
                    f"{where}.{key}: neither a metric nor a task of probe {probe_name!r}.{did_you_mean(key, choices)}"
                    f" Metrics: {', '.join(metric_names)}. Tasks: {', '.join(probe.tasks)}."
                )
            for task, metric, bound in entries:
                label = f"{where}.{task}.{metric}" if task else f"{where}.{metric}"
                if metric not in metric_names:
                    hint = did_you_mean(metric, metric_names)
                    raise ConfigError(f"{label}: unknown metric.{hint} Known: {', '.join(metric_names)}.")
                parsed = _parse_bound(bound, label, metric_names[metric].better)
                key = (probe_name, task, metric)
                if parsed is None:
                    into.by_key.pop(key, None)
                    into.switched_off.add(key)
                else:
                    into.by_key[key] = parsed
                    into.switched_off.discard(key)


def _mark_report_only(probe: str, table: dict[str, Any], where: str, into: ThresholdSet) -> None:
    """``report_only = true`` with a ``why`` and nothing else: none of `probe`'s metrics is judged (any
    inherited threshold of it is dropped), on purpose and for the reason given."""
    if table[REPORT_ONLY] is not True:
        raise ConfigError(
            f"{where}.{REPORT_ONLY}: only 'true' (a TOML boolean, no quotes) is meant, got {table[REPORT_ONLY]!r}; "
            "to judge the probe, leave the key out and give its metrics thresholds."
        )
    others = sorted(set(table) - {REPORT_ONLY, "why"})
    if others:
        raise ConfigError(
            f"{where}: {REPORT_ONLY} = true judges none of the probe's metrics, so the table cannot also set "
            f"thresholds ({', '.join(others)}). Keep one or the other."
        )
    why = table.get("why")
    if not isinstance(why, str) or not why.strip():
        raise ConfigError(f"{where}: {REPORT_ONLY} = true needs a 'why' string that says why the probe is not judged.")
    for key in [k for k in (*into.by_key, *into.switched_off) if k[0] == probe]:
        into.by_key.pop(key, None)
        into.switched_off.discard(key)
    into.report_only[probe] = why.strip()


def load_profile(name_or_path: str, directories: list[Path], probes: Mapping[str, ProbeSpec]) -> ThresholdSet:
    """Read a profile and everything it extends; every error names the file and key."""
    chain: list[Path] = []
    current = profile_path(name_or_path, directories)
    while True:
        if current in chain:
            raise ConfigError(f"{current}: 'extends' makes a loop: {' -> '.join(map(str, chain + [current]))}.")
        chain.append(current)
        data = _read_toml(current)
        parent = data.get("extends")
        if parent is None:
            break
        if not isinstance(parent, str):
            raise ConfigError(f"{current}: 'extends' must be a profile name, got {parent!r}.")
        current = profile_path(parent, [current.parent, *directories])
    result = ThresholdSet(profile=Path(name_or_path).stem, files=[str(p) for p in reversed(chain)])
    for path in reversed(chain):
        _apply_file(path, _read_toml(path), probes, result)
    return result


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}.") from exc
