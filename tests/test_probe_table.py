"""`biascheck probes --markdown`: what the default profile judges, said in its own terms, and the README
block rewritten in place between its markers."""

from pathlib import Path

import pytest

from biascheck.catalog import PROBES
from biascheck.cli import main
from biascheck.errors import ConfigError
from biascheck.probe_table import END, START, judged, replace_block
from biascheck.thresholds import load_profile

REPO = Path(__file__).resolve().parents[1]


def _profile(tmp_path, text):
    (tmp_path / "p.toml").write_text(text)
    return load_profile("p", [tmp_path], PROBES)


def test_judged_lists_probe_wide_then_task_bounds_and_what_a_task_switches_off(tmp_path):
    profile = _profile(
        tmp_path,
        """
[pronoun_ratio.mean_abs_log_n]
max = 1.386
why = "x"
[pronoun_ratio.is.template_spearman]
min = 0.4
max = 0.9
why = "x"
[pronoun_ratio.works_as.mean_abs_log_n]
off = true
""",
    )
    assert judged(PROBES["pronoun_ratio"], profile) == (
        "`mean_abs_log_n` ≤ 1.386; is: 0.4 ≤ `template_spearman` ≤ 0.9; works_as: `mean_abs_log_n` not judged"
    )
    assert judged(PROBES["winobias"], profile) == "nothing (no threshold, no report-only marker)"


def test_a_report_only_probe_says_why(tmp_path):
    profile = _profile(tmp_path, '[winobias]\nreport_only = true\nwhy = "no defensible bound yet"\n')
    assert judged(PROBES["winobias"], profile) == "report only: no defensible bound yet"


def test_replace_block_keeps_what_is_around_the_markers():
    text = f"before\n{START}\nold rows\n{END}\nafter\n"
    assert replace_block(text, f"{START}\nnew\n{END}\n") == f"before\n{START}\nnew\n{END}\nafter\n"
    with pytest.raises(ConfigError, match="put the two markers"):
        replace_block("no markers here", "x")


def test_the_command_rewrites_the_block_in_a_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(REPO)  # ./thresholds/default.toml, as a run started here reads it
    readme = tmp_path / "README.md"
    readme.write_text(f"# title\n\n{START}\nstale\n{END}\n\nrest\n")
    assert main(["probes", "--markdown", "--into", str(readme)]) == 0
    assert main(["probes", "--markdown"]) == 0
    printed = capsys.readouterr().out
    assert readme.read_text() == f"# title\n\n{printed}\nrest\n"
    assert all(f"[`{name}`](biascheck/methods/{name}/README.md)" in printed for name in PROBES)
