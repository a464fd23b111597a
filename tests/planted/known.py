"""Shared by the known-answer tests: one pytest run of the probes on a planted family pair at
strength 1 (the plant) and 0 (the control), and a metric read from its results.json."""

from __future__ import annotations

from pathlib import Path

from biascheck.testing import ProbeRun, run_probes
from biascheck.tiers import untiered_settings

REPO = Path(__file__).resolve().parents[2]
# The politicians probe's gated gaps read its latent model: one fit instead of six saves ~100 s a model (the
# known answers were measured at this grid, tests/planted/test_known_answers.py).
KNOWN_ANSWER_OVERRIDES = ("politicians.grid=quick",)


def run_planted(directory: Path, mirror: Path, families: tuple[str, ...], probes: tuple[str, ...]) -> ProbeRun:
    models = [f"{family}@{strength}" for family in families for strength in ("1", "0")]
    run = run_probes(
        directory,
        REPO,
        models,
        data_dir=mirror,
        settings=untiered_settings(*KNOWN_ANSWER_OVERRIDES),  # the design the known answers were measured at
        extra_args=["-k", " or ".join(probes)],
        timeout=3600,
    )
    assert run.results, f"the planted run wrote no results.json:\n{run.output[-3000:]}"
    return run


def metric(run: ProbeRun, model: str, probe: str, task: str, name: str) -> dict:
    found = [
        r
        for r in run.results["results"]
        if r["model"] == model and r["probe"] == probe and r["task"] == task and r["metric"] == name
    ]
    assert len(found) == 1, (model, probe, task, name)
    return found[0]
