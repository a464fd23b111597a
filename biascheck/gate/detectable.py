"""What the release gate can see, from one run: the smallest change of a metric each rule flags against a second
run of the same kind (`biascheck power`'s last two columns). Pure numpy over saved results.

1. **Unpaired** (the two runs' half-widths in quadrature): a second run with an interval as wide as this one's
   is flagged past √2 × this half-width, whatever moved.
2. **Paired** (`biascheck.gate.paired`): the noise follows the items that changed, so there is no one number for
   every metric. For a share of items (the recipes `share_positive` and `share_greater`, whose items each count or
   not), the fewest items that, turned the regression's way in an otherwise identical run (from not counted to
   counted where the share is above its target or the better direction is lower, else the other way), the paired
   bootstrap flags: that count and the change it makes. Items are turned in their saved order, one more each try,
   up to `MAX_FLIPS`. Other statistics (means, correlations, BBQ's score) have no such count: "—".
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from biascheck.gate.paired import COUNTED, items_for, paired_change
from biascheck.results import Result

MAX_FLIPS = 60


def unpaired_detectable(result: Result) -> float | None:
    """Step 1: √2 × the half-width of `result`'s interval (None without one)."""
    if result.ci_low is None or result.ci_high is None:
        return None
    return math.sqrt(2) * (float(result.ci_high) - float(result.ci_low)) / 2


def _counts(recipe: Mapping[str, Any], item: Mapping[str, Any]) -> bool:
    return bool(COUNTED[recipe["statistic"]]([np.asarray(float(item[f])) for f in recipe["fields"]]))


def _turned(recipe: Mapping[str, Any], item: Mapping[str, Any]) -> dict[str, Any]:
    """`item` with its count turned: its sign (share_positive; share_majority_sign's lean, a lean of 0 taking its
    majority's side) or its two fields (share_greater) swapped."""
    fields = recipe["fields"]
    if recipe["statistic"] in ("share_positive", "share_majority_sign"):
        value = float(item[fields[0]])
        side = 1.0 if recipe["statistic"] == "share_positive" or float(item[fields[1]]) > 50 else -1.0
        return {**item, fields[0]: -value if value != 0 else side}
    return {**item, fields[0]: item[fields[1]], fields[1]: item[fields[0]]}


def _upward(result: Result) -> bool:
    """Whether a regression raises the share: above its target, or when lower is better."""
    if result.target is not None:
        return result.value >= float(result.target)
    return result.better in ("lower", "zero")


def fewest_flagged(
    recipe: Mapping[str, Any], items: Sequence[Mapping[str, Any]], upward: bool, **bootstrap: Any
) -> tuple[int, float] | None:
    """Step 2: (items turned, the change) of the fewest turned items the paired rule flags; None when no count up
    to `MAX_FLIPS` is flagged, or the recipe is not a share."""
    if recipe.get("statistic") not in COUNTED:
        return None
    candidates = [i for i, item in enumerate(items) if _counts(recipe, item) != upward]
    for k in range(1, min(MAX_FLIPS, len(candidates)) + 1):
        chosen = set(candidates[:k])
        new = [_turned(recipe, item) if i in chosen else item for i, item in enumerate(items)]
        found = paired_change(recipe, items, new, **bootstrap)
        if not isinstance(found, str) and abs(found.change) > found.half_width:
            return k, found.change
    return None


def paired_detectable(run: Sequence[Result], result: Result) -> tuple[int, float] | None:
    """Step 2 for one saved result: None where it has no share recipe or no items."""
    items = items_for(run, result) if result.paired else None
    if not items:
        return None
    return fewest_flagged(result.paired or {}, items, _upward(result))
