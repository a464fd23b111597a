"""The README is the short version and docs/ the manual: the README stays short with the newcomer's two
commands on its first screen, no line runs on for hundreds of characters, every relative link (and the
heading it points at) exists, the contents page lists every page, every option of the plugin is
documented, and every input the documented action snippets pass is one the action has."""

import re
from pathlib import Path

import pytest

from biascheck.plugin import OPTIONS

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCS = REPO / "docs"
PAGES = [README, *sorted(DOCS.rglob("*.md"))]
WRITTEN = [README, *sorted(DOCS.glob("*.md"))]  # docs/known_answers/ holds the scripts' generated tables
NEWCOMER = (
    "./setup.sh && .venv/bin/pytest probes/test_pronoun_ratio.py",
    ".venv/bin/pytest tests",
)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _name(page: Path) -> str:
    return str(page.relative_to(REPO))


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    return {_slug(line.lstrip("#")) for line in text.splitlines() if re.match(r"^#{1,6} ", line)}


def test_the_readme_is_short_and_opens_with_the_two_newcomer_commands():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 170, f"README.md has {len(lines)} lines: move the detail to a page under docs/"
    first_screen = "\n".join(lines[:15])
    for command in NEWCOMER:
        assert command in first_screen, f"README.md's first screen lost the newcomer's command {command!r}"


@pytest.mark.parametrize("page", WRITTEN, ids=_name)
def test_no_line_runs_on(page):
    lines = page.read_text(encoding="utf-8").splitlines()
    long = [(n, len(line)) for n, line in enumerate(lines, 1) if len(line) > 200]
    assert not long, f"{_name(page)}: lines over 200 characters (line, length) {long}: wrap them or make a table a list"


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_relative_link_leads_somewhere(page):
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target} (no file {file.relative_to(REPO) if file.is_relative_to(REPO) else file})")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            broken.append(f"{target} (no heading #{anchor} in {_name(file)})")
    assert not broken, f"{_name(page)}: broken links: {broken}"


def test_the_contents_page_lists_every_page():
    contents = (DOCS / "README.md").read_text(encoding="utf-8")
    linked = {(DOCS / target.partition("#")[0]).resolve() for target in LINK.findall(contents)}
    missing = [_name(p) for p in sorted(DOCS.rglob("*.md")) if p.name != "README.md" and p.resolve() not in linked]
    assert not missing, f"docs/README.md does not list {missing}"
    assert "docs/README.md" in README.read_text(encoding="utf-8")


def test_every_option_of_the_plugin_is_documented():
    options = (DOCS / "options.md").read_text(encoding="utf-8")
    missing = [flag for flag, _ in OPTIONS if not re.search(rf"\*\*`{re.escape(flag)}[ `]", options)]
    assert not missing, f"docs/options.md has no entry (- **`--flag ...`**) for {missing}"


def test_the_documented_action_snippets_pass_only_inputs_the_action_has():
    yaml = pytest.importorskip("yaml")
    inputs = set(yaml.safe_load((REPO / "action.yml").read_text())["inputs"])
    seen = 0
    for page in (README, DOCS / "gate.md"):
        for block in re.findall(r"```yaml\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            for step in yaml.safe_load(block) or []:
                if isinstance(step, dict) and str(step.get("uses", "")).startswith("OWNER/biascheck@"):
                    assert set(step["with"]) <= inputs, (_name(page), set(step["with"]) - inputs)
                    seen += 1
    assert seen >= 2  # the README's and docs/gate.md's


def test_the_readme_profile_loads_and_judges_what_it_says(tmp_path):
    from biascheck.catalog import PROBES
    from biascheck.probe_table import judged
    from biascheck.thresholds import load_profile

    (block,) = re.findall(r"```toml\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    (tmp_path / "ours.toml").write_text(block)
    profile = load_profile("ours", [tmp_path, REPO / "thresholds"], PROBES)
    assert "`stereotype_agreement` ≤ 0.7;" in judged(PROBES["pronoun_ratio"], profile)
    assert judged(PROBES["winobias"], profile).endswith("type1: `pro_share` not judged")
