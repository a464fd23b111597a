"""The user's human-ratings file (paper 004, Table 4): `biascheck.data.they_ratings` and the setting."""

import pandas as pd
import pytest

from biascheck.data import they_ratings as tr
from biascheck.errors import DataError
from biascheck.methods.singular_they.spec import ALL_CONDITIONS, PAPER_GROUPS, PROBE, RATINGS_ENV


def _read(path):
    return tr.read_ratings(path, conditions=ALL_CONDITIONS, groups=PAPER_GROUPS)


def _write(tmp_path, rows, columns=tr.RATING_COLUMNS):
    path = tmp_path / "ratings.csv"
    pd.DataFrame(rows, columns=list(columns)).to_csv(path, index=False)
    return path


def test_read_ratings_normalises_group_names(tmp_path):
    path = _write(tmp_path, [("F01", "plural", "Super-Innovators", 7), ("F01", "plural", "low acceptance", 6)])
    assert _read(path)["group"].tolist() == ["super_innovators", "low_acceptance"]


@pytest.mark.parametrize(
    ("rows", "columns", "message"),
    [
        ([("F01", "plural", 7)], ("item", "condition", "rating"), "missing columns"),
        ([("F01", "plural", "everyone", 7)], tr.RATING_COLUMNS, "unknown participant group"),
        ([("F01", "pluralish", "innovators", 7)], tr.RATING_COLUMNS, "unknown condition"),
        ([("F01", "plural", "innovators", "high")], tr.RATING_COLUMNS, "not numbers"),
    ],
)
def test_read_ratings_errors_name_the_problem(tmp_path, rows, columns, message):
    with pytest.raises(DataError, match=message):
        _read(_write(tmp_path, rows, columns))


def test_read_ratings_missing_file(tmp_path):
    with pytest.raises(DataError, match="no such file"):
        _read(tmp_path / "nope.csv")


def test_ratings_setting_is_an_optional_existing_file(tmp_path):
    setting = PROBE.setting("ratings")
    assert setting.env == RATINGS_ENV and setting.value("") is None
    path = _write(tmp_path, [("F01", "plural", "innovators", 7)])
    assert setting.value(f" {path} ") == path
    with pytest.raises(ValueError, match="not a file"):
        setting.value(str(tmp_path / "nope.csv"))
