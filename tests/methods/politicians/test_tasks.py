"""A politicians task end to end on a fake model, through the probe's protocol (`score`, `task_metrics`,
`draw`): the task's analysis is made once for its metrics and its figures, and a language of which no
adjective form is one token of the model is `NotApplicable` with the reason the probe always gave."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from biascheck.errors import NotApplicable
from biascheck.methods.politicians import metrics, pmi
from biascheck.methods.politicians.figures import draw
from biascheck.methods.politicians.metrics import task_metrics
from biascheck.methods.politicians.reference import Language, Reference
from biascheck.methods.politicians.score import score
from biascheck.methods.politicians.spec import PROBE
from biascheck.settings import settings_of
from biascheck.testing import FakeLM

ADJECTIVES = (
    "able",
    "bad",
    "big",
    "calm",
    "cruel",
    "evil",
    "fair",
    "good",
    "kind",
    "mean",
    "nice",
    "odd",
    "old",
    "poor",
    "rich",
    "rude",
    "sad",
    "shy",
    "wise",
    "young",
    "proud",
    "weak",
    "warm",
    "cold",
    "bold",
)
VERBS = ("said", "went", "made", "won", "lost", "ran", "voted", "told", "asked", "met", "left", "came")


def _language(code: str, adjectives=ADJECTIVES) -> Language:
    names = pd.DataFrame({"name": [f"Name {i}" for i in range(24)], "gender": ["female", "male"] * 12})
    forms = {"adj": {a: a for a in adjectives}, "verb": {v: v for v in VERBS}}
    sentiment = {"bad": "neg", "cruel": "neg", "evil": "neg", "rude": "neg", "good": "pos", "kind": "pos"}
    return Language(code, names, "24 test names", forms, sentiment, "VADER")


@pytest.fixture
def one_process(monkeypatch):
    monkeypatch.setenv("BIASCHECK_FIT_WORKERS", "1")  # a tiny grid: no processes to start


def test_metrics_and_figures_read_one_analysis_of_the_task(one_process, monkeypatch):
    made = []
    analyse = metrics.analyse
    monkeypatch.setattr(metrics, "analyse", lambda *args: made.append(args[0]) or analyse(*args))
    reference = Reference(_language)
    settings = settings_of(PROBE, grid="quick")
    scored = score(FakeLM("fake/masked"), reference, settings)
    got = task_metrics("en", scored, reference, settings)
    assert got[0].name == "neg_gap"
    assert got[0].note.startswith(
        "sentiment: VADER, soft (gated gaps, latent model), VADER labels (pmi gaps); order: before; "
        "candidates one token: adj 25/25, verb 12/12"
    )
    artifacts = draw("en", scored, reference, settings, "org/model")
    assert made == ["en"]
    assert [a.name for a in artifacts] == ["sentiment-en", "top-pmi-en", "top-eta-adj-en", "top-eta-verb-en"]
    assert artifacts[0].figure._suptitle.get_text().startswith("org/model: sentiment of the words")
    assert all(a.text for a in artifacts[1:]) and not any(a.once for a in artifacts)
    import matplotlib.pyplot as plt

    plt.close(artifacts[0].figure)


def test_no_one_token_adjective_is_not_applicable_with_the_models_name():
    long_words = tuple(f"{a}ishnesses" for a in ADJECTIVES[:5])  # 10 characters or more: several pieces
    reference = Reference(lambda code: _language(code, long_words))
    settings = settings_of(PROBE, grid="quick")
    scored = score(FakeLM("fake/masked"), reference, settings)
    with pytest.raises(NotApplicable) as info:
        task_metrics("fr", scored, reference, settings)
    assert str(info.value) == "politicians[fr]: no adj form is a single token of fake/masked"


def test_vocab_counts_each_genders_distinct_lemmas_and_names_from_the_sample_matrix():
    """`metrics._vocab` reads the matrix: each gender's distinct lemmas (n: its distinct names), as the sample
    table gives them; a gender with no names gives 0 of 0."""
    rng = np.random.default_rng(0)
    names = [f"n{i}" for i in range(30)]
    gender = {n: ("female", "male", "non-binary")[i % 3] for i, n in enumerate(names)}
    picked = rng.choice(names, 200)
    table = pd.DataFrame(
        {"name": picked, "gender": [gender[n] for n in picked], "lemma": rng.choice(list("abcdefghij"), 200)}
    )
    got = {m.name: (m.value, m.n) for m in metrics._vocab("adj_", pmi.sample_matrix(table))}
    for g, short in (("female", "f"), ("male", "m")):
        part = table[table["gender"] == g]
        assert got[f"adj_vocab_{short}"] == (float(part["lemma"].nunique()), part["name"].nunique())
    only_women = pmi.sample_matrix(table[table["gender"] == "female"])
    assert {m.name: (m.value, m.n) for m in metrics._vocab("", only_women)}["vocab_m"] == (0.0, 0)
