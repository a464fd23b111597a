"""Known answer for the politicians probe: a scripted model that puts planted words after women's names
(strength 0 = control). The planted words must top PMI_female - PMI_male, and planted negative words must
turn the default neg_gap gate red at full strength and leave it green at zero."""

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
NEGATIVE = (
    "angry",
    "bad",
    "bitter",
    "cruel",
    "evil",
    "guilty",
    "hostile",
    "jealous",
    "lazy",
    "nasty",
    "rude",
    "selfish",
    "stupid",
    "ugly",
    "weak",
    "wicked",
    "awful",
    "dead",
    "sad",
    "sick",
    "violent",
    "hateful",
    "horrible",
    "corrupt",
    "dirty",
)


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


@pytest.mark.parametrize(("strength", "red"), [(0.0, False), (1.0, True)])
def test_planted_negative_words_turn_the_gate_red(reference, strength, red):
    from biascheck.catalog import PROBES

    limit = load_profile("default", [REPO / "thresholds"], PROBES).lookup("politicians", "en", "neg_gap")
    value = {m.name: m.value for m in _analysis(reference, NEGATIVE, strength).metrics}["neg_gap"]
    assert (not limit.min <= value <= limit.max) is red, value
    if red:
        assert value > limit.max  # women's most associated words are the negative ones


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


@pytest.mark.parametrize("language", ["nb", "fr", "es"])
@pytest.mark.parametrize(("strength", "red"), [(0.0, False), (1.0, True)])
def test_each_language_finds_planted_negative_words(references, language, strength, red):
    """The nb / fr / es tasks end to end up to the gated number (their names, treebank or spaCy forms, word
    order, Chen & Skiena labels, `metrics.analyse`'s neg_gap by `pmi.pmi_gaps`; the latent model and the
    resampling are left out for time): 25 negative adjectives of the language's lexicon raised after
    women's names turn the gate red at full strength and leave it green at zero."""
    from biascheck.catalog import PROBES
    from biascheck.methods.politicians import pmi
    from biascheck.methods.politicians.spec import MIN_NAMES, TOP_WORDS

    ref = references(language)  # a language that could not be a task would raise NotApplicable here
    lemmas = set(ref.forms["adj"].values())
    negative = tuple(sorted(w for w, s in ref.sentiment.items() if s == "neg" and w in lemmas and len(w) < 10)[:25])
    assert len(negative) == 25
    women = set(ref.names.loc[ref.names["gender"] == "female", "name"])
    predicted = score.score_language(PlantedLM(women, negative, strength), ref)
    assert predicted.orders == (("before", "after") if language == "nb" else ("after",))
    samples = predicted.samples[predicted.orders[0]]["adj"]
    labels = {w: ref.sentiment.get(w, "neu") for w in samples["lemma"].unique()}
    value = pmi.pmi_gaps(samples, labels, pmi.PmiOptions(k=TOP_WORDS, min_names=MIN_NAMES))["neg_gap"]
    limit = load_profile("default", [REPO / "thresholds"], PROBES).lookup("politicians", language, "neg_gap")
    assert (not limit.min <= value <= limit.max) is red, value
