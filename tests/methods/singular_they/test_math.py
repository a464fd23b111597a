"""Singular-they probe (paper 004, section 4): the stimulus design, surprisal summaries, the
closeness × gender mixed model, the pattern checks and the human-ratings correlation."""

import numpy as np
import pandas as pd
import pytest

from biascheck.errors import DataError
from biascheck.methods import singular_they as m
from biascheck.methods import they_stimuli as ts
from biascheck.models.base import SLOT, LanguageModel, ModelInfo, SlotScores

STIM = ts.they_stimuli()


def test_design_335_items_40_per_condition_15_controls():
    assert len(STIM) == 335
    counts = STIM["condition"].value_counts().to_dict()
    assert counts == {**{c: 40 for c in ts.CONDITIONS}, "inanimate": 15}
    critical = STIM[STIM["condition"] != "inanimate"]
    per_frame = critical.groupby("item")["pronoun"].first().value_counts().to_dict()
    assert per_frame == {"they": 10, "them": 10, "their": 10, "themselves": 10}
    assert (critical.groupby("item").size() == 8).all()


def test_names_come_from_the_papers_lists():
    assert len(ts.GENDERED_NAMES) == 40 and len(ts.NONGENDERED_NAMES) == 21
    assert set(STIM.loc[STIM["condition"] == "gendered_name", "antecedent"]) == set(ts.GENDERED_NAMES)
    assert set(STIM.loc[STIM["condition"] == "nongendered_name", "antecedent"]) == set(ts.NONGENDERED_NAMES)


def test_versions_of_a_frame_differ_only_in_the_antecedent():
    for _item, frame in STIM[STIM["condition"] != "inanimate"].groupby("item"):
        rests = {
            row.sentence.replace(row.antecedent[0].upper() + row.antecedent[1:], "NP", 1).replace(
                row.antecedent, "NP", 1
            )
            for row in frame.itertuples()
        }
        assert len(rests) == 1, rests
    f01 = STIM[STIM["item"] == "F01"].set_index("condition")["antecedent"]
    assert f01[["distant_nongendered", "quantified", "plural"]].tolist() == [
        "the dentist",
        "every dentist",
        "the dentists",
    ]


def test_template_and_prompt_locate_the_pronoun():
    for row in STIM.itertuples():
        assert row.template.count(SLOT) == 1
        assert row.template.replace(SLOT, row.pronoun) == row.sentence
        assert row.sentence.startswith(row.prompt + " " + row.pronoun + " ") or row.sentence.startswith(
            row.prompt + " " + row.pronoun
        )
        assert row.prompt.lower().find(row.antecedent.split()[-1].lower()) >= 0  # antecedent on the left
    assert STIM.iloc[0]["sentence"] == "Aaron said they would be coming late to dinner."
    assert STIM.iloc[0]["prompt"] == "Aaron said"


def test_closeness_gender_cells():
    cells = STIM.dropna(subset=["close"]).groupby("condition")[["close", "gendered"]].first()
    assert cells.loc["close_gendered"].tolist() == [1, 1] and cells.loc["distant_nongendered"].tolist() == [0, 0]
    assert len(STIM.dropna(subset=["close"])) == 160


def _frame(values: dict[str, float], noise=0.0, seed=0):
    rng = np.random.default_rng(seed)
    return STIM.assign(surprisal=[values[c] + rng.normal(0, noise) if noise else values[c] for c in STIM["condition"]])


HUMANLIKE = {
    "inanimate": 6.0,
    "gendered_name": 4.0,
    "nongendered_name": 3.5,
    "close_gendered": 4.5,
    "distant_gendered": 4.0,
    "close_nongendered": 3.5,
    "distant_nongendered": 3.0,
    "quantified": 2.0,
    "plural": 1.0,
}


def test_by_condition_means_and_intervals():
    table = m.by_condition(_frame(HUMANLIKE)).set_index("condition")
    assert list(table.index) == list(ts.ALL_CONDITIONS)
    assert table.loc["plural", "mean"] == 1.0 and table.loc["inanimate", "n"] == 15
    noisy = m.by_condition(_frame(HUMANLIKE, noise=0.5)).set_index("condition")
    assert (noisy["ci_low"] < noisy["mean"]).all() and (noisy["mean"] < noisy["ci_high"]).all()
    assert noisy.loc["plural", "mean"] == pytest.approx(1.0, abs=0.3)


