"""singular_they reference: our 335 stimuli (`stimuli.they_stimuli`, the pronoun slot marked with `SLOT`)
and, when the ``ratings`` setting names a file, the human ratings read from it
(`biascheck.data.they_ratings`): Camilliere et al.'s ratings are not public, so a user supplies their own.

The ratings are read here, once per run, so a bad file fails the probe before the model is asked and the
metrics and the figure read the same table."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.data.they_ratings import read_ratings
from biascheck.methods.singular_they.spec import ALL_CONDITIONS, PAPER_GROUPS
from biascheck.methods.singular_they.stimuli import they_stimuli
from biascheck.settings import ProbeSettings
from biascheck.spec import SLOT


@dataclass(frozen=True)
class Reference:
    """stimuli: rows of `they_stimuli` (item, condition, antecedent, pronoun, sentence, template, prompt,
    close, gendered); ratings: the user's ratings (item, condition, group, rating), or None without a file;
    ratings_file: the file they were read from (named in the correlations' notes), or None.

    A caller may build one over other stimuli (the frame-transfer script scores corpus frames this way)."""

    stimuli: pd.DataFrame
    ratings: pd.DataFrame | None = None
    ratings_file: Path | None = None


def load(refdata: ReferenceData, settings: ProbeSettings) -> Reference:
    """The stimuli are the probe's own (no reference data to read); the ratings file is the setting's."""
    path = settings.ratings
    ratings = None if path is None else read_ratings(path, conditions=ALL_CONDITIONS, groups=PAPER_GROUPS)
    return Reference(they_stimuli(SLOT), ratings, path)
