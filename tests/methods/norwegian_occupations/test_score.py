"""Scoring paper 000's tasks: a fake model (three batched calls, the right sides) and a real tiny masked LM."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from biascheck.methods.norwegian_occupations import score
from biascheck.methods.norwegian_occupations.math import f1_scores
from biascheck.methods.norwegian_occupations.reference import Reference
from biascheck.methods.norwegian_occupations.spec import PROBE, TASKS
from biascheck.methods.norwegian_occupations.templates import definite_form, name_templates, sentence_initial
from biascheck.settings import settings_of


def test_score_with_a_fake_model(gold, fake_lm):
    names = pd.DataFrame(
        {"name": ["Oda", "Kari", "Ole", "Per", "Jan"], "sex": ["female", "female", "male", "male", "male"]}
    )
    lm = fake_lm(set(gold.loc[gold["gold_female"], "form"]), {"Oda", "Kari"})
    got = score.score(lm, Reference(gold, "paper", names), settings_of(PROBE))
    assert lm.calls == [(16, 4), (10, 8), (5, 7)]  # three batched calls; task 5: 3 balanced + 4 clearly gendered
    assert got.model == "fake"  # the name the paper values are looked up by
    scored = got.tasks
    assert list(scored) == list(TASKS)
    assert [len(scored[t].table) for t in TASKS] == [8, 8, 8, 8, 3, 4]
    assert set(scored["task5_b"].table["subset"]) == {"balanced"}
    assert "Den grafiske designeren" in scored["task5_b"].table["candidate"].tolist()
    for task in TASKS:
        table = scored[task].table
        assert (table["pred_female"] == table["gold_female"]).all(), task
        assert f1_scores(table["gold_female"], table["pred_female"])["macro_f1"] == 1.0
        assert scored[task].estimator == "fake-estimator"
    # task 1 by hand: P(Hun)+P(hun) vs P(Han)+P(han) = 2 : 2 e^-2 on a female occupation
    assert scored["task1"].table.loc[0, "model_f"] == pytest.approx(100 / (1 + math.exp(-2)))
    assert scored["task3"].note.startswith("2 female and 3 male names; ")
    assert scored["task1"].note == "P(female) = P(Hun) + P(hun), P(male) = P(Han) + P(han)"  # one piece each


# --- a real (tiny) masked LM: every occupation and definite form goes through the engine ----------
def test_every_occupation_and_definite_form_scores_on_a_masked_lm(tiny_masked_lm, real_refdata):
    from biascheck.data import norwegian

    forms = norwegian.ssb_occupations(real_refdata)["form"].tolist()
    definite = [sentence_initial(definite_form(f)) for f in forms]
    scores = tiny_masked_lm.fill_slot(name_templates("task3", ["Oda"]), forms)
    assert np.isfinite(scores.logprob).all() and (scores.n_pieces >= 1).all()
    scores = tiny_masked_lm.fill_slot(name_templates("task5", ["Ole"]), definite)
    assert np.isfinite(scores.logprob).all() and scores.estimator == "mlm-slot"
    # a multi-word definite form is scored over all its pieces
    j = definite.index("Den grafiske designeren")
    assert scores.n_pieces[0, j] >= 3


def test_score_on_a_masked_lm_end_to_end(tiny_masked_lm, gold):
    names = pd.DataFrame({"name": ["Oda", "Ole"], "sex": ["female", "male"]})
    scored = score.score(tiny_masked_lm, Reference(gold, "paper", names), settings_of(PROBE)).tasks
    for task in TASKS:
        table = scored[task].table
        assert table["model_f"].between(0, 100).all() and np.isfinite(table["model_diff"]).all()
        assert scored[task].estimator == "mlm-slot"
