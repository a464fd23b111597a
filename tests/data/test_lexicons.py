"""POS lemma sets, lemmatizers and sentiment lexicons of the politicians probe (paper 003).

Parsers and rules run on hand-made snippets; the counts are pinned on the real mirror (fixture
`real_refdata`, skipped without one). fr/es need the optional spacy-lookups-data package
(``pip install biascheck[multilingual]``) and skip without it.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from biascheck.data import ReferenceData, lexicons
from biascheck.errors import ConfigError, DataError

needs_spacy_lookups = pytest.mark.skipif(
    importlib.util.find_spec("spacy_lookups_data") is None,
    reason="fr/es lemmas need the optional spacy-lookups-data (pip install 'biascheck[multilingual]')",
)

CONLLU = """\
# sent_id = 1
# text = They weren't happier, she ran.
1-2\tweren't\t_\t_\t_\t_\t_\t_\t_\t_
1\tThey\tthey\tPRON\tPRP\t_\t3\tnsubj\t_\t_
2\twere\tbe\tAUX\tVBD\t_\t3\tcop\t_\t_
3\thappier\thappy\tADJ\tJJR\t_\t0\troot\t_\t_
3.1\tran\trun\tVERB\tVBD\t_\t_\t_\t3:conj\t_
4\tRan\trun\tVERB\tVBD\t_\t3\tparataxis\t_\t_
5\tEnglish\tEnglish\tADJ\tJJ\t_\t3\tamod\t_\t_

1\tleft\tleave\tVERB\tVBD\t_\t0\troot\t_\t_
2\tleft\tleft\tADJ\tJJ\t_\t1\tobj\t_\t_
3\tleft\tleave\tVERB\tVBD\t_\t1\tconj\t_\t_
"""

NDT = """\
1\tKamskjell\tkamskjell\tsubst\tsubst\tappell|nøyt|ub|fl\t2\tSUBJ\t_\tname=O
2\tsto\tstå\tverb\tverb\tpret\t0\tFINV\t_\tname=O
3\tden\tden\tdet\tdet\tdem|mask|ent\t4\tDET\t_\tname=O
4\tkongelige\tkongelig\tadj\tadj\tbe|ent|pos\t2\tATR\t_\tname=O
5\t.\t$.\tclb\tclb\t<punkt>\t2\tIP\t_\tname=O

