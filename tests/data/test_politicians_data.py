"""Politicians' names (paper 003): pure parsing on hand-made rows, user files, and the counts on the mirror.

The mirror is ../shared/data beside the repository or $BIASCHECK_DATA_DIR (fixture `real_refdata`
in tests/conftest.py); without it the mirror tests skip.
"""

from __future__ import annotations

from collections import Counter

import pytest

from biascheck.data import politicians as pol
from biascheck.errors import DataError


def congress_row(first: str, last: str, gender: str = "M", birthday: str = "1950-01-01") -> dict[str, str]:
    return {"first_name": first, "last_name": last, "gender": gender, "birthday": birthday}


def popolo_person(name: str | None, gender: str | None = "female", birth: str | None = "1950-01-01", lang="nb"):
    person = {"id": name or "?", "name": "own spelling"}
    if gender is not None:
        person["gender"] = gender
    if birth is not None:
        person["birth_date"] = birth
    if name is not None:
        person["other_names"] = [{"lang": "en", "name": "English label"}, {"lang": lang, "name": name}]
    return person


# -- pure parsing -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "birthday, kept, reason",
    [
        ("1899-12-31", False, pol.BORN_BEFORE),
        ("1900-01-01", True, None),
        ("2000-12-31", True, None),
        ("2001-01-01", False, pol.BORN_AFTER),
        ("1950", True, None),
        ("", False, pol.NO_BIRTH_DATE),
        ("circa 1950", False, pol.BAD_BIRTH_DATE),
    ],
)
def test_birth_year_boundaries(birthday, kept, reason):
    people, skipped = pol.keep_people(pol.congress_people([congress_row("Ann", "Lee", "F", birthday)]))
    assert (len(people) == 1) is kept
    assert skipped == (Counter() if kept else Counter({reason: 1}))


@pytest.mark.parametrize(
    "row, reason",
    [
        (congress_row("Ann", "Lee", ""), pol.NO_GENDER),
        (congress_row("Ann", "Lee", "X"), pol.OTHER_GENDER),
        (congress_row("", "Lee"), pol.NO_NAME),
        (congress_row("Ann", " "), pol.NO_NAME),
    ],
)
def test_congress_skips(row, reason):
    assert pol.keep_people(pol.congress_people([row])) == ([], Counter({reason: 1}))


def test_congress_name_is_first_and_last_name_and_gender_is_spelled_out():
    [person] = pol.congress_people([congress_row(" Mary ", "Van  Buren", "F", "1930-02-03")])
    assert person[:4] == ("Mary Van Buren", "female", 1930, "congress")


def test_popolo_name_is_the_label_of_the_language():
    popolo = {
        "persons": [
            popolo_person("Erna Solberg", "female", "1961-02-24"),
            popolo_person(None, "male"),  # no other_names at all
            popolo_person("Jens Stoltenberg", None),
            popolo_person("Kari Nord", "female", None),
            popolo_person("Old Man", "male", "1899-05-17"),
            popolo_person("Ola Nordmann", "male", "1971-03-01", lang="nn"),  # a label, but not in nb
        ]
    }
    people = pol.popolo_people(popolo, "nb")
    assert [p.name for p in people] == ["Erna Solberg", "", "Jens Stoltenberg", "Kari Nord", "Old Man", ""]
    kept, skipped = pol.keep_people(people)
    assert [p[:4] for p in kept] == [("Erna Solberg", "female", 1961, "popolo")]
    assert skipped == Counter({pol.NO_NAME: 2, pol.NO_GENDER: 1, pol.NO_BIRTH_DATE: 1, pol.BORN_BEFORE: 1})
    assert [p.name for p in pol.popolo_people(popolo, "en")] == ["English label"] + [""] + ["English label"] * 4


