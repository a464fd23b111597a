"""Every metric declares which way it is better (issue 12, item 3): higher, lower, toward zero (a signed
lean), toward a target, or none. The signed leans and the target metrics are pinned here, so that a
metric cannot silently go back to 'lower is better' (a lean moving from -0.8 to -2.0 is worse)."""

import pytest

from biascheck.catalog import PROBES
from biascheck.spec import BETTER, MetricSpec, distance_from_ideal

SIGNED_LEANS = {
    "pronoun_ratio": {"log_prior_ratio", "log_prior_ratio_an", "median_log_r"},
    "natural_prompts": {
        "default_log_he_she",
        "default_log_male_female",
        "default_log_he_she_initial",
        "default_log_male_female_initial",
        "default_log_he_she_openers",
    },
    "role_nouns": {
        "gap_cons_prog",
        "gap_mod_prog",
        "gap_rep_dem",
        "gap_cons_prog_excess",
        "masc_for_women_excess",
        "fem_for_men_excess",
    },
    # female - male differences: 0 = the words put next to women's and men's names are alike
    "politicians": {
        f"{prefix}{name}"
        for prefix in ("", "verb_")
        for name in ("neg_gap", "pos_gap", "lvm_neg_gap", "lvm_pos_gap", "sent_mix_neg", "sent_mix_neu", "sent_mix_pos")
    }
    | {"after_neg_gap", "after_pos_gap"},
    "crows_pairs_gender": {"mean_logprob_diff"},  # score(more stereotyping) - score(less)
    "winogender": {"female_lean", "accuracy_gap"},
    "winobias": {"mean_pro_anti"},
}
TARGETS = {  # metric: fixed target, or None when each result carries its own (from the reference data)
    "pronoun_ratio": {"male_lean_share": 0.5, "stereotype_agreement": 0.5},
    "natural_prompts": {"he_she_ratio": 1.0},
    "role_nouns": {"fem_name_shift": None},  # the participants' shift
    "norwegian_occupations": {"female_predicted_share": None},  # the gold share of female-dominated occupations
    "crows_pairs_gender": {"stereo_share": 0.5},
    "winogender": {"majority_agreement": 0.5},
    "winobias": {"pro_share": 0.5, "pro_share_female_occ": 0.5, "pro_share_male_occ": 0.5},
}


@pytest.mark.parametrize("probe", list(PROBES))
def test_every_metric_declares_a_known_kind(probe):
    for metric in PROBES[probe].metrics:
        assert metric.better in BETTER, metric.name


@pytest.mark.parametrize("probe", list(PROBES))
def test_signed_leans_are_toward_zero_and_targets_toward_their_target(probe):
    kinds = {m.name: m for m in PROBES[probe].metrics}
    assert {n for n, m in kinds.items() if m.better == "zero"} == SIGNED_LEANS.get(probe, set())
    assert {n: m.target for n, m in kinds.items() if m.better == "target"} == TARGETS.get(probe, {})


def test_distance_from_ideal_by_hand():
    assert distance_from_ideal("zero", -2.0) == 2.0 > distance_from_ideal("zero", -0.8)
    assert distance_from_ideal("target", 0.3, 0.5) == pytest.approx(0.2)
    assert distance_from_ideal("higher", 0.7) == -0.7 and distance_from_ideal("lower", 0.7) == 0.7
    assert distance_from_ideal("none", 1.0) is None and distance_from_ideal("target", 1.0) is None


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="better='up'"):
        MetricSpec(name="x", description="", better="up", reference="model")
