"""Adjective and verb supersenses of the politicians probe (paper 003, S5 Text, Tabs 14-15).

Parsers run on hand-made snippets; the counts are pinned on the real mirror (fixture `real_refdata`, skipped
without one).
"""

from __future__ import annotations

from collections import Counter

import pytest

from biascheck.data import ReferenceData, supersenses
from biascheck.data.sources import SOURCES
from biascheck.errors import DataError

SEED = "angry\tFEELING\nclever\tMIND\n\ncheerful\tBEHAVIOR\ncheerful\tFeeling\n"

MACE = (
    "('cheerful.a.01')\t,BODY,,FEELING,context,\tWEATHER 0.5\tBODY 0.2\tcontext 0.1\r\n"
    "\r\n"
    "('vague.a.02')\t,context,\tcontext 0.9\tMISCELLANEOUS 0.3\tBODY 0.3\r\n"
)

LEXFILE = """\
01159300-v:
  definition:
  - serve oneself to, or consume regularly; a long definition that the export
    wraps onto a second line
  example:
  - source: a book
    text: Have another bowl of chicken soup!
  hypernym:
  - 02372362-v
  ili: i27410
  members:
  - consume
  - take in
  - Eat
  partOfSpeech: v
00000001-v:
  members:
  - 'true'
  - wildin'
  - 'it''s'
"""


# --- parsers on hand-made input -------------------------------------------------------------------


def test_seed_lines_are_word_and_class_lower_cased():
    pairs = supersenses.parse_seed(SEED)
    assert pairs == [("angry", "feeling"), ("clever", "mind"), ("cheerful", "behavior"), ("cheerful", "feeling")]
    assert supersenses.group_classes(pairs)["cheerful"] == {"behavior", "feeling"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("angry\tFEELING\nclever MIND\n", "line 2: expected 'adjective<TAB>SUPERSENSE'"),
        ("angry\tFEELING\tx\n", "line 1: expected 'adjective<TAB>SUPERSENSE'"),
        ("angry\tEMOTION\n", "line 1: expected one of the 13 adjective supersenses"),
    ],
)
def test_malformed_seed_lines_name_file_and_line(text, message):
    with pytest.raises(DataError, match=message) as info:
        supersenses.parse_seed(text, "seed.txt")
    assert str(info.value).startswith("seed.txt line")


def test_mace_rows_keep_the_best_scoring_supersense_never_context():
    rows = supersenses.parse_mace(MACE)
    assert rows == [
        ("cheerful.a.01", "weather", ("body", "feeling", "context")),
        ("vague.a.02", "miscellaneous", ("context",)),  # context first, then a tie: the earlier column
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("cheerful\tFEELING\tFEELING 0.1", r"expected \"\('lemma.a.NN'\)"),
        ("('cheerful.a.01')\tFEELING", r"expected \"\('lemma.a.NN'\)"),  # no score columns
        ("('cheerful.a.01')\tFEELING\tFEELING high", "'LABEL score' columns .* not 'FEELING high'"),
        ("('cheerful.a.01')\tJOLLY\tFEELING 0.1", r"labels among the 13 supersenses and 'context', not \['jolly'\]"),
        ("('cheerful.a.01')\tcontext\tcontext 0.1", "a score for at least one supersense"),
    ],
)
def test_malformed_mace_lines_name_file_and_line(line, message):
    with pytest.raises(DataError, match=message) as info:
        supersenses.parse_mace("('vague.a.02')\tBODY\tBODY 0.3\r\n" + line, "mace.txt")
    assert str(info.value).startswith("mace.txt line 2:")


def test_synset_lemma():
    assert supersenses.synset_lemma("cheerful.a.01") == "cheerful"
    assert supersenses.synset_lemma("Well_known.a.01") == "well known"
    assert supersenses.synset_lemma("a.d..a.01") == "a.d."