def test_distinct_names_drop_both_genders_and_merge_duplicates():
    people = [
        pol.Person("Kim Lee", "female", 1950, "congress"),
        pol.Person("Kim Lee", "male", 1960, "popolo"),  # both genders: both people dropped
        pol.Person("Ann Hall", "female", 1970, "popolo"),
        pol.Person("Ann Hall", "female", 1940, "congress"),  # same name, same gender: one row
        pol.Person("Bo Ek", "male", 1980, "popolo"),
    ]
    frame, skipped = pol.distinct_names(people, Counter({pol.NO_NAME: 2}))
    assert frame.to_dict("records") == [
        {"name": "Ann Hall", "gender": "female", "birth_year": 1940, "source": "congress+popolo"},
        {"name": "Bo Ek", "gender": "male", "birth_year": 1980, "source": "popolo"},
    ]
    assert str(frame["birth_year"].dtype) == "Int64"
    assert skipped == Counter({pol.NO_NAME: 2, pol.BOTH_GENDERS: 2, pol.DUPLICATE: 1})
    assert len(frame) + sum(skipped.values()) == len(people) + 2  # every person accounted for


def test_counts_and_note():
    frame, skipped = pol.distinct_names(
        [pol.Person("A B", "male", 1950, "congress"), pol.Person("C D", "female", 1960, "popolo")],
        Counter({pol.BORN_BEFORE: 1200, pol.NO_GENDER: 3}),
    )
    names = pol.PoliticianNames(frame, skipped, "en")
    assert names.counts() == {"female": 1, "male": 1}
    assert names.note() == (
        "1 man, 1 woman from US Congress and EveryPolitician (en names, born 1900-2000); "
        "skipped: 1,200 born before 1900, 3 no gender"
    )


@pytest.mark.parametrize("language", ["de", "EN", "ru", "zh", "ar", "hi"])
def test_unknown_or_thin_language_is_refused(language):
    from biascheck.data import ReferenceData

    with pytest.raises(DataError, match=r"not a task language.*Known: \['en', 'nb', 'fr', 'es'\]") as info:
        pol.politician_names(ReferenceData(mirror=None), language)
    if language in pol.THIN_LANGUAGES:
        assert "read_user_names" in str(info.value)


# -- user files ---------------------------------------------------------------------------------


def write(tmp_path, text: str):
    path = tmp_path / "names.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_user_file_genders_normalised_extra_genders_kept(tmp_path):
    path = write(
        tmp_path,
        "name,gender,lang\n"
        "Erna Solberg,F,nb\n"
        "Jonas Gahr Støre,Man,nb\n"
        "Alex Doe,NonBinary,nb\n"
        "Sam Roe,woman,nb\n"
        "Sam Roe,female,nb\n"  # duplicate, same gender
        "Kim Lee,m,nb\n"
        "Kim Lee,f,nb\n"  # both genders: dropped
        "Theresa May,female,en\n",
    )
    names = pol.read_user_names(path, "nb")
    assert names.frame[["name", "gender"]].values.tolist() == [
        ["Erna Solberg", "female"],
        ["Sam Roe", "female"],
        ["Jonas Gahr Støre", "male"],
        ["Alex Doe", "nonbinary"],
    ]
    assert set(names.frame["source"]) == {"user"} and names.frame["birth_year"].isna().all()
    assert names.counts() == {"female": 2, "male": 1, "nonbinary": 1}
    assert names.skipped == Counter({pol.BOTH_GENDERS: 2, pol.DUPLICATE: 1, pol.OTHER_LANGUAGE: 1})
    assert names.note().startswith("1 man, 2 women, 1 nonbinary from a user file (nb names); skipped: ")
    assert pol.read_user_names(path).counts() == {"female": 3, "male": 1, "nonbinary": 1}  # all languages


def test_user_file_without_lang_column_is_fine_without_a_language(tmp_path):
    names = pol.read_user_names(write(tmp_path, "gender,name\nf,Ann Lee\n"))
    assert names.counts() == {"female": 1} and names.language == ""


