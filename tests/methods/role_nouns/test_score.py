"""The role-noun stimuli and the scoring of a fake model (one call, masked vs causal estimator)."""

import math
from collections.abc import Sequence

import pytest

from biascheck.methods.role_nouns import score
from biascheck.methods.role_nouns.math import build_stimuli
from biascheck.methods.role_nouns.spec import ESTIMATOR_CAUSAL, ESTIMATOR_MASKED, PROBE
from biascheck.models.base import LanguageModel, ModelInfo
from biascheck.settings import settings_of

from .common import NAMES, SETS, reference


def test_build_stimuli_sentence_and_variant_span():
    stim = build_stimuli(SETS, NAMES, ["Utah"])
    assert len(stim) == 8 * 2
    row = stim[(stim["variant"] == "police officer") & (stim["name"] == "Sally")].iloc[0]
    assert row["sentence"] == "Sally is a police officer from Utah."
    assert row["sentence"][row["v_start"] : row["v_end"]] == "police officer"
    assert stim[stim["variant"] == "actress"]["sentence"].iloc[0] == "Sally is an actress from Utah."


class FakeLM(LanguageModel):
    """Word log-probs from a table: a context word scores higher next to a variant that matches the
    name's gender; the variant's own words get a fixed large penalty (must not matter for masked)."""

    def __init__(self, family):
        self.info = ModelInfo("fake", "fake", "0", family, "Fake", "cpu", "float32")
        self.calls = 0

    def word_logprobs(self, sentences: Sequence[str]):
        self.calls += 1
        out = []
        for s in sentences:
            female = s.startswith("Sally")
            fem_variant = any(x in s for x in ("woman", "actress"))
            words, pos = [], 0
            for w in s.split(" "):
                start = s.index(w, pos)
                pos = start + len(w)
                lp = math.log(0.5) if (female == fem_variant) else math.log(0.25)
                if w == "from":
                    words.append((w, start, pos, lp))
                elif w in (
                    "firewoman",
                    "fireman",
                    "firefighter",
                    "actress",
                    "actor",
                    "police",
                    "officer",
                    "policewoman",
                    "policeman",
                ):
                    words.append((w, start, pos, -3.0 if fem_variant else -1.0))
                else:
                    words.append((w, start, pos, float("nan") if w == "Sally" else -1.0))
            out.append(words)
        return out

    def fill_slot(self, templates, candidates):
        raise NotImplementedError

    def next_token(self, prompts, candidates):
        raise NotImplementedError

    def top_next(self, prompts, k):
        raise NotImplementedError

    def sentence_logprob(self, sentences):
        raise NotImplementedError


def test_score_masked_uses_context_and_prior_in_one_call():
    prior = SETS.assign(prior=[0.2, 0.4, 0.4, 0.2, 0.4, 0.4, 0.5, 0.5])
    lm = FakeLM("masked")
    ref = reference(prior=prior, states=["Utah", "Ohio"])
    scored = score.score(lm, ref, settings_of(PROBE))
    assert lm.calls == 1 and scored.estimator == ESTIMATOR_MASKED and scored.states == ["Utah", "Ohio"]
    # step 1 is built once for every model the reference serves, and scoring does not change it
    assert ref.stimuli is ref.stimuli and ref.stimuli.equals(build_stimuli(ref.sets, ref.names, ref.states))
    again = score.score(lm, ref, settings_of(PROBE))
    assert again.predictions.equals(scored.predictions)
    pred = scored.predictions
    actor = pred[pred["set"] == "actor"].set_index(["name", "category"])["p"]
    # Sally: context 'from' .5 with actress, .25 with actor; flat prior -> 2/3, 1/3
    assert actor[("Sally", "fem")] == pytest.approx(2 / 3)
    assert actor[("David", "fem")] == pytest.approx(1 / 3)
    fire = pred[(pred["set"] == "firefighter") & (pred["name"] == "Sally")].set_index("category")["p"]
    # weights .5*.2, .25*.4, .25*.4 -> .1/.3
    assert fire["fem"] == pytest.approx(1 / 3)


def test_score_causal_uses_whole_sentence_and_no_corpus_prior():
    prior = SETS.assign(prior=[0.01, 0.01, 0.98, 0.01, 0.01, 0.98, 0.01, 0.99])
    scored = score.score(FakeLM("causal"), reference(prior=prior, states=["Utah"]), settings_of(PROBE))
    assert scored.estimator == ESTIMATOR_CAUSAL
    pred = scored.predictions
    actor = pred[pred["set"] == "actor"].set_index(["name", "category"])["p"]
    # Sally/actress: .5 * e^-3 ; Sally/actor: .25 * e^-1
    a, b = 0.5 * math.exp(-3), 0.25 * math.exp(-1)
    assert actor[("Sally", "fem")] == pytest.approx(a / (a + b))
