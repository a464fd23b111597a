"""role_nouns reference: Papineau's role-noun sets and participants, Watson's names and states, the corpus
frequency prior (`biascheck.data.role_nouns`), with the states the run's ``states`` setting selects.

Loaded once per run, before any model is asked: the scorer needs the sets, prior, names and states; the
metrics and figures compare the model with the trials and with the prior's own predictions."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.data import role_nouns as data
from biascheck.methods.role_nouns.math import build_stimuli, prior_predictions, select_states
from biascheck.settings import ProbeSettings


@dataclass(frozen=True)
class Reference:
    """sets: one row per variant of the 20 sets (set, split, category, variant, article);
    prior: `sets` plus count and prior = P(V) from corpus counts;
    names: Watson's 24 names (name, name_gender 'female'/'male');
    states: the states P(V|C) is averaged over (`math.select_states` of the ``states`` setting);
    trials: the participants' critical trials (participant, attitude, party, name, name_gender, set, split,
    category);
    prior_pred: the frequency prior's predictions, the same for every name (`math.prior_predictions`)."""

    sets: pd.DataFrame
    prior: pd.DataFrame
    names: pd.DataFrame
    states: tuple[str, ...]
    trials: pd.DataFrame
    prior_pred: pd.DataFrame

    @cached_property
    def stimuli(self) -> pd.DataFrame:
        """Step 1's sentences (`math.build_stimuli`): one per (set, variant, name, state), built once for every
        model the run scores (64,800 rows; the reference is kept across a sweep's checkpoints). Read-only."""
        return build_stimuli(self.sets, self.names, self.states)


def load(refdata: ReferenceData, settings: ProbeSettings) -> Reference:
    names, states = data.names_and_states(refdata)
    prior = data.frequency_prior(refdata)
    return Reference(
        sets=data.role_noun_sets(refdata),
        prior=prior,
        names=names,
        states=tuple(select_states(states, settings.states)),
        trials=data.production_trials(refdata),
        prior_pred=prior_predictions(prior, names),
    )
