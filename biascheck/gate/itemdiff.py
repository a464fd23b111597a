"""Which items moved: the per-item records of two saved runs (professions, occupations, role-noun
sets, ...) paired and sorted by how much they changed. Pure; used by `biascheck diff`.

1. Results are paired like `biascheck.gate.baseline.compare` pairs them: the same model name, else a
   one-model baseline stands for every model of the new run; within a model by `probe.task.metric`.
2. Within a result, items are paired by their identity, never by position: the key of `item_key`
   (an id field such as CrowS-Pairs' ``row`` or BBQ's ``example_id`` where the records have one, else
   a name such as ``profession``), read from both runs' records. A result whose records have no key
   that names each item once is left out rather than paired by guess.
3. For every numeric field both items have, the change new − base; rows sorted by |change|. The key's
   fields and every id field (`is_id_field`) are labels, never scores: a row number is not a
   measurement.
"""

from __future__ import annotations

import fnmatch
import math
from dataclasses import dataclass
from typing import Any

from biascheck.gate.baseline import baseline_model, saved_results
from biascheck.gate.identity import is_id_field, item_key
from biascheck.results import Result, RunPayload


@dataclass(frozen=True)
class ItemChange:
    model: str
    key: str  # probe.task.metric
    item: str  # the identifying fields, "profession=nurse"
    field: str
    base: float
    new: float

    @property
    def change(self) -> float:
        return self.new - self.base


def _scores(item: dict[str, Any], key: tuple[str, ...]) -> dict[str, float]:
    """Step 3: the finite numbers of `item` outside its key and its id fields."""
    return {
        k: float(v)
        for k, v in item.items()
        if k not in key
        and not is_id_field(k)
        and isinstance(v, (int, float))
        and not isinstance(v, bool)
        and math.isfinite(float(v))
    }


def paired_changes(model: str, metric: str, base: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[ItemChange]:
    """Steps 2-3 for one result: `base` and `new` are its records in the two runs (new's order kept)."""
    key = item_key(base, new)
    if key is None:
        return []
    old = {tuple(item[k] for k in key): item for item in base}
    out = []
    for item in new:
        ident = tuple(item[k] for k in key)
        if ident not in old:
            continue
        label = ", ".join(f"{k}={v}" for k, v in zip(key, ident, strict=True))
        before, after = _scores(old[ident], key), _scores(item, key)
        out += [ItemChange(model, metric, label, name, before[name], after[name]) for name in after if name in before]
    return out


def item_changes(base: RunPayload, new: RunPayload, pattern: str = "*") -> list[ItemChange]:
    """Steps 1-3 for the results whose `probe.task.metric` matches `pattern` (a glob)."""
    base_results = saved_results(base)
    base_models = sorted({r.model for r in base_results})
    by_key: dict[tuple[str, str], Result] = {(r.model, r.key): r for r in base_results}
    out = []
    for r in saved_results(new):
        if not r.items or not fnmatch.fnmatchcase(r.key, pattern):
            continue
        model = baseline_model(r.model, base_models)
        ref = by_key.get((model, r.key)) if model is not None else None
        if ref is None or not ref.items:
            continue
        out += paired_changes(r.model, r.key, list(ref.items), list(r.items))
    return sorted(out, key=lambda c: -abs(c.change))
