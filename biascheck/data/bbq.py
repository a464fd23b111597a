"""BBQ (Parrish et al. 2022), nyu-mll/BBQ @ bea11bd: the authors' templates and vocabularies, read as the
authors' generator reads them, and the items generated from them (`biascheck.data.bbq_generate`).

1. Templates ``templates/new_templates - <Category>.csv`` and the two vocabularies, read with pandas as the
   generator does (``na_filter=False`` for templates: an empty cell is ``""``, never NaN), every column as text.
2. `bbq_items(refdata, category, seed)`: the category's items regenerated with `seed` (Gender_identity: 5,672,
   the paper's count; Physical_appearance: 1,576, the authors' file's).
3. `authors_items(refdata)`: the authors' own ``data/Physical_appearance.jsonl`` (1,576 items), the check of the
   generator; the upstream ``Gender_identity.jsonl`` is not in the mirror.

A file without the columns the generator reads is a DataError naming the file and the columns.
"""

from __future__ import annotations

import io
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.data.bbq_generate import CATEGORIES, TEXT_COLUMNS, generate
from biascheck.errors import DataError

TEMPLATE_SOURCES = {
    "Gender_identity": "bbq_templates_gender_identity",
    "Physical_appearance": "bbq_templates_physical_appearance",
}
AUTHORS_FILE = "bbq_physical_appearance"
_TEMPLATE_COLUMNS = (*TEXT_COLUMNS, "Q_id", "Subcategory", "Names", "Lexical_diversity", "Known_stereotyped_groups",
                     "NAME1_info", "NAME2_info")  # fmt: skip
_VOCAB_COLUMNS = ("Category", "Pilot_include", "SubCat", "Name")
_NAMES_COLUMNS = ("Name", "First_last", "gender")


def _csv(path: Path, name: str, columns: tuple[str, ...], *, na_filter: bool) -> pd.DataFrame:
    try:
        frame = pd.read_csv(io.StringIO(path.read_text(encoding="utf-8")), dtype=str, na_filter=na_filter)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise DataError(f"{name} ({path}): not a readable CSV ({exc}). Restore the pinned file.") from None
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise DataError(f"{name} ({path}): missing columns {missing} the BBQ generator reads. Restore the pinned file.")
    return frame


@lru_cache(maxsize=8)
def _read_templates(path: Path, name: str) -> pd.DataFrame:
    return _csv(path, name, _TEMPLATE_COLUMNS, na_filter=False)


def templates(refdata: ReferenceData, category: str) -> pd.DataFrame:
    """The category's template rows, as the generator reads them (step 1). A copy."""
    if category not in TEMPLATE_SOURCES:
        raise DataError(f"No BBQ templates declared for {category!r}; declared: {', '.join(TEMPLATE_SOURCES)}.")
    source = TEMPLATE_SOURCES[category]
    frame = _read_templates(refdata.path(source).resolve(), source)
    if "Proper_nouns_only" not in frame.columns:
        frame = frame.assign(Proper_nouns_only="")
    return frame.copy()


def vocabularies(refdata: ReferenceData) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(vocabulary.csv, vocabulary_proper_names.csv) as the generator reads them (NaN for empty cells)."""
    vocab = _csv(refdata.path("bbq_vocabulary"), "bbq_vocabulary", _VOCAB_COLUMNS, na_filter=True)
    names = _csv(refdata.path("bbq_proper_names"), "bbq_proper_names", _NAMES_COLUMNS, na_filter=True)
    return vocab, names


def bbq_items(refdata: ReferenceData, category: str, seed: int) -> list[dict[str, Any]]:
    """Step 2: the category's items, regenerated with `seed`."""
    if category not in CATEGORIES:
        raise DataError(f"BBQ category {category!r} is not generated here; one of {', '.join(CATEGORIES)}.")
    vocab, names = vocabularies(refdata)
    return generate(category, templates(refdata, category), vocab, names, seed)


def authors_items(refdata: ReferenceData) -> list[dict[str, Any]]:
    """Step 3: the authors' Physical_appearance items, one dict per jsonl line."""
    path = refdata.path(AUTHORS_FILE)
    items = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            items.append(json.loads(line))
        except json.JSONDecodeError as exc:
            message = f"{AUTHORS_FILE} ({path}) line {number}: not JSON ({exc}). Restore the pinned file."
            raise DataError(message) from None
    return items
