"""`biascheck probes --markdown`: what the default profile judges, said in its own terms, and the block of
docs/probes.md rewritten in place between its markers, its links leading from where the file lies."""

from pathlib import Path

import pytest

from biascheck.catalog import PROBES
from biascheck.cli import main
from biascheck.errors import ConfigError
from biascheck.probe_table import END, START, judged, link_base, markdown, replace_block
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
    other = ("<!-- a -->", "<!-- b -->")  # another page's markers (lab/scripts/pearson_null.py's, say)
    assert replace_block(f"x\n{other[0]}\nold\n{other[1]}\ny", f"{other[0]}\nnew\n{other[1]}", other) == (
        f"x\n{other[0]}\nnew\n{other[1]}\ny"
    )
    with pytest.raises(ConfigError, match="no block from <!-- a --> to <!-- b -->"):
        replace_block(text, "x", other)


def test_the_command_rewrites_the_block_in_a_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(REPO)  # ./thresholds/default.toml, as a run started here reads it
    readme = tmp_path / "README.md"
    readme.write_text(f"# title\n\n{START}\nstale\n{END}\n\nrest\n")
    assert main(["probes", "--markdown", "--into", str(readme)]) == 0
    assert main(["probes", "--markdown"]) == 0
    printed = capsys.readouterr().out
    assert readme.read_text() == f"# title\n\n{printed}\nrest\n"
    assert all(f"[`{name}`](biascheck/methods/{name}/README.md)" in printed for name in PROBES)


def test_links_lead_from_where_the_file_lies(tmp_path, monkeypatch, capsys):
    """In docs/probes.md a probe's README is ../biascheck/methods/...; at the checkout's root and outside
    it (printed, or a file elsewhere) the links read from the root."""
    assert link_base(REPO / "docs" / "probes.md") == "../"
    assert link_base(REPO / "README.md") == ""
    assert link_base(REPO / "docs" / "deeper" / "x.md") == "../../"
    assert link_base(tmp_path / "x.md") == ""
    monkeypatch.chdir(REPO)
    assert main(["probes", "--markdown"]) == 0
    printed = capsys.readouterr().out
    for name in PROBES:  # printed: from the root; in docs/probes.md: from docs/, and both resolve
        assert f"[`{name}`](biascheck/methods/{name}/README.md)" in printed
        assert (REPO / f"biascheck/methods/{name}/README.md").is_file()
        assert f"[`{name}`](../biascheck/methods/{name}/README.md)" in (REPO / "docs" / "probes.md").read_text()


def test_the_block_wraps_its_lines_at_110_characters():
    """A probe's thresholds or metrics make one long line in a table; the lists wrap them (the markers
    aside, which are one line each)."""
    block = markdown(PROBES, load_profile("default", [REPO / "thresholds"], PROBES), "../")
    lines = block.splitlines()
    assert lines[0] == START and lines[-1] == END
    assert max(len(line) for line in lines[1:-1]) <= 110
    assert len(lines) > 2 * len(PROBES)  # some entries did wrap
