"""Norwegian occupations and first names (paper 000, Touileb, Øvrelid & Velldal 2022).

* `ssb_occupations`: the Statistics Norway sheet the paper uses as gold (417 occupations with
  female and male %), joined to the lower-case form the upstream templates use.
* `templates`: the upstream template files (``[MASK] er adjunkt.``), one line per occupation.
* `top_names`: the most frequent first names per year and sex (Statistics Norway table 10467,
  via the ``norwaynames`` R package, 1880-2017).

Parsers check the shape of what they read and raise `DataError` naming the file and the line.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from biascheck.data import ReferenceData
from biascheck.data.parsed_cache import cached_table
from biascheck.errors import DataError

TEMPLATE_SOURCES = {"er": "no_templates_er", "jobber_som": "no_templates_jobber_som"}
TEMPLATE_FRAMES = {"er": "er", "jobber_som": "jobber som"}  # what stands between the pronoun and the occupation
UPSTREAM_MASK = "[MASK]"


def ssb_occupations(refdata: ReferenceData) -> pd.DataFrame:
    """The Statistics Norway sheet, one row per occupation (417 rows).

    Columns: occupation (sheet spelling, 'Adjunkt'), form (lower case, as in the upstream
    templates: 'adjunkt', 'it-konsulent'), female, male (% of the workforce; they sum to 100),
    binary (upstream column: 1 iff female > 50).
    """
    path = refdata.path("ssb_occupations")
    try:
        sheet = pd.read_excel(path, engine="odf")
    except Exception as exc:  # odfpy raises assorted errors on a damaged file
        raise DataError(f"ssb_occupations ({path}): cannot read the .ods sheet: {exc}") from exc
    expected = ["occupations", "female", "male", "total", "binary"]
    if list(sheet.columns) != expected:
        raise DataError(f"ssb_occupations ({path}): expected columns {expected}, found {list(sheet.columns)}.")
    frame = pd.DataFrame(
        {
            "occupation": sheet["occupations"].astype(str).str.strip(),
            "female": pd.to_numeric(sheet["female"], errors="coerce"),
            "male": pd.to_numeric(sheet["male"], errors="coerce"),
            "binary": pd.to_numeric(sheet["binary"], errors="coerce"),
        }
    )
    bad = frame[frame[["female", "male", "binary"]].isna().any(axis=1)]
    if len(bad):
        raise DataError(
            f"ssb_occupations ({path}): non-numeric shares in sheet rows {[int(i) + 2 for i in bad.index[:5]]}."
        )
    off = frame[(frame["female"] + frame["male"] - 100).abs() > 0.05]
    if len(off):
        raise DataError(f"ssb_occupations ({path}): female + male is not 100 for {off['occupation'].tolist()[:5]}.")
    duplicated = frame["occupation"][frame["occupation"].duplicated()].tolist()
    if duplicated:
        raise DataError(f"ssb_occupations ({path}): duplicated occupations {duplicated}.")
    frame["binary"] = frame["binary"].astype(int)
    frame["form"] = frame["occupation"].str.lower()
    return frame[["occupation", "form", "female", "male", "binary"]]


def templates(refdata: ReferenceData, kind: str) -> pd.DataFrame:
    """One upstream template file: columns form (the occupation, lower case) and template.

    kind: 'er' (``[MASK] er adjunkt.``) or 'jobber_som' (``[MASK] jobber som adjunkt.``).
    The template is returned verbatim, with the pronoun's ``[MASK]`` left in place.
    """
    if kind not in TEMPLATE_SOURCES:
        raise DataError(f"templates: kind must be one of {list(TEMPLATE_SOURCES)}, got {kind!r}.")
    name = TEMPLATE_SOURCES[kind]
    pattern = re.compile(rf"{re.escape(UPSTREAM_MASK)} {re.escape(TEMPLATE_FRAMES[kind])} (.+)\.")
    rows = []
    for number, line in enumerate(refdata.path(name).read_text(encoding="utf-8").splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        match = pattern.fullmatch(line)
        if match is None:
            raise DataError(
                f"{name} line {number}: expected '{UPSTREAM_MASK} {TEMPLATE_FRAMES[kind]} <occupation>.', got {line!r}."
            )
        rows.append((match.group(1), line))
    return pd.DataFrame(rows, columns=["form", "template"])


def occupations_with_templates(refdata: ReferenceData) -> pd.DataFrame:
    """`ssb_occupations` joined with both template files on the lower-case form.

    The template files list the same 417 occupations as the sheet, lower-cased, in a slightly
    different order (three pairs such as 'ingeniør' / 'ingeniør i energi og miljø i bygg' are
    swapped); the join is by form, and any occupation missing on either side is an error.
    Adds columns template_er, template_jobber_som. Sheet order is kept.
    """
    frame = ssb_occupations(refdata)
    for kind in TEMPLATE_SOURCES:
        table = templates(refdata, kind)
        duplicated = table["form"][table["form"].duplicated()].tolist()
        if duplicated:
            raise DataError(f"{TEMPLATE_SOURCES[kind]}: duplicated occupations {duplicated}.")
        missing = sorted(set(frame["form"]) ^ set(table["form"]))
        if missing:
            raise DataError(f"{TEMPLATE_SOURCES[kind]} and ssb_occupations list different occupations: {missing[:5]}.")
        frame[f"template_{kind}"] = frame["form"].map(table.set_index("form")["template"])
    return frame


def name_table(refdata: ReferenceData) -> pd.DataFrame:
    """The R data frame ``all``: first_name, year (int), Percent, Count, sex ('female'/'male')."""
    path = refdata.path("norway_names")
    key = str(path.resolve())
    if key not in _NAME_TABLES:  # the pure-Python .rda reader takes 10-15 s: once per source file and machine
        _NAME_TABLES[key] = cached_table(refdata, "norway_names", NAME_TABLE_VERSION, _read_name_table)
    return _NAME_TABLES[key].copy()


_NAME_TABLES: dict[str, pd.DataFrame] = {}
NAME_TABLE_VERSION = 1  # bump when _read_name_table changes what it returns (the parsed cache is keyed by it)


def _read_name_table(path) -> pd.DataFrame:
    try:
        import rdata

        data = rdata.read_rda(str(path))
    except ImportError as exc:
        raise DataError("norway_names is an R .rda file; install the 'rdata' package (pip install rdata).") from exc
    except Exception as exc:
        raise DataError(f"norway_names ({path}): cannot read the .rda file: {exc}") from exc
    if "all" not in data:
        raise DataError(f"norway_names ({path}): expected an R object 'all', found {list(data)}.")
    frame = pd.DataFrame(data["all"]).reset_index(drop=True)
    needed = ["first_name", "year", "Percent", "Count", "sex"]
    if any(c not in frame.columns for c in needed):
        raise DataError(f"norway_names ({path}): expected columns {needed}, found {list(frame.columns)}.")
    frame = frame[needed].copy()
    frame["first_name"] = frame["first_name"].astype(str)
    frame["year"] = frame["year"].astype(int)
    frame["Percent"] = frame["Percent"].astype(float)
    frame["sex"] = frame["sex"].astype(str).str.lower()
    if set(frame["sex"]) != {"female", "male"}:
        raise DataError(f"norway_names ({path}): sex should be Female/Male, found {sorted(set(frame['sex']))}.")
    return frame


def top_names(
    refdata: ReferenceData, n: int = 10, first_year: int | None = None, last_year: int | None = None
) -> pd.DataFrame:
    """The first names among the `n` most frequent of some year, per sex (the paper: n = 10).

    1. Per sex and year, rank names by Percent (share of that year's births; Count is missing
       before 1945, Percent never is for a name in use). Ties share the better rank ("min"), so
       a name tied at rank n is kept (this happens in 11 sex-years and adds no new name).
    2. Keep names ranked <= n in at least one year of [first_year, last_year] (default: all
       years in the file, 1880-2017).
    3. One row per (name, sex): columns name, sex, years_in_top (how many years it was in the
       top n), first_top, last_top (first and last such year), best_rank, peak_percent.
    Sorted by sex, then years_in_top descending, then name, so a head(k) per sex is a
    deterministic subsample of the most persistent names.
    """
    table = name_table(refdata)
    if first_year is not None:
        table = table[table["year"] >= first_year]
    if last_year is not None:
        table = table[table["year"] <= last_year]
    table = table.dropna(subset=["Percent"]).copy()
    if table.empty:
        raise DataError(f"norway_names: no names between {first_year} and {last_year}.")
    table["rank"] = table.groupby(["sex", "year"])["Percent"].rank(method="min", ascending=False)
    top = table[table["rank"] <= n]
    grouped = (
        top.groupby(["first_name", "sex"])
        .agg(
            years_in_top=("year", "size"),
            first_top=("year", "min"),
            last_top=("year", "max"),
            best_rank=("rank", "min"),
            peak_percent=("Percent", "max"),
        )
        .reset_index()
        .rename(columns={"first_name": "name"})
    )
    grouped["best_rank"] = grouped["best_rank"].astype(int)
    both = set(grouped.loc[grouped["sex"] == "female", "name"]) & set(grouped.loc[grouped["sex"] == "male", "name"])
    if both:
        raise DataError(
            f"norway_names: names in the top {n} for both sexes: {sorted(both)}; the probe needs one sex per name."
        )
    order = np.lexsort((grouped["name"].to_numpy(), -grouped["years_in_top"].to_numpy(), grouped["sex"].to_numpy()))
    return grouped.iloc[order].reset_index(drop=True)
