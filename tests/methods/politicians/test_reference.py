"""The probe's reference is read a language at a time, when its task first asks: a run that does not select
a language, or skips it, never reads its data; a language that cannot be a task is `NotApplicable` (the
task is skipped) with the reason it always gave."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from biascheck.errors import NotApplicable
from biascheck.methods.politicians.reference import Language, Reference, load, load_language
from biascheck.methods.politicians.spec import MIN_NAMES_PER_GENDER, POS, PROBE
from biascheck.settings import settings_of


def _language(code: str) -> Language:
    names = pd.DataFrame({"name": ["Ann Lee", "Bo Ek"], "gender": ["female", "male"]})
    return Language(code, names, "2 names", {"adj": {"good": "good"}, "verb": {"said": "say"}}, {}, "VADER")


def test_load_reads_nothing_until_a_task_asks():
    reference = load(object(), settings_of(PROBE))  # no reference data to read: none is read
    assert isinstance(reference, Reference)


def test_each_language_is_read_once_on_first_use():
    asked: list[str] = []

    def loader(code: str) -> Language:
        asked.append(code)
        return _language(code)

    reference = Reference(loader)
    assert asked == []
    assert reference.language("nb").language == "nb"
    assert reference.language("nb") is reference.language("nb")
    assert asked == ["nb"]  # en, fr, es: never asked, never read


def test_a_language_that_cannot_be_a_task_says_why_each_time_and_is_read_once():
    asked: list[str] = []

    def loader(code: str) -> Language:
        asked.append(code)
        raise NotApplicable(f"politicians[{code}]: too few names")

    reference = Reference(loader)
    for _ in range(2):
        with pytest.raises(NotApplicable, match=r"^politicians\[fr\]: too few names$"):
            reference.language("fr")
    assert asked == ["fr"]


def test_too_few_names_of_a_gender_is_not_applicable_with_the_counts(tmp_path):
    path = tmp_path / "names.csv"
    path.write_text("name,gender,lang\nAnn Lee,f,en\nBo Ek,m,en\nCy Ho,m,en\n", encoding="utf-8")
    expected = (
        f"politicians[en]: 1 female, 2 male names; the sentiment gaps need at least {MIN_NAMES_PER_GENDER} names "
        "of each gender (100 words per gender)"
    )
    with pytest.raises(NotApplicable) as info:
        load_language(object(), "en", names_file=path)  # the names decide before any other data is read
    assert str(info.value) == expected
    reference = load(object(), settings_of(PROBE, names=str(path)))
    with pytest.raises(NotApplicable) as info:
        reference.language("en")
    assert str(info.value) == expected


def test_candidate_forms_are_built_once_per_machine_and_rebuilt_when_the_stored_copy_is_corrupt(mirror, tmp_path):
    from biascheck.data import ReferenceData, lexicons
    from biascheck.methods.politicians import reference
    from biascheck.methods.politicians.math import candidate_forms

    built = reference.candidate_forms_of(ReferenceData(mirror=mirror, cache=tmp_path), "en")
    elsewhere = ReferenceData(mirror=mirror, cache=tmp_path / "other")
    lemmatizer = lexicons.lemmatizer(elsewhere, "en")
    fresh = {pos: candidate_forms(lemmatizer, lexicons.pos_lemmas(elsewhere, "en", pos)) for pos in POS}
    assert built == fresh and all(built.values())

    again = ReferenceData(mirror=mirror, cache=tmp_path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lexicons, "lemmatizer", lambda *a: pytest.fail("built again"))
        assert reference.candidate_forms_of(again, "en") == fresh
    assert set(again.used) == set(lexicons.TREEBANK_SOURCES["en"])  # the run still records what it rests on

    (stored,) = (tmp_path / "parsed").glob("politicians-forms-en-*.json")
    text = stored.read_text(encoding="utf-8")
    stored.write_text(text.replace('"good"', '"bad"', 1), encoding="utf-8")  # still JSON, not what was built
    assert stored.read_text(encoding="utf-8") != text
    assert reference.candidate_forms_of(ReferenceData(mirror=mirror, cache=tmp_path), "en") == fresh


def test_a_languages_candidates_are_laid_out_once_and_kept_with_it():
    """Step 2's layout (every form's casings, which forms are adjectives or verbs) is the same for every model,
    so it is built on first use and kept with the language."""
    import hashlib

    import numpy as np

    forms = {"adj": {"good": "good", "Able": "able"}, "verb": {"said": "say", "good": "good"}}
    language = Language("en", _language("en").names, "", forms, {}, "VADER")
    got = language.candidates
    assert got is language.candidates
    assert got.forms == ["Able", "good", "said"]
    assert got.strings == ["Able", "good", "Good", "said", "Said"] and got.owner.tolist() == [0, 1, 1, 2, 2]
    assert got.of_pos["adj"].tolist() == [True, True, False] and got.of_pos["verb"].tolist() == [False, True, True]
    assert got.digest == hashlib.sha256("\n".join(got.strings).encode()).hexdigest()
    with pytest.raises(ValueError):
        np.asarray(got.owner)[0] = 5  # read-only: a model cannot change what the next one reads


@pytest.mark.parametrize("code", ["en", "nb"])
def test_the_sentiment_lexica_are_parsed_once_a_machine_and_read_back_the_same(mirror, tmp_path, code, monkeypatch):
    """`sentiment_of` keeps step 3's labels and soft lexicon in the parsed-data cache: the second read (another
    process on the machine) parses nothing and gives the same labels and Dirichlets, bit for bit."""
    from biascheck.data import ReferenceData, lexicons, soft_sentiment
    from biascheck.methods.politicians.reference import sentiment_of

    refdata = ReferenceData(mirror=mirror, cache=tmp_path)
    want_labels, want = lexicons.sentiment_labels(refdata, code), soft_sentiment.soft_lexicon(refdata, code)
    for read in range(2):  # built (and stored), then read from the cache
        if read:
            monkeypatch.setattr(soft_sentiment, "soft_lexicon", lambda *a: pytest.fail("parsed again"))
        labels, soft = sentiment_of(refdata, code)
        assert labels == want_labels and (soft.name, dict(soft.sizes)) == (want.name, dict(want.sizes))
        assert soft.alphas.keys() == want.alphas.keys()
        assert all(np.array_equal(soft.alphas[w], a) for w, a in want.alphas.items())
    (stored,) = (tmp_path / "parsed").glob(f"politicians-sentiment-{code}-*.json")
    stored.write_text('{"labels": {}}', encoding="utf-8")  # changed behind the cache's back: built again
    monkeypatch.undo()
    assert sentiment_of(refdata, code)[0] == want_labels