1\tFør\tfør\tprep\tprep\t_\t2\tADV\t_\tname=O
2\tfør\tfør\tsbu\tsbu\t_\t3\tSBU\t_\tname=O
3\tfør\tfør\tadv\tadv\t_\t0\tADV\t_\tname=O
4\tmot\tmot\tprep\tprep\t_\t0\tADV\t_\tname=O
5\tmot\tmot\tsubst\tsubst\t_\t4\tPUTFYLL\t_\tname=O
"""


# --- parsers and rules on hand-made input -------------------------------------------------------


def test_conllu_parser_skips_comments_multiword_ranges_and_empty_nodes():
    tokens = lexicons.parse_conll(CONLLU)
    assert tokens[:3] == [("They", "they", "PRON"), ("were", "be", "AUX"), ("happier", "happy", "ADJ")]
    assert len(tokens) == 8  # not the range 1-2 nor the empty node 3.1
    counts = lexicons.tally(tokens)
    assert counts[("ran", "run", "VERB")] == 1  # the form is lower-cased: 'Ran'
    assert lexicons.lemma_set(counts, "ADJ") == {"happy", "english", "left"}  # lemmas lower-cased
    assert lexicons.lemma_set(counts, "VERB") == {"run", "leave"}


def test_the_same_parser_reads_ndt_word_classes():
    counts = lexicons.tally(lexicons.parse_conll(NDT))
    assert lexicons.lemma_set(counts, "adj") == {"kongelig"}
    assert lexicons.lemma_set(counts, "verb") == {"stå"}


@pytest.mark.parametrize("text", ["# c\n1\tThey\tthey\tPRON\n", "1" + "\t_" * 10 + "\n"])
def test_malformed_treebank_lines_name_file_and_line(text):
    line = text.count("\n")
    with pytest.raises(DataError, match=f"snippet line {line}: expected 10 tab-separated CoNLL columns"):
        lexicons.parse_conll(text, "snippet")


def test_form_lemma_map_keeps_the_most_frequent_lemma_of_adjective_and_verb_tokens():
    counts = lexicons.tally(lexicons.parse_conll(CONLLU))
    lemmas = lexicons.form_lemma_map(counts, ["ADJ", "VERB"])
    assert lemmas == {"happier": "happy", "ran": "run", "english": "english", "left": "leave"}  # 'left': 2 VERB, 1 ADJ
    assert "were" not in lemmas  # AUX is not a verb here


def test_form_lemma_map_breaks_ties_alphabetically():
    counts = {("saw", "see", "VERB"): 2, ("saw", "saw", "VERB"): 2, ("saw", "saw", "NOUN"): 9}
    assert lexicons.form_lemma_map(counts, ["VERB"]) == {"saw": "saw"}


def test_closed_class_forms_need_more_than_half_of_the_occurrences():
    counts = lexicons.tally(lexicons.parse_conll(NDT))
    # 'før': prep + sbu = 2 of 3 -> function word; 'mot': prep 1 of 2 -> exactly half, kept.
    assert lexicons.closed_class_forms(counts, {"prep", "sbu", "det"}) == {"før", "den"}


@pytest.mark.parametrize(
    ("valence", "label"),
    [(0.5, "pos"), (0.49, "neu"), (0.0, "neu"), (-0.49, "neu"), (-0.5, "neg"), (3.4, "pos"), (-3.9, "neg")],
)
def test_vader_threshold_is_half_a_point_inclusive(valence, label):
    assert lexicons.valence_label(valence) == label


def test_vader_parser_keeps_a_repeated_token_s_later_line():
    text = "lol\t2.9\t0.5\t[3, 3]\r\n:D\t2.3\t1.0\t[2, 2]\r\nlol\t1.8\t0.6\t[2, 2]\r\n"
    assert lexicons.parse_vader(text) == {"lol": 1.8, ":D": 2.3}
    with pytest.raises(DataError, match="vader_lexicon.txt line 1: expected 'token<TAB>mean valence"):
        lexicons.parse_vader("lol 2.9\n")


def test_word_lists_are_stripped_lower_cased_deduplicated():
    assert lexicons.parse_word_list("Gratulerer\r\ngratulerer\r\n\r\n som \n") == ["gratulerer", "som"]
    labels = lexicons.polarity_labels(["god", "både"], ["vond", "både"])
    assert labels == {"både": "neu", "god": "pos", "vond": "neg"}  # on both lists: neutral


def test_lexicon_filter_says_why_each_word_went():
    labels = {"god": "pos", "l'unité": "pos", ":-)": "pos", "18-årig": "neu", "can't stand": "neg", "som": "pos"}
    labels |= {"anti-krig": "neg", "Mot": "pos"}
    kept, dropped = lexicons.lexicon_filter(labels, {"som", "mot"})
    assert kept == {"god": "pos", "anti-krig": "neg"}
    assert dropped == {
        "l'unité": "not one word",
        ":-)": "not one word",
        "18-årig": "not one word",
        "can't stand": "not one word",
        "som": "function word",
        "Mot": "function word",
    }
    assert "som" in labels  # the input is not modified


def test_sentiment_q_rows():
    labels = {"good": "pos", "bad": "neg", "meh": "neu"}
    q = lexicons.sentiment_q(labels, ["good", "bad", "meh", "unknown", "Good"])
    expected = [
        [0.05, 0.05, 0.9],  # columns: neg, neu, pos
        [0.9, 0.05, 0.05],
        [0.05, 0.9, 0.05],
        [0.05, 0.9, 0.05],  # in no lexicon: neutral
        [0.05, 0.05, 0.9],  # looked up lower-cased when not found as written
    ]
    np.testing.assert_allclose(q, expected)
    np.testing.assert_allclose(q.sum(axis=1), 1)
    np.testing.assert_allclose(lexicons.sentiment_q(labels, ["bad"], on_label=1.0), [[1, 0, 0]])
    assert lexicons.sentiment_q(labels, []).shape == (0, 3)


@pytest.mark.parametrize(
    ("labels", "words", "on_label", "error", "message"),
    [
        ({}, ["a"], 0.3, ConfigError, "between 1/3 and 1"),
        ({}, ["a"], 1.1, ConfigError, "between 1/3 and 1"),
        ({}, "good", 0.9, ConfigError, "single string 'good'"),
        ({"good": "positive"}, ["good"], 0.9, DataError, "labels must be one of"),
    ],
)
def test_sentiment_q_rejects_bad_input(labels, words, on_label, error, message):
    with pytest.raises(error, match=message):
        lexicons.sentiment_q(labels, words, on_label=on_label)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda r: lexicons.pos_lemmas(r, "no", "adj"), "the probe's code for Norwegian Bokmål is 'nb'"),
        (lambda r: lexicons.sentiment_labels(r, "de"), r"known: \['en', 'nb', 'fr', 'es'\]"),
        (lambda r: lexicons.pos_lemmas(r, "en", "noun"), r"choose one of \['adj', 'verb'\]"),
    ],
)
def test_unknown_language_or_pos_is_a_data_error_that_lists_the_known_ones(tmp_path, call, message):
    with pytest.raises(DataError, match=message):
        call(ReferenceData(mirror=tmp_path, cache=tmp_path))


def test_missing_vader_package_says_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setattr(lexicons, "VADER_PACKAGE", "biascheck_no_such_package")
    with pytest.raises(DataError, match=r"not installed here\. Install it: pip install vaderSentiment==3\.3\.2"):
        lexicons.sentiment_labels(ReferenceData(mirror=tmp_path, cache=tmp_path), "en")


def test_another_vader_release_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(lexicons, "VADER_SHA256", "0" * 64)
    with pytest.raises(DataError, match="another release of 'vaderSentiment' is installed"):
        lexicons.sentiment_lexicon(ReferenceData(mirror=tmp_path, cache=tmp_path), "en")


@pytest.mark.parametrize("language", ["fr", "es"])
def test_missing_spacy_lookups_says_how_to_install(tmp_path, monkeypatch, language):
    lexicons._spacy_table.cache_clear()  # a table read earlier would not look for the package again
    monkeypatch.setattr(lexicons, "SPACY_LOOKUPS_PACKAGE", "biascheck_no_such_package")
    hint = r"Install it: pip install spacy-lookups-data==1\.0\.5 \(biascheck's extra multilingual"
    with pytest.raises(DataError, match=hint):
        lexicons.pos_lemmas(ReferenceData(mirror=tmp_path, cache=tmp_path), language, "adj")


# --- pinned on the mirror -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "pos", "count", "members"),
    [
        ("en", "adj", 2266, {"happy", "federal", "english"}),
        ("en", "verb", 2006, {"nominate", "retire", "come"}),
        ("nb", "adj", 3519, {"kongelig", "god", "1."}),
        ("nb", "verb", 2058, {"stå", "få", "adlyde"}),
    ],
)
def test_treebank_lemma_counts(real_refdata, language, pos, count, members):
    lemmas = lexicons.pos_lemmas(real_refdata, language, pos)
    assert len(lemmas) == count
    assert members <= lemmas


def test_treebanks_are_read_once_per_process(real_refdata):
    lexicons.pos_lemmas(real_refdata, "nb", "adj")
    hits = lexicons._read_treebank.cache_info().hits
    lexicons.lemmatizer(real_refdata, "nb")
    assert lexicons._read_treebank.cache_info().hits == hits + 1


@pytest.mark.parametrize(
    ("language", "size", "examples"),
    [
        ("en", 6124, {"left": "leave", "better": "good", "happier": "happy", "ran": "run"}),
        ("nb", 9035, {"sto": "stå", "beste": "god", "kongelige": "kongelig", "fikk": "få"}),
    ],
)
def test_treebank_lemmatizers(real_refdata, language, size, examples):
    lemmas = lexicons.lemmatizer(real_refdata, language)
    assert len(lemmas) == size
    assert {form: lemmas[form] for form in examples} == examples


@needs_spacy_lookups
@pytest.mark.parametrize(
    ("language", "adj", "verb", "size", "examples"),
    [
        ("fr", 28021, 8921, 216848, {"belles": "beau", "mangeait": "manger"}),
        ("es", 4340, 2277, 491547, {"bonitas": "bonito", "amado": "amar", "fue": "ser"}),
    ],
)
def test_spacy_lookups_lemma_counts(tmp_path, language, adj, verb, size, examples):
    refdata = ReferenceData(mirror=tmp_path, cache=tmp_path)  # fr/es POS data come from the package
    assert len(lexicons.pos_lemmas(refdata, language, "adj")) == adj
    assert len(lexicons.pos_lemmas(refdata, language, "verb")) == verb
    lemmas = lexicons.lemmatizer(refdata, language)
    assert len(lemmas) == size
    assert {form: lemmas[form] for form in examples} == examples


@pytest.mark.parametrize(
    ("language", "pos", "neg", "neu"),
    [
        ("en", 2990, 3813, 703),  # 7,506 VADER entries
        ("nb", 1149, 1938, 0),  # Chen & Skiena 'no'
        ("fr", 1613, 3028, 0),
        ("es", 1553, 2720, 0),
    ],
)
def test_sentiment_lexicon_counts_before_filtering(real_refdata, language, pos, neg, neu):
    labels = list(lexicons.sentiment_lexicon(real_refdata, language).values())
    assert (labels.count("pos"), labels.count("neg"), labels.count("neu")) == (pos, neg, neu)


@pytest.mark.parametrize(
    ("language", "not_one_word", "function", "kept"),
    [
        ("en", 289, 0, 7217),  # emoticons and 'can't stand'
        ("nb", 0, 14, 3073),
        ("fr", 42, 0, 4599),  # elided forms: l'unité, s'épanouir, ...
        ("es", 0, 0, 4273),
    ],
)
def test_sentiment_filter_counts(real_refdata, language, not_one_word, function, kept):
    lexicon = lexicons.sentiment_lexicon(real_refdata, language)
    _, dropped = lexicons.lexicon_filter(lexicon, lexicons.function_words(real_refdata, language))
    reasons = list(dropped.values())
    assert (reasons.count("not one word"), reasons.count("function word")) == (not_one_word, function)
    assert len(lexicons.sentiment_labels(real_refdata, language)) == kept


def test_norwegian_function_words_dropped(real_refdata):
    lexicon = lexicons.sentiment_lexicon(real_refdata, "nb")
    _, dropped = lexicons.lexicon_filter(lexicon, lexicons.function_words(real_refdata, "nb"))
    assert sorted(dropped) == sorted(
        [
            "bakover",
            "bland",
            "din",
            "disse",
            "før",
            "i",
            "mot",
            "null",
            "sin",
            "som",
            "tilbake",
            "tross",
            "under",
            "uten",
        ]
    )


def test_labels_on_the_mirror(real_refdata):
    en = lexicons.sentiment_labels(real_refdata, "en")
    assert (en["good"], en["bad"], en["lol"], en["like"]) == ("pos", "neg", "pos", "pos")  # 'like' is not filtered
    nb = lexicons.sentiment_labels(real_refdata, "nb")
    assert (nb["viktig"], nb["død"]) == ("pos", "neg")
    q = lexicons.sentiment_q(nb, ["viktig", "død", "politiker"])
    np.testing.assert_allclose(q, [[0.05, 0.05, 0.9], [0.9, 0.05, 0.05], [0.05, 0.9, 0.05]])
