"""Probe settings: one layer for every knob a probe has (how many professions, which subset rule, ...).

Each probe declares its settings in its ``spec.py`` (`biascheck.spec.Setting`: name, default, help,
parser, environment variable). A run reads each setting once, when pytest starts:
1. ``--bias-set <probe>.<name>=VALUE`` (repeatable) wins;
2. else the setting's environment variable, when set and not empty;
3. else its value in the run's tier (``--bias-tier quick|full``), when the setting names one;
4. else its default.
Every value goes through the setting's parser (and its `check`, which may read a file it names); an
unknown probe or setting, or a value the parser or check refuses, is a `ConfigError` naming the setting,
where its value came from and what is accepted, so the run stops before any model loads.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from biascheck.errors import BiascheckError, ConfigError, did_you_mean
from biascheck.spec import ProbeSpec, Setting


def parse_assignment(text: str) -> tuple[str, str, str]:
    """'probe.name=value' → (probe, name, value); the `--bias-set` option's argparse type."""
    key, sep, value = text.partition("=")
    probe, dot, name = key.strip().partition(".")
    if not sep or not dot or not probe or not name:
        raise ConfigError(f"--bias-set {text!r}: use PROBE.SETTING=VALUE, e.g. natural_prompts.limit=50.")
    return probe, name.strip(), value.strip()


@dataclass(frozen=True)
class ProbeSettings:
    """The resolved settings of one probe: attribute access (``settings.limit``) and `as_json`."""

    probe: str
    values: Mapping[str, Any]
    sources: Mapping[str, str]  # name -> "default", "environment BIASCHECK_...", "--bias-set"

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__.get("values", {})
        if name in values:
            return values[name]
        raise AttributeError(f"probe {self.__dict__.get('probe')!r} has no setting {name!r}")

    def as_json(self) -> dict[str, Any]:
        return {name: {"value": _plain(value), "source": self.sources[name]} for name, value in self.values.items()}


def _plain(value: Any) -> Any:
    return value if value is None or isinstance(value, (bool, int, float, str)) else str(value)


def _check(setting: Setting, value: Any) -> None:
    """Run the setting's `check` ("module:function") on a parsed value that is set (not None / empty)."""
    if setting.check and value not in (None, ""):
        module, _, function = setting.check.partition(":")
        getattr(importlib.import_module(module), function)(value)


def resolve(
    probes: Mapping[str, ProbeSpec],
    assignments: Sequence[tuple[str, str, str]] = (),
    environ: Mapping[str, str] | None = None,
    tier: str | None = None,
) -> dict[str, ProbeSettings]:
    """Every probe's settings, from `assignments` (--bias-set), then `environ`, then `tier`, then the defaults."""
    environ = os.environ if environ is None else environ
    given: dict[tuple[str, str], str] = {}
    for probe, name, value in assignments:
        if probe not in probes:
            raise ConfigError(
                f"--bias-set {probe}.{name}={value}: no probe {probe!r}.{did_you_mean(probe, probes)} "
                f"Known: {', '.join(probes)}."
            )
        probes[probe].setting(name)  # ConfigError with the known settings
        given[(probe, name)] = value
    out = {}
    for probe, spec in probes.items():
        values, sources = {}, {}
        for setting in spec.settings:
            if (probe, setting.name) in given:
                text, source = given[(probe, setting.name)], "--bias-set"
            elif setting.env and environ.get(setting.env, "").strip():
                text, source = environ[setting.env], f"environment {setting.env}"
            elif setting.in_tier(tier) is not None:
                text, source = str(setting.in_tier(tier)), f"tier {tier}"
            else:
                text, source = setting.default, "default"
            try:
                values[setting.name] = setting.value(text)
                _check(setting, values[setting.name])
            except (ValueError, BiascheckError) as exc:
                where = (
                    f"--bias-set {probe}.{setting.name}"
                    if source == "--bias-set"
                    else (
                        f"{setting.env}"
                        if source.startswith("environment")
                        else f"{source} value of {probe}.{setting.name}"
                    )
                )
                raise ConfigError(
                    f"{where}={text.strip()!r}: {exc}. ({probe}.{setting.name}: {setting.help})"
                ) from None
            sources[setting.name] = source
        out[probe] = ProbeSettings(probe, values, sources)
    return out


def settings_of(spec: ProbeSpec, *, tier: str | None = None, **values: object) -> ProbeSettings:
    """One probe's settings outside a pytest run (a library caller, a unit test, a benchmark): its defaults,
    or its `tier`'s values, with `values` set as ``--bias-set`` would set them (text parsed and checked);
    the environment is not read."""
    assignments = [(spec.name, name, str(value)) for name, value in values.items()]
    return resolve({spec.name: spec}, assignments, environ={}, tier=tier)[spec.name]
