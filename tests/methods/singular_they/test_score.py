"""How singular_they reads the model: one call, the item's own pronoun, the right method per family."""

import numpy as np
import pytest

from biascheck.methods.singular_they import score
from biascheck.methods.singular_they.reference import Reference, load
from biascheck.methods.singular_they.spec import PROBE
from biascheck.methods.singular_they.stimuli import they_stimuli
from biascheck.models.base import LanguageModel, ModelInfo, SlotScores
from biascheck.settings import settings_of
from biascheck.spec import SLOT

STIM = they_stimuli()


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
def test_score_one_call_and_the_items_own_pronoun(family, method, estimator):
    lm = FakeLM(family)
    scored = score.score(lm, Reference(STIM), settings_of(PROBE))
    frame, est = scored.frame, scored.estimator
    assert est == estimator and lm.calls == [(method, ["their", "them", "themselves", "they"])]
    # column j of sorted forms has log-prob -(1 + j): they -> j=3 -> surprisal 4 (+0.5 after 'every')
    row = frame[(frame["item"] == "F01") & (frame["condition"] == "quantified")].iloc[0]
    assert row["surprisal"] == pytest.approx(4.5)
    row = frame[(frame["item"] == "F21") & (frame["condition"] == "plural")].iloc[0]  # 'their' -> j=0
    assert row["surprisal"] == pytest.approx(1.0)


def test_the_loaded_reference_scores_every_stimulus():
    settings = settings_of(PROBE)
    scored = score.score(FakeLM("masked"), load(None, settings), settings)  # the probe's own stimuli: no refdata
    assert len(scored.frame) == 335 and scored.frame["template"].str.contains(SLOT, regex=False).all()
