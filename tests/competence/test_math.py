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


@pytest.mark.parametrize(("k", "passed"), [(16, False), (17, False), (18, True)])
def test_the_line_is_18_of_20(k, passed):
    """18 of 20 (17 of 20 lone pairs would clear p <= 0.002 at 0.0013, 16 would not at 0.0059)."""
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


def test_the_clustered_sign_test_is_the_sign_test_when_every_pair_is_its_own_cluster():
    from scipy.stats import binomtest

    rng = np.random.default_rng(0)
    for k in (10, 14, 16, 20):
        gaps = rng.permutation([1.0] * k + [-1.0] * (20 - k))
        want = binomtest(k, 20, 0.5, alternative="greater").pvalue
        assert math.clustered_sign_test(gaps, range(20)) == pytest.approx(want, rel=1e-12)


def test_the_clustered_sign_test_by_hand():
    """gaps +, + | + | -: clusters give 2 or 0, 1 or 0, 0 or 1; of the 8 equally likely sums
    (3, 4, 2, 3, 1, 2, 0, 1) three reach the observed 3."""
    assert math.clustered_sign_test([1.0, 2.0, 0.5, -1.0], [0, 0, 1, 2]) == pytest.approx(3 / 8)
    # a tie counts for neither side: 0 positive, and nothing below 0
    assert math.clustered_sign_test([0.0, 0.0], [0, 1]) == 1.0
    with pytest.raises(ValueError):
        math.clustered_sign_test([1.0, 2.0], [0])


def test_pairs_that_move_together_count_once():
    """The issue's random Llama in French: all 20 pairs positive because 19 share the article. As 20
    independent pairs p = 2^-20; as the two trials they are, 1/4: far from a pass."""
    gaps = np.full(20, 0.03)
    assert math.clustered_sign_test(gaps, range(20)) == pytest.approx(2.0**-20)
    assert math.clustered_sign_test(gaps, [0] * 19 + [1]) == pytest.approx(1 / 4)
    found = math.competence(
        "fr", [("f", "m")] * 20, np.array([[g, 0.0] for g in gaps]).ravel(), 1, "x", (), [0] * 19 + [1]
    )
    assert found.k_agree == 20 and found.p_value == pytest.approx(0.25) and not found.passed


def test_the_effect_is_the_mean_gap_over_the_within_gender_spread_by_hand():
    # female leans 2, 4 (sample variance 2), male 0, 0 (0): spread sqrt((2 + 0) / 2) = 1; gaps 2, 4: mean 3
    leans = np.array([[2.0, 0.0], [4.0, 0.0]])
    assert math.effect_size(leans) == pytest.approx(3.0)
    assert math.effect_size(10 * leans) == pytest.approx(3.0)  # scale free: a wider model's logits
    assert math.effect_size(leans + 7.0) == pytest.approx(3.0)  # a preference for one pronoun cancels
    assert math.effect_size(np.array([[1.0, 0.0], [1.0, 0.0]])) == np.inf  # every noun read alike
    assert math.effect_size(np.zeros((3, 2))) == 0.0


def test_noun_leans_average_each_noun_over_frames():
    lean = np.array([3.0, 1.0, 0.0, 2.0, 5.0, 1.0, 1.0, 1.0])  # 2 frames x 2 pairs x (female, male)
    assert math.noun_leans(lean, 2, 2).tolist() == [[4.0, 1.0], [0.5, 1.5]]
    leans = math.noun_leans(lean, 2, 2)
    assert (leans[:, 0] - leans[:, 1]).tolist() == math.pair_gaps(lean, 2, 2).tolist()


@pytest.mark.parametrize(("effect_scale", "passed"), [(0.2, False), (1.0, True)])
def test_a_small_effect_fails_however_consistent(effect_scale, passed):
    """Every gap positive but small beside how much the nouns' leans differ within a gender: no pass."""
    rng = np.random.default_rng(1)
    spread = rng.normal(0.0, 1.0, 20)  # the same noise for the female and the male noun of a pair...
    female, male = spread + 0.5 * effect_scale, spread - 0.5 * effect_scale  # ...so every gap is effect_scale
    found = math.competence("en", [("f", "m")] * 20, np.column_stack([female, male]).ravel(), 1, "x")
    assert found.k_agree == 20 and found.p_value < 1e-5
    assert found.effect == pytest.approx(effect_scale / np.sqrt((female.var(ddof=1) + male.var(ddof=1)) / 2))
    assert found.passed is passed


def test_clusters_join_shared_cues_and_the_same_length_difference_through_chains():
    cues = ["-ess", "", "", "-ess", "", ""]
    assert math.clusters(cues) == [0, 1, 2, 0, 3, 4]
    # pair 1 (2, 1) and pair 4 (1, 2): one position shift, reversed; pair 2 (2, 1) too; pair 5 equal lengths
    lengths = [(1, 1), (2, 1), (2, 1), (3, 2), (1, 2), (2, 2)]
    assert math.clusters(cues, lengths) == [0, 1, 1, 0, 1, 2]
    # pair 3 (3, 2) is linked to pair 0 by its cue; a (2, 3) pair joins it by length, and so pair 0
    assert math.clusters([*cues, ""], [*lengths, (2, 3)]) == [0, 1, 1, 0, 1, 2, 0]
