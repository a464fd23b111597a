"""Tiers: the same probes at two sizes. ``quick`` (a seeded, evenly spread subsample of each probe's items,
for pull requests on CPU runners) and ``full`` (the papers' complete designs, for release gates on a GPU).

A tier is a named value for some probe settings (`biascheck.spec.Setting.tiers`); ``--bias-set`` and the
settings' environment variables still win over it. ``--bias-tier auto`` (the default) picks ``full`` when
the run uses a CUDA GPU (the first loaded model's device; before a model loads, ``--device``, and for
``--device auto`` whether torch sees one) and ``quick`` otherwise. The tier is recorded in results.json and on every
result, and two runs of different tiers are not comparable (`biascheck.gate.comparability.mismatches`).
"""

from __future__ import annotations

import importlib.util
import os

from biascheck.errors import ConfigError, did_you_mean

TIERS = ("quick", "full")
TIER_ENV = "BIASCHECK_TIER"


def parse_tier(value: str) -> str:
    """'auto', 'quick' or 'full' (case-insensitive); else ConfigError."""
    tier = str(value).strip().lower()
    if tier in ("auto", *TIERS):
        return tier
    raise ConfigError(f"{value!r} is not a tier.{did_you_mean(str(value), ['auto', *TIERS])} Use auto, quick or full.")


def default_tier() -> str:
    """The option's default: $BIASCHECK_TIER when set, else 'auto'."""
    return parse_tier(os.environ.get(TIER_ENV, "").strip() or "auto")


def cuda_visible() -> bool:
    """Whether torch sees a CUDA GPU (False without torch; imports torch only when installed)."""
    if importlib.util.find_spec("torch") is None:
        return False
    import torch

    return bool(torch.cuda.is_available())


def resolve_tier(requested: str, device: str) -> tuple[str, str]:
    """(tier, why) for the run: the requested tier, or for 'auto' full on a CUDA device and quick elsewhere."""
    if requested != "auto":
        return requested, "asked for (--bias-tier or $BIASCHECK_TIER)"
    if device.startswith("cuda"):
        return "full", f"auto: device {device}"
    if device == "auto" and cuda_visible():
        return "full", "auto: a CUDA GPU is visible"
    return "quick", f"auto: {'no CUDA GPU' if device == 'auto' else f'device {device}'}"


def untiered_settings(*overrides: str) -> tuple[str, ...]:
    """``probe.setting=default`` for every setting a tier changes: passed with ``--bias-set``, a run keeps each
    setting's own default whatever the tier (the design the known-answer tests and the dose-response tables
    were measured at, between quick and full). ``overrides`` (``probe.setting=value``) replace their key's."""
    from biascheck.catalog import PROBES

    chosen = {o.split("=", 1)[0]: o for o in overrides}
    defaults = tuple(
        f"{name}.{setting.name}={setting.default}"
        for name, spec in PROBES.items()
        for setting in spec.settings
        if setting.tiers
    )
    return tuple(chosen.pop(d.split("=", 1)[0], d) for d in defaults) + tuple(chosen.values())
