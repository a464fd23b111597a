"""WinoBias's own occupation figures: the table "Professions and their percentages of women" in the README of
uclanlp/corefBias @ 0bce984 (``winobias_readme``), the BLS figures the authors split their 40 occupations by.

The table is HTML: after its two header rows, each row is four cells, a male-biased occupation and its
percentage of women, then a female-biased one and its percentage (20 rows; whole percent but for 3.5 and 2.1).
Five names in the table are not the names the data use; the note under the table renames them
("mechanician --> mechanic, sewer --> tailor, constructor --> construction worker, counselors --> counselor,
... hairdressers --> hairdresser"), and the renaming is read from that note. The result must be the two
occupation lists (`winobias.OCCUPATION_SOURCES`) exactly, each on its side: a table that does not parse or
does not match is a DataError. Pure parser, cached loader.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.data.winobias import OCCUPATION_SOURCES, parse_occupations
from biascheck.errors import DataError

SOURCE = "winobias_readme"
TITLE = "Professions and their percentages of women"
_CELL = re.compile(r"<td>\s*([^<]*?)\s*</td>")
_RENAME = re.compile(r"([A-Za-z]+) --> ([A-Za-z]+(?: [A-Za-z]+)*)")


def _fail(name: str, expected: str) -> DataError:
    return DataError(
        f"{name}: expected {expected} in the table {TITLE!r}. Restore the pinned file "
        "(`biascheck data` checks every declared source)."
    )


def parse_readme(text: str, name: str = SOURCE) -> pd.DataFrame:
    """The README's table -> occupation (renamed as the README's note says), side (``male`` / ``female``, the
    column it is listed in), women_pct (0-100); in table order, row by row."""
    start = text.find(TITLE)
    end = text.find("</table>", start)
    if start < 0 or end < 0:
        raise _fail(name, "the table itself")
    cells = _CELL.findall(text[start:end])
    note = text[end : text.find("\n", text.find("Note", end))]
    renames = dict(_RENAME.findall(note))
    if len(cells) % 4 or not cells or not renames:
        raise _fail(name, "rows of four cells (occupation, percent, occupation, percent) and the renaming note")
    rows = []
    for i in range(0, len(cells), 4):
        for side, (occupation, pct) in (("male", cells[i : i + 2]), ("female", cells[i + 2 : i + 4])):
            try:
                value = float(pct)
            except ValueError:
                raise _fail(name, f"a percentage after {occupation!r}, not {pct!r}") from None
            if not 0 <= value <= 100:
                raise _fail(name, f"a percentage in 0-100 after {occupation!r}, not {pct!r}")
            rows.append((renames.get(occupation, occupation), side, value))
    return pd.DataFrame(rows, columns=["occupation", "side", "women_pct"])


@lru_cache(maxsize=4)
def _read(readme: Path, lists: tuple[tuple[str, Path], ...]) -> pd.DataFrame:
    table = parse_readme(readme.read_text(encoding="utf-8"), f"{SOURCE} ({readme})")
    for side, path in lists:
        listed = parse_occupations(path.read_text(encoding="utf-8"), f"{OCCUPATION_SOURCES[side]} ({path})")
        by_key = {o.lower(): o for o in listed}
        mine = table["side"] == side
        if sorted(table.loc[mine, "occupation"].str.lower()) != sorted(by_key):
            raise DataError(
                f"{SOURCE} ({readme}): its {side}-biased occupations are not those of {OCCUPATION_SOURCES[side]} "
                f"({path}); the table and the lists must be read from the same pinned commit."
            )
        table.loc[mine, "occupation"] = [by_key[o.lower()] for o in table.loc[mine, "occupation"]]
    return table


def winobias_women_percent(refdata: ReferenceData) -> pd.DataFrame:
    """WinoBias's 40 occupations as its data write them (``CEO``, ``construction worker``), each with its side and
    the README's percentage of women (`parse_readme`); a copy."""
    lists = tuple((side, refdata.path(name).resolve()) for side, name in OCCUPATION_SOURCES.items())
    return _read(refdata.path(SOURCE).resolve(), lists).copy()
