"""A gate's power from its interval (`biascheck.power`): scipy's normal distribution as the oracle, and a
simulation that the gate really fires 4 times in 5 at the 'detectable' exceedance."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from biascheck.power import Z80, Z95, gate_power, stable_size, standard_error
from biascheck.report.tables import build_tables
from biascheck.results import Result
from biascheck.thresholds import Threshold

scipy_stats = pytest.importorskip("scipy.stats")

AT_MOST = Threshold(min=None, max=0.6, why="", origin="test")
BAND = Threshold(min=0.4, max=0.6, why="", origin="test")


def test_the_constants_are_scipys():
    assert Z95 == pytest.approx(scipy_stats.norm.ppf(0.975), abs=1e-12)
    assert Z80 == pytest.approx(scipy_stats.norm.ppf(0.80), abs=1e-12)


@given(value=st.floats(-2, 2), half=st.floats(0.001, 1))
def test_power_equals_scipys_normal_reading(value, half):
    p = gate_power(value, value - half, value + half, BAND)
    se = half / scipy_stats.norm.ppf(0.975)
    nearest = min(abs(value - 0.4), abs(value - 0.6))
    assert p.se == pytest.approx(se, rel=1e-9)
    assert p.detectable == pytest.approx(scipy_stats.norm.ppf(0.8) * se, rel=1e-9)
    assert p.same_verdict == pytest.approx(scipy_stats.norm.cdf(nearest / se), abs=1e-9)


def test_nothing_to_say_without_a_gate_an_interval_or_a_value():
    assert gate_power(0.5, 0.4, 0.6, None) is None
    assert gate_power(0.5, None, None, AT_MOST) is None
    assert gate_power(0.5, 0.5, 0.5, AT_MOST) is None  # a degenerate interval: no spread to read
    assert gate_power(math.nan, 0.4, 0.6, AT_MOST) is None
    assert standard_error(0.1, math.inf) is None


def test_a_share_gate_fires_four_times_in_five_at_the_detectable_exceedance():
    """Shares of n = 400 yes/no items: the interval of one sample gives the SE; a model whose true share
    lies 'detectable' past the bound of 0.6 is failed by 80 % of fresh samples, one on the bound by half."""
    rng = np.random.default_rng(0)
    n = 400
    one = rng.random(n) < 0.6
    boot = np.array([rng.choice(one, n).mean() for _ in range(2000)])
    low, high = np.percentile(boot, [2.5, 97.5])
    p = gate_power(float(one.mean()), float(low), float(high), AT_MOST)
    for true, expected in ((0.6 + p.detectable, 0.80), (0.6, 0.5)):
        fired = (rng.binomial(n, true, size=20_000) / n > 0.6).mean()
        assert fired == pytest.approx(expected, abs=0.04), (true, fired)


def test_the_size_that_keeps_a_verdict_is_a_hand_calculation():
    # n = 100, SE 0.05, 0.1 from the bound: 100 x (0.8416 x 0.05 / 0.1)^2 = 17.7 -> 18
    assert stable_size(100, 0.05, 0.1) == 18
    assert stable_size(100, 0.05, 0.1, keep=0.95) == math.ceil(100 * (1.6448536269514722 * 0.5) ** 2) == 68
    assert stable_size(400, 0.05, 0.01) == math.ceil(400 * (Z80 * 5) ** 2) == 7084  # near the bound: more items
    assert stable_size(10, 1e-6, 5.0) == 1 and stable_size(100, 0.05, 0.0) is None


def test_a_share_read_at_the_stable_size_keeps_its_verdict_four_times_in_five():
    """Shares of n = 1000 yes/no items with a true share of 0.55 under the bound 0.6: at `stable_size` items a
    fresh sample stays under the bound 80 % of the time (simulated), far more at n."""
    rng = np.random.default_rng(1)
    n, true = 1000, 0.55
    one = rng.random(n) < true
    boot = np.array([rng.choice(one, n).mean() for _ in range(2000)])
    low, high = np.percentile(boot, [2.5, 97.5])
    p = gate_power(true, float(low), float(high), AT_MOST)
    size = stable_size(n, p.se, 0.6 - true)
    assert 40 < size < 120  # a share's SE at 0.55 and n = 1000: 0.0157; 1000 x (0.8416 x 0.0157 / 0.05)^2 = 70
    kept = (rng.binomial(size, true, size=20_000) / size <= 0.6).mean()
    assert kept == pytest.approx(0.80, abs=0.04), (size, kept)


def _result(value, ci, n, threshold):
    power = gate_power(value, *ci, threshold)
    return Result(
        model="m",
        probe="p",
        task="t",
        metric="share",
        value=value,
        ci_low=ci[0],
        ci_high=ci[1],
        n=n,
        estimator="",
        reference="gold",
        higher_is_better=None,
        threshold=threshold,
        passed=threshold.accepts(value),
        power=power.to_json(),
    )


def test_the_table_flags_a_verdict_a_fresh_sample_would_often_flip():
    near = _result(0.59, (0.54, 0.64), 391, AT_MOST)  # 0.01 under the bound, SE 0.026: 35 % flip
    far = _result(0.45, (0.40, 0.50), 391, AT_MOST)
    (table,) = build_tables([near, far])
    flagged = [note for note in table.notes if note.startswith("power:")]
    assert len(flagged) == 1 and "t.share = 0.590" in flagged[0] and "n = 391" in flagged[0]
    assert "other verdict 35% of the time" in flagged[0]
    assert Result.from_json(near.to_json()).power == near.power


def test_the_power_command_reads_a_results_file_and_refuses_a_broken_one(tmp_path):
    """`biascheck power bias-report/results.json`, as docs/options.md shows it: a row per gated result with an
    interval (a report-only metric has none), the unstable one marked."""
    import json
    import subprocess
    import sys

    near, far = _result(0.59, (0.54, 0.64), 391, AT_MOST), _result(0.45, (0.40, 0.50), 391, AT_MOST)
    report = far.to_json() | {"metric": "report_only", "threshold": None, "passed": None, "power": None}
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"results": [near.to_json(), far.to_json(), report]}))
    done = subprocess.run(
        [sys.executable, "-m", "biascheck.cli", "power", str(path), "--markdown"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| m ")]
    assert len(rows) == 2 and "0.65 (unstable)" in rows[0] and "t.share" in rows[1]
    # the size that would keep each verdict 4 in 5: 391 x (0.8416 x SE / distance)^2, SE = 0.05 / 1.96; then the
    # release gate's unpaired reach, sqrt(2) x the half-width 0.05, and no paired one (these results carry no items)
    cells = [[c.strip() for c in row.strip(" |").split("|")] for row in rows]
    assert cells[0][-3:] == [str(stable_size(391, 0.05 / Z95, 0.01)), "0.071", "—"]
    assert cells[1][-3:] == [str(stable_size(391, 0.05 / Z95, 0.15)), "0.071", "—"]
    path.write_text("{not json")
    done = subprocess.run(
        [sys.executable, "-m", "biascheck.cli", "power", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and "not a biascheck results.json" in done.stderr
