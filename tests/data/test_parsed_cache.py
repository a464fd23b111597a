"""The parsed-data cache: parse once per source file and parser version, read back exactly, never trust a
table that fails its checksum, and never fail a run because the cache cannot be written."""

import math

import numpy as np
import pandas as pd
import pytest

from biascheck.data import ReferenceData, norwegian, parsed_cache

FRAME = pd.DataFrame(
    {
        "first_name": ["Aagot", "NA", "Ada", ""],  # 'NA' and '' are names here, not missing values
        "year": [1880, 1881, 1882, 1883],
        "Percent": [0.1 + 0.2, math.pi, np.nan, 1e-300],
        "Count": [np.nan, 3.0, 4.0, np.nan],
    }
)


@pytest.fixture()
def refdata(tmp_path, mirror):
    return ReferenceData(mirror=mirror, cache=tmp_path / "cache")


def counting(frame):
    calls = []

    def parse(path):
        calls.append(path)
        return frame.copy()

    return parse, calls


def test_parsed_once_then_read_back_exactly(refdata):
    parse, calls = counting(FRAME)
    first = parsed_cache.cached_table(refdata, "norway_names", 1, parse)
    again = parsed_cache.cached_table(refdata, "norway_names", 1, parse)
    assert len(calls) == 1 and calls[0].name == "all.rda"
    pd.testing.assert_frame_equal(first, FRAME, check_exact=True)
    pd.testing.assert_frame_equal(again, FRAME, check_exact=True)
    assert "norway_names" in refdata.used  # the source is still recorded in the run's provenance


def test_a_new_parser_version_parses_again(refdata):
    parse, calls = counting(FRAME)
    parsed_cache.cached_table(refdata, "norway_names", 1, parse)
    parsed_cache.cached_table(refdata, "norway_names", 2, parse)
    assert len(calls) == 2


def test_an_edited_table_fails_its_checksum_and_is_parsed_again(refdata):
    parse, calls = counting(FRAME)
    parsed_cache.cached_table(refdata, "norway_names", 1, parse)
    path = parsed_cache.table_path(refdata, "norway_names", 1)
    path.write_text(path.read_text().replace("1880", "1990"))
    back = parsed_cache.cached_table(refdata, "norway_names", 1, parse)
    assert len(calls) == 2 and back["year"].iloc[0] == 1880
    assert parsed_cache.read(path) is not None  # rewritten


def test_an_unwritable_cache_still_returns_the_table(refdata, monkeypatch):
    parse, calls = counting(FRAME)
    monkeypatch.setattr(parsed_cache, "atomic_write", lambda path, data: (_ for _ in ()).throw(PermissionError("ro")))
    back = parsed_cache.cached_table(refdata, "norway_names", 1, parse)
    pd.testing.assert_frame_equal(back, FRAME, check_exact=True)
    assert not parsed_cache.table_path(refdata, "norway_names", 1).exists()


def test_text_with_missing_values_is_not_cached(refdata):
    frame = FRAME.assign(first_name=["a", None, "b", "c"])
    assert parsed_cache.store(parsed_cache.table_path(refdata, "norway_names", 1), frame) is False


def test_the_norwegian_names_from_the_cache_equal_the_rda(refdata, monkeypatch):
    """The .rda is parsed once (10-15 s): the table the parser returned is kept and the cache compared to it."""
    monkeypatch.setattr(norwegian, "_NAME_TABLES", {})
    parses = []
    read = norwegian._read_name_table

    def parse_once(path):
        parses.append(read(path))
        return parses[-1].copy()  # the kept table is not the one the cache is written from

    monkeypatch.setattr(norwegian, "_read_name_table", parse_once)
    norwegian.name_table(refdata)  # parses and caches
    (parsed,) = parses
    monkeypatch.setattr(norwegian, "_NAME_TABLES", {})
    monkeypatch.setattr(norwegian, "_read_name_table", lambda path: pytest.fail("parsed again"))
    pd.testing.assert_frame_equal(norwegian.name_table(refdata), parsed, check_exact=True)


def test_a_json_value_is_built_once_per_set_of_sources_and_version_and_never_read_corrupt(refdata):
    builds = []

    def build():
        builds.append(1)
        return {"form": ["lemma", 1.5], "ø": None}

    value = parsed_cache.cached_json(refdata, "forms", ["aa", "bb"], 1, build)
    assert parsed_cache.cached_json(refdata, "forms", ["bb", "aa"], 1, build) == value and len(builds) == 1
    parsed_cache.cached_json(refdata, "forms", ["aa", "cc"], 1, build)  # another source file: another entry
    parsed_cache.cached_json(refdata, "forms", ["aa", "bb"], 2, build)  # another builder version: another entry
    assert len(builds) == 3
    path = parsed_cache.json_path(refdata, "forms", ["aa", "bb"], 1)
    path.write_text(path.read_text(encoding="utf-8").replace("1.5", "2.5"), encoding="utf-8")
    assert parsed_cache.cached_json(refdata, "forms", ["aa", "bb"], 1, build) == value and len(builds) == 4


def test_a_json_value_that_cannot_be_stored_is_still_returned(mirror, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    refdata = ReferenceData(mirror=mirror, cache=blocked)
    assert parsed_cache.cached_json(refdata, "forms", ["aa"], 1, lambda: [1, 2]) == [1, 2]
