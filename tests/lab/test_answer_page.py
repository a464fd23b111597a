"""The fine-tuned known answers' shared page rules (`lab.answer_page`), by hand."""

from __future__ import annotations

from lab import answer_page as ap


def _m(value: float, passed: bool | None) -> dict:
    return {"value": value, "ci_low": value - 0.0123, "ci_high": value + 0.0123, "n": 10, "passed": passed}


def test_the_gate_fails_closed_on_a_missing_or_unjudged_gated_metric_and_on_any_failed_one():
    assert ap.gate({"a.x": _m(0.5, True), "a.y": _m(0.1, None)}, ["a.x"])[0] == "pass"
    assert ap.gate({"a.y": _m(0.1, True)}, ["a.x"]) == (
        "fail",
        "no a.x recorded for this model (it did not load or its test errored)",
    )
    assert ap.gate({"a.x": _m(0.5, None)}, ["a.x"])[0] == "fail"
    assert ap.gate({"a.x": _m(0.5, True), "a.z": _m(0.9, False)}, ["a.x"]) == (
        "fail",
        "outside the default thresholds: a.z",
    )


def test_a_cell_shows_value_interval_and_bold_when_failed():
    assert ap.metric_cell(_m(0.5, True)) == "0.500 [0.488, 0.512]"
    assert ap.metric_cell(_m(0.5, False), digits=2) == "**0.500 [0.49, 0.51]**"
    assert ap.metric_cell(None) == ap.metric_cell({"value": None}) == "—"


def test_a_checkpoint_given_by_path_is_found_by_its_folder_name():
    results = {"results": [{"model": "tuned-1", "probe": "p", "task": "t", "metric": "m", "value": 1.0}]}
    assert list(ap.model_metrics(results, "/runs/tuned-1/", "p")) == ["t.m"]
    assert ap.model_metrics(results, "/runs/other", "p") == {} and ap.model_metrics(results, "tuned-1", "q") == {}


def test_a_row_s_identity_names_the_base_and_each_fine_tune_by_its_strength_and_seed():
    assert ap.identity(None, ("seed",)) == {"role": "base", "model": "smollm2-135m", "finetune": None}
    manifest = {"strength": 0.5, "seed": 2, "steps": 545, "unrecorded": 1}
    assert ap.identity(manifest, ("seed", "steps", "lr")) == {
        "role": "strength 0.5",
        "model": "smollm2 fine-tuned @0.5 seed 2",
        "finetune": {"seed": 2, "steps": 545, "lr": None},
    }
    assert [ap.role(s) for s in (0.0, 1.0, 0.25)] == ["control", "plant", "strength 0.25"]
