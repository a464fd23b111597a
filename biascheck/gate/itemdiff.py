"""Which items moved: the per-item records of two saved runs (professions, occupations, role-noun
sets, ...) paired and sorted by how much they changed. Pure; used by `biascheck diff`.

1. Results are paired like `biascheck.gate.baseline.compare` pairs them: the same model name, else a
   one-model baseline stands for every model of the new run; within a model by `probe.task.metric`.
2. Within a result, items are paired by their identifying fields (every string-valued field, e.g.
   ``profession`` or ``occupation`` and ``subset``).
3. For every numeric field both items have, the change new − base; rows sorted by |change|.
"""

from __future__ import annotations

import fnmatch
import math
from dataclasses import dataclass
from typing import Any

from biascheck.gate.baseline import baseline_model, saved_results
from biascheck.results import Result


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


def _identity(item: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in item.items() if isinstance(v, str))


def _numbers(item: dict[str, Any]) -> dict[str, float]:
    return {
        k: float(v)
        for k, v in item.items()
        if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(float(v))
    }


def item_changes(base: dict[str, Any], new: dict[str, Any], pattern: str = "*") -> list[ItemChange]:
    """Steps 1-3 for the results whose `probe.task.metric` matches `pattern` (a glob)."""
    base_results = saved_results(base)
    base_models = sorted({r.model for r in base_results})
    by_key: dict[tuple[str, str], Result] = {(r.model, r.key): r for r in base_results}
    out = []
    for r in saved_results(new):
        key = r.key
        if not r.items or not fnmatch.fnmatchcase(key, pattern):
            continue
        model = baseline_model(r.model, base_models)
        ref = by_key.get((model, key)) if model is not None else None
        if ref is None or not ref.items:
            continue
        old_items = {_identity(item): item for item in ref.items}
        for item in r.items:
            name = _identity(item)
            if name not in old_items:
                continue
            old_numbers, new_numbers = _numbers(old_items[name]), _numbers(item)
            for field_name in new_numbers.keys() & old_numbers.keys():
                out.append(ItemChange(r.model, key, name, field_name, old_numbers[field_name], new_numbers[field_name]))
    return sorted(out, key=lambda c: -abs(c.change))
