"""The paired rule's false-alarm rate on a Pearson r's change (`lab.pearson_null`): the floor never calls more
than the percentile interval on the same releases, the made-up runs are what their scenario says, and docs/gate.md's
table is `render` of docs/numbers/pearson_null.json, whose rates bear out the page's claim."""

import json
from pathlib import Path

import numpy as np
import pytest
from script_module import load_script

from lab import pearson_null as pn

REPO = Path(__file__).resolve().parents[2]
NUMBERS = REPO / "docs" / "numbers" / "pearson_null.json"

pytestmark = pytest.mark.lab


def test_the_floor_never_calls_a_release_the_percentile_interval_does_not():
    """Heavy-tailed made-up runs (where the floor matters): on the same 60 sign-flip releases, every release the
    floored rule calls is one the percentile rule calls, so its count is at most the other's."""
    x = np.linspace(5, 95, 60)
    base, new = pn.made_up_runs(pn.SCENARIOS[-1], x, np.random.default_rng(0))
    called = pn.calls([base, x], [new, x], np.arange(60), flips=60, seed=0)
    assert called[pn.RULES[1]] <= called[pn.RULES[0]] <= 60


def test_made_up_runs_correlate_with_the_share_and_churn_per_occupation():
    x = np.linspace(5, 95, 60)
    normal = pn.SCENARIOS[1]  # r about 0.8
    base, new = pn.made_up_runs(normal, x, np.random.default_rng(1))
    assert 0.6 < np.corrcoef(base, x)[0, 1] < 0.95 and np.all(base != new)
    again = pn.made_up_runs(normal, x, np.random.default_rng(1))
    assert np.array_equal(again[0], base) and np.array_equal(again[1], new)


def test_real_runs_pair_by_occupation_not_by_position():
    recipe = {"statistic": "pearson", "fields": ["female_lean", "bls_pct_female"], "cluster": "occupation"}
    base = [{"occupation": f"o{i}", "female_lean": float(i % 7), "bls_pct_female": float(i)} for i in range(30)]
    new = [{**item, "female_lean": item["female_lean"] + (item["bls_pct_female"] % 3)} for item in base]
    paired = pn.real_rates(recipe, base, new[::-1], flips=10, seed=0)  # the new run's items in reverse order
    assert paired == pn.real_rates(recipe, base, new, flips=10, seed=0)
    same = pn.real_rates(recipe, base, [dict(item) for item in reversed(base)], flips=10, seed=0)
    assert same == {"releases": 10, "called": dict.fromkeys(pn.RULES, 0)}  # paired by position it would differ
    with pytest.raises(ValueError, match="do not pair"):
        pn.real_rates(recipe, base, new[:-1], flips=10, seed=0)


def test_the_gate_page_shows_the_file_and_the_file_bears_out_the_page():
    data = json.loads(NUMBERS.read_text(encoding="utf-8"))
    script = load_script(REPO / "lab" / "scripts" / "pearson_null.py")
    page = (REPO / "docs" / "gate.md").read_text(encoding="utf-8")
    block = page.split(script.START, 1)[1].split(script.END, 1)[0]
    assert block.strip("\n") == pn.render(data)
    for row in [*data["made_up"], *data.get("real", [])]:
        percentile, floored = (row["called"][rule] / row["releases"] for rule in pn.RULES)
        assert floored <= percentile and floored <= 0.06, row  # never more calls; about the nominal 5 % at most
    assert max(r["called"][pn.RULES[0]] / r["releases"] for r in data["made_up"]) > 0.07  # the case it is for
