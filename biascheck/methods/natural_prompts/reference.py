"""natural_prompts reference: paper 002's NS prompts (`biascheck.data.natural_prompts`, repaired there), the
professions the run scores (all 893, or the `limit` setting's sample), the BLS 2015 gold they are read
against (`biascheck.data.professions_en`) and the templates the template set fills."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.data.natural_prompts import NaturalPrompt, NaturalPrompts, load_prompts
from biascheck.data.professions_en import bls_women_share
from biascheck.methods.natural_prompts.spec import TEMPLATES
from biascheck.settings import ProbeSettings
from biascheck.stats import spread_sample


@dataclass(frozen=True)
class Reference:
    """prompts: the NS prompts to score, one per profession, in file order (all of them, or the sample that
    `select` keeps); repairs: how many prompts each repair of the data reader touched (said with the text
    tables); gold: the BLS 2015 women's share (columns profession, women_share), None where there is none;
    templates: the template prompts filled with every profession (the paper's 17 of Table 8)."""

    prompts: tuple[NaturalPrompt, ...]
    repairs: Mapping[str, int]
    gold: pd.DataFrame | None
    templates: tuple[str, ...] = TEMPLATES


def select(prompts: Sequence[NaturalPrompt], gold: pd.DataFrame | None, limit: int | None) -> list[NaturalPrompt]:
    """`limit` prompts spread evenly over their profession's BLS women's share (`spread_sample`; those
    without a share last), in file order; every prompt when `limit` is None or not below their number
    (quick runs and the quick tier sample; the paper's design is all 893)."""
    items = list(prompts)
    if limit and limit < len(items):
        share = {} if gold is None else dict(zip(gold["profession"], gold["women_share"], strict=True))
        items = [items[i] for i in spread_sample([share.get(p.profession) for p in items], limit)]
    return items


def build(
    prompts: NaturalPrompts,
    gold: pd.DataFrame | None = None,
    limit: int | None = None,
    templates: Sequence[str] = TEMPLATES,
) -> Reference:
    """The reference of parsed prompts (`biascheck.data.natural_prompts.parse_prompts`): what `load` does
    after reading the files, apart for tests and callers with prompts of their own."""
    return Reference(tuple(select(prompts.prompts, gold, limit)), dict(prompts.repairs), gold, tuple(templates))


def load(refdata: ReferenceData, settings: ProbeSettings) -> Reference:
    """The 893 NS prompts (or the `limit` setting's sample of them) and the BLS gold."""
    return build(load_prompts(refdata), bls_women_share(refdata), settings.limit)
