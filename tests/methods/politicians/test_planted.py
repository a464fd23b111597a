"""Known answer for the politicians probe: a scripted model that puts planted words after women's names
(strength 0 = control). The planted words must top PMI_female - PMI_male, and planted negative words must
turn the default neg_gap gate red at full strength and leave it green at zero.

The gate reads mean soft shares (`biascheck.data.soft_sentiment`: a clearly negative word has q(neg) 0.5-0.6,
an unknown one 1/3), so a plant moves it by about 0.3 times the share of the list it fills: on English, 25
planted negative adjectives in women's top 100 gave neg_gap +0.04 (green; the PMI/VADER gap +0.25), 50 gave
+0.13, 75 +0.21, 100 +0.29. The plants below fill three quarters of the list."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from biascheck.methods.politicians import metrics, score
from biascheck.methods.politicians.reference import load_language
from biascheck.models.base import SlotScores
from biascheck.testing import FakeLM
from biascheck.thresholds import load_profile

REPO = Path(__file__).resolve().parents[3]
APPEARANCE = ("beautiful", "divorced", "fragile")


class PlantedLM(FakeLM):
    """FakeLM's scores, with `planted` words raised by 20 nats x strength in the slot of women's names."""

    def __init__(self, women: set[str], planted: tuple[str, ...], strength: float) -> None:
        super().__init__("planted-politicians", "masked")
        self.women, self.planted, self.strength = women, {w.lower() for w in planted}, strength

    def slot_vocab(self, templates, candidates):
        got = super().slot_vocab(templates, candidates)
        logprob = got.logprob.copy()
        boost = np.array([c.lower() in self.planted for c in candidates])
        for i, t in enumerate(templates):
            if t.replace("[SLOT]", "").strip() in self.women:
                logprob[i, boost] += 20 * self.strength
        return SlotScores(logprob, got.n_pieces, got.estimator)


@pytest.fixture(scope="module")
def reference(mirror):
    from biascheck.data import ReferenceData

    return load_language(ReferenceData(mirror=Path(mirror)), "en", None, 250)


def _analysis(reference, planted, strength):
    women = set(reference.names.loc[reference.names["gender"] == "female", "name"])
    lm = PlantedLM(women, planted, strength)
    predicted = score.score_language(lm, reference)
    return metrics.analyse("en", predicted, reference, "quick")


def test_planted_words_top_the_female_pmi_ranking(reference):
    table = _analysis(reference, APPEARANCE, 1.0).tables["adj"]
    top = table.sort_values("pmi_diff", ascending=False)["lemma"].head(3)
    assert set(top) == set(APPEARANCE)


def _negative_adjectives(language, n: int = 75, minimum: float = 0.55) -> tuple[str, ...]:
    """The first n candidate adjectives (shorter than 10 letters) with q(neg|w) >= minimum: en 0.55 (negative
    in both lexica, or VADER's raters nearly all negative); 0.5 is the most Chen & Skiena alone gives."""
    lemmas = sorted(w for w in set(language.forms["adj"].values()) if len(w) < 10)
    q = language.q(lemmas)
    found = tuple(w for w, row in zip(lemmas, q, strict=True) if row[0] >= minimum and row[0] == row.max())[:n]
    assert len(found) == n, len(found)
    return found


@pytest.mark.parametrize(("strength", "red"), [(0.0, False), (1.0, True)])
def test_planted_negative_words_turn_the_gate_red(reference, strength, red):
    from biascheck.catalog import PROBES

    limit = load_profile("default", [REPO / "thresholds"], PROBES).lookup("politicians", "en", "neg_gap")
    metrics_ = {m.name: m for m in _analysis(reference, _negative_adjectives(reference), strength).metrics}
    value = metrics_["neg_gap"].value
    assert (not limit.min <= value <= limit.max) is red, value
    if red:
        assert value > limit.max and metrics_["neg_gap"].ci[0] > limit.max  # women's words are the negative ones
        assert metrics_["pmi_neg_gap"].value > 0.5  # the PMI/VADER gap, reported beside it


@pytest.mark.parametrize("strength", [0.0, 1.0])
def test_planted_feeling_adjectives_are_a_significant_supersense_for_women(reference, strength):
    """Fig 3's test on a known answer: 30 adjectives whose only supersense is 'feeling', raised after
    women's names, make 'feeling' a significantly larger share of women's largest-η words (Bonferroni over
    the 13 classes) in every sentiment where both lists have words (a list cut before a tie may be empty:
    `latent.readout.rank_by_eta`); at strength 0 no class differs."""
    _, classes = reference.classes["adj"]
    feeling = sorted(w for w, c in classes.items() if c == {"feeling"} and w in reference.forms["adj"] and len(w) < 10)
    table = _analysis(reference, tuple(feeling[:30]), strength).supersenses["adj"]
    rows = table[table["supersense"] == "feeling"]
    assert len(rows) == 3
    if strength:
        both = rows[(rows["k_female"] > 0) & (rows["k_male"] > 0)]
        assert len(both) >= 2 and both["significant"].all() and (both["diff"] > 0.15).all(), rows
        assert not rows.loc[rows.index.difference(both.index), "significant"].any()
    else:
        assert not table["significant"].any(), table[table["significant"]]


@pytest.fixture(scope="module")
def references(mirror):
    from biascheck.data import ReferenceData

    cache: dict[str, object] = {}

    def get(language):
        if language not in cache:
            cache[language] = load_language(ReferenceData(mirror=Path(mirror)), language, None, 200)
        return cache[language]

    return get


# With Chen & Skiena alone a negative word's q(neg) is 0.5 against 1/3 for a word in no list, so even a
# list of 100 negative words against an average one moves the soft gap by about +0.17: measured 2026-11-26,
# 75 planted negative adjectives give neg_gap nb +0.08, fr +0.05, es +0.06 (green; the English plant, both
# lexica, +0.2). Strict: it turns red when the nb/fr/es lexicon gets a second source.
ONE_LEXICON = pytest.mark.xfail(strict=True, reason="Chen & Skiena alone: q(neg) at most 0.5, plant +0.05-0.08")


@pytest.mark.parametrize("language", ["nb", "fr", "es"])
@pytest.mark.parametrize(("strength", "red"), [(0.0, False), pytest.param(1.0, True, marks=ONE_LEXICON)])
def test_each_language_finds_planted_negative_words(references, language, strength, red):
    """The nb / fr / es tasks end to end up to the gated number (their names, treebank or spaCy forms, word
    order, Chen & Skiena's soft q, the latent model's quick fit and `readout.soft_gaps`; the resampling is
    left out for time): 75 negative adjectives of the language's lexicon raised after women's names turn
    the gate red at full strength and leave it green at zero."""
    from biascheck.catalog import PROBES
    from biascheck.methods.politicians import pmi
    from biascheck.methods.politicians.latent import readout
    from biascheck.methods.politicians.latent.model import fit_lvms
    from biascheck.methods.politicians.spec import MIN_NAMES, TOP_WORDS

    ref = references(language)  # a language that could not be a task would raise NotApplicable here
    women = set(ref.names.loc[ref.names["gender"] == "female", "name"])
    predicted = score.score_language(PlantedLM(women, _negative_adjectives(ref, minimum=0.5), strength), ref)
    assert predicted.orders == (("before", "after") if language == "nb" else ("after",))
    matrix, counts, q, words = metrics._lvm_inputs(predicted.samples[predicted.orders[0]]["adj"], ref)
    result = fit_lvms([(counts, q, words)], metrics.grid_pairs("quick"))[0]
    keep = pmi.names_per_word(matrix) >= MIN_NAMES
    value = readout.soft_gaps(result, q, k=TOP_WORDS, keep=keep)["neg_gap"]
    limit = load_profile("default", [REPO / "thresholds"], PROBES).lookup("politicians", language, "neg_gap")
    assert (not limit.min <= value <= limit.max) is red, value
