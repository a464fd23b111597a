"""Politicians' names and genders (paper 003, Stańczak et al. 2023, section 3.1 and S7 Text).

The paper took 250k politicians from Wikidata, born before 2001 (section 3.1; S7 Text: "born from
the 20th century onward"), with a known gender. That list is not published in a form we can pin,
so this module rebuilds a smaller one from two pinned sources (declared in `biascheck.data.sources`):

* ``congress_historical``, ``congress_current``: unitedstates/congress-legislators @ 61c9ce6 (CC0),
  every member of the US Congress. Name = ``first_name last_name``, gender ``M``/``F``,
  ``birthday`` as ``YYYY-MM-DD``. English only.
* ``popolo_norway``, ``popolo_france``, ``popolo_spain``, ``popolo_uk``, ``popolo_us_senate``:
  tijmenb/everypolitician-data @ 0642e77 (a Nov 2015 fork of mySociety's EveryPolitician), Popolo
  JSON ``data/<Country>/<Legislature>/ep-popolo-v1.0.json``: ``persons`` with ``gender``,
  ``birth_date`` and ``other_names`` (``{"lang": "nb", "name": ...}``, Wikidata labels). The three
  other Popolo files of the fork (China, Russia, India) give no person a gender, so are not read.

Steps (`politician_names`):

1. Read every person as a `Person` (name in the language, gender, birth year, source):
   `congress_people` over CSV rows, `popolo_people` over a parsed Popolo JSON. Pure functions.
2. `keep_people`: skip a person without a gender, with a gender other than female/male, without
   a name in the language, without a (readable) birth date, or born outside 1900-2000 inclusive;
   each skip is counted under its reason (`NO_GENDER`, ...), checked in that order.
3. `distinct_names`: one row per distinct name string (whitespace collapsed, otherwise verbatim).
   A name carried by people of different genders is dropped (every such person is counted under
   `BOTH_GENDERS`); further people with a name already kept are counted under `DUPLICATE`, so
   ``len(frame) + sum(skipped.values())`` is the number of people read. birth_year is the earliest
   among a name's people; source joins the sources it came from ("congress+popolo").

Languages (`LANGUAGES`): ``en`` = Congress and Popolo (the union of distinct names); ``nb``, ``fr``,
``es`` = Popolo only. ru, zh, ar and hi have too few women in these files (`THIN_LANGUAGES`).

Which name field. A person's name in language L is their ``other_names`` entry with ``lang == L``,
in all five Popolo files (the paper enters "the politicians' names as written in that particular
language", section 3.2, and these are the same Wikidata labels it used). This reproduces every
target count exactly (men / women, distinct names):

=========================  ===============  ==========
source                     men / women      both sexes
=========================  ===============  ==========
Congress (en)              2,806 / 400      0
Popolo en                  2,011 / 739      0
Popolo nb                  1,456 / 550      0
Popolo fr                  1,863 / 659      0
Popolo es                  1,456 / 470      0
en = Congress + Popolo     4,675 / 1,115    166 names in both sources
=========================  ===============  ==========

The alternatives do not: taking the ``name`` field (the legislature's own spelling) for the
country's own chamber (UK for en, Norway for nb, France for fr, Spain for es) instead of its label
gives en 2,011 / 738 and nb 1,512 / 554 (Norway's ``name`` also covers the 117 Storting members
without ``other_names``, i.e. without a Wikidata link); adding ``name`` as a second spelling gives
en 2,075 / 751, nb 1,559 / 573, fr 1,878 / 666, es 1,520 / 498. No person has two labels in one
language. Labels are kept verbatim, so a few carry Wikipedia qualifiers or titles
("Bernard Gérard (homme politique)", "Brian Mawhinney, Baron Mawhinney"; 8 with parentheses over
the four languages, 62 en names with a comma).

`read_user_names` reads a user's ``name,gender,lang`` CSV into the same shape (any gender label
is kept; the probe gives genders beyond female/male PMI only).
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd

from biascheck.data import SOURCES, ReferenceData, parsed_cache
from biascheck.errors import DataError, did_you_mean

LANGUAGES = ("en", "nb", "fr", "es")
# Not tasks: men / women born 1900-2000 with a label in the language over the five Popolo files
# (Congress gives English names only). A user file (`read_user_names`) can supply such names.
THIN_LANGUAGES: dict[str, tuple[int, int]] = {"ru": (391, 70), "zh": (213, 43), "ar": (54, 12), "hi": (6, 4)}
FIRST_BIRTH_YEAR = 1900  # paper S7 Text: politicians "born from the 20th century onward"
LAST_BIRTH_YEAR = 2000  # paper section 3.1: "a reported date of birth before 2001"
CONGRESS_SOURCES = ("congress_historical", "congress_current")
POPOLO_SOURCES = ("popolo_norway", "popolo_france", "popolo_spain", "popolo_uk", "popolo_us_senate")
CONGRESS_COLUMNS = ("first_name", "last_name", "gender", "birthday")
USER_COLUMNS = ("name", "gender", "lang")

# Skip reasons (keys of `PoliticianNames.skipped`).
NO_GENDER = "no gender"
OTHER_GENDER = "gender not female/male"
NO_NAME = "no name in the language"
NO_BIRTH_DATE = "no birth date"
BAD_BIRTH_DATE = "unreadable birth date"
BORN_BEFORE = f"born before {FIRST_BIRTH_YEAR}"
BORN_AFTER = f"born after {LAST_BIRTH_YEAR}"
BOTH_GENDERS = "name used by both genders"
DUPLICATE = "same name as another person"
OTHER_LANGUAGE = "row of another language"

_CONGRESS_GENDERS = {"M": "male", "F": "female"}
_USER_GENDERS = {"f": "female", "female": "female", "woman": "female", "m": "male", "male": "male", "man": "male"}
_UNKNOWN_GENDERS = {"unknown", "?", "na", "n/a", "nan", "none", "null", "-"}
_DATE = re.compile(r"(\d{4})(-\d{2}){0,2}")
_SOURCE_ORDER = ("congress", "popolo", "user")
_ORIGINS = {"congress": "US Congress", "popolo": "EveryPolitician", "user": "a user file"}
_LABELS = {"male": ("man", "men"), "female": ("woman", "women")}  # singular, plural


class Person(NamedTuple):
    """One politician as read: name ('' when none in the language), gender ('' when none), birth year."""

    name: str
    gender: str
    birth_year: int | None
    source: str
    birth_date: str = ""  # the raw text, so a bad date can be told from a missing one


@dataclass(frozen=True)
class PoliticianNames:
    """One row per distinct name: frame columns name, gender, birth_year (Int64), source."""

    frame: pd.DataFrame
    skipped: Counter
    language: str

    def counts(self) -> dict[str, int]:
        """Number of names per gender, e.g. {'female': 1115, 'male': 4675}."""
        return {str(g): int(n) for g, n in sorted(self.frame["gender"].value_counts().items())}

    def note(self) -> str:
        """One line for a report: what was kept, from where, and what was skipped and why."""
        counts = self.counts()
        order = [g for g in ("male", "female") if g in counts] + [g for g in counts if g not in ("male", "female")]
        kept = ", ".join(f"{counts[g]:,} {_LABELS.get(g, (g, g))[counts[g] != 1]}" for g in order) or "no names"
        sources = {part for joined in self.frame["source"] for part in str(joined).split("+")}
        origin = " and ".join(_ORIGINS.get(s, s) for s in _ordered(sources))
        born = "" if "user" in sources else f", born {FIRST_BIRTH_YEAR}-{LAST_BIRTH_YEAR}"
        skipped = ", ".join(f"{n:,} {reason}" for reason, n in self.skipped.most_common()) or "none"
        return f"{kept} from {origin or 'nowhere'} ({self.language} names{born}); skipped: {skipped}"


def _ordered(sources: set[str]) -> list[str]:
    return [s for s in _SOURCE_ORDER if s in sources] + sorted(sources - set(_SOURCE_ORDER))


def birth_year(text: str | None) -> int | None:
    """1951 for '1951-05-21', '1951-05' or '1951'; None for '' or anything else."""
    match = _DATE.fullmatch((text or "").strip())
    return int(match.group(1)) if match else None


def _clean(name: str | None) -> str:
    return " ".join(str(name or "").split())


def congress_people(records: Iterable[Mapping[str, str]]) -> list[Person]:
    """congress-legislators CSV rows (dicts) -> people; gender M/F -> male/female, other values lower-cased."""
    people = []
    for row in records:
        first, last = _clean(row.get("first_name")), _clean(row.get("last_name"))
        raw_gender = (row.get("gender") or "").strip()
        gender = _CONGRESS_GENDERS.get(raw_gender.upper(), raw_gender.lower())
        date = (row.get("birthday") or "").strip()
        name = f"{first} {last}" if first and last else ""
        people.append(Person(name, gender, birth_year(date), "congress", date))
    return people


def popolo_people(popolo: Mapping[str, Any], language: str) -> list[Person]:
    """A parsed Popolo JSON -> people; the name is the person's ``other_names`` entry with ``lang == language``."""
    people = []
    for person in popolo.get("persons", []):
        labels = [o.get("name") for o in person.get("other_names") or [] if o.get("lang") == language]
        names = [n for n in map(_clean, labels) if n]
        date = str(person.get("birth_date") or "").strip()
        gender = str(person.get("gender") or "").strip().lower()
        people.append(Person(names[0] if names else "", gender, birth_year(date), "popolo", date))
    return people


