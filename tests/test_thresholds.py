"""Threshold profiles: the shipped ones load, and every malformed file names the file and key."""

from pathlib import Path

import pytest

from biascheck.catalog import PROBES
from biascheck.errors import ConfigError
from biascheck.thresholds import load_profile, resolved_rows

SHIPPED = Path(__file__).resolve().parents[1] / "thresholds"


@pytest.mark.parametrize("profile", sorted(p.stem for p in SHIPPED.glob("*.toml")))
def test_every_shipped_profile_loads_and_explains_itself(profile):
    loaded = load_profile(profile, [SHIPPED], PROBES)
    assert all(t.why for t in loaded.by_key.values())


def write(tmp_path, text, name="p.toml"):
    (tmp_path / name).write_text(text)
    return tmp_path


def test_task_key_overrides_probe_key_and_direction_is_checked(tmp_path):
    write(
        tmp_path,
        """
[pronoun_ratio.mean_abs_log_n]
max = 1.0
why = "all tasks"
[pronoun_ratio.is.mean_abs_log_n]
max = 0.5
why = "is only"
""",
    )
    t = load_profile("p", [tmp_path], PROBES)
    assert t.lookup("pronoun_ratio", "is", "mean_abs_log_n").max == 0.5
    assert t.lookup("pronoun_ratio", "works_as", "mean_abs_log_n").max == 1.0
    assert t.lookup("pronoun_ratio", "is", "median_log_r") is None
    assert t.lookup("pronoun_ratio", "is", "mean_abs_log_n").accepts(0.5)
    assert not t.lookup("pronoun_ratio", "is", "mean_abs_log_n").accepts(float("nan"))


def test_task_level_off_hides_the_probe_wide_threshold_for_that_task_only(tmp_path):
    write(
        tmp_path,
        """
[pronoun_ratio.mean_abs_log_n]
max = 1.0
why = "all tasks"
[pronoun_ratio.is.mean_abs_log_n]
off = true
""",
    )
    t = load_profile("p", [tmp_path], PROBES)
    assert t.lookup("pronoun_ratio", "is", "mean_abs_log_n") is None
    assert t.lookup("pronoun_ratio", "works_as", "mean_abs_log_n").max == 1.0


def test_extends_inherits_and_off_removes(tmp_path):
    write(tmp_path, '[pronoun_ratio.mean_abs_log_n]\nmax = 1.0\nwhy = "base"\n', "base.toml")
    write(tmp_path, 'extends = "base"\n[pronoun_ratio.template_spearman]\nmin = 0.3\nwhy = "child"\n', "child.toml")
    write(tmp_path, 'extends = "base"\n[pronoun_ratio.mean_abs_log_n]\noff = true\n', "off.toml")
    child = load_profile("child", [tmp_path], PROBES)
    assert {k[2] for k in child.by_key} == {"mean_abs_log_n", "template_spearman"}
    assert child.files[0].endswith("base.toml")
    off = load_profile("off", [tmp_path], PROBES)
    assert off.by_key == {} and off.lookup("pronoun_ratio", "is", "mean_abs_log_n") is None


def test_a_probe_may_be_report_only_on_purpose_and_thresholds_judge_it_again(tmp_path):
    write(tmp_path, '[pronoun_ratio.mean_abs_log_n]\nmax = 1.0\nwhy = "base"\n', "base.toml")
    write(tmp_path, 'extends = "base"\n[pronoun_ratio]\nreport_only = true\nwhy = "seeds disagree"\n', "mark.toml")
    write(tmp_path, 'extends = "mark"\n[pronoun_ratio.template_spearman]\nmin = 0.4\nwhy = "again"\n', "gate.toml")
    marked = load_profile("mark", [tmp_path], PROBES)
    assert marked.report_only == {"pronoun_ratio": "seeds disagree"} and marked.by_key == {}
    gated = load_profile("gate", [tmp_path], PROBES)
    assert gated.report_only == {} and {k[2] for k in gated.by_key} == {"template_spearman"}


BOTH = '[pronoun_ratio.stereotype_agreement]\nmin = 0.2\nmax = 0.8\nwhy = "two-sided"\n'


def chain(tmp_path, *texts):
    """Profiles p0 (the base), p1 extends p0, p2 extends p1, ...; the last one loaded."""
    for i, text in enumerate(texts):
        write(tmp_path, (f'extends = "p{i - 1}"\n' if i else "") + text, f"p{i}.toml")
    return load_profile(f"p{len(texts) - 1}", [tmp_path], PROBES)


def test_an_override_of_one_bound_keeps_the_inherited_other(tmp_path):
    """The README's profile: max = 0.70 over the default's 0.2-0.8 is 0.2-0.7, each bound said where it was set."""
    t = chain(tmp_path, BOTH, '[pronoun_ratio.stereotype_agreement]\nmax = 0.7\nwhy = "tighter"\n')
    got = t.lookup("pronoun_ratio", "is", "stereotype_agreement")
    assert (got.min, got.max, got.why) == (0.2, 0.7, "tighter")
    assert got.bound_origin("min") == f"{tmp_path / 'p0.toml'}: pronoun_ratio.stereotype_agreement"
    assert got.bound_origin("max") == got.origin == f"{tmp_path / 'p1.toml'}: pronoun_ratio.stereotype_agreement"


