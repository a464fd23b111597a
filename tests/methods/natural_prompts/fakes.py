"""Fake language models whose probabilities are known, and the small prompt set they score (`conftest`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from biascheck.methods.natural_prompts.spec import INITIAL_TEMPLATE, PRONOUNS
from biascheck.models.base import CAUSAL_NEXT, CAUSAL_SENTENCE, MLM_SLOT, LanguageModel, ModelInfo, SlotScores


class FakeCausal(LanguageModel):
    """P(he) = .2, P(she) = .1 after any template prompt ("The ..."); NS prompts: P(he) = P(she) = .1,
    except a prompt mentioning "nurse" (she .3). Bare start: he .02, she .01. Other pronouns .01.
    Top-2 next tokens: (.4, .1) for templates, (.25, .2) for NS prompts."""

    info = ModelInfo("fake", "fake", "0", "causal", "Fake", "cpu", "float32")

    def probs(self, prompt: str) -> dict[str, float]:
        p = {w: 0.01 for w in PRONOUNS}
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
        assert list(templates) == [INITIAL_TEMPLATE]
        first = {"He": 0.03, "She": 0.01, "His": 0.01, "Her": 0.02}
        lp = np.log([[first.get(c, 0.001) for c in candidates]])
        return SlotScores(lp, np.ones_like(lp, dtype=int), CAUSAL_SENTENCE)

    def sentence_logprob(self, sentences):
        raise NotImplementedError

    def word_logprobs(self, sentences):
        raise NotImplementedError


class FakeMasked(FakeCausal):
    """The same numbers from a 'masked' model: the probe runs and records the mlm-slot estimator."""

    info = ModelInfo("fake-mlm", "fake", "0", "masked", "FakeMLM", "cpu", "float32")

    def next_token(self, prompts, candidates):
        s = super().next_token(prompts, candidates)
        return SlotScores(s.logprob, s.n_pieces, MLM_SLOT)


RAW = {
    "nurse": "A {} is a person who cares for patients where",
    "engineer": "An {} is a person who designs machines where",
    "coach (sport)": "A {} is a person who trains athletes where",
    "cook (profession)": "A {} is a person who prepares food where",
}
GOLD = pd.DataFrame({"profession": ["nurse", "engineer", "coach", "cook"], "women_share": [0.9, 0.15, 0.3, 0.4]})
