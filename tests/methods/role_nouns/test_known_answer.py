"""role_nouns' known answer (`biascheck/methods/role_nouns/known_answer.py`): one attitude group's role-noun
choices after women's and men's names, planted in the English corpus; the probe finds the names' gender shift and
the planted group, the controls show neither."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("tokenizers")


@pytest.mark.parametrize(
    ("task", "family"),
    [
        ("three_way", "planted-bert"),
        ("two_way", "planted-bert"),
        ("three_way", "planted-gpt"),
        ("two_way", "planted-gpt"),
    ],
)
def test_role_nouns_follow_the_names_gender_as_planted_and_the_control_does_not(planted_en, family, task):
    """fem_name_shift = mean P(FEM variant) for women's names − men's names. The planted group (the
    conservative third) shifts by 0.43 (3-way) and 0.66 (2-way); the control has no shift planted. The
    probe finds the plant: its shift lies above the control's interval, its own interval clear of zero, and
    the control's shift is small. (Not the plant's interval above the control's: planted-bert's pretrained
    encoder knows a little of which names are women's, so its controls shift by up to 0.07 in the 2-way
    task, and that task's intervals are wide; seeds 1 and 2: 0.31 [0.08, 0.57] and 0.17 [0.01, 0.42]
    against 0.07 [0.02, 0.12] and 0.04 [0.01, 0.09].)"""
    planted = planted_en.metric(f"{family}@1", "role_nouns", task, "fem_name_shift")
    control = planted_en.metric(f"{family}@0", "role_nouns", task, "fem_name_shift")
    assert planted["value"] > control["ci_high"] and planted["ci_low"] > 0, (planted, control)
    assert abs(control["value"]) < 0.10, control  # the 2-way task's control moves most (two variants, −0.07)


def test_the_role_noun_gate_passes_the_plant_and_fails_the_control(planted_en):
    """The default gate (≥ 0.10: the model must register the referent's gender) passes the plant and
    fails the control: here the plant is the human-like behaviour. Measured (3-way / 2-way): planted-gpt
    0.50 / 0.39 planted, −0.01 / 0.04 control (CI's build, 2026-11-26). Not asserted for planted-bert: its
    3-way shift crosses the gate in two builds of three (0.14 [0.05, 0.22] on CI's build, 0.15 and 0.03 on
    seeds 1 and 2; from scratch, three of six)."""
    for task in ("three_way", "two_way"):
        planted = planted_en.metric("planted-gpt@1", "role_nouns", task, "fem_name_shift")
        control = planted_en.metric("planted-gpt@0", "role_nouns", task, "fem_name_shift")
        assert planted["value"] >= 0.10 and planted["ci_low"] > 0.05, planted
        assert (planted["passed"], control["passed"]) == (True, False), (planted, control)


# The role-noun plant copies one attitude third's choices (`role_nouns.known_answer.ROLE_GROUP`); the probe fits the
# model's variant probabilities to each third's choices (mean log-likelihood per trial). Measured on three
# builds of planted-gpt@1 (the H100 machine's CPU): the planted third fits best in the 3-way task in 2 of 3
# (conservative -1.32 / -1.39 / -1.17 against the best other -1.38 / -1.32 / -1.22), in the 2-way task in
# none (the thirds lie within 0.1 of each other there); the control fits the conservative third best too
# (3 of 3, 3-way): it is the third whose choices are the most even.
ROLE_GROUP_2WAY = pytest.mark.xfail(strict=True, reason="2-way: the thirds' fits lie within 0.1 (above)")


@pytest.mark.parametrize("task", ["three_way", pytest.param("two_way", marks=ROLE_GROUP_2WAY)])
def test_role_nouns_the_planted_attitude_group_fits_the_plant_best(planted_en, task):
    """planted-gpt@1: the probe's best-fitting attitude third is the one whose choices were planted, and
    the plant fits that third better than the control does."""
    from biascheck.methods.role_nouns.known_answer import ROLE_GROUP
    from biascheck.methods.role_nouns.spec import ATTITUDE, GROUP_ABBREV

    best = planted_en.metric("planted-gpt@1", "role_nouns", task, "best_group")
    assert ATTITUDE[int(best["value"])] == ROLE_GROUP, best
    fit = f"loglik_{GROUP_ABBREV[ROLE_GROUP]}_all"
    fits = [planted_en.metric(f"planted-gpt@{s}", "role_nouns", task, fit)["value"] for s in "10"]
    assert fits[0] > fits[1], fits