def test_a_bound_kept_through_two_profiles_names_the_first(tmp_path):
    over = '[pronoun_ratio.stereotype_agreement]\nmax = {}\nwhy = "x"\n'
    t = chain(tmp_path, BOTH, over.format(0.7), over.format(0.6))
    got = t.lookup("pronoun_ratio", "is", "stereotype_agreement")
    assert (got.min, got.max) == (0.2, 0.6) and got.min_from.startswith(str(tmp_path / "p0.toml"))


def test_none_drops_an_inherited_bound_on_purpose(tmp_path):
    t = chain(tmp_path, BOTH, '[pronoun_ratio.stereotype_agreement]\nmin = "none"\nmax = 0.7\nwhy = "one side"\n')
    got = t.lookup("pronoun_ratio", "is", "stereotype_agreement")
    assert (got.min, got.max, got.min_from) == (None, 0.7, "")


def test_a_task_key_keeps_the_other_bound_of_the_probe_wide_threshold_it_overrides(tmp_path):
    t = chain(tmp_path, BOTH, '[pronoun_ratio.is.stereotype_agreement]\nmax = 0.7\nwhy = "is only"\n')
    assert (
        t.lookup("pronoun_ratio", "is", "stereotype_agreement").min,
        t.lookup("pronoun_ratio", "is", "stereotype_agreement").max,
    ) == (0.2, 0.7)
    assert t.lookup("pronoun_ratio", "works_as", "stereotype_agreement").max == 0.8


def test_bounds_are_kept_from_the_extended_profile_only_not_from_the_same_file(tmp_path):
    """Within one file the probe-wide key and a task's own are separate entries: the task's key is what it says."""
    t = chain(tmp_path, BOTH + '[pronoun_ratio.is.stereotype_agreement]\nmax = 0.7\nwhy = "is only"\n')
    got = t.lookup("pronoun_ratio", "is", "stereotype_agreement")
    assert (got.min, got.max) == (None, 0.7)


def test_a_key_switched_off_upstream_gives_nothing_to_keep(tmp_path):
    off = "[pronoun_ratio.stereotype_agreement]\noff = true\n"
    t = chain(tmp_path, BOTH, off, '[pronoun_ratio.stereotype_agreement]\nmax = 0.7\nwhy = "again"\n')
    got = t.lookup("pronoun_ratio", "is", "stereotype_agreement")
    assert (got.min, got.max) == (None, 0.7)


@pytest.mark.parametrize(
    ("override", "message"),
    [
        (
            "max = 0.1",
            r"p1\.toml: pronoun_ratio\.stereotype_agreement: min 0\.2 is above max 0\.1 \(the min is kept from "
            r".*p0\.toml.*min = \"none\"",
        ),
        ('min = "none"\nmax = "none"', r"p1\.toml: pronoun_ratio\.stereotype_agreement: no bound is left.*off = true"),
        (
            'min = "nothing"',
            r"p1\.toml: pronoun_ratio\.stereotype_agreement: 'min' must be a finite number .*got 'nothing'",
        ),
    ],
)
def test_a_malformed_override_names_file_and_key(tmp_path, override, message):
    with pytest.raises(ConfigError, match=message):
        chain(tmp_path, BOTH, f'[pronoun_ratio.stereotype_agreement]\n{override}\nwhy = "x"\n')


def test_dropping_the_bound_a_metric_is_judged_by_is_refused(tmp_path):
    """mean_abs_log_n is better when lower: with its max dropped, a min alone would judge the wrong side."""
    base = '[pronoun_ratio.mean_abs_log_n]\nmin = 0.1\nmax = 1.0\nwhy = "band"\n'
    with pytest.raises(ConfigError, match=r"p1\.toml: pronoun_ratio\.mean_abs_log_n: this metric is better when lower"):
        chain(tmp_path, base, '[pronoun_ratio.mean_abs_log_n]\nmax = "none"\nwhy = "x"\n')


