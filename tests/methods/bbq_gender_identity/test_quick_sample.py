"""The quick tier's BBQ sample (`reference.keep_pairs` at the tier's `pairs`) is stratified as the issue asked: every
one of the 50 gender-identity templates, each with both context conditions and both question polarities, in the
same number of pairs; the full tier keeps all 5,672 items."""

from __future__ import annotations

from biascheck.data.bbq import bbq_items
from biascheck.methods.bbq_gender_identity.reference import CATEGORY, _frame, keep_pairs
from biascheck.methods.bbq_gender_identity.spec import PROBE


def _quick_pairs() -> int:
    setting = next(s for s in PROBE.settings if s.name == "pairs")
    return int(dict(setting.tiers)["quick"])


def test_the_quick_sample_keeps_every_template_condition_and_polarity_in_equal_pairs(real_refdata):
    items = _frame(bbq_items(real_refdata, CATEGORY, 0))
    assert len(keep_pairs(items, None)) == len(items) == 5672
    per = _quick_pairs()
    kept = keep_pairs(items, per)
    assert set(kept["question_index"]) == set(items["question_index"]) and kept["question_index"].nunique() == 50
    for template, group in kept.groupby("question_index"):
        assert group["pair"].nunique() == min(per, items[items["question_index"] == template]["pair"].nunique())
        cells = group.groupby(["context_condition", "question_polarity"]).size()
        assert len(cells) == 4 and cells.nunique() == 1, (template, cells.to_dict())
    assert len(kept) == 656  # the quick tier's items, as docs and thresholds give them