def keep_people(
    people: Iterable[Person], first_year: int = FIRST_BIRTH_YEAR, last_year: int = LAST_BIRTH_YEAR
) -> tuple[list[Person], Counter]:
    """The women and men with a name and a birth year in [first_year, last_year]; skips counted by reason."""
    kept: list[Person] = []
    skipped: Counter[str] = Counter()
    for person in people:
        if not person.gender:
            reason = NO_GENDER
        elif person.gender not in ("female", "male"):
            reason = OTHER_GENDER
        elif not person.name:
            reason = NO_NAME
        elif person.birth_year is None:
            reason = BAD_BIRTH_DATE if person.birth_date else NO_BIRTH_DATE
        elif person.birth_year < first_year:
            reason = f"born before {first_year}"
        elif person.birth_year > last_year:
            reason = f"born after {last_year}"
        else:
            kept.append(person)
            continue
        skipped[reason] += 1
    return kept, skipped


def distinct_names(people: Iterable[Person], skipped: Counter | None = None) -> tuple[pd.DataFrame, Counter]:
    """One row per distinct name (step 3 of the module docstring); returns the frame and a new Counter."""
    skipped = Counter(skipped or {})
    groups: dict[str, list[Person]] = {}
    for person in people:
        groups.setdefault(person.name, []).append(person)
    rows = []
    for name, group in groups.items():
        if len({p.gender for p in group}) > 1:
            skipped[BOTH_GENDERS] += len(group)
            continue
        if len(group) > 1:
            skipped[DUPLICATE] += len(group) - 1
        years = [p.birth_year for p in group if p.birth_year is not None]
        rows.append(
            (name, group[0].gender, min(years) if years else None, "+".join(_ordered({p.source for p in group})))
        )
    frame = pd.DataFrame(rows, columns=["name", "gender", "birth_year", "source"])
    frame["birth_year"] = frame["birth_year"].astype("Int64")
    frame = frame.sort_values(["gender", "name"], kind="stable").reset_index(drop=True)
    return frame, skipped