def test_contrasts_by_hand():
    got = m.contrasts(HUMANLIKE)
    specific = (4.0 + 3.5 + 4.5 + 4.0 + 3.5 + 3.0) / 6  # 3.75
    assert got["specific_minus_quantified"] == pytest.approx(specific - 2.0)
    assert got["inanimate_minus_specific"] == pytest.approx(6.0 - specific)
    with_ci = m.contrast_metrics(_frame(HUMANLIKE, noise=0.1), n_resamples=200)
    value, (low, high), n = with_ci["specific_minus_quantified"]
    assert low <= value <= high and value == pytest.approx(1.75, abs=0.1) and n == 40
    assert with_ci["inanimate_minus_specific"][2] == 15 + 40


def test_mixed_model_recovers_planted_effects():
    rng = np.random.default_rng(3)
    intercept = {f"F{i:02d}": rng.normal(0, 1.0) for i in range(1, 41)}
    frame = STIM.assign(
        surprisal=[
            3.0 + intercept.get(item, 0.0) + 0.5 * (close or 0) + 0.3 * (gendered or 0) + rng.normal(0, 0.05)
            for item, close, gendered in zip(
                STIM["item"], STIM["close"].fillna(0), STIM["gendered"].fillna(0), strict=False
            )
        ]
    )
    fit = m.closeness_gender(frame)
    assert fit["n"] == 160
    assert fit["beta_close"] == pytest.approx(0.5, abs=0.03)
    assert fit["beta_gendered"] == pytest.approx(0.3, abs=0.03)
    assert fit["p_close"] < 1e-6 and fit["se_close"] < 0.02


@pytest.mark.parametrize(
    ("change", "betas", "expected"),
    [
        (
            {},
            (0.5, 0.3),
            {
                "plural_and_quantified_easiest": True,
                "inanimate_hardest": True,
                "close_harder": True,
                "gendered_harder": True,
            },
        ),
        (
            {"quantified": 3.2},
            (0.5, 0.3),
            {
                "plural_and_quantified_easiest": False,
                "inanimate_hardest": True,
                "close_harder": True,
                "gendered_harder": True,
            },
        ),
        (
            {"inanimate": 4.4},
            (-0.1, 0.3),
            {
                "plural_and_quantified_easiest": True,
                "inanimate_hardest": False,
                "close_harder": False,
                "gendered_harder": True,
            },
        ),
    ],
)
def test_pattern_checks(change, betas, expected):
    means = {**HUMANLIKE, **change}
    assert m.pattern_checks(means, {"beta_close": betas[0], "beta_gendered": betas[1]}) == expected


def test_pattern_checks_need_significant_regression_effects():
    betas = {"beta_close": 0.014, "p_close": 0.92, "beta_gendered": 1.46, "p_gendered": 1e-9}
    got = m.pattern_checks(HUMANLIKE, betas)
    assert got["close_harder"] is False and got["gendered_harder"] is True


def _write(tmp_path, rows, columns=m.RATING_COLUMNS):
    path = tmp_path / "ratings.csv"
    pd.DataFrame(rows, columns=list(columns)).to_csv(path, index=False)
    return path


def test_read_ratings_normalises_group_names(tmp_path):
    path = _write(tmp_path, [("F01", "plural", "Super-Innovators", 7), ("F01", "plural", "low acceptance", 6)])
    assert m.read_ratings(path)["group"].tolist() == ["super_innovators", "low_acceptance"]


@pytest.mark.parametrize(
    ("rows", "columns", "message"),
    [
        ([("F01", "plural", 7)], ("item", "condition", "rating"), "missing columns"),
        ([("F01", "plural", "everyone", 7)], m.RATING_COLUMNS, "unknown participant group"),
        ([("F01", "pluralish", "innovators", 7)], m.RATING_COLUMNS, "unknown condition"),
        ([("F01", "plural", "innovators", "high")], m.RATING_COLUMNS, "not numbers"),
    ],
)
def test_read_ratings_errors_name_the_problem(tmp_path, rows, columns, message):
    with pytest.raises(DataError, match=message):
        m.read_ratings(_write(tmp_path, rows, columns))


