"""Hand calculations for paper 002's metrics (natural-sentence vs template prompts), scipy cross-checks,
and the whole pipeline on a fake causal LM whose probabilities are known."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from biascheck.data.natural_prompts import parse_prompts
from biascheck.methods import natural_prompts as m
from biascheck.models.base import CAUSAL_NEXT, CAUSAL_SENTENCE, MLM_SLOT, LanguageModel, ModelInfo, SlotScores

# ---------------------------------------------------------------------------------------------
# 3. distances: hand examples
#   P(he) = (.2, .2), P(she) = (.1, .3):
#   columns a = (.5, .5), b = (.25, .75): KL = .5 ln(.5/.25) + .5 ln(.5/.75) = .5 ln 2 + .5 ln(2/3) = .5 ln(4/3)
#   EMD: sorted (.2, .2) vs (.1, .3): mean(|.1|, |.1|) = .1 ; bias = mean(.1, .1) = .1
#   P(he) = (.3, .1), P(she) = (.1, .3): columns swapped -> KL = .75 ln 3 + .25 ln(1/3) = .5 ln 3;
#   EMD = 0 (same values), bias = .2 (the EMD ignores which prompt gets which value)


@pytest.mark.parametrize(
    ("he", "she", "kl", "emd", "bias"),
    [
        ([0.2, 0.2], [0.1, 0.3], 0.5 * math.log(4 / 3), 0.1, 0.1),
        ([0.3, 0.1], [0.1, 0.3], 0.5 * math.log(3), 0.0, 0.2),
        ([0.1, 0.2], [0.05, 0.1], 0.0, 0.075, 0.075),  # she proportional to he: KL 0, level gap remains
        ([0.4], [0.4], 0.0, 0.0, 0.0),
    ],
)
def test_distances_by_hand(he, she, kl, emd, bias):
    assert m.kl_columns(np.array(he), np.array(she)) == pytest.approx(kl, abs=1e-12)
    assert m.emd(np.array(he), np.array(she)) == pytest.approx(emd, abs=1e-12)
    assert m.stereotypical_bias(np.array(he), np.array(she)) == pytest.approx(bias, abs=1e-12)


def test_kl_histogram_by_hand():
    # 2 bins on [0, 1], pseudocount 0.5: he values (.1, .2) -> counts (2, 0) -> (2.5, .5)/3;
    # she values (.1, .9) -> (1, 1) -> (1.5, 1.5)/3. KL = 5/6 ln(5/3) + 1/6 ln(1/3)
    got = m.kl_histogram(np.array([0.1, 0.2]), np.array([0.1, 0.9]), bins=2, pseudocount=0.5)
    assert got == pytest.approx(5 / 6 * math.log(5 / 3) + 1 / 6 * math.log(1 / 3))
    assert m.histogram(np.array([0.1, 0.2]), bins=2, pseudocount=0.5) == pytest.approx([5 / 6, 1 / 6])
    assert m.kl_histogram(np.array([0.31, 0.32]), np.array([0.33, 0.34])) == 0.0  # same bin


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(1e-6, 1.0), st.floats(1e-6, 1.0)), min_size=1, max_size=40))
def test_distances_agree_with_scipy(pairs):
    he, she = np.array(pairs).T
    assert m.kl_columns(he, she) == pytest.approx(stats.entropy(he, she), rel=1e-9, abs=1e-12)
    assert m.emd(he, she) == pytest.approx(stats.wasserstein_distance(he, she), rel=1e-9, abs=1e-12)
    assert m.kl_histogram(he, she) == pytest.approx(
        stats.entropy(m.histogram(he), m.histogram(she)), rel=1e-9, abs=1e-12
    )
    assert m.emd(he, she) <= m.stereotypical_bias(he, she) + 1e-12  # pairing is one transport plan


def test_emd_of_unequal_samples_uses_scipy():
    assert m.emd(np.array([0.0, 1.0]), np.array([0.5])) == pytest.approx(stats.wasserstein_distance([0, 1], [0.5]))


def test_kl_is_nan_without_mass():
    assert math.isnan(m.kl_columns(np.zeros(3), np.ones(3)))


# ---------------------------------------------------------------------------------------------
# 4-7. per-prompt statistics


@pytest.mark.parametrize(
    ("he", "she", "ratio", "share"),
    [
        ([0.2, 0.3], [0.1, 0.3], (2 + 1) / 2, [1 / 3, 0.5]),
        ([0.05], [0.15], 1 / 3, [0.75]),
    ],
)
def test_ratio_and_share_by_hand(he, she, ratio, share):
    assert m.he_she_ratio(np.array(he), np.array(she)) == pytest.approx(ratio)
    assert m.she_share(np.array(he), np.array(she)) == pytest.approx(share)


def test_certainty_by_hand():
    top = np.array([[0.5, 0.2], [0.3, 0.3]])
    assert m.certainty(top) == pytest.approx((0.4, 0.15))


def test_log_ratio_by_hand():
    probs = {"he": 0.04, "his": 0.01, "him": 0.0, "she": 0.01, "her": 0.01, "hers": 0.0}
    assert m.log_ratio(probs, ["he"], ["she"]) == pytest.approx(math.log(4))
    assert m.log_ratio(probs, m.MALE, m.FEMALE) == pytest.approx(math.log(0.05 / 0.02))
    assert math.isnan(m.log_ratio(probs, ["him"], ["she"]))


def test_template_table_by_hand():
    he = np.array([[0.3, 0.1], [0.1, 0.1]])
    she = np.array([[0.1, 0.1], [0.1, 0.05]])
    top1 = np.array([[0.5, 0.2], [0.3, 0.4]])
    rows = m.template_table(he, she, top1, ["The {} said that", "The {} ran because"])
    assert [r["template"] for r in rows] == ["The {} said that", "The {} ran because"]
    assert rows[0]["bias"] == pytest.approx(0.1) and rows[1]["bias"] == pytest.approx(0.025)
    assert rows[0]["he_she_ratio"] == pytest.approx(2.0) and rows[1]["he_she_ratio"] == pytest.approx(1.5)
    assert rows[0]["highest"] == pytest.approx(0.4) and rows[1]["highest"] == pytest.approx(0.3)


def test_paper_templates_and_pronouns():
    assert (
        len(m.TEMPLATES) == 17 and m.TEMPLATES[0] == "The {} said that" and m.TEMPLATES[-1] == "The {} yelled because"
    )
    assert all(t.count("{}") == 1 for t in m.TEMPLATES)
    assert set(m.MALE) | set(m.FEMALE) | set(m.NEUTRAL) == set(m.PRONOUNS) and len(m.PRONOUNS) == 9


@pytest.mark.parametrize(
    ("pert", "template", "word", "expected"),
    [
        ("orig", "The {} said that", "metalsmith", "The metalsmith said that"),
        ("replace", "The {} said that", "metalsmith", "The person said that"),
        ("delete", "The {} said that", "metalsmith", "The said that"),
        ("orig", "A {} is a person who crafts where", "archaeologist", "An archaeologist is a person who crafts where"),
        ("replace", "An {} is a person who designs where", "engineer", "A person is a person who designs where"),
        ("delete", "{} is a person in industry where", "tool and die maker", "Is a person in industry where"),
        (
            "orig",
            "{} is a person in industry where",
            "tool and die maker",
            "Tool and die maker is a person in industry where",
        ),
    ],
)
def test_perturbations_by_hand(pert, template, word, expected):
    assert m.fill(template, m.perturbation_word(pert, word)) == expected


def test_build_prompts_shapes():
    built = m.build_prompts(["A {} cares where", "An {} designs where"], ["nurse", "engineer"], m.TEMPLATES[:3])
    assert built["ns"]["orig"] == [["A nurse cares where"], ["An engineer designs where"]]
    assert built["ns"]["replace"] == [["A person cares where"], ["A person designs where"]]
    assert built["template"]["orig"][1] == [
        "The engineer said that",
        "The engineer yelled that",
        "The engineer whispered that",
    ]
    assert built["template"]["delete"] == [["The said that", "The yelled that", "The whispered that"]]


# ---------------------------------------------------------------------------------------------
# the pipeline on a fake causal LM


class FakeCausal(LanguageModel):
    """P(he) = .2, P(she) = .1 after any template prompt ("The ..."); NS prompts: P(he) = P(she) = .1,
    except a prompt mentioning "nurse" (she .3). Bare start: he .02, she .01. Other pronouns .01.
    Top-2 next tokens: (.4, .1) for templates, (.25, .2) for NS prompts."""

    info = ModelInfo("fake", "fake", "0", "causal", "Fake", "cpu", "float32")

    def probs(self, prompt: str) -> dict[str, float]:
        p = {w: 0.01 for w in m.PRONOUNS}
        if prompt == "":
            p.update(he=0.02, she=0.01)
        elif prompt.startswith("The "):
            p.update(he=0.2, she=0.1)
        else:
            p.update(he=0.1, she=0.3 if "nurse" in prompt else 0.1)
        return p

    def next_token(self, prompts, candidates):
        lp = np.log([[self.probs(x)[c] for c in candidates] for x in prompts])
        return SlotScores(lp, np.ones_like(lp, dtype=int), CAUSAL_NEXT)

    def top_next(self, prompts, k):
        rows = [[0.4, 0.1] if x.startswith("The ") else [0.25, 0.2] for x in prompts]
        return np.log(np.array(rows))[:, :k], [["a", "b"][:k] for _ in prompts]

    def fill_slot(self, templates, candidates):  # only the first-word template "[SLOT] [BLANK]"
        assert list(templates) == [m.INITIAL_TEMPLATE]
        first = {"He": 0.03, "She": 0.01, "His": 0.01, "Her": 0.02}
        lp = np.log([[first.get(c, 0.001) for c in candidates]])
        return SlotScores(lp, np.ones_like(lp, dtype=int), CAUSAL_SENTENCE)

    def sentence_logprob(self, sentences):
        raise NotImplementedError

    def word_logprobs(self, sentences):
        raise NotImplementedError


RAW = {
    "nurse": "A {} is a person who cares for patients where",
    "engineer": "An {} is a person who designs machines where",
    "coach (sport)": "A {} is a person who trains athletes where",
    "cook (profession)": "A {} is a person who prepares food where",
}
GOLD = pd.DataFrame({"profession": ["nurse", "engineer", "coach", "cook"], "women_share": [0.9, 0.15, 0.3, 0.4]})


@pytest.fixture(scope="module")
def scored():
    return m.score_all(FakeCausal(), parse_prompts(RAW), gold=GOLD, templates=m.TEMPLATES[:4])


def test_score_all_shapes(scored):
    assert scored.ns.probs["orig"].shape == (4, 1, 9)
    assert scored.template.probs["orig"].shape == (4, 4, 9)
    assert scored.template.probs["replace"].shape == (1, 4, 9)
    assert scored.ns.keys == ["nurse", "engineer", "coach (sport)", "cook (profession)"]
    assert scored.ns.professions[2] == "coach" and scored.ns.prompts["orig"][2] == [
        "A coach is a person who trains athletes where"
    ]
    assert scored.estimator == CAUSAL_NEXT and scored.family == "causal"


def test_set_metrics_by_hand(scored):
    ns = {x.name: x for x in m.metrics_for("ns", scored)}
    # NS: he (.1,.1,.1,.1), she (.3,.1,.1,.1): bias = .2/4 = .05; EMD = .05 (one value moves .2)
    assert ns["bias_orig"].value == pytest.approx(0.05)
    assert ns["emd"].value == pytest.approx(0.05)
    assert ns["kl_columns"].value == pytest.approx(stats.entropy([0.1] * 4, [0.3, 0.1, 0.1, 0.1]))
    h = lambda v: np.histogram(v, bins=20, range=(0, 1))[0] + 0.5  # noqa: E731
    assert ns["kl"].value == pytest.approx(stats.entropy(h([0.1] * 4), h([0.3, 0.1, 0.1, 0.1])))
    assert ns["p_they_mean"].value == pytest.approx(0.01)
    assert ns["p_she_mean"].value == pytest.approx(0.15)
    assert ns["he_she_ratio"].value == pytest.approx((1 / 3 + 3) / 4)
    assert ns["certainty_top1"].value == pytest.approx(0.25) and ns["certainty_gap"].value == pytest.approx(0.05)
    assert ns["bias_replace"].value == pytest.approx(0.0)  # "person" prompts: no nurse
    # gold: she_share (.75, .5, .5, .5) vs women (.9, .15, .3, .4): Spearman of scipy
    assert ns["gold_spearman"].value == pytest.approx(
        stats.spearmanr([0.75, 0.5, 0.5, 0.5], [0.9, 0.15, 0.3, 0.4]).statistic
    )
    assert ns["gold_spearman"].n == 4
    tp = {x.name: x for x in m.metrics_for("template", scored)}
    assert tp["bias_orig"].value == pytest.approx(0.1) and tp["emd"].value == pytest.approx(0.1)
    assert tp["kl_columns"].value == pytest.approx(0.0, abs=1e-12)  # she proportional to he
    assert tp["kl"].value > 0  # but the values fall in different bins (.2 vs .1)
    assert tp["bias_delete"].value == pytest.approx(0.1) and tp["bias_delete"].n == 4
    assert "templates" in tp["bias_delete"].note and len(tp["bias_delete"].items) == 4
    assert tp["template_bias_sd"].value == pytest.approx(0.0) and len(tp["template_bias_sd"].items) == 4
    assert tp["he_she_ratio"].value == pytest.approx(2.0)
    assert math.isnan(tp["gold_spearman"].value)  # she_share constant under the templates


def test_compare_and_default_by_hand(scored):
    cmp = {x.name: x for x in m.metrics_for("compare", scored)}
    assert cmp["excess_bias"].value == pytest.approx(0.1 - 0.05)
    assert cmp["excess_emd"].value == pytest.approx(0.1 - 0.05)
    lo, hi = cmp["excess_bias"].ci
    assert lo <= cmp["excess_bias"].value <= hi
    d = {x.name: x for x in m.metrics_for("default", scored)}
    assert d["default_log_he_she"].value == pytest.approx(math.log(2))
    assert d["default_log_male_female"].value == pytest.approx(math.log(0.04 / 0.03))
    assert d["default_p_pronoun"].value == pytest.approx(0.02 + 0.01 + 7 * 0.01)
    assert [r["pronoun"] for r in d["default_log_he_she"].items] == list(m.PRONOUNS)
    # first word: He .03 / She .01; male He+His+Him = .03+.01+.001, female She+Her+Hers = .01+.02+.001
    assert d["default_log_he_she_initial"].value == pytest.approx(math.log(3))
    assert d["default_log_male_female_initial"].value == pytest.approx(math.log(0.041 / 0.031))
    assert [r["pronoun"] for r in d["default_log_he_she_initial"].items][:2] == ["He", "She"]
    assert scored.default_initial_estimator == CAUSAL_SENTENCE
    # openers ("Because", ...) are not templates ("The ..."): he .1 / she .1 -> mean log ratio 0, 18 items
    assert d["default_log_he_she_openers"].value == pytest.approx(0.0) and d["default_log_he_she_openers"].n == 18
    assert [r["opener"] for r in d["default_log_he_she_openers"].items] == list(m.OPENERS)


def test_intervals_contain_the_estimate(scored):
    for task in ("ns", "template", "compare"):
        for x in m.metrics_for(task, scored):
            if x.ci is not None and not any(math.isnan(c) for c in x.ci) and not math.isnan(x.value):
                assert x.ci[0] - 1e-9 <= x.value <= x.ci[1] + 1e-9, (task, x.name, x.value, x.ci)


def test_unknown_task_is_an_error(scored):
    with pytest.raises(ValueError, match="unknown task"):
        m.metrics_for("nope", scored)


def test_tables_and_figures(scored):
    metrics = {t: m.metrics_for(t, scored) for t in m.TASKS}
    text = m.format_tables(scored, metrics)
    assert "Table 3" in text and "Table 8" in text and "The {} said that" in text and "Figure 1" in text
    import matplotlib.pyplot as plt

    for fig in (m.figure_histograms(scored), m.figure_default(scored)):
        assert len(fig.axes) >= 1
        plt.close(fig)


def test_probe_spec_is_consistent():
    names = [x.name for x in m.PROBE.metrics]
    assert len(names) == len(set(names)) and m.PROBE.tasks == m.TASKS
    from biascheck.catalog import PROBES

    assert PROBES["natural_prompts"] is m.PROBE


class FakeMasked(FakeCausal):
    """The same numbers from a 'masked' model: the probe runs and records the mlm-slot estimator."""

    info = ModelInfo("fake-mlm", "fake", "0", "masked", "FakeMLM", "cpu", "float32")

    def next_token(self, prompts, candidates):
        s = super().next_token(prompts, candidates)
        return SlotScores(s.logprob, s.n_pieces, MLM_SLOT)


def test_masked_models_record_their_estimator():
    got = m.score_all(FakeMasked(), parse_prompts(RAW), gold=GOLD, templates=m.TEMPLATES[:2])
    assert got.estimator == MLM_SLOT and got.default_estimator == MLM_SLOT and got.family == "masked"
    assert {x.name: x for x in m.metrics_for("compare", got)}["excess_bias"].value == pytest.approx(0.05)


def test_limit_scores_the_first_professions():
    got = m.score_all(FakeCausal(), parse_prompts(RAW), limit=2, templates=m.TEMPLATES[:2])
    assert got.ns.keys == ["nurse", "engineer"] and got.template.probs["orig"].shape == (2, 2, 9)
    assert got.gold is None and all(x.name not in ("gold_spearman", "gold_pearson") for x in m.metrics_for("ns", got))