def _read_congress(refdata: ReferenceData) -> list[Person]:
    people = []
    for source in CONGRESS_SOURCES:
        path = refdata.path(source)
        with path.open(encoding="utf-8", newline="") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in CONGRESS_COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                raise DataError(f"{source} ({path}): no column(s) {missing}; found {reader.fieldnames}.")
            people += congress_people(reader)
    return people


def _read_popolo(refdata: ReferenceData, language: str) -> list[Person]:
    """Step 1 over the five Popolo files. For a task language, from the parsed-data cache: the files (13 MB of
    JSON, ~0.7 s a language to parse) are parsed once per machine for every task language together
    (`parsed_cache.cached_json`, keyed by their sha256), so a run of four languages parses them once, not
    four times, and the next process not at all."""
    paths = {source: refdata.path(source) for source in POPOLO_SOURCES}  # verified and recorded as used
    if language not in LANGUAGES:
        return [p for source, path in paths.items() for p in popolo_people(_popolo_file(source, path), language)]

    def build() -> dict[str, list[list[Any]]]:
        rows: dict[str, list[list[Any]]] = {lang: [] for lang in LANGUAGES}
        for source, path in paths.items():
            popolo = _popolo_file(source, path)
            for lang in LANGUAGES:
                rows[lang] += [list(p) for p in popolo_people(popolo, lang)]
        return rows

    sources = [SOURCES[source].sha256 for source in POPOLO_SOURCES]
    rows = parsed_cache.cached_json(refdata, "politicians-popolo-people", sources, POPOLO_VERSION, build)
    return [Person(*row) for row in rows[language]]


POPOLO_VERSION = 1  # bump when popolo_people or LANGUAGES change what the cached people are


def _popolo_file(source: str, path: Path) -> Mapping[str, Any]:
    try:
        popolo = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise DataError(f"{source} ({path}): not valid JSON: {exc}") from exc
    if not isinstance(popolo, dict) or not isinstance(popolo.get("persons"), list):
        raise DataError(f"{source} ({path}): expected a Popolo object with a 'persons' list.")
    return popolo


