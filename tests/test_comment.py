"""The pull-request comment: summary.md cut to GitHub's 65,536-character limit at a line boundary, with a
note and the link to the whole report (`biascheck.report.comment`)."""

import subprocess
import sys

import pytest

from biascheck.report.comment import GITHUB_COMMENT_LIMIT, cut_to_limit

LINES = "".join(f"| row {i:02d} |\n" for i in range(30))  # 30 lines of 11 characters


def test_a_summary_within_the_limit_is_the_comment_as_it_is():
    assert cut_to_limit(LINES, limit=len(LINES)) == LINES
    assert cut_to_limit("", limit=5) == ""


@pytest.mark.parametrize("limit", [120, 150, 200, 250])
def test_a_longer_one_keeps_whole_lines_that_fit_beside_the_note(limit):
    """By hand at 150: the note for a one-digit k lines shown is 91 characters ('\\n**Cut to fit GitHub's
    comment limit: k of 30 lines shown; the whole report: https://x/1**\\n'), so 150 - 91 = 59 leaves 5 lines
    of 11 (55)."""
    out = cut_to_limit(LINES, limit=limit, link="https://x/1")
    body, note = out.split("\n**Cut to fit", 1)
    shown = body.count("\n")
    assert len(out) <= limit and LINES.startswith(body)
    assert note.startswith(f" GitHub's comment limit: {shown} of 30 lines shown; the whole report: https://x/1**")
    assert len(out) + 11 > limit  # one more line would not have fit
    if limit == 150:
        assert shown == 5


def test_a_cut_inside_a_code_block_closes_it_before_the_note():
    text = "head\n```\n" + "".join(f"line {i}\n" for i in range(40)) + "```\ntail\n"
    out = cut_to_limit(text, limit=200, link="L")
    body = out.split("\n**Cut to fit", 1)[0]
    assert body.endswith("```\n") and body.count("```") == 2 and len(out) <= 200


def test_no_room_for_the_note_is_an_error_not_a_longer_comment():
    with pytest.raises(ValueError, match="no room for the note"):
        cut_to_limit(LINES, limit=30)


def test_a_full_suite_sized_summary_fits_githubs_limit_through_the_command(tmp_path):
    """A 90,405-character summary (a full-suite run's size) becomes a comment GitHub accepts."""
    row = "| natural_prompts | default | `default_log_he_she_openers` | -1.440 | [-1.62, -1.25] | FAIL |\n"
    text = "## biascheck summary\n\n" + row * (90_405 // len(row))
    path = tmp_path / "summary.md"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "biascheck.report.comment", str(path), "https://github.com/o/r/actions/runs/1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(text) > GITHUB_COMMENT_LIMIT >= len(done.stdout) > GITHUB_COMMENT_LIMIT - len(row) - 200
    assert done.stdout.rstrip().endswith("the whole report: https://github.com/o/r/actions/runs/1**")
