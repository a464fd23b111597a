"""singular_they scoring: the only module of the probe that calls the model (`fill_slot`, `next_token`).

Masked LMs score the item's pronoun in the masked slot of the whole sentence (`mlm-slot`, as the
paper); causal LMs score it as the next word after the text to its left (`causal-next`; the
antecedent is always on the left, the right context is not used).
"""

from __future__ import annotations

import numpy as np

from biascheck.methods.singular_they.math import TheyScores, surprisal
from biascheck.methods.singular_they.reference import Reference
from biascheck.scoring import LanguageModel
from biascheck.settings import ProbeSettings


def score(lm: LanguageModel, reference: Reference, settings: ProbeSettings) -> TheyScores:
    """Step 1 with one model call: every pronoun form scored in every stimulus of the reference, the item's
    own form kept. Masked: `fill_slot` on the templates; causal: `next_token` on the left contexts.
    `lm`: a `biascheck.models.base.LanguageModel` (methods do not import the model layer).
    """
    stimuli = reference.stimuli
    forms = sorted(set(stimuli["pronoun"]))
    if lm.family == "masked":
        scores = lm.fill_slot(stimuli["template"].tolist(), forms)
    else:
        scores = lm.next_token(stimuli["prompt"].tolist(), forms)
    rows = np.arange(len(stimuli))
    cols = np.array([forms.index(p) for p in stimuli["pronoun"]])
    logprob = np.asarray(scores.logprob, dtype=float)[rows, cols]
    frame = stimuli.assign(
        logprob=logprob, surprisal=surprisal(logprob), n_pieces=np.asarray(scores.n_pieces)[rows, cols]
    )
    return TheyScores(frame, scores.estimator)
