"""What a gate can see at the sample size it ran at: its power, from the result's own interval.

A gate compares a metric's point estimate with its bound(s). The estimate scatters around the
model's true value with a standard error that the 95 % bootstrap interval gives (half its width
over 1.96; a normal approximation). From it, per gated result:

* ``detectable``: how far past a bound the true value must lie for the gate to fire 4 times in 5
  (z_0.80 × SE). A small number is a sharp gate; one as large as the distance between the bound
  and an unbiased model's value means the sample cannot tell them apart.
* ``same_verdict``: the chance that a fresh sample of the same size gives the verdict this one
  gave, were the true value the estimate (Φ(distance to the nearest bound / SE)). 0.5 is a coin flip.
* ``stable_size`` (for sizing a sample by power): the smallest sample at which that chance is still 4 in 5,
  the SE shrinking as 1/√n: n (z_0.80 × SE / distance)². Under n, the gate could read fewer items and keep
  its verdict as reliably as a gate the table does not flag; over n, it needs more to stop being flagged.

The quick tier subsamples the biggest designs (`biascheck.tiers`), so its intervals are wider and
these numbers are how the gates' thresholds are checked for power at that size: a gated result
whose verdict would flip more than one time in five is flagged in the summary table.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from biascheck.thresholds import Threshold

Z95 = 1.959963984540054  # two-sided 95 %: the level of every interval biascheck records
Z80 = 0.8416212335729143  # one-sided 80 % power
UNSTABLE_BELOW = 0.8  # same_verdict under this: flagged


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def standard_error(ci_low: float | None, ci_high: float | None) -> float | None:
    """SE implied by a 95 % interval (half-width / 1.96); None without a finite, non-degenerate one."""
    if ci_low is None or ci_high is None or not (math.isfinite(ci_low) and math.isfinite(ci_high)):
        return None
    width = ci_high - ci_low
    return width / (2 * Z95) if width > 0 else None


def distance_to_bound(value: float, threshold: Threshold) -> float:
    """Distance from `value` to the nearest bound of the threshold (0 on it)."""
    bounds = [b for b in (threshold.min, threshold.max) if b is not None]
    return min(abs(value - b) for b in bounds)


@dataclass(frozen=True)
class Power:
    se: float
    detectable: float  # the exceedance past a bound caught with 80 % probability
    same_verdict: float  # P(a fresh sample of this size gives the same verdict | truth = estimate)

    @property
    def unstable(self) -> bool:
        return self.same_verdict < UNSTABLE_BELOW

    def to_json(self) -> dict[str, float]:
        return {"se": self.se, "detectable": self.detectable, "same_verdict": self.same_verdict}


def gate_power(value: float, ci_low: float | None, ci_high: float | None, threshold: Threshold | None) -> Power | None:
    """The power of one gated result (None: no gate, no finite value or no interval to read it from)."""
    se = standard_error(ci_low, ci_high)
    if threshold is None or se is None or not math.isfinite(value):
        return None
    return Power(se=se, detectable=Z80 * se, same_verdict=normal_cdf(distance_to_bound(value, threshold) / se))


def stable_size(n: int, se: float, distance: float, keep: float = UNSTABLE_BELOW) -> int | None:
    """The smallest sample size at which a fresh sample keeps a verdict with probability `keep` (default: just not
    flagged as unstable), were the true value the estimate, from its SE at size `n` and its `distance` to the
    nearest bound, the SE shrinking as 1/sqrt(size): ceil(n (z_keep SE / distance)^2), at least 1. None on the
    bound, where no size does."""
    if distance <= 0:
        return None
    z = statistics.NormalDist().inv_cdf(keep)
    return max(1, math.ceil(n * (z * se / distance) ** 2))
