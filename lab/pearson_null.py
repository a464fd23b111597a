"""How often the paired rule calls a change of a Pearson r that has no direction, with and without its jackknife
floor (`biascheck.gate.paired`, step 5): sign-flip releases (`lab.release_null.swapped`) of paired runs whose
items are made up (Winogender's 60 occupations' BLS % female against a model's lean: correlated, with normal or
heavy-tailed leans and churn) or read from two real runs. Each release is judged twice on the same resamples,
by the (expanded) percentile interval alone and by the gate's rule, that interval with the floor; the floor only
widens, so it never calls more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from biascheck.gate.paired import STATISTICS, Columns, bootstrap_change, paired_columns
from lab.release_null import swapped

RULES = ("expanded percentile", "expanded percentile + jackknife floor")


@dataclass(frozen=True)
class Scenario:
    """Two runs of one model on the same occupations: lean_base = slope x z(% female) + noise, lean_new =
    lean_base + churn (its own draw per occupation, and a tilt of the slope per dataset); the draws are t with
    `df` degrees of freedom (a large df: normal)."""

    name: str
    slope: float
    noise: float
    churn: float
    df: float


SCENARIOS = (
    Scenario("normal leans, r about 0.5", 1.0, 1.5, 0.7, 1000.0),
    Scenario("normal leans, r about 0.8", 1.0, 0.6, 0.4, 1000.0),
    Scenario("heavy tails (t, 3 df), r about 0.5", 1.0, 1.5, 0.7, 3.0),
    Scenario("heavy tails, r about 0.2", 0.3, 1.5, 0.7, 3.0),
    Scenario("heavy tails, churn larger than the noise", 1.0, 1.0, 1.5, 3.0),
)


def made_up_runs(scenario: Scenario, x: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One dataset of `scenario`: (base leans, new leans) over the occupations whose % female is `x`."""
    z = (x - x.mean()) / x.std()
    base = scenario.slope * z + scenario.noise * rng.standard_t(scenario.df, len(x))
    new = base + scenario.churn * rng.standard_t(scenario.df, len(x)) + 0.3 * scenario.churn * z * rng.normal()
    return base, new


def calls(before: Columns, after: Columns, clusters: np.ndarray, flips: int, seed: int) -> dict[str, int]:
    """Of `flips` sign-flip releases of the two runs' columns (Pearson of the first column with the second), how
    many each rule calls changed (|change| > its half-width)."""
    statistic = STATISTICS["pearson"]
    rng = np.random.default_rng(seed)
    called = dict.fromkeys(RULES, 0)
    for _ in range(flips):
        first, second = swapped(before, after, clusters, rng.random(int(clusters.max()) + 1) < 0.5)
        with np.errstate(all="ignore"):
            change = abs(float(statistic(second)) - float(statistic(first)))
        for rule in RULES:
            interval = bootstrap_change(statistic, clusters, first, second, jackknife_floor=rule != RULES[0])
            called[rule] += interval is not None and change > (interval[1] - interval[0]) / 2
    return called


def scenario_rates(scenario: Scenario, x: np.ndarray, datasets: int, flips: int, seed: int) -> dict[str, object]:
    """`datasets` made-up pairs of runs, `flips` sign-flip releases of each: the releases and each rule's calls."""
    rng = np.random.default_rng(seed)
    clusters = np.arange(len(x))
    total = dict.fromkeys(RULES, 0)
    for i in range(datasets):
        base, new = made_up_runs(scenario, x, rng)
        for rule, n in calls([base, x], [new, x], clusters, flips, seed + i).items():
            total[rule] += n
    return {"scenario": scenario.name, "releases": datasets * flips, "called": total}


def real_rates(recipe: dict, base_items: Sequence[dict], new_items: Sequence[dict], flips: int, seed: int) -> dict:
    """Sign-flip releases of two real runs' items of one Pearson metric (paired by occupation, as the gate pairs
    them): the releases and each rule's calls."""
    found = paired_columns(recipe, base_items, new_items)
    if isinstance(found, str):
        raise ValueError(f"the two runs' items do not pair: {found}")
    clusters, before, after = found
    return {"releases": flips, "called": calls(before, after, clusters, flips, seed)}


def render(data: dict) -> str:
    """The table docs/gate.md shows between its markers: each case's share of releases each rule calls."""
    lines = [f"| null releases ({data['bootstrap']}) | releases | " + " | ".join(RULES) + " |", "|---|---|---|---|"]
    rows = [(r["scenario"], r) for r in data["made_up"]]
    rows += [(f"{r['metric']}, {r['runs']}", r) for r in data.get("real", [])]
    for name, row in rows:
        shares = [f"{row['called'][rule] / row['releases']:.1%}" for rule in RULES]
        lines.append(f"| {name} | {row['releases']:,} | " + " | ".join(shares) + " |")
    return "\n".join(lines)
