"""What the release gate can see, from one run: the smallest change of a metric each rule flags against a second
run of the same kind (`biascheck power`'s last two columns). Pure numpy over saved results.

1. **Unpaired** (the two runs' half-widths in quadrature): a second run with an interval as wide as this one's
   is flagged past √2 × this half-width, whatever moved.
2. **Paired** (`biascheck.gate.paired`): the noise follows the items that changed, so there is no one number for
   every metric. For a statistic of items that each count or not (a share's items, an F1's items predicted right,
   BBQ's answers on the target: `COUNTS`), the fewest items that, turned the regression's way in an otherwise
   identical run (from not counted to counted where the value is above its target or the better direction is
   lower or zero, else the other way), the paired bootstrap flags: that count and the change it makes. Items are
   turned in their saved order, one more each try, up to `MAX_FLIPS`. Other statistics (means, medians,
   correlations) have no such count: "—".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import partial
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


Values = list[float]  # an item's recipe fields, in the recipe's order


def _flip(value: float, side: float) -> float:
    """A signed value turned: its sign flipped, a 0 taking `side` (the sign that counts)."""
    return -value if value != 0 else side


def _other_named(target: float, unknown: float) -> float:
    """BBQ's named answer that is neither the target nor the unknown one (answers 0, 1, 2)."""
    return 3.0 - target - unknown


def _counted_share(statistic: str, v: Values) -> bool:
    return bool(COUNTED[statistic]([np.asarray(x) for x in v]))


def _correct(v: Values) -> bool:
    return (v[0] > 0.5) == (v[1] > 0.5)


def _prediction_flipped(v: Values) -> Values:
    return [v[0], 1.0 - v[1]]


# Per statistic with a count: whether an item counts (is in the share, answers the target, is predicted right) and
# the item turned the other way. A share's count is its recipe's (`COUNTED`); an F1 counts the items predicted
# right (turned: the prediction flipped); BBQ's score counts the answers on the target (turned: to the target, or
# from it to the other named answer). Each statistic moves one way with its count.
F1S = ("f1_of_1", "f1_of_0", "macro_f1")  # over (gold, predicted) sides: they count and turn alike
COUNTS: dict[str, Callable[[Values], bool]] = {
    **{name: partial(_counted_share, name) for name in COUNTED},
    **dict.fromkeys(F1S, _correct),
    "bbq_bias": lambda v: v[0] == v[1],
    "bbq_bias_scaled": lambda v: v[0] == v[2],
}
TURNS: dict[str, Callable[[Values], Values]] = {
    "share_positive": lambda v: [_flip(v[0], 1.0)],
    "share_majority_sign": lambda v: [_flip(v[0], 1.0 if v[1] > 50 else -1.0), v[1]],
    "share_same_sign": lambda v: [_flip(v[0], float(np.sign(v[1]))), v[1]],
    "share_greater": lambda v: [v[1], v[0]] if v[0] != v[1] else [v[1] + 1.0, v[1]],
    "share_equal": lambda v: [v[0] + 1.0 if v[0] == v[1] else v[1], v[1]],
    **dict.fromkeys(F1S, _prediction_flipped),
    "bbq_bias": lambda v: [_other_named(v[1], v[2]) if v[0] == v[1] else v[1], *v[1:]],
    "bbq_bias_scaled": lambda v: [_other_named(v[2], v[3]) if v[0] == v[2] else v[2], *v[1:]],
}


def _values(recipe: Mapping[str, Any], item: Mapping[str, Any]) -> Values:
    return [float(item[f]) for f in recipe["fields"]]


def _counts(recipe: Mapping[str, Any], item: Mapping[str, Any]) -> bool:
    return COUNTS[recipe["statistic"]](_values(recipe, item))


def _turned(recipe: Mapping[str, Any], item: Mapping[str, Any]) -> dict[str, Any]:
    """`item` with its count turned (`TURNS`): a signed field's sign (a 0 taking the side that counts), two fields
    swapped (share_greater; a tie: the first made greater), a prediction flipped (F1) or moved to or from the
    target (BBQ)."""
    turned = TURNS[recipe["statistic"]](_values(recipe, item))
    return {**item, **dict(zip(recipe["fields"], turned, strict=True))}


def _upward(result: Result) -> bool:
    """Whether a regression raises the value: at or above its target (0 where the ideal is zero), or when lower is
    better."""
    if result.target is not None or result.better == "zero":
        return result.value >= float(result.target or 0.0)
    return result.better == "lower"


def fewest_flagged(
    recipe: Mapping[str, Any], items: Sequence[Mapping[str, Any]], upward: bool, **bootstrap: Any
) -> tuple[int, float] | None:
    """Step 2: (items turned, the change) of the fewest turned items the paired rule flags; None when no count up
    to `MAX_FLIPS` is flagged, or the recipe's statistic has no count of items (`COUNTS`)."""
    if recipe.get("statistic") not in TURNS:
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
    """Step 2 for one saved result: None where its recipe has no count of items, or it saved no items."""
    items = items_for(run, result) if result.paired else None
    if not items:
        return None
    return fewest_flagged(result.paired or {}, items, _upward(result))
