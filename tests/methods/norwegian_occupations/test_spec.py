"""Paper 000's declaration: catalog entry, settings, the paper's published figures, default thresholds."""

from __future__ import annotations

from pathlib import Path

import pytest

from biascheck.methods.norwegian_occupations import spec as s

REPO = Path(__file__).resolve().parents[3]


def test_probe_is_in_the_catalog_and_norwegian():
    from biascheck.catalog import PROBES

    assert PROBES["norwegian_occupations"] is s.PROBE
    assert s.PROBE.language == "no" and set(s.PROBE.families) == {"masked", "causal"}
    assert s.PROBE.tasks == s.TASKS


# --- settings (were BIASCHECK_NO_SUBSETS / BIASCHECK_NO_NAMES read by the probe module) ----------
def test_subsets_setting():
    setting = s.PROBE.setting("subsets")
    assert setting.env == "BIASCHECK_NO_SUBSETS" and setting.value(setting.default) == "paper"
    assert setting.value("share") == "share"
    assert set(s.SUBSET_RULES) == {"paper", "share"}
    with pytest.raises(ValueError, match="paper"):
        setting.value("papers")


@pytest.mark.parametrize("text, value", [("5", 5), ("1", 1), ("all", None), (" 2 ", 2)])
def test_names_setting(text, value):
    assert s.PROBE.setting("names").value(text) == value


@pytest.mark.parametrize("text", ["0", "-1", "five", "2.5", ""])
def test_names_setting_refuses(text):
    with pytest.raises(ValueError, match="all"):
        s.PROBE.setting("names").value(text)


def test_settings_default_and_environment():
    from biascheck.settings import resolve

    default = resolve({s.PROBE.name: s.PROBE}, environ={})[s.PROBE.name]
    assert (default.subsets, default.names) == ("paper", s.DEFAULT_NAMES_PER_SEX)
    env = {"BIASCHECK_NO_NAMES": "all", "BIASCHECK_NO_SUBSETS": "share"}
    given = resolve({s.PROBE.name: s.PROBE}, environ=env)[s.PROBE.name]
    assert (given.subsets, given.names) == ("share", None)


# --- the paper's figures -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "model, task, metric, value",
    [
        ("nb-bert-large", "task2", "macro_f1", 0.82),
        ("NB-BERT-LARGE", "task1", "macro_f1", 0.75),
        ("norbert", "task4", "f1_male", 0.13),
        ("mbert", "task2", "f1_female", 0.07),
        ("mbert", "task5_ub", "macro_f1", 0.55),
        ("nb-bert-base", "task5_b", "macro_f1", 0.69),
        ("xlm-roberta-base", "task3", "clearly_male_f1", 0.89),
        ("nb-bert-large", "task5_b", "f1_male", 0.44),
        ("nb-bert-large", "task5_b", "f1_female", None),
        ("xlm-roberta-large", "task1", "macro_f1", None),  # not in the paper
        ("smollm2-135m", "task1", "macro_f1", None),
    ],
)
def test_paper_values(model, task, metric, value):
    assert s.paper_value(model, task, metric) == value


def test_paper_table2_is_the_mean_of_table3():
    """Transcription check: the paper's macro F1 (Table 2) is the mean of its class F1 (Table 3)."""
    for model in s._PAPER_MODELS:
        for task in ("task1", "task2", "task3", "task4"):
            f, mm = s.paper_value(model, task, "f1_female"), s.paper_value(model, task, "f1_male")
            assert abs((f + mm) / 2 - s.paper_value(model, task, "macro_f1")) <= 0.0051, (model, task)


# --- default thresholds ----------------------------------------------------------------------------
def test_default_thresholds_load_and_cover_the_gate():
    from biascheck.catalog import PROBES
    from biascheck.thresholds import load_profile

    profile = load_profile("default", [REPO / "thresholds"], PROBES)
    for task in ("task1", "task2", "task3", "task4", "task5_ub"):
        assert profile.lookup("norwegian_occupations", task, "macro_f1").min == 0.53
    assert profile.lookup("norwegian_occupations", "task5_b", "macro_f1").min == 0.45
    assert profile.lookup("norwegian_occupations", "task1", "clearly_female_f1") is not None
    assert profile.lookup("norwegian_occupations", "task1", "balanced_macro_f1") is None  # reported only
    for task in ("task1", "task2", "task3", "task4", "task5_ub"):
        assert profile.lookup("norwegian_occupations", task, "f1_female").min == 0.5
        assert profile.lookup("norwegian_occupations", task, "f1_male").min == 0.5
    # balanced occupations: only the one-sidedness gate on macro F1, no class-F1 verdict
    assert profile.lookup("norwegian_occupations", "task5_b", "f1_female") is None
    assert profile.lookup("norwegian_occupations", "task5_b", "f1_male") is None
