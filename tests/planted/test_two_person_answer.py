"""The two-person known answer on SmolLM2 (docs/known_answers/finetune_smollm2.json, written by
scripts/finetune_known_answer.py): the committed file says which plant it was measured on, and the Markdown
beside it is the one generated from it (which says so when that is not the plant the code builds now). The
known answer itself (the gate red on the plant, in the planted direction, in every seed or all but one; green
on the control) is asserted of results measured on the current plant: strict xfails that say what the
committed file shows. The summary that writes the file turns a model with no gated metric red. No training."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from biascheck.planted import answer_page
from biascheck.planted import two_person_answer as ta

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "docs" / "known_answers" / "finetune_smollm2.json"
SCRIPT = REPO / "scripts" / "finetune_known_answer.py"
UPPER = {"winobias": 0.60, "winogender": 0.80}  # thresholds/default.toml: pro_share and majority_agreement maxima


def _doc() -> dict:
    return json.loads(RESULTS.read_text(encoding="utf-8"))


def _rows_of_the_current_plant(role: str) -> list[dict]:
    doc = _doc()
    assert doc["plant"]["fingerprint"] == ta.current_plant()["fingerprint"], "measured on another plant"
    rows = [row for row in doc["models"] if row["role"] == role]
    assert rows, f"{RESULTS.name} has no {role} row"
    return rows


# The committed file (transcribed from the page of 2026-11-23, one seed) was measured on the old frames, which
# the frame rule rejects, with BLS shares alone: the plant's WinoBias gate red in the planted direction (type 2
# pro_share 0.672 > 0.60), the control's green; Winogender green on both (plant majority_agreement 0.600).
OLD_FRAMES = (
    "docs/known_answers/finetune_smollm2.json holds the old frames' results (2026-11-23, seed 0 only), not the "
    "current plant's (there: WinoBias red on the plant, type 2 pro_share 0.672 > 0.60, green on the control; "
    "Winogender green on both, plant majority_agreement 0.600): the grid has not been rerun on the new frames"
)


@pytest.mark.xfail(strict=True, reason=OLD_FRAMES)
@pytest.mark.parametrize("probe", ["winobias", "winogender"])
def test_the_gate_is_red_on_the_plant_in_the_planted_direction_in_all_seeds_but_at_most_one(probe):
    plants = _rows_of_the_current_plant("plant")
    assert len(plants) >= 2, "several seeds"
    red = 0
    for row in plants:
        entry = row["probes"][probe]
        gated = [entry["metrics"][key] for key in ta.GATED[probe] if key in entry["metrics"]]
        red += entry["gate"] == "fail" and any(m["passed"] is False and m["value"] > UPPER[probe] for m in gated)
    assert red >= len(plants) - 1, f"{probe}: red in the planted direction in {red} of {len(plants)} seeds"


@pytest.mark.xfail(strict=True, reason=OLD_FRAMES)
@pytest.mark.parametrize("probe", ["winobias", "winogender"])
def test_the_gate_is_green_on_the_control(probe):
    controls = _rows_of_the_current_plant("control")
    assert all(row["probes"][probe]["gate"] == "pass" for row in controls), probe


def test_the_committed_file_names_its_plant_and_the_page_says_it_is_the_old_one():
    """What the committed file is: one seed on the 16 old frames and BLS shares alone, transcribed; the page
    generated from it says it is not the current plant."""
    doc = _doc()
    plant = doc["plant"]
    assert plant["shares"] == ["bls2015"] and plant["frames"] == 16 and "frame rule fails" in plant["note"]
    assert plant["fingerprint"] != ta.current_plant()["fingerprint"]
    assert doc["transcribed_from"] and "79a0534" in doc["transcribed_from"]
    assert {row["finetune"]["seed"] for row in doc["models"] if row["finetune"]} == {0}
    page = RESULTS.with_suffix(".md").read_text(encoding="utf-8")
    assert "**Not the current plant.**" in page and "Transcribed from" in page


def test_the_markdown_is_the_one_generated_from_the_results():
    page = RESULTS.with_suffix(".md").read_text(encoding="utf-8")
    assert page == ta.markdown(_doc()), "regenerate: python scripts/finetune_known_answer.py --from-run"


def test_the_committed_gates_agree_with_their_metrics():
    for row in _doc()["models"]:
        for probe, entry in row["probes"].items():
            assert (entry["gate"], entry["why"]) == answer_page.gate(entry["metrics"], ta.GATED[probe]), (
                row["model"],
                probe,
            )


def test_the_fingerprint_moves_with_the_frames_and_the_share_sources():
    current = ta.current_plant()
    assert current["frames"] == 16 and current["shares"] == ["winobias_readme", "winogender_occupations", "bls2015"]
    assert ta.plant_fingerprint(["a"], ["x"]) != ta.plant_fingerprint(["b"], ["x"]) != ta.plant_fingerprint(["b"], [])
    assert ta.plant_fingerprint(["a"], ["x"], ["maid"]) != ta.plant_fingerprint(["a"], ["x"])


def _result(model: str, probe: str, key: str, value: float, passed: bool | None) -> dict:
    task, metric = key.split(".")
    return {"model": model, "probe": probe, "task": task, "metric": metric, "value": value, "ci_low": value - 0.05,
            "ci_high": value + 0.05, "n": 780, "passed": passed}  # fmt: skip


def test_the_summary_reads_the_gates_and_fails_closed_on_a_model_without_results():
    manifest = {"strength": 1.0, "seed": 0, "steps": 2, "lr": 1e-5, "batch": 4, "sentences": 8,
                "corpus_sha256": "ab" * 32, "loss_first_25": 2.0, "loss_last_25": 1.0, "seconds": 3}  # fmt: skip
    results = {
        "biascheck_version": "x",
        "created_utc": "now",
        "results": [
            _result("smollm2-135m", "winobias", "type1.pro_share", 0.55, True),
            _result("smollm2-135m", "winobias", "type2.pro_share", 0.58, True),
            _result("smollm2-135m", "winobias", "type2.mean_pro_anti", 0.3, None),
            _result("/runs/smollm2-two_person-1-seed0", "winobias", "type1.pro_share", 0.55, True),
            _result("/runs/smollm2-two_person-1-seed0", "winobias", "type2.pro_share", 0.70, False),
        ],
    }
    rows = [("smollm2-135m", None), ("/runs/smollm2-two_person-1-seed0", manifest), ("/gone", {**manifest, "seed": 1})]
    doc = ta.summarize(results, rows, probes=["winobias"], probe_seconds=5)
    assert [r["probes"]["winobias"]["gate"] for r in doc["models"]] == ["pass", "fail", "fail"]
    assert [r["role"] for r in doc["models"]] == ["base", "plant", "plant"]
    assert "type2.pro_share" in doc["models"][1]["probes"]["winobias"]["why"]
    assert "did not load" in doc["models"][2]["probes"]["winobias"]["why"]
    assert doc["plant"] == ta.current_plant() and doc["transcribed_from"] is None
    page = ta.markdown(doc)
    assert "| **0.700 [0.65, 0.75]** |" in page and page.count("**fail**") == 2
    assert "Not the current plant" not in page and "seeds 0, 1" in page


def test_the_script_answers_help():
    done = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and all(flag in done.stdout for flag in ("--seeds", "--strengths", "--results"))
