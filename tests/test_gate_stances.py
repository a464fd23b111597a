"""One stance per metric kind, and gates that check both sides of a lean.

* Every correlation of the model with a real-world share declares, in its spec, whether matching reality is
  the goal (paper 000: how far a model reflects the demographics) or the bias (the English pronoun probes,
  after Rudinger et al.), and its direction follows: a 'bias' correlation is toward zero (or a target), so a
  model that flips to the opposite stereotype is never an improvement in the regression comparison.
* The default and release profiles gate the two stances consistently: a 'goal' metric by a floor, a 'bias'
  metric by a band on both sides.
* Every gate on a toward-zero or toward-target metric bounds both sides, or its `why` says why it is
  one-sided ("one-sided on purpose" and the reason)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from biascheck.catalog import PROBES
from biascheck.gate.baseline import judge
from biascheck.spec import GOLD_MATCH, MetricSpec
from biascheck.thresholds import load_profile

REPO = Path(__file__).resolve().parents[1]
PROFILES = ("default", "release")
CORRELATION = re.compile(r"spearman|pearson")
ONE_SIDED = "one-sided on purpose"


def _correlations_with_a_share():
    """(probe, metric) of every correlation with a real-world share; a difference of two correlations
    (natural_prompts' gold_spearman_diff) compares prompt sets, not the model with the share."""
    return [
        (probe, m)
        for probe, spec in PROBES.items()
        for m in spec.metrics
        if m.reference == "gold" and CORRELATION.search(m.name) and not m.name.endswith("_diff")
    ]


def test_there_are_correlations_to_check():
    names = {f"{p}.{m.name}" for p, m in _correlations_with_a_share()}
    assert {"norwegian_occupations.spearman_gold", "pronoun_ratio.spearman_bls", "winogender.pearson_bls"} <= names


@pytest.mark.parametrize("probe,metric", _correlations_with_a_share(), ids=lambda x: getattr(x, "name", x))
def test_every_correlation_with_a_share_declares_its_stance(probe, metric):
    assert metric.gold_match in GOLD_MATCH, f"{probe}.{metric.name}: declare gold_match ('goal' or 'bias')"


@pytest.mark.parametrize("probe,metric", _correlations_with_a_share(), ids=lambda x: getattr(x, "name", x))
def test_a_flip_to_the_opposite_stereotype_is_never_an_improvement(probe, metric):
    """A 'bias' correlation going from +0.3 to -0.7 regresses; a 'goal' one going from 0.7 to 0.3 does too."""
    noise = 0.05
    if metric.gold_match == "bias":
        assert judge(0.3, -0.7, noise, metric.better, 0.0 if metric.better == "target" else None) == "regressed"
    else:
        assert judge(0.7, 0.3, noise, metric.better) == "regressed"


def test_a_bias_stance_refuses_a_one_way_direction():
    with pytest.raises(ValueError, match="gold_match='bias'"):
        MetricSpec(name="rho", description="", better="lower", reference="gold", gold_match="bias")
    with pytest.raises(ValueError, match="gold_match='goal'"):
        MetricSpec(name="rho", description="", better="zero", reference="gold", gold_match="goal")


def _gates(profile):
    thresholds = load_profile(profile, [REPO / "thresholds"], PROBES)
    for (probe, task, name), threshold in thresholds.by_key.items():
        yield f"{profile}: {probe}.{task + '.' if task else ''}{name}", PROBES[probe].metric(name), threshold


@pytest.mark.parametrize("profile", PROFILES)
def test_the_profiles_gate_the_two_stances_consistently(profile):
    for key, metric, threshold in _gates(profile):
        if metric.gold_match == "goal":
            assert threshold.min is not None and threshold.max is None, f"{key}: a 'goal' metric takes a floor"
        elif metric.gold_match == "bias":
            assert threshold.min is not None and threshold.max is not None, f"{key}: a 'bias' metric takes a band"
            ideal = 0.5 if metric.better == "target" else 0.0
            assert threshold.max - ideal == pytest.approx(ideal - threshold.min), f"{key}: symmetric about {ideal}"


@pytest.mark.parametrize("profile", PROFILES)
def test_every_gate_on_a_lean_checks_both_sides_or_says_why_not(profile):
    checked = 0
    for key, metric, threshold in _gates(profile):
        if metric.better not in ("zero", "target"):
            continue
        checked += 1
        both = threshold.min is not None and threshold.max is not None
        assert both or ONE_SIDED in threshold.why.lower(), (
            f"{key} is a {metric.better!r} metric gated on one side only: add the other bound, or say in its "
            f"why that it is {ONE_SIDED} and why"
        )
    assert checked >= 10