@pytest.mark.parametrize(
    "text, language, message",
    [
        ("name,gender,lang\nAnn Lee,f,en\n,m,en\n", None, r"data row 2 \(line 3.*name is empty"),
        ("name,gender,lang\nAnn Lee,,en\n", None, r"data row 1 \(line 2.*'Ann Lee' is empty.*nonbinary"),
        ("name,gender,lang\nAnn Lee,f,en\nBo Ek,unknown,en\n", "en", r"data row 2 .*'Bo Ek' is 'unknown'"),
        ("name,gender,lang\nSmith, John,male,en\n", None, r"data row 1 .*4 fields, the header has 3.*Quote"),
        ("name,sex,lang\nAnn Lee,f,en\n", None, r"no column\(s\) \['gender'\]"),
        ("name,gender\nAnn Lee,f\n", "en", r"no column\(s\) \['lang'\]"),
        ("name,gender,lang\n", None, "no data rows"),
        ("name,gender,lang\nAnn Lee,f,en\nBo Ek,m,\n", "nb", r"no rows with lang 'nb'.*\['en', '\(empty\)'\]"),
        ("name,gender,lang\nKim Lee,f,en\nKim Lee,m,en\n", None, "two genders"),
    ],
)
def test_user_file_errors_name_the_file_and_row(tmp_path, text, language, message):
    path = write(tmp_path, text)
    with pytest.raises(DataError, match=message) as info:
        pol.read_user_names(path, language)
    assert str(path) in str(info.value)


def test_missing_user_file(tmp_path):
    with pytest.raises(DataError, match=r"no-such\.csv: no such file.*name,gender,lang"):
        pol.read_user_names(tmp_path / "no-such.csv", "en")


# -- the pinned data on the mirror ------------------------------------------------------------------


@pytest.mark.parametrize(
    "language, men, women",
    [("en", 4675, 1115), ("nb", 1456, 550), ("fr", 1863, 659), ("es", 1456, 470)],
)
def test_task_counts_on_the_mirror(real_refdata, language, men, women):
    names = pol.politician_names(real_refdata, language)
    assert names.counts() == {"female": women, "male": men}
    assert names.frame["name"].is_unique and names.frame["birth_year"].between(1900, 2000).all()
    assert names.note().startswith(f"{men:,} men, {women:,} women from ")


@pytest.mark.parametrize(
    "language, men, women",
    [("en", 2011, 739), ("nb", 1456, 550), ("fr", 1863, 659), ("es", 1456, 470)]
    + [(language, men, women) for language, (men, women) in pol.THIN_LANGUAGES.items()],
)
def test_popolo_counts_on_the_mirror(real_refdata, language, men, women):
    assert pol.popolo_names(real_refdata, language).counts() == {"female": women, "male": men}


def test_congress_counts_and_the_english_union(real_refdata):
    congress = pol.congress_names(real_refdata)
    assert congress.counts() == {"female": 400, "male": 2806}
    assert congress.skipped == Counter({pol.BORN_BEFORE: 8973, pol.NO_BIRTH_DATE: 542, pol.DUPLICATE: 46})
    assert len(congress.frame) + sum(congress.skipped.values()) == 12230 + 537  # every CSV row accounted for
    english = pol.politician_names(real_refdata, "en")
    assert english.frame["source"].value_counts().to_dict() == {
        "congress": 3040,
        "popolo": 2584,
        "congress+popolo": 166,
    }
    assert pol.BOTH_GENDERS not in english.skipped
    assert english.frame.set_index("name").loc["Amy Klobuchar"].tolist() == ["female", 1960, "congress+popolo"]


def test_the_popolo_people_are_parsed_once_per_machine(mirror, tmp_path, monkeypatch):
    """A fresh cache parses each Popolo file once for all four task languages; the next reads (another
    language, another process) take the people from the cache, the same ones, without parsing."""
    from biascheck.data import ReferenceData

    parsed = []
    parse = pol._popolo_file
    monkeypatch.setattr(pol, "_popolo_file", lambda source, path: parsed.append(source) or parse(source, path))
    first = pol.politician_names(ReferenceData(mirror=mirror, cache=tmp_path), "nb")
    assert sorted(parsed) == sorted(pol.POPOLO_SOURCES)
    again = ReferenceData(mirror=mirror, cache=tmp_path)
    assert pol.politician_names(again, "nb").frame.equals(first.frame) and len(parsed) == len(pol.POPOLO_SOURCES)
    assert pol.politician_names(again, "es").counts() == {"female": 470, "male": 1456}
    assert len(parsed) == len(pol.POPOLO_SOURCES)
    assert set(pol.POPOLO_SOURCES) <= set(again.used)  # still verified and recorded as used
