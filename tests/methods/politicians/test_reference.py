"""The probe's reference is read a language at a time, when its task first asks: a run that does not select
a language, or skips it, never reads its data; a language that cannot be a task is `NotApplicable` (the
task is skipped) with the reason it always gave."""

from __future__ import annotations

import pandas as pd
import pytest

from biascheck.errors import NotApplicable
from biascheck.methods.politicians.reference import Language, Reference, load, load_language
from biascheck.methods.politicians.spec import MIN_NAMES_PER_GENDER, PROBE
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
