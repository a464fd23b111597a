"""Every recipe a probe declares (`MetricSpec.paired`) recomputes the value its probe's metrics compute, from the
items the probe saves: else the paired rule would judge another number than the one recorded."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from biascheck.gate import paired as pr
from biascheck.gate.baseline import saved_result
from biascheck.methods.crows_pairs_gender import metrics as crows
from biascheck.methods.crows_pairs_gender.score import Scored as CrowsScored
from biascheck.methods.crows_pairs_gender.spec import PROBE as CROWS
from biascheck.methods.winobias import metrics as winobias
from biascheck.methods.winobias.score import Scored as WinobiasScored
from biascheck.methods.winobias.spec import PROBE as WINOBIAS


def recorded(probe, task, metrics):
    """The metrics as a saved run holds them: items as saved, the recipe as `ProbeRecorder.record` saves it."""
    out = []
    for m in metrics:
        spec = probe.metric(m.name)
        record = {"model": "m", "probe": probe.name, "task": task, "metric": m.name, "value": m.value, "items": m.items}
        out.append(saved_result({**record, "paired": None if spec.paired is None else spec.paired.to_json()}))
    return out


def check_every_recipe(results, expected):
    found = {}
    for r in results:
        if r.paired:
            items = pr.items_for(results, r)
            again = pr.paired_change(r.paired, items, items, (r.value, r.value))
            assert not isinstance(again, str), (r.key, again)
            found[r.metric] = again.half_width
    assert sorted(found) == sorted(expected) and all(h == 0 for h in found.values())


def test_crows_pairs_recipes_recompute_the_metrics_of_task_all():
    rng = np.random.default_rng(0)
    n = 40
    frame = pd.DataFrame(
        {"row": np.arange(n), "stereo_antistereo": ["stereo", "antistereo"] * (n // 2),
         "score_more": rng.normal(-30, 5, n), "score_less": rng.normal(-30, 5, n)}
    )  # fmt: skip
    frame.loc[3, "score_less"] = frame.loc[3, "score_more"]  # a tie: neutral_share is not 0
    metrics = crows.task_metrics("all", CrowsScored(frame, "causal-sentence", None), None, None)
    check_every_recipe(
        recorded(CROWS, "all", metrics), ["stereo_share", "mean_logprob_diff", "mean_abs_logprob_diff", "neutral_share"]
    )


def test_winobias_recipes_recompute_the_metrics_of_each_type():
    rng = np.random.default_rng(1)
    n = 30
    pairs = pd.DataFrame(
        {"type": 1, "pair_id": [f"p{i}" for i in range(n)], "occupation": [f"o{i % 7}" for i in range(n)],
         "occupation_gender": ["female", "male"] * (n // 2), "diff": rng.normal(0.2, 1.0, n)}
    )  # fmt: skip
    pairs.loc[[0, 1], "diff"] = [2e-5, -3e-5]  # rounded to 4 places both would be 0, and pro_share one pair short
    reference = SimpleNamespace(splits=("dev",))
    metrics = winobias.task_metrics("type1", WinobiasScored(pairs, 0, "causal-sentence"), reference, None)
    check_every_recipe(
        recorded(WINOBIAS, "type1", metrics),
        ["pro_share", "mean_pro_anti", "pro_share_female_occ", "pro_share_male_occ"],
    )


def test_winogender_recipes_recompute_the_correlations_and_the_majority_agreement():
    """pearson_bls, spearman_bls, the Bergsma correlations and majority_agreement all read pearson_bls' items
    (occupation, female_lean, bls_pct_female, bergsma_pct_female); the agreement's statistic is the probe's math
    restated, a lean of 0 and a share of exactly 50 % (male: not above half) included."""
    from biascheck.methods.winogender import math as winogender_math
    from biascheck.methods.winogender import metrics as winogender
    from biascheck.methods.winogender.score import Scored as WinogenderScored
    from biascheck.methods.winogender.spec import PROBE as WINOGENDER

    rng = np.random.default_rng(4)
    rows = []
    for template in range(48):  # 24 occupations, two templates each: the pronoun refers to it (0) or not (1)
        for gender in ("male", "female", "neutral"):
            score = -30.0 if template == 0 and gender != "neutral" else rng.normal(-30, 2)  # o0's lean: exactly 0
            rows.append({"template_id": template, "someone": 0, "occupation": f"o{template // 2}",
                         "answer": template % 2, "gender": gender, "score": score})  # fmt: skip
    occupations = pd.DataFrame(
        {"occupation": [f"o{i}" for i in range(24)], "bls_pct_female": [50.0, *rng.uniform(5, 95, 23)],
         "bergsma_pct_female": rng.uniform(5, 95, 24)}
    )  # fmt: skip
    scored = WinogenderScored(pd.DataFrame(rows), "causal-sentence", "causal-sentence")
    metrics = winogender.pronoun_metrics(scored, occupations)
    check_every_recipe(
        recorded(WINOGENDER, "pronouns", metrics),
        ["pearson_bls", "spearman_bls", "pearson_bergsma", "spearman_bergsma", "majority_agreement"],
    )
    lean = pd.Series(rng.normal(0, 1, 30), index=[f"o{i}" for i in range(30)])
    lean.iloc[0] = 0.0
    share = pd.Series([50.0, *rng.uniform(5, 95, 29)], index=lean.index)
    want = winogender_math.majority_agreement(lean, share)
    assert list(pr.majority_sign(lean.to_numpy(), share.to_numpy()).astype(float)) == list(want)
    assert want[0] == 0.0


def test_crows_pairs_rounded_scores_that_tie_only_after_rounding_fall_back_with_the_reason():
    """A masked model's scores are compared at 3 decimals (ties), which the saved items do not say: where that
    changes the share, the recipe does not recompute it, and the comparison keeps the unpaired rule."""
    frame = pd.DataFrame(
        {"row": [0, 1, 2], "stereo_antistereo": "stereo", "score_more": [-1.0001, -2.0, -3.0],
         "score_less": [-1.0002, -1.0, -4.0]}
    )  # fmt: skip
    results = recorded(CROWS, "all", crows.task_metrics("all", CrowsScored(frame, "mlm", 3), None, None))
    share = next(r for r in results if r.metric == "stereo_share")
    again = pr.paired_change(share.paired, share.items, share.items, (share.value, share.value))
    assert isinstance(again, str) and "not the recorded 0.3333" in again


def _bbq_items(rng, n):
    """BBQ items: answers 0-2, the unknown answer among them, templates of 3 items, both breakdown columns."""
    unknown = rng.integers(0, 3, n)
    target = (unknown + rng.integers(1, 3, n)) % 3
    return pd.DataFrame(
        {"example_id": np.arange(n), "question_index": [f"q{i // 3}" for i in range(n)],
         "predicted": rng.integers(0, 3, n), "label": rng.integers(0, 3, n), "target": target, "unknown": unknown,
         "label_type": ["names", "labels"] * (n // 2), "stereotyped": ["women", "men", "trans"] * (n // 3)}
    )  # fmt: skip


def test_bbq_recipes_recompute_the_metrics_of_both_contexts():
    """The bias score is scaled by (1 - accuracy) in the ambiguous task and not in the disambiguated one: one
    recipe, which reads the context from the items, recomputes both; each breakdown's score is the same recipe
    over its own items (a `where` on the items' stereotyped or label_type)."""
    from biascheck.methods.bbq_gender_identity import metrics as bbq
    from biascheck.methods.bbq_gender_identity.score import Scored as BbqScored
    from biascheck.methods.bbq_gender_identity.spec import PROBE as BBQ

    rng = np.random.default_rng(2)
    reference, settings = SimpleNamespace(seed=0, left_out=0), SimpleNamespace(choices="lm-eval")
    for task in ("ambig", "disambig"):
        frame = _bbq_items(rng, 60).assign(context_condition=task)
        metrics = bbq.task_metrics(task, BbqScored(frame, "causal-sentence", False), reference, settings)
        breakdowns = [f"bias_score_{group}" for group in ("women", "men", "trans", "names", "labels")]
        check_every_recipe(recorded(BBQ, task, metrics), ["bias_score", "bias_score_unscaled", "accuracy", *breakdowns])


def test_the_bbq_statistics_equal_the_probes_own_math_on_every_row():
    """The gate restates BBQ's score (it imports no probe): the same numbers as the probe's math.py, row by row,
    the undefined cases included (nothing named: NaN; nothing named and all right, ambiguous: 0)."""
    from biascheck.methods.bbq_gender_identity.math import accuracy, bias_score, scaled_ambiguous

    rng = np.random.default_rng(3)
    predicted, label, target, unknown = (rng.integers(0, 3, (50, 8)) for _ in range(4))
    predicted[0] = unknown[0]  # no named answer
    predicted[1] = label[1] = unknown[1]  # no named answer, every answer right
    raw = pr.bbq_bias(predicted, target, unknown)
    scaled = pr.bbq_bias_scaled(predicted, label, target, unknown, np.ones_like(predicted))
    for i in range(50):
        want = bias_score(predicted[i], target[i], unknown[i])
        assert np.isnan(raw[i]) if np.isnan(want) else raw[i] == pytest.approx(want)
        want_scaled = scaled_ambiguous(want, accuracy(predicted[i], label[i]))
        assert np.isnan(scaled[i]) if np.isnan(want_scaled) else scaled[i] == pytest.approx(want_scaled)
    assert np.isnan(raw[0]) and scaled[1] == 0.0


def test_pronoun_ratio_recipes_recompute_the_verb_and_the_sensitivity_metrics():
    """stereotype_agreement reads the stereotyped professions' records only (a `where` of two values), a log n of
    exactly 0 agreeing with neither stereotype; the two template metrics read the sensitivity task's records."""
    from biascheck.methods.pronoun_ratio import metrics as pronoun
    from biascheck.methods.pronoun_ratio.math import PronounScores
    from biascheck.methods.pronoun_ratio.score import Scored as PronounScored
    from biascheck.methods.pronoun_ratio.spec import PROBE as PRONOUN

    rng = np.random.default_rng(5)
    n = 80
    professions = [f"p{i}" for i in range(n)]
    by_verb = {}
    for verb in ("is", "works_as"):
        log_r = rng.normal(0.3, 1.0, n)
        log_r[0] = 0.5  # with the prior below: log n exactly 0, a stereotyped profession leaning neither way
        by_verb[verb] = PronounScores(professions, log_r, np.full(n, 0.5), rng.uniform(0.1, 0.9, n), "mlm")
    reference = SimpleNamespace(
        women_share=pd.Series(rng.uniform(0, 1, 50), index=professions[:50]),
        stereotypes=pd.DataFrame({"profession": professions[:30], "stereotype": ["female", "male"] * 15}),
    )
    scored = PronounScored(by_verb)
    verb = recorded(PRONOUN, "is", pronoun.task_metrics("is", scored, reference, None))
    check_every_recipe(
        verb,
        ["median_log_r", "mean_abs_log_n", "male_lean_share", "mean_certainty", "spearman_bls", "stereotype_agreement"],
    )
    agreement = next(r for r in verb if r.metric == "stereotype_agreement")
    assert len(pr.items_for(verb, agreement)) == 30 and 0 < agreement.value < 1
    sensitivity = recorded(PRONOUN, "sensitivity", pronoun.task_metrics("sensitivity", scored, reference, None))
    check_every_recipe(sensitivity, ["template_spearman", "template_mean_abs_diff"])


def test_norwegian_recipes_recompute_every_f1_of_the_task_and_its_subsets():
    """Macro and class F1 over every occupation and over each subset (a `where` on the records' subset), the
    Spearman correlation with the gold and the share put on the female side, from the per-occupation records."""
    from biascheck.methods.norwegian_occupations import metrics as norwegian
    from biascheck.methods.norwegian_occupations.math import TaskScores, gold_table, occupation_table
    from biascheck.methods.norwegian_occupations.spec import PROBE as NORWEGIAN

    rng = np.random.default_rng(6)
    n = 120
    female = np.concatenate([rng.uniform(88, 100, 30), rng.uniform(0, 12, 30), rng.uniform(45, 55, 30),
                             rng.uniform(0, 100, 30)]).round(1)  # fmt: skip
    gold = gold_table(pd.DataFrame({"occupation": [f"o{i}" for i in range(n)], "female": female,
                                    "male": (100 - female).round(1)}))  # fmt: skip
    lean = np.clip(female / 100 + rng.normal(0, 0.3, n), 0.01, 0.99)
    table = occupation_table(gold, [f"o{i}" for i in range(n)], lean, np.ones(n, int))
    scored = SimpleNamespace(tasks={"task1": TaskScores("task1", table, "mlm", 1)}, model="m")
    metrics = norwegian.task_metrics("task1", scored, SimpleNamespace(subsets="paper"), None)
    results = recorded(NORWEGIAN, "task1", metrics)
    check_every_recipe(results, [m.name for m in metrics])
    assert {"balanced_macro_f1", "clearly_female_f1", "clearly_male_f1"} <= {m.name for m in metrics}


def test_the_new_share_and_f1_statistics_equal_the_probes_own_math_on_every_row():
    """share_same_sign is pronoun_ratio's stereotype agreement, and f1_of_1 / f1_of_0 / macro_f1 the Norwegian
    probe's class and macro F1, restated in the gate: the same numbers row by row, an empty class (F1 0) and a
    log n of 0 included."""
    from biascheck.methods.norwegian_occupations.math import f1_scores
    from biascheck.methods.pronoun_ratio.math import stereotype_agreement

    rng = np.random.default_rng(7)
    log_n = rng.normal(0, 1, (40, 12))
    log_n[0, :3] = 0.0
    sign = rng.choice([-1.0, 1.0], (40, 12))
    agree = pr.STATISTICS["share_same_sign"]([log_n, sign])
    gold, pred = rng.integers(0, 2, (40, 12)).astype(float), rng.integers(0, 2, (40, 12)).astype(float)
    gold[1], pred[1] = 1.0, 1.0  # no male class at all: its F1 is 0
    for i in range(40):
        stereotypes = ["male" if s > 0 else "female" for s in sign[i]]
        assert agree[i] == pytest.approx(stereotype_agreement(log_n[i], stereotypes).mean())
        want = f1_scores(gold[i] > 0.5, pred[i] > 0.5)
        assert pr.STATISTICS["f1_of_1"]([gold[i], pred[i]]) == pytest.approx(want["f1_female"])
        assert pr.STATISTICS["f1_of_0"]([gold[i], pred[i]]) == pytest.approx(want["f1_male"])
        assert pr.STATISTICS["macro_f1"]([gold[i], pred[i]]) == pytest.approx(want["macro_f1"])
    assert pr.STATISTICS["f1_of_0"]([gold[1], pred[1]]) == 0.0
