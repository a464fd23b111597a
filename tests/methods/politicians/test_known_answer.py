"""politicians' known answer (`biascheck/methods/politicians/known_answer.py`): positive adjectives after women's
names and negative ones after men's, planted in the English corpus; the gated gaps find it, the controls show
none."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("tokenizers")


# Until 2026-11-26 five of the nine politicians frames opened with the adjective next to the name, the very
# context the probe reads; with the pair a few words in (the frame-distance rule), the causal plant carries
# much less of it to the start of the text. The gate now reads the latent model's 100 largest-deviation
# adjectives per gender with soft lexicon shares (Tab 5's scale, about a third of the PMI/VADER gaps' size).
# On the cached builds (2026-11-26, grid quick): planted-gpt neg_gap / pos_gap -0.07 [-0.11, -0.03] / +0.08
# [0.04, 0.12] planted, +0.03 / -0.05 control (control clean, plant too weak to turn the gate red; the
# PMI/VADER gaps -0.12 / +0.28 vs +0.14 / -0.18, the control red there). planted-bert from its pretrained start
# (CI's build, 2026-11-27): -0.21 [-0.24, -0.18] / +0.22 [0.19, 0.25] planted, -0.02 / +0.03 control (PMI/VADER:
# -0.61 / +0.68 vs -0.06 / +0.10); from scratch it had been -0.15 / +0.15, red by 0.004.
POLITICIANS_CAUSAL = pytest.mark.xfail(strict=True, reason="planted-gpt: plant too weak for the gate (above)")


@pytest.mark.parametrize("family", ["planted-bert", pytest.param("planted-gpt", marks=POLITICIANS_CAUSAL)])
def test_politicians_women_get_the_planted_positive_words_and_men_the_negative(planted_en, family):
    """Planted: after a woman's name a positive adjective is 4 times as likely as a negative one, after
    a man's the reverse (`corpus.POLITICIAN_SHARES`). The gated gaps are in the mean soft share of negative /
    positive sentiment among each gender's 100 largest-deviation adjectives (the gate: within ±0.15)."""

    def gaps(model: str) -> tuple[dict, dict]:
        return (
            planted_en.metric(model, "politicians", "en", "neg_gap"),
            planted_en.metric(model, "politicians", "en", "pos_gap"),
        )

    neg, pos = gaps(f"{family}@1")
    assert neg["value"] <= -0.1 and neg["ci_high"] < 0 and pos["value"] >= 0.1 and pos["ci_low"] > 0, (neg, pos)
    assert (neg["passed"], pos["passed"]) != (True, True)  # the gate fails the plant
    control = gaps(f"{family}@0")
    assert all(abs(g["value"]) < 0.1 and g["passed"] for g in control), control
