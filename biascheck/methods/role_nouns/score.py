"""role_nouns scoring: the only module of the probe that calls the model (`word_logprobs`).

Steps 1-4 of `math`: one sentence per (set, variant, name, state), one batched call for the word
log-probabilities, then P(V|C) per (set, name) averaged over the states.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from biascheck.methods.role_nouns.math import RoleNounScores, average_over_states, context_scores, posterior
from biascheck.methods.role_nouns.reference import Reference
from biascheck.methods.role_nouns.spec import ESTIMATOR_CAUSAL, ESTIMATOR_MASKED
from biascheck.scoring import LanguageModel
from biascheck.settings import ProbeSettings


def build_stimuli(sets: pd.DataFrame, names: pd.DataFrame, states: Sequence[str]) -> pd.DataFrame:
    """Step 1. One row per (set, variant, name, state).

    sets: columns set, split, category, variant, article (`biascheck.data.role_nouns.role_noun_sets`).
    names: columns name, name_gender.
    Returns the columns of both plus state, sentence, v_start, v_end (the variant's character span).
    """
    rows = []
    for s in sets.itertuples(index=False):
        for n in names.itertuples(index=False):
            for state in states:
                prefix = f"{n.name} is {s.article} "
                sentence = f"{prefix}{s.variant} from {state}."
                rows.append(
                    (
                        s.set,
                        s.split,
                        s.category,
                        s.variant,
                        n.name,
                        n.name_gender,
                        state,
                        sentence,
                        len(prefix),
                        len(prefix) + len(s.variant),
                    )
                )
    return pd.DataFrame(
        rows,
        columns=["set", "split", "category", "variant", "name", "name_gender", "state", "sentence", "v_start", "v_end"],
    )


def score(lm: LanguageModel, reference: Reference, settings: ProbeSettings) -> RoleNounScores:
    """Steps 1-4 with one `word_logprobs` call over the reference's sets, names and states: per (set, name)
    predictions, the estimator, the states. `lm`: a `biascheck.models.base.LanguageModel` (methods do not
    import the model layer).

    An unscored word (NaN) adds nothing to the sum (`math.context_scores`).
    """
    states = list(reference.states)
    stimuli = build_stimuli(reference.sets, reference.names, states)
    words = lm.word_logprobs(stimuli["sentence"].tolist())
    masked = lm.family == "masked"
    spans = list(zip(stimuli["v_start"], stimuli["v_end"], strict=False))
    stimuli["score"] = context_scores(words, spans, include_variant=not masked)
    stimuli = stimuli.merge(reference.prior[["set", "variant", "prior"]], on=["set", "variant"], how="left")
    stimuli["log_prior"] = np.log(stimuli["prior"]) if masked else 0.0
    stimuli["p"] = posterior(stimuli).to_numpy()
    return RoleNounScores(average_over_states(stimuli), ESTIMATOR_MASKED if masked else ESTIMATOR_CAUSAL, states)
