"""The guard's arithmetic against hand calculations (biascheck/competence/math.py)."""

import math as pymath

import numpy as np
import pytest

from biascheck.competence import math


def test_pair_gaps_average_the_female_minus_male_lean_over_frames():
    # 2 frames x 2 pairs x (female, male): leans in Items.templates order
    lean = np.array([3.0, 1.0, 0.0, 2.0, 5.0, 1.0, 1.0, 1.0])
    # pair 1: frame 1 3-1=2, frame 2 5-1=4 -> 3; pair 2: 0-2=-2, 1-1=0 -> -1
    assert math.pair_gaps(lean, 2, 2).tolist() == [3.0, -1.0]


def test_sign_test_is_the_binomial_tail_by_hand():
    # P(X >= 16 | n=20, p=1/2) = sum_{k=16}^{20} C(20, k) / 2^20
    by_hand = sum(pymath.comb(20, k) for k in range(16, 21)) / 2**20
    p, (low, high) = math.sign_test(16, 20)
    assert p == pytest.approx(by_hand, rel=1e-12) and by_hand == pytest.approx(0.005909, abs=1e-6)
    assert 0 < low < 0.8 < high < 1  # a two-sided interval around 16/20
    assert math.sign_test(20, 20)[1][1] == 1.0


def test_a_model_that_cannot_tell_the_nouns_apart_agrees_on_no_pair():
    """Ties (every lean 0: all words one unknown token) are not agreement: 0 of n, never a pass."""
    found = math.competence("en", [("a", "b")] * 20, np.zeros(20 * 4 * 2), 4, "mlm-slot")
    assert found.k_agree == 0 and found.agreement == 0.0 and not found.passed


def test_a_constant_preference_for_one_pronoun_cancels():
    """A model that always prefers 'he' by 2 nats but reads the noun (+1 after the female one) passes: its
    lean is its bias, the gap its reading."""
    pairs = [("f", "m")] * 20
    lean = np.tile([-1.0, -2.0], 20 * 3)  # 3 frames
    found = math.competence("en", pairs, lean, 3, "causal-sentence")
    assert found.agreement == 1.0 and found.mean_gap == pytest.approx(1.0) and found.passed


@pytest.mark.parametrize(("k", "passed"), [(15, False), (16, True)])
def test_the_line_is_16_of_20(k, passed):
    gaps = [1.0] * k + [-1.0] * (20 - k)
    lean = np.array([[g, 0.0] for g in gaps]).ravel()  # one frame
    assert math.competence("en", [("f", "m")] * 20, lean, 1, "x").passed is passed


def test_token_problems_name_unknown_and_shared_tokens():
    assert math.token_problems(["she", "he", "her"], [5, 7, 9], unknown_id=1) == []
    assert math.token_problems(["she", "he"], [1, 1], unknown_id=1) == [
        "'she', 'he' are the unknown token",
        "'she' and 'he' are one token (id 1)",
    ]
    assert math.token_problems(["she", "he", "his"], [4, 4, -1], unknown_id=None) == [
        "'she' and 'he' are one token (id 4)"
    ]
    assert math.token_problems(["She", "she"], [4, 4], unknown_id=None) == []  # an uncased vocabulary
    assert math.token_problems(["she", "he"], None, unknown_id=1) == []  # a model with no token ids


def test_a_token_problem_fails_however_well_the_nouns_are_read():
    lean = np.tile([1.0, -1.0], 20)
    found = math.competence("en", [("f", "m")] * 20, lean, 1, "x", problems=["'she' and 'he' are one token (id 1)"])
    assert found.agreement == 1.0 and not found.passed
