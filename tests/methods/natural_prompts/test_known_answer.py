"""natural_prompts' known answer (`biascheck/methods/natural_prompts/known_answer.py`): it reads pronoun_ratio's
plant, the BLS 2015 women's shares planted as pronouns in the English corpus; on the planted models the template
reading follows the shares, on the controls it does not."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("tokenizers")

FAMILIES = ("planted-bert", "planted-gpt")


# planted-bert starts from a pretrained encoder since 2026-11-27 (`biascheck.planted.pretrained`). Its three
# builds at strengths 1 and 0 (seeds 0-2, one thread, AVX-512; docs/known_answers/dose_response_en.md) gave,
# planted / control: pronoun ratio ρ 0.96 / 0.17-0.35 on both templates, natural prompts ρ 0.95-0.96 /
# −0.10-0.15, role-noun shift 0.03-0.15 (3-way) / ≤ 0.01, singular-they β 1.04-1.31 / ≤ 0.09, politicians
# gaps ∓0.21-0.23 / within 0.04: every check below holds in all three but the role-noun gate (two of three,
# so asserted on planted-gpt alone). (From scratch, six builds of the previous recipe spread from `works_as`
# ρ 0.21 to 0.95 and role-noun shift 0.03 to 0.25, so its checks of one build's size were made on planted-gpt
# alone.) The control's ρ of 0.17-0.35 is the pretrained encoder's own lean, which training on the balanced
# corpus does not remove; the bias gates pass it.
@pytest.mark.parametrize(
    ("family", "probe", "task", "name"),
    [(family, *check) for family in FAMILIES for check in (("natural_prompts", "template", "gold_spearman"),)],
)
def test_the_plant_is_found_and_the_control_shows_none(planted_en, family, probe, task, name):
    """Spearman between the model's she-vs-he preference and the planted BLS shares: high with a
    95 % interval clear of zero on the planted model, near zero on the control. Measured: 0.75-0.98
    planted, |ρ| ≤ 0.17 control; the bounds leave room for training on other hardware."""
    planted = planted_en.metric(f"{family}@1", probe, task, name)
    control = planted_en.metric(f"{family}@0", probe, task, name)
    assert planted["value"] >= 0.5 and planted["ci_low"] > 0.2, planted
    assert abs(control["value"]) < 0.35, control
    assert planted["value"] - control["value"] > 0.3  # smallest measured: 0.67 (planted-bert, natural prompts)
