"""docs/probes.md's "Two real models" block (lab/scripts/two_real_models.py): the block is `render` of the committed
file, the file's thresholds are the default profile's and its verdicts follow from its values, and `keep`
reads a run's results.json and pytest closing line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from script_module import load_script

REPO = Path(__file__).resolve().parents[2]
SCRIPT = load_script(REPO / "lab" / "scripts" / "two_real_models.py")
RERUN = "run: python lab/scripts/two_real_models.py run (about an hour on 2 CPU cores), or keep on runs made already"


@pytest.mark.parametrize("tier", ["quick", "full", "full-bbq"])
def test_the_page_block_is_render_of_the_committed_file(tier):
    """Each tier's block is `render` of its file; the full tier's (without BBQ, and BBQ's alone) is on the page
    exactly when its file is committed."""
    chosen = SCRIPT.TIERS[tier]
    page = SCRIPT.PAGE.read_text(encoding="utf-8")
    start, end = page.find(chosen.start), page.find(chosen.end)
    if tier != "quick" and not chosen.numbers.exists():
        assert start < 0 and end < 0, f"a {tier} block without {chosen.numbers.name}"
        return
    data = json.loads(chosen.numbers.read_text(encoding="utf-8"))
    assert 0 <= start < end, f"docs/probes.md lost the {tier} two-model block; put the markers back and {RERUN}"
    assert page[start : end + len(chosen.end)] + "\n" == SCRIPT.render(data, chosen), f"the block was edited: {RERUN}"
    assert data["command"] == chosen.command() and all(m["tier"] == chosen.tier for m in data["models"].values())


def test_the_files_thresholds_are_today_s_and_their_verdicts_follow_from_their_values():
    from biascheck.catalog import PROBES
    from biascheck.thresholds import load_profile

    profile = load_profile("default", [REPO / "thresholds"], PROBES)
    files = [t.numbers for t in SCRIPT.TIERS.values() if t.numbers.exists()]
    runs = [(m, r) for f in files for m, r in json.loads(f.read_text(encoding="utf-8"))["models"].items()]
    assert {m for m, _ in runs} == set(SCRIPT.MODELS)
    for model, run in runs:
        for row in run["gated"]:
            if row["metric"] == SCRIPT.COMPETENCE:
                continue
            threshold = profile.lookup(row["probe"], row["task"], row["metric"])
            assert threshold is not None and (row["min"], row["max"]) == (threshold.min, threshold.max), (model, row)
            if row["value"] is None:  # no number: the gate failed closed, and the file keeps the probe's reason
                assert row["passed"] is False and "NOT MEASURABLE" in row["note"], (model, row)
                continue
            assert row["passed"] == threshold.accepts(row["value"]), (model, row)
            assert row["ci_low"] is None or row["ci_low"] <= row["value"] <= row["ci_high"], (model, row)


def test_keep_reads_the_gated_results_the_guard_and_the_closing_line():
    threshold = {"min": 0.4, "max": 0.6, "why": "w", "origin": "o"}
    result = {"probe": "winobias", "task": "type2", "value": 0.64, "ci_low": 0.6, "ci_high": 0.69, "n": 391}
    results = {
        "tier": {"name": "quick"},
        "results": [
            {**result, "metric": "pro_share", "threshold": threshold, "passed": False, "note": ""},
            {**result, "metric": "mean_pro_anti", "threshold": None, "passed": None, "note": ""},
            {
                **result,
                "metric": "competence",
                "value": 1.0,
                "threshold": threshold,
                "passed": True,
                "note": "20 of 20",
            },
        ],
    }
    log = "...\n==== 3 failed, 18 passed, 9 skipped in 696.12s (0:11:36) ====\n"
    kept = SCRIPT.keep(results, log)
    assert (kept["outcome"], kept["wall_s"], kept["tier"]) == ("3 failed, 18 passed, 9 skipped", 696, "quick")
    assert [row["metric"] for row in kept["gated"]] == ["pro_share", "competence"]
    assert kept["gated"][1]["note"] == "20 of 20" and "note" not in kept["gated"][0]
    assert SCRIPT.cell(kept["gated"][0], None) == "0.640 [0.600, 0.690] **FAIL**"
    assert SCRIPT.cell(None, {"passed": False}) == "cannot measure" and SCRIPT.cell(None, None) == "—"