def test_the_resolved_table_says_each_bound_and_where_it_was_set(tmp_path):
    t = chain(
        tmp_path,
        BOTH + '[pronoun_ratio.mean_abs_log_n]\nmax = 1.0\nwhy = "x"\n',
        '[pronoun_ratio.stereotype_agreement]\nmax = 0.7\nwhy = "y"\n[pronoun_ratio.is.mean_abs_log_n]\noff = true\n'
        '[winobias]\nreport_only = true\nwhy = "later"\n',
    )
    rows = resolved_rows(t, {name: PROBES[name] for name in ("pronoun_ratio", "winobias")})
    assert rows == [
        ["pronoun_ratio.*.mean_abs_log_n", "lower", "", "1", "p0.toml"],
        ["pronoun_ratio.*.stereotype_agreement", "target", "0.2", "0.7", "min: p0.toml; max: p1.toml"],
        ["pronoun_ratio.is.mean_abs_log_n", "lower", "", "", "off"],
        ["winobias.*.*", "", "", "", "report only: later"],
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[pronoun_ratio]\nreport_only = 'yes'\nwhy = 'x'\n", r"pronoun_ratio\.report_only: only 'true'.*got 'yes'"),
        ("[pronoun_ratio]\nreport_only = true\n", r"pronoun_ratio: report_only = true needs a 'why'"),
        (
            "[pronoun_ratio]\nreport_only = true\nwhy = 'x'\n[pronoun_ratio.mean_abs_log_n]\nmax = 1\nwhy = 'x'\n",
            r"cannot also set thresholds \(mean_abs_log_n\)",
        ),
        (
            "[pronoun_ratoi.mean_abs_log_n]\nmax = 1\nwhy = 'x'\n",
            r"p\.toml: pronoun_ratoi: unknown probe\. Did you mean 'pronoun_ratio'",
        ),
        (
            "[pronoun_ratio.mean_abs_log]\nmax = 1\nwhy = 'x'\n",
            r"pronoun_ratio\.mean_abs_log: neither a metric nor a task.*Did you mean 'mean_abs_log_n'",
        ),
        ("[pronoun_ratio.is.nope]\nmax = 1\nwhy = 'x'\n", r"pronoun_ratio\.is\.nope: unknown metric"),
        ("[pronoun_ratio.mean_abs_log_n]\nmax = 1\nwhy = 'x'\nmaxx = 2\n", r"unknown field 'maxx'"),
        ("[pronoun_ratio.mean_abs_log_n]\nmax = 'high'\nwhy = 'x'\n", r"'max' must be a finite number.*got 'high'"),
        ("[pronoun_ratio.mean_abs_log_n]\nmax = 'none'\nwhy = 'x'\n", r"mean_abs_log_n: no bound is left"),
        ("[pronoun_ratio.mean_abs_log_n]\nmax = 1\n", r"needs a 'why'"),
        ("[pronoun_ratio.mean_abs_log_n]\nmin = 1\nwhy = 'x'\n", r"better when lower, so its threshold is a 'max'"),
        ("[pronoun_ratio.template_spearman]\nmax = 1\nwhy = 'x'\n", r"better when higher, so its threshold is a 'min'"),
        ("[pronoun_ratio.mean_abs_log_n]\nmin = 2\nmax = 1\nwhy = 'x'\n", r"min 2 is above max 1"),
        ("[pronoun_ratio.mean_abs_log_n]\nwhy = 'x'\n", r"give 'min', 'max' or both"),
        ("[pronoun_ratio.mean_abs_log_n]\noff = 'yes'\n", r"mean_abs_log_n: 'off' must be true or false.*got 'yes'"),
        ("[pronoun_ratio.mean_abs_log_n]\nmax = 1\nwhy = 'x'\noff = 'no'\n", r"'off' must be true or false"),
        ("[pronoun_ratio.mean_abs_log_n]\noff = 1\n", r"'off' must be true or false.*got 1"),
        ("[pronoun_ratio\n", r"not valid TOML"),
        ('extends = "p"\n', r"'extends' makes a loop"),
    ],
)
def test_malformed_profiles_name_file_and_key(tmp_path, text, message):
    write(tmp_path, text)
    with pytest.raises(ConfigError, match=message) as info:
        load_profile("p", [tmp_path], PROBES)
    assert str(tmp_path / "p.toml") in str(info.value)


def test_a_profile_that_is_not_utf8_is_a_config_error_naming_the_file(tmp_path):
    """A profile saved as Latin-1 ended the run in an INTERNALERROR (exit 3, a traceback)."""
    (tmp_path / "p.toml").write_bytes('[pronoun_ratio.mean_abs_log_n]\nmax = 1\nwhy = "Ærlig talt"\n'.encode("latin-1"))
    with pytest.raises(ConfigError, match=r"p\.toml: not UTF-8 text \(byte b'\\xc6' at position \d+\)"):
        load_profile("p", [tmp_path], PROBES)


def test_unknown_profile_lists_the_known_ones(tmp_path):
    write(tmp_path, "", "release.toml")
    with pytest.raises(ConfigError, match=r"Did you mean 'release'.*Known profiles: release"):
        load_profile("relase", [tmp_path], PROBES)


def test_a_users_profile_anywhere_extends_the_shipped_default(tmp_path):
    """A project with no checkout of biascheck: ./ours.toml extends "default", found among the
    profiles that ship in the package (`biascheck.profiles`)."""
    from biascheck.run_config import shipped_profiles_dir

    shipped = shipped_profiles_dir()
    assert (shipped / "default.toml").is_file()
    ours = tmp_path / "ours.toml"
    ours.write_text('extends = "default"\n[winobias.pro_share]\nmin = 0.45\nmax = 0.55\nwhy = "tighter, ours"\n')
    profile = load_profile(str(ours), [tmp_path / "thresholds", shipped], PROBES)
    assert profile.files == [str(shipped / "default.toml"), str(ours)]