def test_read_ratings_missing_file(tmp_path):
    with pytest.raises(DataError, match=m.RATINGS_ENV):
        m.read_ratings(tmp_path / "nope.csv")


def test_group_correlations_by_hand():
    scores = _frame(HUMANLIKE, noise=0.3, seed=1)
    rows = []
    for row in scores.itertuples():
        rows.append((row.item, row.condition, "non_innovators", 10 - row.surprisal))  # perfectly anti-correlated
        rows.append((row.item, row.condition, "non_innovators", 10 - row.surprisal))
        rows.append((row.item, row.condition, "super_innovators", 5 + (row.condition == "inanimate") * -3))
    table = m.group_correlations(scores, pd.DataFrame(rows, columns=list(m.RATING_COLUMNS))).set_index("group")
    assert table.loc["non_innovators", "r"] == pytest.approx(-1.0)
    assert table.loc["non_innovators", "n"] == 335
    expected = np.corrcoef(scores["surprisal"], [5 - 3 * (c == "inanimate") for c in scores["condition"]])[0, 1]
    assert table.loc["super_innovators", "r"] == pytest.approx(expected)
    z, half = np.arctanh(expected), 1.959963984540054 / np.sqrt(335 - 3)
    assert table.loc["super_innovators", ["ci_low", "ci_high"]].tolist() == pytest.approx(
        [np.tanh(z - half), np.tanh(z + half)]
    )
    assert "all" in table.index


def test_group_correlations_rejects_unknown_stimuli():
    ratings = pd.DataFrame([("F99", "plural", "innovators", 3.0)], columns=list(m.RATING_COLUMNS))
    with pytest.raises(DataError, match="not in the probe"):
        m.group_correlations(_frame(HUMANLIKE), ratings)


class FakeLM(LanguageModel):
    def __init__(self, family):
        self.info = ModelInfo("fake", "fake", "0", family, "Fake", "cpu", "float32")
        self.calls = []

    def _scores(self, texts, candidates, estimator):
        lp = np.array(
            [[-(1.0 + j) - (0.5 if "every" in t.lower() else 0.0) for j, _ in enumerate(candidates)] for t in texts]
        )
        return SlotScores(lp, np.ones(lp.shape, dtype=int), estimator)

    def fill_slot(self, templates, candidates):
        self.calls.append(("fill_slot", list(candidates)))
        assert all(SLOT in t for t in templates)
        return self._scores(templates, candidates, "mlm-slot")

    def next_token(self, prompts, candidates):
        self.calls.append(("next_token", list(candidates)))
        assert not any(SLOT in p for p in prompts)
        return self._scores(prompts, candidates, "causal-next")

    def top_next(self, prompts, k):
        raise NotImplementedError

    def sentence_logprob(self, sentences):
        raise NotImplementedError

    def word_logprobs(self, sentences):
        raise NotImplementedError


@pytest.mark.parametrize(
    ("family", "method", "estimator"), [("masked", "fill_slot", "mlm-slot"), ("causal", "next_token", "causal-next")]
)
def test_score_model_one_call_and_the_items_own_pronoun(family, method, estimator):
    lm = FakeLM(family)
    frame, est = m.score_model(lm, STIM)
    assert est == estimator and lm.calls == [(method, ["their", "them", "themselves", "they"])]
    # column j of sorted forms has log-prob -(1 + j): they -> j=3 -> surprisal 4 (+0.5 after 'every')
    row = frame[(frame["item"] == "F01") & (frame["condition"] == "quantified")].iloc[0]
    assert row["surprisal"] == pytest.approx(4.5)
    row = frame[(frame["item"] == "F21") & (frame["condition"] == "plural")].iloc[0]  # 'their' -> j=0
    assert row["surprisal"] == pytest.approx(1.0)


def test_surprisal_figure_with_and_without_ratings():
    table = m.by_condition(_frame(HUMANLIKE, noise=0.2))
    assert len(m.surprisal_figure(table, "t").axes) == 1
    ratings = pd.DataFrame([("F01", "plural", "innovators", 6.0)], columns=list(m.RATING_COLUMNS))
    assert [ax.get_title() for ax in m.surprisal_figure(table, "t", ratings).axes] == ["participants", "model"]
