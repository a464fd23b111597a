"""English professions: the 923-profession list and 60 stereotyped ones (paper 001), and US
women's shares per occupation word (BLS 2015, via Delobelle et al.'s biased-rulers)."""

from __future__ import annotations

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.errors import DataError


def _lines(refdata: ReferenceData, name: str) -> list[str]:
    path = refdata.path(name)
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def professions_923(refdata: ReferenceData) -> pd.DataFrame:
    """Columns: profession ('legislator'), article ('a'/'an'), as listed upstream (923 rows)."""
    rows = []
    for number, line in enumerate(_lines(refdata, "professions_923"), start=1):
        article, _, profession = line.partition(" ")
        if article not in ("a", "an") or not profession:
            raise DataError(
                f"professions_923 line {number}: expected 'a <profession>' or 'an <profession>', got {line!r}."
            )
        rows.append((profession, article))
    return pd.DataFrame(rows, columns=["profession", "article"])


def stereotyped_60(refdata: ReferenceData) -> pd.DataFrame:
    """Columns: profession, stereotype ('female' for upstream lines 1-30, 'male' for 31-60)."""
    words = _lines(refdata, "professions_60")
    if len(words) != 60:
        raise DataError(f"professions_60: expected 60 professions, found {len(words)}.")
    return pd.DataFrame({"profession": words, "stereotype": ["female"] * 30 + ["male"] * 30})


def bls_women_share(refdata: ReferenceData) -> pd.DataFrame:
    """Women's share per occupation word, US BLS 2015 (Delobelle et al. label columns).

    A BLS row (e.g. 'Brickmasons, blockmasons, and stonemasons') carries up to five one-word labels.
    A word labelling several rows gets the employment-weighted mean of their women's % (weights:
    TotalEmployed, thousands). Columns: profession, women_share (0-1), employed (thousands), rows.
    """
    frame = pd.read_csv(refdata.path("bls2015"))
    labels = [f"label{i}" for i in range(1, 6)]
    missing = [c for c in ["TotalEmployed", "Women", *labels] if c not in frame.columns]
    if missing:
        raise DataError(f"bls2015: missing columns {missing}; found {list(frame.columns)}.")
    long = frame.melt(id_vars=["TotalEmployed", "Women"], value_vars=labels, value_name="profession").dropna(
        subset=["profession"]
    )
    long["profession"] = long["profession"].str.strip().str.lower()
    long["weighted"] = long["Women"] * long["TotalEmployed"]
    grouped = long.groupby("profession").agg(
        weighted=("weighted", "sum"), employed=("TotalEmployed", "sum"), rows=("Women", "size")
    )
    grouped["women_share"] = grouped["weighted"] / grouped["employed"] / 100.0
    return grouped.reset_index()[["profession", "women_share", "employed", "rows"]]
