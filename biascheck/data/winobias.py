"""WinoBias (Zhao et al. 2018), uclanlp/corefBias @ 0bce984: sentences with two occupations and a pronoun that refers
to one of them, in a pro-stereotypical and an anti-stereotypical version.

1. Sentences: ``WinoBias/wino/data/<pro|anti>_stereotyped_type<1|2>.txt.<dev|test>`` (``winobias_<pro|anti>_
   type<1|2>_<dev|test>``), 8 files of 396 lines each (3,168; 1,584 per split), numbered ``1 `` to ``396 ``, the
   antecedent and the pronoun(s) coreferent with it in brackets: ``1 [The developer] argued with the designer
   because [he] did not like the design.`` Type 1 needs world knowledge to resolve, type 2 syntax. Every line has
   one antecedent mention, then one bracketed pronoun (3,081 lines) or two (87: ``[he] ... [his]``); pronouns are
   he/she/him/her/his/himself/herself. Kept per line: the sentence without number and brackets, the antecedent
   as bracketed (``The developer``, 3,163 with the/The, 3 with a/an, 2 without article: ``the [housekeeper] 's``
   and ``the [ physician]``) and the occupation it names (without the article), the first bracketed pronoun and
   every bracketed pronoun's span, character offsets into the sentence, end exclusive.
2. Occupations: ``female_occupations.txt`` and ``male_occupations.txt`` (``winobias_female_occupations``,
   ``winobias_male_occupations``), 20 each (``construction worker``, ``CEO``), no final newline: the README's
   female- and male-biased occupations by their BLS share of women. Every antecedent names one of the 40
   (``occupation_gender`` is its list). In every pro line the pronoun's gender is the occupation's list, in every
   anti line the other one (all 3,168 lines).
3. Pairs: line i of the pro file and line i of the anti file of the same type and split form pair
   ``<split>-type<type>-<i>`` (``dev-type1-1``). For 1,562 of the 1,584 pairs (``minimal_pair``) the two lines are
   the same once every he/she/him/her/his/hers/himself/herself is masked, and their pronouns differ in gender: the
   same antecedent, the other pronoun. The other 22 differ in more: type 1 dev 3 (lines 92, 162: ``[the
   housekeeper]`` vs ``the [housekeeper]``, 212), type 1 test 5 (157, 255, 279, 289, 296), type 2 dev 9 (90, 102,
   119, 176, 190, 207, 208, 209, 215), type 2 test 5 (92, 103, 307, 382: two unrelated sentences; 384: the two
   occupations swapped and the pronoun kept). Upstream typos are kept (pro type 1 dev 212 ``because of [she]``,
   anti type 2 dev 176 ``asked the [the physician]``).
4. Text: brackets are removed and nothing else changed, except one space dropped where a bracket opened with one
   (``the [ physician]`` -> ``the physician``). Possessives stay tokenised as written, ``librarian 's`` (140 lines).

Files are read once per process (cached by resolved path); parsers are pure functions over text, and a line they
cannot read is a DataError naming the file and the line.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.errors import DataError

SPLITS = ("dev", "test")
TYPES = (1, 2)
STEREOTYPES = ("pro", "anti")
OCCUPATION_SOURCES = {"female": "winobias_female_occupations", "male": "winobias_male_occupations"}
PRONOUN_GENDER = {
    "he": "male", "him": "male", "his": "male", "himself": "male",
    "she": "female", "her": "female", "hers": "female", "herself": "female",
}  # fmt: skip
ARTICLES = ("the", "a", "an")
COLUMNS = [
    "pair_id", "split", "type", "stereotype", "line", "sentence", "antecedent", "antecedent_start", "antecedent_end",
    "occupation", "occupation_gender", "pronoun", "pronoun_start", "pronoun_end", "pronoun_gender", "pronoun_spans",
    "minimal_pair",
]  # fmt: skip

_LINE = re.compile(r"(?P<number>\d+) (?P<text>\S.*)")
_MENTION = re.compile(r"\[(?P<inner>[^\[\]]*)\]")
_PRONOUN_WORD = re.compile(r"\b(?:" + "|".join(PRONOUN_GENDER) + r")\b", re.IGNORECASE)


def source_name(stereotype: str, kind: int, split: str) -> str:
    return f"winobias_{stereotype}_type{kind}_{split}"


def _fail(name: str, number: int, line: str, expected: str) -> DataError:
    return DataError(
        f"{name} line {number}: expected {expected}, got {line[:80]!r}. Restore the pinned file "
        "(`biascheck data` checks every declared source)."
    )


# --- parsers ------------------------------------------------------------------------------------


def parse_line(line: str, name: str = "<winobias>", number: int = 1) -> dict:
    """One numbered, bracketed line (step 1) -> its number, the clean sentence, the mentions and their spans.

    Keys: number, text (the line after its number, brackets kept), sentence, antecedent, antecedent_start,
    antecedent_end, pronouns ((text, start, end) per bracketed pronoun, in order).
    """
    match = _LINE.fullmatch(line.rstrip())
    if match is None:
        raise _fail(name, number, line, "'<number> <sentence with [mentions]>'")
    text = match["text"]
    sentence, mentions, last = "", [], 0
    for mention in _MENTION.finditer(text):
        sentence += text[last : mention.start()]
        inner = mention["inner"]
        if sentence.endswith(" "):
            inner = inner.lstrip(" ")  # "the [ physician]": one space, not two
        stripped = inner.strip()
        if not stripped:
            raise _fail(name, number, line, "a word inside every pair of brackets")
        start = len(sentence) + len(inner) - len(inner.lstrip())
        sentence += inner
        mentions.append((stripped, start, start + len(stripped)))
        last = mention.end()
    sentence += text[last:]
    if "[" in sentence or "]" in sentence:
        raise _fail(name, number, line, "balanced, unnested [brackets]")
    kinds = [m[0].lower() in PRONOUN_GENDER for m in mentions]
    if len(mentions) < 2 or kinds[0] or not all(kinds[1:]):
        raise _fail(name, number, line, "a bracketed antecedent, then one or more bracketed he/she/him/her/his/...")
    genders = {PRONOUN_GENDER[m[0].lower()] for m in mentions[1:]}
    if len(genders) != 1:
        raise _fail(name, number, line, "bracketed pronouns of one gender")
    antecedent, start, end = mentions[0]
    return {
        "number": int(match["number"]),
        "text": text,
        "sentence": sentence,
        "antecedent": antecedent,
        "antecedent_start": start,
        "antecedent_end": end,
        "pronouns": tuple(mentions[1:]),
    }


def parse_file(text: str, name: str = "<winobias>") -> list[dict]:
    """A WinoBias sentence file -> `parse_line` per line; the lines must be numbered 1, 2, ... in order."""
    parsed: list[dict] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        row = parse_line(line, name, number)
        if row["number"] != len(parsed) + 1:
            raise _fail(name, number, line, f"the line numbered {len(parsed) + 1} (pairs are matched by number)")
        parsed.append(row)
    return parsed


def parse_occupations(text: str, name: str = "<occupations>") -> list[str]:
    """One occupation per line (step 2), as written; blank lines skipped."""
    occupations = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if not re.fullmatch(r"[A-Za-z]+(?: [A-Za-z]+)*", line.strip()) or line.strip() in occupations:
            raise _fail(name, number, line, "one occupation (letters and spaces), each once")
        occupations.append(line.strip())
    return occupations


def occupation_of(antecedent: str) -> str:
    """The occupation an antecedent names: ``The developer`` -> ``developer``, ``an assistant`` -> ``assistant``."""
    first, _, rest = antecedent.partition(" ")
    return rest if first.lower() in ARTICLES and rest else antecedent


def _masked(text: str) -> str:
    return _PRONOUN_WORD.sub("PRONOUN", text)


def build_pairs(
    files: dict[tuple[str, int], tuple[str, list[dict]]], occupations: dict[str, str], split: str
) -> pd.DataFrame:
    """(stereotype, type) -> (file name, `parse_file` rows) of one split -> one row per line (steps 1-3).

    `occupations` maps each occupation to ``female`` or ``male`` (its list). Columns `COLUMNS`: pair_id, split,
    type, stereotype, line, sentence, antecedent + span, occupation, occupation_gender, pronoun (the first
    bracketed one) + span, pronoun_gender, pronoun_spans (every bracketed pronoun), minimal_pair (step 3).
    """
    out = []
    for kind in TYPES:
        (pro_name, pro), (anti_name, anti) = files[("pro", kind)], files[("anti", kind)]
        if len(pro) != len(anti):
            raise DataError(f"{pro_name} has {len(pro)} lines and {anti_name} {len(anti)}; pairs need the same count.")
        for stereotype, name, rows in (("pro", pro_name, pro), ("anti", anti_name, anti)):
            for row, other in zip(rows, anti if stereotype == "pro" else pro, strict=True):
                occupation = occupation_of(row["antecedent"])
                if occupation not in occupations:
                    raise _fail(name, row["number"], row["text"], f"an antecedent naming one of {len(occupations)} "
                                "occupations in the occupation lists")  # fmt: skip
                pronoun, start, end = row["pronouns"][0]
                gender = PRONOUN_GENDER[pronoun.lower()]
                other_gender = PRONOUN_GENDER[other["pronouns"][0][0].lower()]
                minimal = gender != other_gender and _masked(row["text"]) == _masked(other["text"])
                out.append((
                    f"{split}-type{kind}-{row['number']}", split, kind, stereotype, row["number"], row["sentence"],
                    row["antecedent"], row["antecedent_start"], row["antecedent_end"], occupation,
                    occupations[occupation], pronoun, start, end, gender,
                    tuple((s, e) for _, s, e in row["pronouns"]), minimal,
                ))  # fmt: skip
    return pd.DataFrame(out, columns=COLUMNS)


# --- loaders --------------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _read_pairs(split: str, paths: tuple[tuple[str, int, Path], ...], lists: tuple[tuple[str, Path], ...]):
    occupations: dict[str, str] = {}
    for gender, path in lists:
        for occupation in parse_occupations(path.read_text(encoding="utf-8"), f"{OCCUPATION_SOURCES[gender]} ({path})"):
            if occupation in occupations:
                raise DataError(f"WinoBias occupation {occupation!r} is on both the female and the male list.")
            occupations[occupation] = gender
    files = {}
    for stereotype, kind, path in paths:
        name = f"{source_name(stereotype, kind, split)} ({path})"
        files[(stereotype, kind)] = (name, parse_file(path.read_text(encoding="utf-8"), name))
    return build_pairs(files, occupations, split)


def winobias_pairs(refdata: ReferenceData, split: str = "dev") -> pd.DataFrame:
    """The 1,584 WinoBias lines of `split` (``dev`` or ``test``), pro and anti, types 1 and 2 (columns:
    `build_pairs`), ordered by type, stereotype (pro first) and line; rows sharing a pair_id are a pair. A copy."""
    if split not in SPLITS:
        raise DataError(f"WinoBias split must be one of {list(SPLITS)}, not {split!r}.")
    paths = tuple(
        (stereotype, kind, refdata.path(source_name(stereotype, kind, split)).resolve())
        for kind in TYPES
        for stereotype in STEREOTYPES
    )
    lists = tuple((gender, refdata.path(name).resolve()) for gender, name in OCCUPATION_SOURCES.items())
    return _read_pairs(split, paths, lists).copy()
