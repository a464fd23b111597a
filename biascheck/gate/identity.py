"""An item's identity in a result's per-item records: the fields that pair the items of two runs (an id field
such as CrowS-Pairs' ``row`` or BBQ's ``example_id`` where the records have one, else a name such as
``profession``). Pure; read by `biascheck.gate.itemdiff` (which items moved) and `biascheck.gate.paired`
(the paired comparison)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

ID_NAMES = frozenset({"id", "row", "key", "index"})


def is_id_field(name: str) -> bool:
    """A field that names an item rather than measures it: ``id``, ``row``, ``key``, ``index`` and
    ``*_id`` / ``*_index`` (``pair_id``, ``example_id``, ``question_index``)."""
    return name in ID_NAMES or name.endswith(("_id", "_index"))


def _label_value(value: Any) -> bool:
    """A value that can name an item: a string or a whole number (not a bool, not a float)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def item_key(*runs: Sequence[Mapping[str, Any]]) -> tuple[str, ...] | None:
    """The fields that pair the items of `runs` (the same result's records in each run), or None.

    1. Candidates: the fields every record of every run has with a string or whole-number value; the
       id fields first (`is_id_field`), then the rest, each group in the records' own field order.
    2. Take candidates one at a time until their values name every record of each run once.
    3. None when all candidates together still name some record twice: such items cannot be paired by
       identity.
    """
    records = [record for run in runs for record in run]
    if not records:
        return None
    common = [name for name in records[0] if all(name in r and _label_value(r[name]) for r in records)]
    candidates = [n for n in common if is_id_field(n)] + [n for n in common if not is_id_field(n)]
    key: list[str] = []
    for name in candidates:
        key.append(name)
        if all(len({tuple(r[k] for k in key) for r in run}) == len(run) for run in runs):
            return tuple(key)
    return None
