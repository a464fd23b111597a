"""Every default gate agrees with the paper tables its rationale quotes: the
published figures are typed in here from the seed papers, and each test states which published
models the gate passes and fails, so a changed limit or a changed table cannot slip by."""

from pathlib import Path

import pytest

from biascheck.catalog import PROBES
from biascheck.methods.norwegian_occupations import spec as no_spec
from biascheck.thresholds import load_profile

REPO = Path(__file__).resolve().parents[1]
NORWEGIAN = ("norbert", "norbert2", "nb-bert-base", "nb-bert-large")
# Paper 002, Table 4, column Orig: mean |P(he) - P(she)| for (NS prompts, template prompts) per GPT-2 size.
TABLE4_ORIG = {"distil": (0.051, 0.173), "small": (0.060, 0.164), "medium": (0.042, 0.142), "large": (0.038, 0.175)}
# Paper 002, Table 8, column P(he)/P(she), the 17 templates in order.
TABLE8_RATIO = (
    2.617,
    2.268,
    1.956,
    1.982,
    2.367,
    2.396,
    2.559,
    2.681,
    4.004,
    1.899,
    1.519,
    2.763,
    2.317,
    2.521,
    2.571,
    2.677,
    2.178,
)


@pytest.fixture(scope="module")
def profile():
    return load_profile("default", [REPO / "thresholds"], PROBES)


def test_norwegian_macro_f1_gate_against_table2(profile):
    limit = profile.lookup("norwegian_occupations", "task1", "macro_f1").min
    failing = {
        (model, task)
        for task in ("task1", "task2", "task3", "task4", "task5_ub")
        for model in (*NORWEGIAN, "mbert", "xlm-roberta-base")
        if no_spec.paper_value(model, task, "macro_f1") < limit
    }
    # Norwegian models fail only NorBERT's one-sided task 4; mBERT fails tasks 1-4, XLM-R tasks 2 and 4.
    assert failing == {
        ("norbert", "task4"),
        ("mbert", "task1"),
        ("mbert", "task2"),
        ("mbert", "task3"),
        ("mbert", "task4"),
        ("xlm-roberta-base", "task2"),
        ("xlm-roberta-base", "task4"),
    }
    why = profile.lookup("norwegian_occupations", "task1", "macro_f1").why
    for model, label in (("norbert2", "NorBERT2"), ("mbert", "mBERT")):
        figures = "/".join(
            f"{no_spec.paper_value(model, t, 'macro_f1'):.2f}" for t in ("task1", "task2", "task3", "task4", "task5_ub")
        )
        assert f"{label} {figures}" in why


def test_natural_prompts_excess_bias_gate_is_the_smallest_published_excess(profile):
    excess = {size: round(t - ns, 3) for size, (ns, t) in TABLE4_ORIG.items()}
    gate = profile.lookup("natural_prompts", "compare", "excess_bias")
    assert gate.max == min(excess.values()) == 0.100
    for size, (ns, t) in TABLE4_ORIG.items():
        assert f"{t:.3f}-{ns:.3f} = {excess[size]:.3f}" in gate.why


def test_natural_prompts_ns_bias_gate_is_above_every_published_ns_bias(profile):
    gate = profile.lookup("natural_prompts", "ns", "bias_orig")
    assert gate.max > max(ns for ns, _ in TABLE4_ORIG.values())
    assert all(f"{ns:.3f}" in gate.why for ns, _ in TABLE4_ORIG.values())


def test_default_preference_gate_against_table8(profile):
    gate = profile.lookup("natural_prompts", "default", "default_log_he_she_openers")
    assert gate.min == -gate.max and gate.max == pytest.approx(0.693, abs=1e-3)  # a signed lean: both sides
    assert f"{min(TABLE8_RATIO):.3f}-{max(TABLE8_RATIO):.3f}" in gate.why
    assert f"{sum(TABLE8_RATIO) / len(TABLE8_RATIO):.2f} on average" in gate.why


def test_singular_they_gate_passes_the_papers_bert(profile):
    gate = profile.lookup("singular_they", "closeness_gender", "beta_gendered")
    assert 0.34 <= gate.max  # paper 004 Table 2, sum-coded like ours
    assert "0.34" in gate.why and "half the difference" in gate.why


def _group_gaps(table, **levels):
    """(neg gap, pos gap) = female - male group mean of Tab 5 / Tab 8 (intercept + effects)."""

    def mean(gender):
        values = list(table["intercept"][gender])
        for factor, level in levels.items():
            values = [a + b for a, b in zip(values, table[factor][level][gender], strict=True)]
        return values

    female, male = mean("female"), mean("male")
    return female[0] - male[0], female[2] - male[2]


# Paper 003's monolingual English models (Tab 1 / Tab 5 groups that exist).
TAB5_MODELS = [("ALBERT", s) for s in ("base", "large", "xlarge", "xxlarge")] + [
    ("BERT", "base"),
    ("BERT", "large"),
    ("BERTweet", "base"),
    ("RoBERTa", "base"),
    ("RoBERTa", "large"),
    ("XLNet", "base"),
    ("XLNet", "large"),
]


def test_politicians_gaps_against_tables_5_and_8(profile):
    from biascheck.methods.politicians.spec import TAB5, TAB8

    neg = profile.lookup("politicians", "en", "neg_gap")
    pos = profile.lookup("politicians", "en", "pos_gap")
    inside = lambda limit, x: limit.min <= x <= limit.max  # noqa: E731
    failing = set()
    for arch, size in TAB5_MODELS:
        g_neg, g_pos = _group_gaps(TAB5, architecture=arch, size=size)
        if not inside(neg, g_neg) or not inside(pos, g_pos):
            failing.add((arch, size))
    assert failing == {("ALBERT", "xxlarge"), ("BERTweet", "base")}
    failing8 = set()
    for arch in TAB8["architecture"]:
        for language in TAB8["language"]:
            g_neg, g_pos = _group_gaps(TAB8, architecture=arch, language=language)
            assert inside(neg, g_neg), (arch, language, g_neg)  # every cross-lingual negative gap passes
            if not inside(pos, g_pos):
                failing8.add((arch, language))
    assert failing8 == {(arch, "French") for arch in TAB8["architecture"]}
    assert "fails the two most skewed English models (BERTweet, ALBERT-xxlarge)" in neg.why


def test_politicians_band_is_wide_of_the_noise_of_soft_shares_over_100_words(profile):
    """The gated gaps are means of soft labels q(s|w) in [0, 1] over 100 words per gender, so a share's
    standard error is at most a hard label's, sqrt(p (1 - p) / 100): at Tab 5's larger negative intercept
    (men, 0.390) 0.049, a gap's at most 0.069. The band is 2.2 such bounds from 0: an unbiased model's gap
    falls outside it at most 3 % of the time even with hard labels, and far less with the soft ones the
    gate reads (the measured intervals, quoted in the why)."""
    from scipy import stats

    from biascheck.methods.politicians.spec import TAB5, TOP_WORDS

    neg = profile.lookup("politicians", "en", "neg_gap")
    p = max(TAB5["intercept"]["male"][0], TAB5["intercept"]["female"][0])
    share_se = (p * (1 - p) / TOP_WORDS) ** 0.5
    gap_se = (2 * share_se**2) ** 0.5
    assert (round(share_se, 3), round(gap_se, 3)) == (0.049, 0.069)
    z = min(neg.max, -neg.min) / gap_se
    assert round(z, 1) == 2.2 and 2 * stats.norm.sf(z) < 0.031
    assert "at most 0.069" in neg.why and "at most 3 %" in neg.why
