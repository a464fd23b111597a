"""The smallest change the release gate flags, from one run (`biascheck.gate.detectable`, `biascheck power`): by
hand for the unpaired rule, and for the paired one on a share, where the count follows from the bootstrap's
percentiles (one item per cluster, k items turned: the resampled change is (turned items drawn) / n, close to
Poisson(k) / n)."""

import math

import pytest

from biascheck.gate.detectable import fewest_flagged, paired_detectable, unpaired_detectable
from biascheck.results import Result

SHARE = {"statistic": "share_positive", "fields": ["diff"], "cluster": "pair", "items_of": None, "where": []}


def crows_like(n=262, counted=141):
    """CrowS-Pairs' shape on the default model: 262 pairs, 141 of them (0.538) the stereotype's way."""
    return [{"pair": i, "diff": 0.5 + i / n if i < counted else -0.5 - i / n} for i in range(n)]


def result(items, **more):
    value = sum(item["diff"] > 0 for item in items) / len(items)
    fields = dict(model="m", probe="p", task="all", metric="stereo_share", value=value, ci_low=value - 0.06,
                  ci_high=value + 0.06, n=len(items), estimator="", reference="gold", higher_is_better=None,
                  threshold=None, passed=None, better="target", target=0.5, paired=SHARE, items=items)  # fmt: skip
    return Result(**{**fields, **more})


def test_unpaired_is_the_two_runs_half_widths_in_quadrature():
    assert unpaired_detectable(result(crows_like())) == pytest.approx(math.sqrt(2) * 0.06)
    assert unpaired_detectable(result(crows_like(), ci_low=None, ci_high=None)) is None


def test_paired_four_pairs_turned_the_stereotypes_way_are_flagged_and_three_are_not():
    """k = 3: P(none of them drawn) = (1 - 3/262)^262 = 0.049 > 0.025, so the interval runs from 0 to about 7/262:
    half-width 3.5/262 > 3/262. k = 4: P(none) = 0.018 < 0.025, from 1/262 to about 8/262: 3.5/262 < 4/262.
    docs/gate.md measured the same on the default model's own pairs."""
    items = crows_like()
    assert fewest_flagged(SHARE, items, upward=True) == (4, pytest.approx(4 / 262))
    assert fewest_flagged(SHARE, items, upward=False) == (4, pytest.approx(-4 / 262))
    assert paired_detectable([result(items)], result(items)) == (4, pytest.approx(4 / 262))


def test_the_regressions_way_and_what_has_no_count():
    items = crows_like()
    below = result(items, target=0.6)  # under its target: a regression lowers it
    assert paired_detectable([below], below)[1] < 0
    lower_better = result(items, target=None, better="lower")
    assert paired_detectable([lower_better], lower_better)[1] > 0
    mean = result(items, paired={**SHARE, "statistic": "mean"})
    assert paired_detectable([mean], mean) is None  # a mean has no count of items to turn
    unsaved = Result(**{**result(items).__dict__, "items": None})  # a run saved without its items
    assert paired_detectable([unsaved], unsaved) is None


def test_a_majority_sign_share_turns_the_lean_not_the_majority():
    """Winogender's majority_agreement (share_majority_sign): an occupation turns by its lean's sign, a lean of 0
    (agreeing with neither) takes its majority's side; its % female is never touched. 60 occupations, one each: the
    same answer as a share_positive of 60 items counted where the occupations agree."""
    recipe = {**SHARE, "statistic": "share_majority_sign", "fields": ["lean", "pct"], "cluster": "occupation"}
    items = [{"occupation": i, "lean": (i % 3 - 1) * 0.5, "pct": 20.0 + i} for i in range(60)]  # leans -0.5, 0, 0.5
    k, change = fewest_flagged(recipe, items, upward=True)
    agrees = [(item["lean"] > 0) == (item["pct"] > 50) and item["lean"] != 0 for item in items]
    positive = [{"pair": i, "diff": 1.0 if agree else -1.0} for i, agree in enumerate(agrees)]
    assert (k, change) == fewest_flagged(SHARE, positive, upward=True)
    assert change == pytest.approx(k / 60)
    from biascheck.gate.detectable import _turned

    assert _turned(recipe, {"lean": 0.0, "pct": 30.0}) == {"lean": -1.0, "pct": 30.0}  # male majority: -1 agrees
    assert _turned(recipe, {"lean": 0.0, "pct": 70.0}) == {"lean": 1.0, "pct": 70.0}
    assert _turned(recipe, {"lean": -0.2, "pct": 70.0}) == {"lean": 0.2, "pct": 70.0}
