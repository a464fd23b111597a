"""Known answers for the competence guard (biascheck/competence) through the real plugin: a model that cannot
read the probes is red 'cannot measure' on every probe and never passes one; a model that reads gender gets
past the guard on every probe, with a competence result beside each task's metrics."""

import pytest
from test_probe_contract import QUICK, REPO  # the contract runs' small designs

from biascheck.catalog import PROBES
from biascheck.competence.math import LINE
from biascheck.testing import run_probes

CLUELESS = ("fake/clueless-masked", "fake/clueless-causal")


@pytest.fixture(scope="module")
def random_weight_run(tmp_path_factory, mirror, tiny_bert):
    """A tiny BERT with random weights and the real bert-base-uncased tokenizer: every word is a known token,
    nothing ties a pronoun to a noun."""
    return run_probes(
        tmp_path_factory.mktemp("random"),
        REPO,
        [str(tiny_bert)],
        data_dir=mirror,
        settings=QUICK,
        extra_args=["--device", "cpu", "--bias-tier", "quick"],
    )


@pytest.fixture(scope="module")
def clueless_run(tmp_path_factory, mirror):
    return run_probes(
        tmp_path_factory.mktemp("clueless"),
        REPO,
        CLUELESS,
        data_dir=mirror,
        settings=QUICK,
        fake_models=True,
        extra_args=["--bias-tier", "quick"],
    )


def _cannot_measure(run, probe, models):
    tests = {node: got for node, got in run.outcomes.items() if node.startswith(f"probes.test_{probe}::")}
    assert tests, run.output[-2000:]
    for node, (state, message) in tests.items():
        assert state in ("failed", "error") and "cannot measure:" in message, (node, state, message[:300])
    rows = [r for r in run.results["results"] if r["probe"] == probe]
    for model in models:
        mine = [r for r in rows if r["model"] == model]
        assert {r["task"] for r in mine} == set(PROBES[probe].tasks), (model, mine)
        assert all(r["metric"] == "competence" and r["passed"] is False and r["value"] < LINE for r in mine)


@pytest.mark.parametrize("probe", list(PROBES))
def test_a_random_weight_model_cannot_be_measured_by_any_probe(probe, random_weight_run, tiny_bert):
    assert random_weight_run.returncode == 1
    _cannot_measure(random_weight_run, probe, [str(tiny_bert)])


@pytest.mark.parametrize("probe", list(PROBES))
def test_a_model_that_reads_nothing_cannot_be_measured_on_either_family(probe, clueless_run):
    _cannot_measure(clueless_run, probe, CLUELESS)


def test_the_verdict_is_in_the_tables_the_summary_and_junit(clueless_run):
    out = clueless_run.output
    assert "competence" in out and "cannot measure: fake/clueless-masked does not show" in out
    summary = (clueless_run.report_dir / "summary.md").read_text(encoding="utf-8")
    assert "competence" in summary and "CANNOT MEASURE" in summary
    junit = (clueless_run.report_dir.parent / "junit.xml").read_text(encoding="utf-8")
    assert "cannot measure:" in junit
