"""Human ratings of the singular-*they* stimuli (paper 004, Table 4), from a file the user supplies.

Camilliere et al.'s ratings are not public, so there is no declared source: the probe setting
``singular_they.ratings`` (environment ``BIASCHECK_THEY_RATINGS``) names a CSV with one row per rating.
The probe passes in the conditions and participant groups it knows (its `spec`): the data layer reads and
checks files, it never imports a probe.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import pandas as pd

from biascheck.errors import DataError

RATING_COLUMNS = ("item", "condition", "group", "rating")


def _normal_group(name: str) -> str:
    return "_".join(str(name).strip().lower().replace("-", " ").split())


def read_ratings(path: str | Path, *, conditions: Collection[str], groups: Collection[str]) -> pd.DataFrame:
    """A CSV with columns item, condition, group, rating (one row per rating).

    item: F01-F40 / C01-C15 as in `biascheck.methods.singular_they.stimuli`; condition: one of
    `conditions` (the probe's 9); group: one of `groups`, the participant groups of the paper's Table 4
    (non-innovators, innovators, super-innovators, low/med/high acceptance; spaces, hyphens and case are
    free); rating: a number (higher = more natural). Extra columns are ignored.
    """
    path = Path(path).expanduser()
    if not path.is_file():
        raise DataError(f"ratings file {str(path)!r}: no such file.")
    frame = pd.read_csv(path)
    missing = [c for c in RATING_COLUMNS if c not in frame.columns]
    if missing:
        raise DataError(f"{path}: missing columns {missing}; expected {list(RATING_COLUMNS)}.")
    frame = frame[list(RATING_COLUMNS)].copy()
    frame["group"] = frame["group"].map(_normal_group)
    unknown = sorted(set(frame["group"]) - set(groups))
    if unknown:
        raise DataError(f"{path}: unknown participant group(s) {unknown}; known: {', '.join(groups)}.")
    bad = sorted(set(frame["condition"]) - set(conditions))
    if bad:
        raise DataError(f"{path}: unknown condition(s) {bad}; known: {', '.join(conditions)}.")
    frame["rating"] = pd.to_numeric(frame["rating"], errors="coerce")
    if frame["rating"].isna().any():
        raise DataError(f"{path}: {int(frame['rating'].isna().sum())} rating(s) are not numbers.")
    return frame