def _names(people: list[Person], language: str) -> PoliticianNames:
    kept, skipped = keep_people(people)
    frame, skipped = distinct_names(kept, skipped)
    return PoliticianNames(frame=frame, skipped=skipped, language=language)


def congress_names(refdata: ReferenceData) -> PoliticianNames:
    """The US Congress alone (English names): 2,806 men, 400 women on the pinned files."""
    return _names(_read_congress(refdata), "en")


def popolo_names(refdata: ReferenceData, language: str) -> PoliticianNames:
    """The five Popolo files alone, labels in any `language` code (also the thin ones such as 'ru')."""
    return _names(_read_popolo(refdata, language), language)


def politician_names(refdata: ReferenceData, language: str) -> PoliticianNames:
    """The names of a task language (`LANGUAGES`): en = Congress + Popolo, nb/fr/es = Popolo."""
    if language not in LANGUAGES:
        if language in THIN_LANGUAGES:
            men, women = THIN_LANGUAGES[language]
            why = (
                f" The pinned files have only {women} women (and {men} men) with a {language!r} name, too few for "
                "a task; give your own names with read_user_names (a name,gender,lang CSV)."
            )
        else:
            why = did_you_mean(language, LANGUAGES)
        raise DataError(f"Politician names: {language!r} is not a task language.{why} Known: {list(LANGUAGES)}.")
    people = _read_popolo(refdata, language)
    if language == "en":
        people = _read_congress(refdata) + people
    return _names(people, language)


def user_gender(value: str | None) -> str:
    """'F', 'woman' -> 'female'; 'm', 'Man' -> 'male'; any other label lower-cased ('' if empty)."""
    label = " ".join(str(value or "").split()).lower()
    return _USER_GENDERS.get(label, label)


def read_user_names(path: str | Path, language: str | None = None) -> PoliticianNames:
    """A user's CSV with header ``name,gender,lang`` (``lang`` needed only when `language` is given).

    1. Every data row needs a name and a gender; f/female/woman -> female, m/male/man -> male, any
       other label is kept lower-cased (e.g. nonbinary). An empty gender or one that says it is not
       known ('unknown', '?', 'n/a', ...) is an error naming the file and the row.
    2. With `language`, only rows whose lang is `language` are kept (the others counted).
    3. `distinct_names`, as for the pinned data; birth_year is NA, source 'user'.
    """
    path = Path(path)
    fix = "A names file is a CSV with the header line name,gender,lang, e.g. 'Erna Solberg,female,nb'."
    if not path.is_file():
        raise DataError(f"Names file {path}: no such file. Check the path. {fix}")
    needed = USER_COLUMNS if language is not None else USER_COLUMNS[:2]
    people: list[Person] = []
    skipped: Counter[str] = Counter()
    languages: Counter[str] = Counter()  # rows per lang, for the message when none is `language`
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        header = [(c or "").strip().lower() for c in reader.fieldnames or []]
        missing = [c for c in needed if c not in header]
        if missing:
            raise DataError(f"Names file {path}: no column(s) {missing} in the header line {header}. {fix}")
        reader.fieldnames = header
        for number, row in enumerate(reader, start=1):
            where = f"Names file {path}, data row {number} (line {reader.line_num}, counting the header)"
            if row.get(None):
                raise DataError(
                    f"{where}: {len(header) + len(row[None])} fields, the header has {len(header)}. "
                    'Quote a name that contains a comma ("Smith, John").'
                )
            name, gender = _clean(row.get("name")), user_gender(row.get("gender"))
            if not name:
                raise DataError(f"{where}: the name is empty. Fill it in or delete the row.")
            if not gender or gender in _UNKNOWN_GENDERS:
                said = f"is {row.get('gender')!r}" if gender else "is empty"
                raise DataError(
                    f"{where}: the gender of {name!r} {said}. Give female, male or another label "
                    "(e.g. nonbinary), or delete the row."
                )
            lang = _clean(row.get("lang")).lower()
            languages[lang] += 1
            if language is not None and lang != language.lower():
                skipped[OTHER_LANGUAGE] += 1
                continue
            people.append(Person(name, gender, None, "user"))
    if not people:
        if language is None or not languages:
            raise DataError(f"Names file {path}: no data rows. {fix}")
        found = [lang or "(empty)" for lang in languages]
        raise DataError(
            f"Names file {path}: no rows with lang {language!r}; its rows have lang {found}. "
            "Add rows for that language or choose one of those."
        )
    frame, skipped = distinct_names(people, skipped)
    if frame.empty:
        raise DataError(f"Names file {path}: every name is given with two genders ({skipped[BOTH_GENDERS]} rows).")
    return PoliticianNames(frame=frame, skipped=skipped, language=language or "")
