"""role_nouns scoring: the only module of the probe that calls the model (`word_logprobs`).

Steps 1-4 of `math`: one sentence per (set, variant, name, state), one batched call for the word
log-probabilities, then P(V|C) per (set, name) averaged over the states.
"""

from __future__ import annotations

import numpy as np

from biascheck.methods.role_nouns.math import RoleNounScores, average_over_states, context_scores, posterior
from biascheck.methods.role_nouns.reference import Reference
from biascheck.methods.role_nouns.spec import ESTIMATOR_CAUSAL, ESTIMATOR_MASKED
from biascheck.scoring import LanguageModel
from biascheck.settings import ProbeSettings


def score(lm: LanguageModel, reference: Reference, settings: ProbeSettings) -> RoleNounScores:
    """Steps 1-4 with one `word_logprobs` call over the reference's sets, names and states: per (set, name)
    predictions, the estimator, the states. `lm`: a `biascheck.models.base.LanguageModel` (methods do not
    import the model layer).

    An unscored word (NaN) adds nothing to the sum (`math.context_scores`).
    """
    states = list(reference.states)
    stimuli = reference.stimuli.copy()  # step 1, built once a run (`Reference.stimuli`)
    words = lm.word_logprobs(stimuli["sentence"].tolist())
    masked = lm.family == "masked"
    spans = list(zip(stimuli["v_start"], stimuli["v_end"], strict=False))
    stimuli["score"] = context_scores(words, spans, include_variant=not masked)
    stimuli = stimuli.merge(reference.prior[["set", "variant", "prior"]], on=["set", "variant"], how="left")
    stimuli["log_prior"] = np.log(stimuli["prior"]) if masked else 0.0
    stimuli["p"] = posterior(stimuli).to_numpy()
    return RoleNounScores(average_over_states(stimuli), ESTIMATOR_MASKED if masked else ESTIMATOR_CAUSAL, states)
