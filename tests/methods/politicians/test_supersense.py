"""politicians supersenses (Fig 3): shares by hand, the permutation p against scipy's exact test, and the
Bonferroni cut-off."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from biascheck.methods.politicians.supersense import class_matrix, permutation_p, supersense_table

CLASSES = {"angry": frozenset({"feeling"}), "sad": frozenset({"feeling", "body"}), "wise": frozenset({"mind"})}
NAMES = ("body", "feeling", "mind")


def test_class_matrix_counts_a_word_in_each_of_its_classes():
    got = class_matrix(["sad", "angry", "unknown", "wise"], CLASSES, NAMES)
    assert got.tolist() == [[True, True, False], [False, True, False], [False, False, False], [False, False, True]]


@pytest.mark.parametrize("seed", [0, 1])
def test_permutation_p_matches_scipys_exact_test(seed):
    rng = np.random.default_rng(seed)
    first, second = rng.random((6, 3)), rng.random((6, 3)) + np.array([0.0, 0.3, 0.8])
    ours = permutation_p(first, second, n_perm=100_000, seed=seed)
    for j in range(3):
        exact = stats.permutation_test(  # 924 partitions: scipy enumerates them all
            (first[:, j], second[:, j]),
            lambda x, y: np.mean(x) - np.mean(y),
            permutation_type="independent",
            alternative="two-sided",
            n_resamples=np.inf,
        ).pvalue
        assert ours[j] == pytest.approx(exact, abs=0.006)


def test_permutation_p_of_identical_samples_is_one_and_never_zero():
    x = np.array([[1.0], [0.0], [1.0]])
    assert permutation_p(x, x, n_perm=500)[0] == 1.0
    apart = permutation_p(np.ones((40, 1)), np.zeros((40, 1)), n_perm=999)[0]
    assert apart == pytest.approx(1 / 1000)


def test_supersense_table_by_hand_and_bonferroni():
    top = {
        ("neg", "female"): ["angry"] * 20 + ["sad"] * 10 + ["other"] * 10,
        ("neg", "male"): ["wise"] * 10 + ["other"] * 30,
    }
    table = supersense_table(top, CLASSES, NAMES, n_perm=2_000).set_index("supersense")
    assert table.loc["feeling", "share_female"] == 0.75 and table.loc["feeling", "share_male"] == 0.0
    assert table.loc["body", "share_female"] == 0.25 and table.loc["mind", "diff"] == -0.25
    assert table["coverage_female"].iloc[0] == 0.75 and table["coverage_male"].iloc[0] == 0.25
    assert table.loc["feeling", "significant"] and table.loc["feeling", "p"] < 0.05 / 3
    # 10 of 40 against 0 of 40 is also below Bonferroni's 0.05 / 3
    assert table.loc["body", "p"] < 0.0167 and table.loc["body", "significant"]


def test_a_small_difference_is_not_significant_after_bonferroni():
    top = {("pos", "female"): ["wise"] * 6 + ["x"] * 34, ("pos", "male"): ["wise"] * 1 + ["x"] * 39}
    table = supersense_table(top, CLASSES, NAMES, n_perm=5_000).set_index("supersense")
    p = table.loc["mind", "p"]
    assert 0.0167 < p < 0.2 and not table.loc["mind", "significant"]  # would pass an uncorrected 0.05 or nearly
