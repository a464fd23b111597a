"""The singular-they reference: the probe's own stimuli, and the user's ratings read from the file the
``ratings`` setting names (none without it); the package keeps the protocol."""

from pathlib import Path

import pandas as pd

from biascheck.data.they_ratings import RATING_COLUMNS
from biascheck.methods.singular_they.reference import load
from biascheck.methods.singular_they.spec import PROBE
from biascheck.protocol import protocol_problems
from biascheck.settings import settings_of

REPO = Path(__file__).resolve().parents[3]


def test_without_a_ratings_file_there_are_no_ratings():
    reference = load(None, settings_of(PROBE))  # the stimuli are the probe's own: no reference data read
    assert len(reference.stimuli) == 335 and reference.ratings is None and reference.ratings_file is None


def test_the_ratings_file_of_the_setting_is_read_once_into_the_reference(tmp_path):
    path = tmp_path / "ratings.csv"
    pd.DataFrame([("F01", "plural", "Super-Innovators", 7)], columns=list(RATING_COLUMNS)).to_csv(path, index=False)
    reference = load(None, settings_of(PROBE, ratings=path))
    assert reference.ratings_file == path
    assert reference.ratings.to_dict("records") == [
        {"item": "F01", "condition": "plural", "group": "super_innovators", "rating": 7}
    ]


def test_the_package_and_its_probe_module_keep_the_protocol():
    assert protocol_problems(PROBE.name, REPO / "probes") == []
