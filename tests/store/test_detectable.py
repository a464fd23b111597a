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
    below_zero = result(items, value=-0.1, target=None, better="zero")  # a regression moves it further from 0
    assert paired_detectable([below_zero], below_zero)[1] < 0
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


def test_a_same_sign_share_turns_the_first_field_toward_the_seconds_sign():
    """pronoun_ratio's stereotype_agreement (share_same_sign): a profession turns by its log n's sign, a log n of 0
    taking its stereotype's sign; the same answer as a share_positive of the same count."""
    recipe = {**SHARE, "statistic": "share_same_sign", "fields": ["log_n", "sign"], "cluster": "profession"}
    items = [{"profession": i, "log_n": (i % 3 - 1) * 0.5, "sign": (-1) ** i} for i in range(60)]
    k, change = fewest_flagged(recipe, items, upward=False)
    agrees = [item["log_n"] != 0 and (item["log_n"] > 0) == (item["sign"] > 0) for item in items]
    positive = [{"pair": i, "diff": 1.0 if agree else -1.0} for i, agree in enumerate(agrees)]
    assert (k, change) == fewest_flagged(SHARE, positive, upward=False)
    from biascheck.gate.detectable import _turned

    assert _turned(recipe, {"log_n": 0.0, "sign": -1}) == {"log_n": -1.0, "sign": -1}
    assert _turned(recipe, {"log_n": 0.3, "sign": -1}) == {"log_n": -0.3, "sign": -1}


def test_every_statistic_with_a_count_moves_its_way_when_one_item_turns():
    """`COUNTS` / `TURNS` agree with the statistics: an item turned changes whether it counts, and the statistic
    moves the way its count does (an F1 falls when a right prediction turns wrong, BBQ's score rises when an
    answer turns to the target and falls when one turns from it to the other named answer)."""
    import numpy as np

    from biascheck.gate.detectable import COUNTS, TURNS, _turned
    from biascheck.gate.paired import STATISTICS

    assert set(COUNTS) == set(TURNS)
    rng = np.random.default_rng(9)
    arity = {"share_positive": 1, "bbq_bias": 3, "bbq_bias_scaled": 5}
    for statistic in TURNS:
        fields = [f"f{i}" for i in range(arity.get(statistic, 2))]
        recipe = {"statistic": statistic, "fields": fields}
        for _ in range(30):
            if statistic.startswith(("f1", "macro")):
                values = rng.integers(0, 2, (40, 2)).astype(float)
            elif statistic.startswith("bbq"):
                unknown, target = rng.integers(0, 3, 40), rng.integers(0, 3, 40)
                target = np.where(target == unknown, (unknown + 1) % 3, target)
                label = rng.integers(0, 3, 40)
                predicted = rng.integers(0, 3, 40)
                columns = [predicted, target, unknown] if statistic == "bbq_bias" else [
                    predicted, label, target, unknown, np.ones(40)]  # fmt: skip
                values = np.column_stack(columns).astype(float)
            else:  # a signed first field; the second a sign (share_same_sign), a % female or another score
                values = rng.choice([-2.0, -1.0, 0.0, 1.0, 2.0], (40, len(fields)))
                if statistic == "share_majority_sign":
                    values[:, 1] = rng.uniform(0, 100, 40)
                if statistic == "share_same_sign":
                    values[:, 1] = rng.choice([-1.0, 1.0], 40)
            items = [dict(zip(fields, row, strict=True)) for row in values]
            i = int(rng.integers(0, 40))
            turned = _turned(recipe, items[i])
            before, after = COUNTS[statistic](list(values[i])), COUNTS[statistic]([turned[f] for f in fields])
            assert before != after, (statistic, items[i], turned)
            after_turn = [*items[:i], turned, *items[i + 1 :]]
            old, new = (
                STATISTICS[statistic]([np.array([r[f] for r in rows]) for f in fields]) for rows in (items, after_turn)
            )
            if np.isfinite(old) and np.isfinite(new):
                assert (new - old) * (1 if after else -1) >= -1e-12, (statistic, old, new)
