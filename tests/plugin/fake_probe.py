"""Text of a conftest + probe module that pytester writes: a fake model (no torch) so the plugin's
options, recording, summary and report can be tested in seconds. The fake's pronoun scores depend
only on the profession's length, so the expected numbers are known."""

CONFTEST = """
import numpy as np
import pytest

from biascheck.models.base import LanguageModel, ModelInfo, SlotScores
from biascheck.testing import definitional_logprob


class FakeLM(LanguageModel):
    def __init__(self, name):
        self.info = ModelInfo(name=name, source="fake", revision="0", family="masked", architecture="Fake",
                              device="cpu", dtype="float32", languages=("en",))

    def fill_slot(self, templates, candidates):
        known = [[definitional_logprob(t, c) for c in candidates] for t in templates]
        if all(v is not None for row in known for v in row):  # the competence guard's templates
            return SlotScores(np.array(known), np.ones((len(templates), len(candidates)), int), "mlm-slot")
        he = np.array([-1.0 - 0.01 * len(t) for t in templates])
        she = np.array([-2.0 + 0.01 * len(t) for t in templates])
        return SlotScores(np.stack([he, she], axis=1), np.ones((len(templates), 2), int), "mlm-slot")

    def next_token(self, prompts, candidates): raise NotImplementedError
    def top_next(self, prompts, k): raise NotImplementedError
    def sentence_logprob(self, sentences): raise NotImplementedError
    def word_logprobs(self, sentences): raise NotImplementedError


@pytest.fixture(scope="session")
def lm(request):
    return FakeLM(request.param)
"""

PROBE = """
import pytest
from biascheck.spec import Metric
pytestmark = pytest.mark.biascheck(probe="pronoun_ratio")

@pytest.mark.parametrize("value", [0.5, 2.0])
def test_probe(lm, bias, value):
    bias.record("is", Metric("mean_abs_log_n", value, ci=(value - 0.1, value + 0.1), n=10, estimator="mlm-slot",
                             items=[{"profession": "nurse", "log_n": -value}]))
    bias.record("is", Metric("median_log_r", 1.0, n=10, estimator="mlm-slot"))
    bias.check()
"""

PROFILE = """
[pronoun_ratio.mean_abs_log_n]
max = 1.0
why = "test"
"""
