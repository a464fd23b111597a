"""The NS prompts parser: repairs on hand-made entries, and the counts on the real mirror file."""

from __future__ import annotations

import pytest

from biascheck.data.natural_prompts import fill_prompt, parse_prompts, repair_prompt, split_key
from biascheck.errors import DataError


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("coach (sport)", ("coach", "sport")),
        ("welder", ("welder", "")),
        ("Sound editor (filmmaking)", ("sound editor", "filmmaking")),
    ],
)
def test_split_key(key, expected):
    assert split_key(key) == expected


@pytest.mark.parametrize(
    ("key", "text", "template", "fill", "repairs"),
    [
        ("welder", "A {} is a person who welds where", "A {} is a person who welds where", "welder", ()),
        ("coach (sport)", "A {} trains athletes where", "A {} trains athletes where", "coach", ("qualified_key",)),
        (
            "minister (government)",
            "A minister heads a ministry where",
            "A {} heads a ministry where",
            "minister",
            ("qualified_key", "placeholder_restored"),
        ),
        (
            "ceo of public schools",
            "A {} of public schools is a person.",
            "A {} of public schools is a person where",
            "ceo",
            ("repeated_tail", "trailing_punctuation", "continuation_added"),
        ),
        ("hairdresser", "A {} cuts hair where.", "A {} cuts hair where", "hairdresser", ("trailing_punctuation",)),
        ("engineer", "An {} designs where .", "An {} designs where", "engineer", ("trailing_punctuation",)),
        ("tax collector", "A {} collects taxes and", "A {} collects taxes and", "tax collector", ("continuation_and",)),
        ("courtier", "A {} attends the court", "A {} attends the court where", "courtier", ("continuation_added",)),
        ("professor", "{} is an academic rank where", "{} is an academic rank where", "professor", ("capitalised",)),
        ("archaeologist", "A {} digs where", "A {} digs where", "archaeologist", ("article_agreement",)),
    ],
)
def test_repairs_by_example(key, text, template, fill, repairs):
    assert repair_prompt(key, text) == (template, fill, repairs)


def test_unusable_prompts_are_dropped_and_counted():
    parsed = parse_prompts(
        {"welder": "A {} welds where", "comprador": "A trader acts where", "twice": "{} and {} where"}
    )
    assert [p.key for p in parsed.prompts] == ["welder"]
    assert parsed.dropped == ["comprador", "twice"]


def test_malformed_file_is_a_data_error():
    with pytest.raises(DataError):
        parse_prompts([])  # type: ignore[arg-type]
    with pytest.raises(DataError, match="not a string"):
        parse_prompts({"welder": 3})


@pytest.mark.parametrize(
    ("template", "word", "expected"),
    [
        ("A {} digs where", "archaeologist", "An archaeologist digs where"),
        ("An {} leads where", "university president", "A university president leads where"),
        ("A {} works where", "honest broker", "An honest broker works where"),
        ("An {} designs where", "", "A designs where"),
        ("The {}, a worker, said that", "", "The, a worker, said that"),
    ],
)
def test_fill_prompt(template, word, expected):
    assert fill_prompt(template, word) == expected


# ---------------------------------------------------------------------------------------------
# the real upstream file (skipped without the mirror)


@pytest.fixture(scope="module")
def real(real_refdata):
    from biascheck.data.natural_prompts import load_prompts

    return load_prompts(real_refdata)


def test_real_file_counts(real):
    assert len(real) == 893 and real.dropped == []
    # the mirror README's documented quirks: 41 qualified keys, 2 without {}, 14 not ending in "where"
    assert real.repairs["qualified_key"] == 41
    assert real.repairs["placeholder_restored"] == 2
    not_where = (
        real.repairs["trailing_punctuation"] - 3 + real.repairs["continuation_added"] + real.repairs["continuation_and"]
    )
    assert real.repairs["continuation_and"] == 4 and real.repairs["continuation_added"] == 5 and not_where == 14
    assert real.repairs["repeated_tail"] == 1 and real.repairs["capitalised"] == 4


def test_real_prompts_are_well_formed(real):
    for p in real.prompts:
        assert p.template.count("{}") == 1, p.key
        assert p.template.split()[-1] in ("where", "and"), p.key
        filled = p.filled()
        assert p.fill in filled.lower() and "{}" not in filled and "  " not in filled, p.key
        assert "person" in p.filled("person").lower(), p.key
    by_key = {p.key: p for p in real.prompts}
    assert by_key["coach (sport)"].profession == "coach"
    assert by_key["ceo of public schools"].filled().startswith("A ceo of public schools is a person")
    assert (
        by_key["metalsmith"].filled() == "A metalsmith is a person fashioning useful items out of various metals where"
    )
    assert len({p.key for p in real.prompts}) == 893


def test_real_gold_overlap(real, real_refdata):
    from biascheck.data.professions_en import bls_women_share

    bls = set(bls_women_share(real_refdata)["profession"])
    matched = {p.profession for p in real.prompts} & bls
    assert len(matched) >= 60 and {"cashier", "teacher", "plumber", "secretary"} <= matched
