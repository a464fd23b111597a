"""Hand calculations for paper 001's scores (section 3.1)."""

import math

import numpy as np
import pytest

from biascheck.methods.pronoun_ratio import math as m

# Two professions; probabilities chosen so every quantity is easy by hand.
#            P(he|t)  P(she|t)          r        n = r * P(she|tp)/P(he|tp) with prior he .6 / she .2 (ratio 3)
# nurse       0.10     0.40     0.25                 0.25 / 3 = 1/12
# engineer    0.60     0.10     6.00                 6 / 3 = 2
HE, SHE = np.log([0.10, 0.60]), np.log([0.40, 0.10])
SCORES = m.pronoun_scores(
    ["nurse", "engineer"], HE, SHE, math.log(0.6), math.log(0.2), "mlm-slot", slot_is_probability=True
)


def test_ratio_prior_normalisation_and_certainty_by_hand():
    assert np.exp(SCORES.log_r) == pytest.approx([0.25, 6.0])
    assert np.exp(SCORES.log_prior) == pytest.approx([3.0, 3.0])
    assert np.exp(SCORES.log_n) == pytest.approx([1 / 12, 2.0])
    assert SCORES.certainty == pytest.approx([0.5, 0.7])


def test_causal_scores_have_no_certainty():
    causal = m.pronoun_scores(["nurse"], HE[:1], SHE[:1], 0.0, 0.0, "causal-sentence", slot_is_probability=False)
    assert causal.certainty is None


def test_swapping_pronouns_inverts_every_ratio():
    swapped = m.pronoun_scores(["nurse", "engineer"], SHE, HE, math.log(0.2), math.log(0.6), "mlm-slot", True)
    assert swapped.log_n == pytest.approx(-SCORES.log_n)


@pytest.mark.parametrize(
    ("log_n", "stereotype", "expected"),
    [
        ([-1.0, 1.0], ["female", "male"], [1, 1]),
        ([1.0, -1.0], ["female", "male"], [0, 0]),
        ([0.0, 0.0], ["female", "male"], [0, 0]),  # exactly neutral agrees with neither
    ],
)
def test_stereotype_agreement(log_n, stereotype, expected):
    assert m.stereotype_agreement(np.array(log_n), stereotype).tolist() == expected


def test_each_profession_is_normalised_by_the_prior_with_its_own_article():
    """Paper 001 §3.1: n(t) = r(t) · P(she|t_p)/P(he|t_p), t_p = t with the profession masked, so
    'an engineer' is normalised by '[MASK] is an [MASK].', not by the 'a' prior."""
    # priors: 'a' he .6 / she .2 (ratio 3); 'an' he .5 / she .5 (ratio 1)
    prior_he, prior_she = np.log([0.6, 0.5]), np.log([0.2, 0.5])
    scores = m.pronoun_scores(
        ["nurse", "engineer"], HE, SHE, prior_he, prior_she, "mlm-slot", True, articles=["a", "an"]
    )
    assert np.exp(scores.log_n) == pytest.approx([0.25 / 3, 6.0 / 1])
    assert scores.prior_by_article() == pytest.approx({"a": math.log(3), "an": 0.0})