def test_lexfile_members_as_written_and_quoted_ones_unquoted():
    assert supersenses.parse_lexfile(LEXFILE) == {
        "01159300-v": ["consume", "take in", "Eat"],
        "00000001-v": ["true", "wildin'", "it's"],
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("01159300-v:\n  members:\n  - eat\n not indented enough\n", "line 4: expected '  field:' or '  - item'"),
        ("01159300-v:\n  members: [eat, drink]\n", "line 2: expected '  members:' followed by"),
        ('01159300-v:\n  members:\n  - "eat"\n', "line 3: expected a plain or single-quoted lemma"),
        ("01159300-v:\n  members:\n  -\n", "line 3: expected '  field:' or '  - item'"),
        ("  members:\n  - eat\n", "line 1: expected a synset id before any field"),
        ("01159300-v\n  members:\n", "line 1: expected a synset id such as"),
        ("01159300-v:\n  members:\n  - eat\n01159300-v:\n  members:\n  - eat\n", "line 4: .* is repeated"),
        ("01159300-v:\n  definition:\n  - eat\n02:\n  members:\n  - eat\n", "'01159300-v' has no members"),
        ("01159300-v:\n  members:\n  - eat\n02:\n  ili: i1\n", "'02' has no members .at the end"),
    ],
)
def test_malformed_lexfile_lines_name_file_and_line(text, message):
    with pytest.raises(DataError, match=message) as info:
        supersenses.parse_lexfile(text, "verb.consumption.yaml")
    assert str(info.value).startswith("verb.consumption.yaml")


def test_the_class_tuples_match_the_paper_and_the_declared_files():
    assert len(supersenses.ADJ_SUPERSENSES) == 13 and len(set(supersenses.ADJ_SUPERSENSES)) == 13
    assert len(supersenses.VERB_SUPERSENSES) == 15 and len(set(supersenses.VERB_SUPERSENSES)) == 15
    declared = {name for name in SOURCES if name.startswith("oewn_verb_")}
    assert declared == set(supersenses.VERB_SOURCES.values())
    paths = {SOURCES[name].path for name in declared}
    assert paths == {f"src/yaml/verb.{c}.yaml" for c in supersenses.VERB_SUPERSENSES}


def test_missing_mirror_file_is_a_data_error_naming_the_source(tmp_path, monkeypatch):
    monkeypatch.setenv("BIASCHECK_OFFLINE", "1")
    with pytest.raises(DataError, match="tsvetkov_adj_seed"):
        supersenses.adjective_supersenses(ReferenceData(mirror=tmp_path, cache=tmp_path))


# --- counts pinned on the real mirror (see the module docstring) -----------------------------------


def test_adjective_supersense_counts(real_refdata):
    adjectives = supersenses.adjective_supersenses(real_refdata)
    assert len(adjectives) == 1548
    assert Counter(len(classes) for classes in adjectives.values()) == {1: 1429, 2: 108, 3: 11}
    per_class = Counter(c for classes in adjectives.values() for c in classes)
    assert per_class == {
        "behavior": 117, "body": 115, "feeling": 210, "mind": 62, "miscellaneous": 138, "motion": 41,
        "perception": 138, "quantity": 105, "social": 122, "spatial": 200, "substance": 223, "temporal": 175,
        "weather": 32,
    }  # fmt: skip
    assert all(word == word.lower() for word in adjectives)


def test_the_two_adjective_files(real_refdata):
    seed = supersenses.parse_seed(real_refdata.path("tsvetkov_adj_seed").read_text(encoding="utf-8"))
    assert (len(seed), len({word for word, _ in seed})) == (1294, 1223)
    assert {c for _, c in seed} == set(supersenses.ADJ_SUPERSENSES)
    rows = supersenses.parse_mace(real_refdata.path("tsvetkov_adj_mturk").read_text(encoding="utf-8"))
    assert (len(rows), len({supersenses.synset_lemma(s) for s, _, _ in rows})) == (486, 468)
    assert {label for _, label, _ in rows} == set(supersenses.ADJ_SUPERSENSES)
    plurality_differs = {s for s, label, workers in rows if Counter(workers).most_common(1)[0][0] != label}
    assert len(plurality_differs) == 12 and {"cheerful.a.01", "bad.a.01", "passionate.a.01"} <= plurality_differs


