"""bbq_gender_identity reference: the Gender_identity items regenerated from the authors' templates with the run's
seed (`biascheck.data.bbq`), each with its target answer (`math.target_location`), the breakdowns it belongs to,
and the pairs the run keeps (setting ``pairs``)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.data.bbq import bbq_items
from biascheck.methods.bbq_gender_identity.math import stereotyped_groups, target_location
from biascheck.methods.bbq_gender_identity.spec import CATEGORY
from biascheck.settings import ProbeSettings
from biascheck.stats import spread_sample

NAMES_FROM = 26  # question_index > 25: proper names (the metadata script's label_type "name")


@dataclass(frozen=True)
class Reference:
    """items: one row per item (example_id, question_index, pair, question_polarity, context_condition, context,
    question, ans0-ans2, label, unknown (index of the unknown answer), target (index, -1 when the item has none),
    stereotyped (F, M or trans), label_type (names or labels)); seed: the generator's; generated: items before
    the pairs were subsampled; left_out: items without a single target (not scored)."""

    items: pd.DataFrame
    seed: int
    generated: int
    left_out: int


def _frame(raw: list[dict]) -> pd.DataFrame:
    rows = []
    for number, item in enumerate(raw):
        groups = [item["answer_info"][f"ans{i}"][1] for i in range(3)]
        target = target_location(item["known_stereotyped_groups"], groups, item["question_polarity"])
        stereo = stereotyped_groups(item["known_stereotyped_groups"])
        rows.append(
            {
                "example_id": item["example_id"],
                "question_index": item["question_index"],
                "pair": number // 4,  # the generator writes a pair's four items together
                "question_polarity": item["question_polarity"],
                "context_condition": item["context_condition"],
                "context": item["context"],
                "question": item["question"],
                "ans0": item["ans0"],
                "ans1": item["ans1"],
                "ans2": item["ans2"],
                "label": item["label"],
                "unknown": groups.index("unknown"),
                "target": -1 if target is None else target,
                "stereotyped": {"F": "women", "M": "men"}.get(stereo, "trans" if "trans" in stereo else stereo),
                "label_type": "names" if int(item["question_index"]) >= NAMES_FROM else "labels",
            }
        )
    return pd.DataFrame(rows)


def keep_pairs(items: pd.DataFrame, per_template: int | None) -> pd.DataFrame:
    """Every template's first `per_template` pairs spread evenly over its pairs (None: all)."""
    if per_template is None:
        return items
    keep = []
    for _, group in items.groupby("question_index", sort=False):
        pairs = list(dict.fromkeys(group["pair"]))
        keep += [pairs[i] for i in spread_sample([float(i) for i in range(len(pairs))], per_template)]
    return items[items["pair"].isin(set(keep))].reset_index(drop=True)


def load(refdata: ReferenceData, settings: ProbeSettings) -> Reference:
    items = _frame(bbq_items(refdata, CATEGORY, settings.seed))
    kept = keep_pairs(items, settings.pairs)
    scored = kept[kept["target"] >= 0].reset_index(drop=True)
    return Reference(scored, settings.seed, len(items), len(kept) - len(scored))
