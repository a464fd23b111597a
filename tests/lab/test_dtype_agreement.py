"""lab/scripts/dtype_agreement.py: the float32 and half-precision runs compared metric by metric, by hand; the
committed numbers say what the script's rule says of them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from script_module import load_script

REPO = Path(__file__).resolve().parents[2]
script = load_script(REPO / "lab" / "scripts" / "dtype_agreement.py")


def _result(metric, value, low, high, passed=None, probe="p", task="t"):
    return {"model": "m", "probe": probe, "task": task, "metric": metric, "value": value, "ci_low": low,
            "ci_high": high, "passed": passed}  # fmt: skip


def test_each_metric_s_change_is_read_over_the_float32_half_width():
    full = {"results": [
        _result("a", 0.50, 0.40, 0.60, passed=True),   # half-width 0.10
        _result("b", 1.00, 0.00, 2.00),                # reported only
        _result("c", 0.30, 0.20, 0.40, passed=True),
        _result("d", float("nan"), 0.0, 1.0),           # no number: left out
        _result("g", 1.0, 1.0, 1.0, passed=True, probe="competence"),  # the guard: left out
    ]}  # fmt: skip
    half = {"results": [
        _result("a", 0.52, 0.42, 0.62, passed=True),   # 0.02 / 0.10 = 0.2
        _result("b", 1.50, 0.50, 2.50),                # 0.5 / 1.0 = 0.5, not gated
        _result("c", 0.34, 0.24, 0.44, passed=False),  # 0.04 / 0.10 = 0.4, and the verdict differs
        _result("d", 0.5, 0.0, 1.0),
        _result("g", 1.0, 1.0, 1.0, passed=True, probe="competence"),
    ]}  # fmt: skip
    rows = {r["metric"]: r for r in script.compare(full, half)}
    assert set(rows) == {"a", "b", "c"}
    assert rows["a"]["ratio"] == pytest.approx(0.2) and rows["b"]["ratio"] == pytest.approx(0.5)
    assert rows["c"]["change"] == pytest.approx(0.04) and not rows["b"]["gated"]
    found = script.summary(list(rows.values()))
    assert found["gated"] == 2 and found["gated_beyond_a_quarter"] == ["p.t.c"]
    assert found["verdicts_that_differ"] == ["p.t.c"] and found["largest_ratio"]["metric"] == "b"


def test_the_committed_numbers_follow_from_their_rows():
    path = REPO / "docs" / "numbers" / "dtype_agreement.json"
    if not path.is_file():
        pytest.skip("no dtype comparison committed yet")
    doc = json.loads(path.read_text())
    for row in doc["rows"]:
        assert row["change"] == pytest.approx(row["half"] - row["float32"])
        assert row["ratio"] == pytest.approx(abs(row["change"]) / row["half_width"]) or math.isinf(row["ratio"])
    assert doc["summary"] == json.loads(json.dumps(script.summary(doc["rows"])))
