"""`pytest --model-list FILE --bias-ray`: each checkpoint's tests run as one Ray task (`biascheck.sweeps.on_ray`).

The task runs the same pytest command for its one model (`--model CKPT` in place of the model list) in a
fresh process, as a pytest-xdist worker would: the plugin's worker path packs each test's results onto its
report (`biascheck.gate_plugin.workers.Shipping`), and the task returns the reports. The driver, the pytest process
the user started, replays them into its own session (`pytest_runtest_logreport`), so its summary, report,
store and baseline gate see what a serial run sees; only the driver writes them. A task that fails after its
retries turns each of its tests into a failed report that says why; a test the task did not report is failed
too. Tests that belong to no model run in the driver as usual.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pytest

from biascheck.gate_plugin.workers import model_of_item
from biascheck.invocation import without_options
from biascheck.sweeps import on_ray

# Options the driver's command line holds that a task's command must not: it gets one --model instead.
_DROPPED_WITH_VALUE = ("--model", "--model-list", "--bias-ray-address")
_DROPPED = ("--bias-ray",)


def task_args(args: Sequence[str], model: str) -> list[str]:
    """The driver's pytest arguments for one checkpoint's task: the models and the Ray options out, the
    checkpoint in."""
    return [*without_options(args, _DROPPED_WITH_VALUE, _DROPPED), f"--model={model}"]


class _Reports:
    """In a task's pytest session: act as an xdist worker (results packed onto the reports, no summary, no
    store) and keep every report, serialised."""

    def __init__(self) -> None:
        self.reports: list[dict[str, Any]] = []
        self.config: pytest.Config | None = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_configure(self, config: pytest.Config) -> None:
        config.workerinput = {"workerid": "ray"}  # type: ignore[attr-defined]
        config.workeroutput = {}  # type: ignore[attr-defined]
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        assert self.config is not None
        self.reports.append(self.config.hook.pytest_report_to_serializable(config=self.config, report=report))


def run_checkpoint(directory: str, args: list[str], model: str) -> list[dict[str, Any]]:
    """A Ray task's body: the driver's pytest command for `model` alone, run where the driver was started;
    its test reports, serialised. A session that could not run its tests raises (and Ray retries it)."""
    os.chdir(directory)
    reports = _Reports()
    code = pytest.main(task_args(args, model), plugins=[reports])
    if code in (pytest.ExitCode.INTERRUPTED, pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR):
        raise RuntimeError(f"pytest for {model} ended with {pytest.ExitCode(code).name}")
    return reports.reports


def _failed(item: pytest.Item, message: str) -> pytest.TestReport:
    return pytest.TestReport(
        nodeid=item.nodeid,
        location=item.location,
        keywords=dict.fromkeys(item.keywords, 1),
        outcome="failed",
        longrepr=message,
        when="call",
    )


class RaySweep:
    """The driver's test loop when --bias-ray is given."""

    def __init__(self, config: pytest.Config, models: Sequence[str], body: Any = run_checkpoint) -> None:
        self.config = config
        self.models = tuple(models)
        self.body = body

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool | None:
        if session.testsfailed and not session.config.option.continue_on_collection_errors:
            return None  # pytest's own loop stops on collection errors
        if session.config.option.collectonly:
            return None
        groups: dict[str, list[pytest.Item]] = {}
        local: list[pytest.Item] = []
        for item in session.items:
            model = model_of_item(item)
            (groups.setdefault(model, []) if model is not None else local).append(item)
        for i, item in enumerate(local):
            item.config.hook.pytest_runtest_protocol(item=item, nextitem=local[i + 1] if i + 1 < len(local) else None)
        if groups:
            self._run_on_ray(groups)
        return True

    def _run_on_ray(self, groups: dict[str, list[pytest.Item]]) -> None:
        hook = self.config.hook
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")

        def say(line: str) -> None:
            if reporter is not None:
                reporter.write_line(line)

        ray = on_ray.connect(self.config.getoption("bias_ray_address"), log=say)
        directory = str(self.config.invocation_params.dir)
        args = list(self.config.invocation_params.args)
        calls = [(model, (directory, args, model)) for model in groups]
        device = str(self.config.getoption("bias_device", "auto") or "auto")

        def replay(outcome: on_ray.Outcome) -> None:
            items = {item.nodeid: item for item in groups[outcome.label]}
            reports = [] if outcome.failed else outcome.value
            seen = set()
            for data in reports:
                report = hook.pytest_report_from_serializable(config=self.config, data=data)
                if report.nodeid not in seen and report.nodeid in items:
                    hook.pytest_runtest_logstart(nodeid=report.nodeid, location=report.location)
                seen.add(report.nodeid)
                hook.pytest_runtest_logreport(report=report)
            why = (
                f"the Ray task for {outcome.label} {outcome.error}"
                if outcome.failed
                else f"the Ray task for {outcome.label} did not report this test"
            )
            for nodeid, item in items.items():
                if nodeid not in seen:  # never dropped: what no task measured is red, with the reason
                    hook.pytest_runtest_logstart(nodeid=nodeid, location=item.location)
                    hook.pytest_runtest_logreport(report=_failed(item, why))
                hook.pytest_runtest_logfinish(nodeid=nodeid, location=item.location)

        on_ray.run_tasks(ray, self.body, calls, on_ray.resource_request(ray, device), on_done=replay)


def register(config: pytest.Config, models: Sequence[str]) -> None:
    """From the plugin's configure: the Ray loop on the driver of a --bias-ray run (not in a task, not under
    pytest-xdist, whose own workers it would replace)."""
    if not config.getoption("bias_ray", False) or hasattr(config, "workerinput"):
        return
    if getattr(config.option, "dist", "no") != "no":
        raise pytest.UsageError("--bias-ray and pytest-xdist (-n, --dist) do not mix: Ray runs one task a model.")
    config.pluginmanager.register(RaySweep(config, models), "biascheck-ray")
