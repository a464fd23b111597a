"""The paired rule's false-alarm rate on sign-flip releases (`lab.release_null`): the exchange by hand, and on
items where the null holds by construction the rate is near the interval's nominal 5 %, also for a pair of runs
whose items differ a lot (the exchange removes the direction, not the churn)."""

import numpy as np
import pytest

from lab import release_null as rn

SHARE = {"statistic": "share_positive", "fields": ["diff"], "cluster": "pair", "items_of": None, "where": []}


def test_the_exchange_swaps_every_item_of_the_flipped_clusters_and_nothing_else():
    before, after = [np.array([1.0, 2.0, 3.0, 4.0])], [np.array([10.0, 20.0, 30.0, 40.0])]
    clusters = np.array([0, 0, 1, 2])
    first, second = rn.swapped(before, after, clusters, np.array([True, False, True]))
    assert list(first[0]) == [10.0, 20.0, 3.0, 40.0] and list(second[0]) == [1.0, 2.0, 30.0, 4.0]


@pytest.mark.parametrize("shift", [0.0, 0.8])
def test_a_release_with_no_direction_is_called_about_as_often_as_the_interval_says(shift):
    """262 pairs, the candidate's differences the base's plus noise (and, at 0.8, a shift that turns many pairs
    one way): over 200 sign-flip releases the rule calls 5 % ± a binomial spread (and never all or none)."""
    rng = np.random.default_rng(7)
    base = rng.normal(0.1, 1.0, 262)
    new = base + rng.normal(shift, 1.0, 262)
    clusters = np.arange(262)
    found = rn.null_calls(SHARE, [base], [new], clusters, draws=200, seed=1)
    assert found["draws"] == 200
    assert 2 <= found["called"] <= 22, found  # 5 % of 200 = 10; binomial 99.9 % range about 2-22


def test_pooled_adds_the_counts_of_every_candidate_and_metric():
    rows = [
        {"metrics": {"a": {"null": {"draws": 200, "called": 9}}, "b": {"change": 0}}},
        {"metrics": {"a": {"null": {"draws": 190, "called": 12}}}},
    ]
    assert rn.pooled(rows) == {"draws": 390, "called": 21}
