"""summary.md as a pull-request comment: GitHub refuses a comment body over 65,536 characters, and a
full-suite summary.md is about 90,000 bytes, so the comment is cut at a line boundary, with a note and a
link to the whole report. Pure; `python -m biascheck.report.comment SUMMARY URL` prints the body (the
action's comment step).

1. A text within the limit is returned as it is.
2. Otherwise the note (what was cut, where the rest is) is built first, and the text is cut at the last
   line end that leaves room for it: no line is broken, so no table row or link is half shown.
3. A fenced code block left open by the cut is closed before the note, so the note is not code.
"""

from __future__ import annotations

import sys

GITHUB_COMMENT_LIMIT = 65_536  # characters in an issue or pull-request comment body


def cut_to_limit(markdown: str, limit: int = GITHUB_COMMENT_LIMIT, link: str = "") -> str:
    """`markdown` if it has at most `limit` characters; else its first whole lines and a note naming `link`,
    together at most `limit` characters. Raises ValueError when the note alone does not fit."""
    if len(markdown) <= limit:  # step 1
        return markdown
    where = f"the whole report: {link}" if link else "the whole report is in the run's artifacts"
    lines = markdown.splitlines(keepends=True)
    for fence in ("", "```\n"):  # step 3: a second pass closes a fence the cut left open
        shown_chars = 0
        kept: list[str] = []
        for line in lines:
            note = _note(len(kept), len(lines), where)
            if shown_chars + len(line) + len(fence) + len(note) > limit:  # step 2
                break
            kept.append(line)
            shown_chars += len(line)
        note = _note(len(kept), len(lines), where)
        if len(fence) + len(note) > limit:
            raise ValueError(f"a limit of {limit} characters leaves no room for the note ({len(note)} characters)")
        body = "".join(kept)  # whole lines of a text longer than the limit: each ends with its line break
        open_fence = sum(line.lstrip().startswith("```") for line in kept) % 2 == 1
        if not open_fence:
            return body + note
        if fence:
            return body + fence + note
    raise AssertionError("unreachable: the second pass always returns")


def _note(shown: int, total: int, where: str) -> str:
    return f"\n**Cut to fit GitHub's comment limit: {shown} of {total} lines shown; {where}**\n"


def main(argv: list[str] | None = None) -> int:
    """SUMMARY [LINK]: print summary.md cut to GitHub's comment limit."""
    args = sys.argv[1:] if argv is None else argv
    if not 1 <= len(args) <= 2:
        print("usage: python -m biascheck.report.comment SUMMARY.md [LINK]", file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as handle:
        text = handle.read()
    sys.stdout.write(cut_to_limit(text, link=args[1] if len(args) == 2 else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
