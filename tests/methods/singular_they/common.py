"""The stimuli and a human-like surprisal pattern shared by the tests of this package."""

import numpy as np

from biascheck.methods.singular_they.stimuli import they_stimuli

STIM = they_stimuli()
# Surprisal per condition in the order people find them natural (paper Figure 2): plural easiest, inanimate hardest.
HUMANLIKE = {
    "inanimate": 6.0,
    "gendered_name": 4.0,
    "nongendered_name": 3.5,
    "close_gendered": 4.5,
    "distant_gendered": 4.0,
    "close_nongendered": 3.5,
    "distant_nongendered": 3.0,
    "quantified": 2.0,
    "plural": 1.0,
}


def frame(values: dict[str, float], noise=0.0, seed=0):
    """The stimuli with a `surprisal` column: `values` per condition, plus normal noise."""
    rng = np.random.default_rng(seed)
    return STIM.assign(surprisal=[values[c] + rng.normal(0, noise) if noise else values[c] for c in STIM["condition"]])
