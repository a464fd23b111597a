"""Threshold profiles: TOML files in ``thresholds/``, checked against the probe catalog.

Layout of a profile file (every key is documented in docs/thresholds.md and in the file itself)::

    extends = "default"              # optional: start from another profile of the same folder

    [pronoun_ratio.mean_abs_log_n]   # <probe>.<metric>: applies to every task of the probe
    max = 1.0
    why = "..."                      # required: the rationale is part of the config

    [pronoun_ratio.is.mean_abs_log_n]  # <probe>.<task>.<metric>: one task only (wins)
    max = 0.8
    why = "..."

A bound may be ``min`` or ``max`` (or both). An entry that gives one bound of a threshold the profile
inherits (from the profile it extends) keeps the other: ``max = 0.7`` over an inherited ``min = 0.2,
max = 0.8`` is ``0.2 ≤ x ≤ 0.7``; ``min = "none"`` drops an inherited bound on purpose. ``off = true``
removes an inherited threshold.
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
    # Where a bound was set when not at `origin`: inherited from the profile `origin`'s file extends.
    min_from: str = ""
    max_from: str = ""

    def bound_origin(self, bound: str) -> str:
        """Where `bound` ('min' or 'max') was set: `origin`, or the inherited entry it was kept from."""
        return (self.min_from if bound == "min" else self.max_from) or self.origin

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

    def inherited(self, probe: str, task: str | None, metric: str) -> Threshold | None:
        """The threshold an entry at (probe, task, metric) overrides: for a task's own key what `lookup`
        gives that task, for a probe-wide key the probe-wide threshold (None where switched off)."""
        if task is not None:
            return self.lookup(probe, task, metric)
        key = (probe, None, metric)
        return None if key in self.switched_off else self.by_key.get(key)

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


NO_BOUND = "none"  # min = "none" / max = "none": drop that bound of an inherited threshold


def _number(value: Any, where: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConfigError(
            f"{where}: '{name}' must be a finite number (or \"{NO_BOUND}\" to drop an inherited {name}), got {value!r}."
        )
    return float(value)


def merged_bound(
    table: Mapping[str, Any], name: str, inherited: Threshold | None, where: str
) -> tuple[float | None, str]:
    """Bound `name` ('min' or 'max') of an entry over the `inherited` threshold, and where it was set ('' for
    the entry itself):

    1. Given as a number: that number.
    2. Given as ``"none"``: no such bound, on purpose (an inherited one is dropped).
    3. Not given: the inherited threshold's bound, if there is one, with where it was set there.
    """
    if name in table:
        value = table[name]
        return (None, "") if value == NO_BOUND else (_number(value, where, name), "")
    if inherited is None or getattr(inherited, name) is None:
        return None, ""
    return getattr(inherited, name), inherited.bound_origin(name)


def _parse_bound(table: Any, where: str, better: str, inherited: Threshold | None = None) -> Threshold | None:
    """One entry as a `Threshold` (None for ``off = true``), its missing bound kept from `inherited`, the
    threshold the profile it extends applies at the same key."""
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
    if "min" not in table and "max" not in table:
        raise ConfigError(f"{where}: give 'min', 'max' or both (or off = true).")
    low, low_from = merged_bound(table, "min", inherited, where)
    high, high_from = merged_bound(table, "max", inherited, where)
    if low is None and high is None:
        raise ConfigError(
            f'{where}: no bound is left ("{NO_BOUND}" drops the only one); to stop judging the metric, write '
            "off = true."
        )
    if low is not None and high is not None and low > high:
        kept = low_from or high_from
        fix = (
            f" (the {'min' if low_from else 'max'} is kept from {kept}: give both bounds, or drop it with "
            f'{"min" if low_from else "max"} = "{NO_BOUND}")'
            if kept
            else ""
        )
        raise ConfigError(f"{where}: min {low:g} is above max {high:g}{fix}.")
    why = table.get("why")
    if not isinstance(why, str) or not why.strip():
        raise ConfigError(f"{where}: every threshold needs a 'why' string that gives its rationale.")
    if better == "higher" and high is not None and low is None:
        raise ConfigError(f"{where}: this metric is better when higher, so its threshold is a 'min', not a 'max'.")
    if better == "lower" and low is not None and high is None:
        raise ConfigError(f"{where}: this metric is better when lower, so its threshold is a 'max', not a 'min'.")
    # 'zero' / 'target' metrics (a signed lean) may be bounded on one side or both: a gate may care
    # about one direction only; 'none' metrics may take any bound.
    return Threshold(low, high, why.strip(), where, low_from, high_from)


def _apply_file(path: Path, data: dict[str, Any], probes: Mapping[str, ProbeSpec], into: ThresholdSet) -> None:
    """The entries of one file over `into`, the profile as the files before it left it: an entry's missing
    bound is kept from what that profile applied at its key (`inherited`), never from this same file."""
    parent = ThresholdSet(into.profile, by_key=dict(into.by_key), switched_off=set(into.switched_off))
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
                parsed = _parse_bound(
                    bound, label, metric_names[metric].better, parent.inherited(probe_name, task, metric)
                )
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
    except UnicodeDecodeError as exc:  # TOML is UTF-8: a file saved as Latin-1 or UTF-16 stopped the run
        raise ConfigError(
            f"{path}: not UTF-8 text (byte {exc.object[exc.start : exc.start + 1]!r} at position {exc.start}); "
            "a TOML profile must be saved as UTF-8."
        ) from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror or exc}).") from None


RESOLVED_HEADERS = ("metric", "better", "min", "max", "set in")


def _set_in(origin: str, key: str) -> str:
    """Where a bound was set, short: the file's name, and the key when it is not the row's own
    (``thresholds/default.toml: p.m`` -> ``default.toml``; the files in full head the table)."""
    path, _, at = origin.partition(": ")
    return Path(path).name if at == key else f"{Path(path).name}: {at}"


def resolved_rows(profile: ThresholdSet, probes: Mapping[str, ProbeSpec]) -> list[list[str]]:
    """The table `profile` ends up with, a row per key it sets (`RESOLVED_HEADERS`), in catalog order:
    probe-wide keys (task ``*``) before each task's own. A bound kept from an extended profile says where
    it was set; a key switched off says ``off``; a report-only probe is one row with its reason."""
    rows = []
    for probe in probes.values():
        if probe.name in profile.report_only:
            rows.append([f"{probe.name}.*.*", "", "", "", f"report only: {profile.report_only[probe.name]}"])
            continue
        for task in (None, *probe.tasks):
            for metric in probe.metrics:
                key = (probe.name, task, metric.name)
                name = f"{probe.name}.{task or '*'}.{metric.name}"
                if key in profile.switched_off:
                    rows.append([name, metric.better, "", "", "off"])
                elif key in profile.by_key:
                    t = profile.by_key[key]
                    bounds = [b for b in ("min", "max") if getattr(t, b) is not None]
                    own = f"{probe.name}.{task}.{metric.name}" if task else f"{probe.name}.{metric.name}"
                    places = {b: _set_in(t.bound_origin(b), own) for b in bounds}
                    unique = set(places.values())
                    where = unique.pop() if len(unique) == 1 else "; ".join(f"{b}: {at}" for b, at in places.items())
                    low, high = ("" if v is None else f"{v:g}" for v in (t.min, t.max))
                    rows.append([name, metric.better, low, high, where])
    return rows
