"""The BBQ generator (`biascheck.data.bbq_generate`) against the authors' own output: regenerating
Physical_appearance gives the authors' ``data/Physical_appearance.jsonl`` in everything that is not random (items
per template, context condition, polarity, questions, each pair's answers and their groups, which answer is correct,
contexts up to the lexical word drawn); Gender_identity gives the paper's 5,672 items. Parsers on hand-made rows."""

from __future__ import annotations

from collections import Counter

import pandas as pd
import pytest

from biascheck.data.bbq import authors_items, bbq_items, templates
from biascheck.data.bbq_generate import UNKNOWN_OPTIONS, possible_contexts, word_lists


def test_word_lists_reads_both_lists_and_keeps_the_upstream_rule_for_the_second():
    assert word_lists("WORD1: [the gym, the Y]; WORD2: [sports]") == (["the gym", "the Y"], ["sports"])
    assert word_lists("{{NAME1}}: [a, b]; {{NAME2}}: [c]") == (["a", "b"], ["c"])
    assert word_lists("WORD1: [picnic, party]") == (["picnic", "party"], [])
    # upstream resets the second list on every part that is not WORD2/NAME2: the last part decides
    assert word_lists("WORD2: [x]; WORD1: [y]") == (["y"], [])


def _unknown(item):
    return next(k for k in ("ans0", "ans1", "ans2") if item["answer_info"][k][1] == "unknown")


def _key(item):
    """What does not depend on the random draws: template, condition, polarity, question, the two named answers
    with their groups, and the correct answer (its text, or 'unknown'). The word answer_info gives beside a group
    is left out: for one pair of template 10 the authors' file says "other employee" where the answer and the
    template's Names say "employee"."""
    unknown = _unknown(item)
    named = tuple(sorted((item[k], item["answer_info"][k][1]) for k in ("ans0", "ans1", "ans2") if k != unknown))
    correct = f"ans{item['label']}"
    return (
        item["question_index"],
        item["context_condition"],
        item["question_polarity"],
        item["question"],
        named,
        "unknown" if correct == unknown else item[correct],
    )


@pytest.fixture(scope="module")
def physical(real_refdata):
    return bbq_items(real_refdata, "Physical_appearance", seed=1), authors_items(real_refdata)


def test_physical_appearance_regenerates_the_authors_items_in_all_that_is_not_random(physical):
    ours, theirs = physical
    assert len(ours) == len(theirs) == 1576
    count = Counter  # items per template, condition and polarity
    assert count(x["question_index"] for x in ours) == count(x["question_index"] for x in theirs)
    assert count((x["context_condition"], x["question_polarity"]) for x in ours) == count(
        (x["context_condition"], x["question_polarity"]) for x in theirs
    )
    assert count(_key(x) for x in ours) == count(_key(x) for x in theirs)
    for item in ours + theirs:
        assert item[_unknown(item)] in UNKNOWN_OPTIONS
        assert item["label"] == int(_unknown(item)[-1]) or item["context_condition"] == "disambig"


def test_every_authors_context_is_one_our_generator_can_write_for_the_same_pair(physical, real_refdata):
    ours, theirs = physical
    rows = templates(real_refdata, "Physical_appearance")
    rows = rows[rows["Ambiguous_Context"] != ""]
    by_template = {q: [row for _, row in group.iterrows()] for q, group in rows.groupby("Q_id")}
    pairs: dict[tuple[str, str, str], set[str]] = {}
    allowed: dict[tuple, set[str]] = {}
    for item in ours:
        pair = (item["question_index"], item["name1"], item["name2"])
        if pair not in pairs:
            pairs[pair] = set().union(*(possible_contexts(row, pair[1], pair[2]) for row in by_template[pair[0]]))
        allowed.setdefault(_key(item), set()).update(pairs[pair])
        assert item["context"] in pairs[pair]
    misses = [x["example_id"] for x in theirs if x["context"] not in allowed[_key(x)]]
    assert misses == []


def test_gender_identity_has_the_papers_count_and_the_seed_only_moves_the_random_parts(real_refdata):
    one = bbq_items(real_refdata, "Gender_identity", seed=0)
    again = bbq_items(real_refdata, "Gender_identity", seed=0)
    other = bbq_items(real_refdata, "Gender_identity", seed=1)
    assert len(one) == len(other) == 5672  # Parrish et al. 2022, Table 1: Gender identity 5,672
    assert one == again
    assert one != other
    label_rows = [x for x in one if int(x["question_index"]) <= 25]
    assert Counter(x["question_index"] for x in label_rows) == Counter(
        x["question_index"] for x in other if int(x["question_index"]) <= 25
    )
    assert Counter(_key(x) for x in label_rows) == Counter(_key(x) for x in other if int(x["question_index"]) <= 25)
    per_condition = Counter((x["context_condition"], x["question_polarity"]) for x in one)
    assert set(per_condition.values()) == {1418}


def test_a_template_file_without_a_needed_column_is_a_clear_error(tmp_path):
    from biascheck.data.bbq import _csv
    from biascheck.errors import DataError

    bad = tmp_path / "t.csv"
    pd.DataFrame({"Q_id": ["1"]}).to_csv(bad, index=False)
    with pytest.raises(DataError, match="missing columns .*Ambiguous_Context"):
        _csv(bad, "bbq_templates_gender_identity", ("Q_id", "Ambiguous_Context"), na_filter=False)