@pytest.mark.parametrize(
    ("word", "classes"),
    [
        ("angry", {"feeling"}),  # Fig 3 and §5.1.1: negative "feeling"
        ("intelligent", {"mind"}),  # positive "mind"
        ("clever", {"mind"}),  # Tab 14 examples from here on
        ("bossy", {"behavior"}),
        ("rainy", {"weather"}),
        ("military", {"social"}),
        ("gigantic", {"spatial"}),
        ("cheerful", {"behavior", "weather"}),  # Tab 14 says feeling: seed BEHAVIOR, MACE WEATHER
    ],
)
def test_adjective_examples(real_refdata, word, classes):
    assert supersenses.adjective_supersenses(real_refdata)[word] == classes


def test_verb_supersense_counts(real_refdata):
    verbs = supersenses.verb_supersenses(real_refdata)
    assert len(verbs) == 11609
    assert sum(len(classes) > 1 for classes in verbs.values()) == 3926
    assert sum(" " in verb for verb in verbs) == 2852
    per_class = Counter(c for classes in verbs.values() for c in classes)
    assert per_class == {
        "body": 968, "change": 2767, "cognition": 1069, "communication": 2271, "competition": 608,
        "consumption": 402, "contact": 2536, "creation": 896, "emotion": 640, "motion": 1709, "perception": 662,
        "possession": 1063, "social": 1692, "stative": 1016, "weather": 127,
    }  # fmt: skip
    assert all(verb == verb.lower() for verb in verbs)


def test_the_verb_files_hold_13821_synsets(real_refdata):
    synsets = [
        supersenses.parse_lexfile(real_refdata.path(name).read_text(encoding="utf-8"), name)
        for name in supersenses.VERB_SOURCES.values()
    ]
    assert sum(len(s) for s in synsets) == 13821
    assert sum(len(members) for s in synsets for members in s.values()) == 25148


@pytest.mark.parametrize(
    ("verb", "lexclass"),
    [
        ("eat", "consumption"),
        ("dine", "consumption"),
        ("know", "cognition"),
        ("blush", "body"),
        ("despise", "emotion"),
        ("marry", "social"),  # Tab 15 prints "mary"
        ("lurk", "stative"),
        ("true", "change"),  # quoted in the YAML
        ("islamize", "change"),  # capitalised there
    ],
)
def test_verb_examples(real_refdata, verb, lexclass):
    assert lexclass in supersenses.verb_supersenses(real_refdata)[verb]


def test_eat_has_exactly_its_three_classes(real_refdata):
    assert supersenses.verb_supersenses(real_refdata)["eat"] == {"change", "consumption", "emotion"}


def test_supersense_files_are_read_once_per_process(real_refdata):
    supersenses.verb_supersenses(real_refdata)
    supersenses.adjective_supersenses(real_refdata)
    verb_hits = supersenses._verbs.cache_info().hits
    adj_hits = supersenses._read_adjectives.cache_info().hits
    verbs = supersenses.verb_supersenses(real_refdata)
    supersenses.adjective_supersenses(real_refdata)
    assert supersenses._verbs.cache_info().hits == verb_hits + 1
    assert supersenses._read_adjectives.cache_info().hits == adj_hits + 1
    verbs.pop("eat")  # a fresh dict each call: the cache is untouched
    assert "eat" in supersenses.verb_supersenses(real_refdata)


def test_the_verb_classes_are_parsed_once_per_machine(real_refdata, monkeypatch):
    """Kept in the parsed-data cache by the files' sha256: a new process reads them back equal, without parsing."""
    expected = supersenses.verb_supersenses(real_refdata)
    supersenses._verbs.cache_clear()  # a new process
    monkeypatch.setattr(supersenses, "_read_verbs", lambda paths: pytest.fail("parsed again"))
    assert supersenses.verb_supersenses(real_refdata) == expected
    assert all(isinstance(classes, frozenset) for classes in expected.values())
