"""The committed dose-response results (docs/known_answers/dose_response_<corpus>.json) say what the tests
keep true: the key metric's median does not fall with the strength (beyond the control builds' spread),
the controls are clean, the published sensitivity is what the builds give, and the Markdown beside each
file is the one generated from it. A corpus without a results file has a page marked stale."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab import dose

DOCS = Path(__file__).resolve().parents[2] / "docs" / "known_answers"
RESULTS = sorted(DOCS.glob("dose_response_*.json"))
STALE = "**Stale:**"


def _doc(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _pairs() -> list[tuple[Path, str, str]]:
    return [
        (path, probe, family)
        for path in RESULTS
        for probe in dict.fromkeys(k["probe"] for k in _doc(path)["key_metrics"])
        for family in _doc(path)["families"]
        if dose.medians(_doc(path), probe, family)
    ]


def _id(pair) -> str:
    path, probe, family = pair
    return f"{path.stem.removeprefix('dose_response_')}-{probe}-{family}"


def test_there_are_results_files_with_several_builds_per_strength():
    assert {p.stem for p in RESULTS} >= {"dose_response_they", "dose_response_en", "dose_response_no"}
    for path in RESULTS:
        builds: dict[float, set[int]] = {}
        for run in _doc(path)["runs"]:
            builds.setdefault(run["strength"], set()).add(run["seed"])
        assert min(len(s) for s in builds.values()) >= 3, (path.name, builds)


@pytest.mark.parametrize("path", RESULTS, ids=lambda p: p.stem)
def test_the_page_is_generated_from_the_results_file_and_the_sensitivity_is_the_builds(path):
    doc = _doc(path)
    assert doc["sensitivity"] == dose.sensitivity(doc), "regenerate: python lab/scripts/dose_response.py --from-results"
    page = path.with_suffix(".md").read_text(encoding="utf-8")
    assert page == dose.render(doc), f"{path.with_suffix('.md').name} is not generated from {path.name}"


@pytest.mark.parametrize("pair", _pairs(), ids=_id)
def test_the_key_metric_does_not_fall_with_the_strength(pair):
    path, probe, family = pair
    doc = _doc(path)
    _name, sign = dose.key_metric(doc, probe)
    by = dose.medians(doc, probe, family)
    spread = by[0.0][2] - by[0.0][1]
    medians = [sign * m[0] for _s, m in sorted(by.items())]
    assert all(b >= a - spread for a, b in zip(medians, medians[1:], strict=False)), (medians, spread)
    assert medians[-1] > medians[0], medians  # the full plant above the control


# The causal politicians control, red in 2 of 3 builds under the PMI/VADER gate (a strict xfail here until
# 2026-11-26), is clean under the latent model's soft gaps in all three. planted-bert's pronoun-ratio control,
# red in one build of its scratch recipe (seed 1: works_as mean |log n| 1.98, the scatter of a tiny masked model
# with no association), is clean in all three builds from its pretrained start (2026-11-27). A control known to
# be red goes here, with why: {"<corpus>-<probe>-<family>": "reason"}.
RED_CONTROLS: dict[str, str] = {}


def _with_known_red_controls() -> list:
    return [
        pytest.param(pair, marks=pytest.mark.xfail(strict=True, reason=RED_CONTROLS[_id(pair)]))
        if _id(pair) in RED_CONTROLS
        else pair
        for pair in _pairs()
    ]


@pytest.mark.parametrize("pair", _with_known_red_controls(), ids=_id)
def test_the_controls_are_clean_in_every_build(pair):
    path, probe, family = pair
    seen = dose.seen_by_strength(_doc(path), probe, family)
    assert seen[0.0][1] == "control clean", seen[0.0]


def test_pages_without_a_results_file_say_they_are_stale():
    generated = {p.with_suffix(".md").name for p in RESULTS}
    for page in DOCS.glob("dose_response*.md"):
        if page.name not in generated:
            assert page.read_text(encoding="utf-8").lstrip().startswith(STALE), page.name
