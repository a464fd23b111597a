"""Tiers: quick and full values of probe settings, 'auto' settled by the device, recorded, and never compared
across (the subsample itself: `stats.spread_sample`)."""

import math
from dataclasses import replace

import pytest
from test_settings import SPEC as SETTINGS_SPEC

from biascheck import tiers
from biascheck.catalog import PROBES
from biascheck.errors import ConfigError
from biascheck.gate import comparability
from biascheck.settings import resolve
from biascheck.spec import Setting, count_or_all
from biascheck.stats import spread_sample

SPEC = replace(
    SETTINGS_SPEC,
    settings=(
        Setting("names", "5", "names per sex", count_or_all, env="DEMO_NAMES", tiers=(("quick", "2"), ("full", "all"))),
        Setting("other", "3", "untiered", count_or_all),
    ),
)


def test_a_tier_sets_what_nobody_else_set():
    quick = resolve({"demo": SPEC}, environ={}, tier="quick")["demo"]
    assert (quick.names, quick.sources["names"]) == (2, "tier quick")
    assert (quick.other, quick.sources["other"]) == (3, "default")  # a tier it does not name: the default
    assert resolve({"demo": SPEC}, environ={}, tier="full")["demo"].names is None  # 'all'
    assert resolve({"demo": SPEC}, environ={}, tier=None)["demo"].names == 5
    assert resolve({"demo": SPEC}, [("demo", "names", "7")], environ={}, tier="quick")["demo"].names == 7
    assert resolve({"demo": SPEC}, environ={"DEMO_NAMES": "9"}, tier="full")["demo"].names == 9


@pytest.mark.parametrize(
    ("requested", "device", "tier"),
    [
        ("auto", "cuda", "full"),
        ("auto", "cuda:1", "full"),
        ("auto", "cpu", "quick"),
        ("auto", "mps", "quick"),
        ("quick", "cuda", "quick"),
        ("full", "cpu", "full"),
    ],
)
def test_auto_is_full_on_a_gpu_and_quick_elsewhere(requested, device, tier):
    got, why = tiers.resolve_tier(requested, device)
    assert got == tier and why


def test_auto_without_a_device_asks_torch(monkeypatch):
    monkeypatch.setattr(tiers, "cuda_visible", lambda: True)
    assert tiers.resolve_tier("auto", "auto") == ("full", "auto: a CUDA GPU is visible")
    monkeypatch.setattr(tiers, "cuda_visible", lambda: False)
    assert tiers.resolve_tier("auto", "auto") == ("quick", "auto: no CUDA GPU")


def test_bad_tier_names_suggest_the_close_one(monkeypatch):
    with pytest.raises(ConfigError, match="'quik' is not a tier. Did you mean 'quick'?"):
        tiers.parse_tier("quik")
    monkeypatch.setenv(tiers.TIER_ENV, "FULL")
    assert tiers.default_tier() == "full"


def test_every_tier_value_in_the_catalog_parses():
    for tier in tiers.TIERS:
        resolve(PROBES, environ={}, tier=tier)  # a ConfigError names the probe and setting


def test_runs_of_different_tiers_are_not_comparable():
    base, new = {"tier": {"name": "full"}}, {"tier": {"name": "quick"}}
    assert any(m.startswith("tier: full vs quick") for m in comparability.mismatches(base, new))
    assert comparability.mismatches({}, new) == []  # a run from before tiers: not counted


def test_spread_sample_by_hand():
    keys = [0.9, None, 0.1, 0.5, 0.3, math.nan, 0.7]
    # sorted: 0.1(2) 0.3(4) 0.5(3) 0.7(6) 0.9(0) None(1) nan(5); n=3 picks positions 0, 3, 6 -> 2, 6, 5
    assert spread_sample(keys, 3) == [2, 5, 6]
    assert spread_sample(keys, 1) == [6]  # position (7-1)//2 = 3 -> index 6 (0.7)
    assert spread_sample(keys, 10) == list(range(7)) and spread_sample(keys, 0) == []
    shares = [i / 99 for i in range(100)]
    picked = [shares[i] for i in spread_sample(shares, 5)]
    assert picked == [shares[0], shares[25], shares[50], shares[74], shares[99]]


def test_untiered_settings_keep_every_default_under_any_tier():
    from biascheck.settings import parse_assignment

    assignments = [parse_assignment(text) for text in tiers.untiered_settings()]
    assert ("winobias", "splits", "both") in assignments and ("role_nouns", "states", "5") in assignments
    quick = resolve(PROBES, assignments, environ={}, tier="quick")
    plain = resolve(PROBES, environ={}, tier=None)
    assert {p: s.values for p, s in quick.items()} == {p: s.values for p, s in plain.items()}


def test_an_override_replaces_its_setting_in_the_untiered_settings():
    plain = tiers.untiered_settings()
    changed = tiers.untiered_settings("politicians.grid=quick", "role_nouns.other=1")
    assert "politicians.grid=quick" in changed and "politicians.grid=default" not in changed
    assert len(changed) == len(plain) + 1 and changed[-1] == "role_nouns.other=1"
