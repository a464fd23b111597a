"""Regression tracking inside a pytest run: results from xdist workers, the results store, the baseline gate.

Registered by `biascheck.plugin` (a second plugin object, so the main plugin stays small). It reads
the run's state from `biascheck.session` and never imports the plugin.

1. Workers (pytest-xdist): one model per worker, and the results recorded on a worker shipped to the
   controller with every test report (`biascheck.gate_plugin.workers`). The controller alone writes the summary,
   the report files and the store.
2. End of the run (``pytest_sessionfinish``, controller or plain run, not on interrupt): build the
   results.json payload; compare it with ``--bias-baseline NAME`` from the store (noise from the
   intervals, the baseline's own spread when it holds several checkpoints, and ``--bias-noise RUN``);
   save it under ``--bias-save NAME`` (or under the baseline name with ``--bias-baseline-regen``).
   A regression beyond the noise sets the exit status to 1 (tests failed).
3. Terminal summary: the comparison table and, on a regression, the command that regenerates the
   baseline; the same as Markdown in the report directory (``baseline.md``) and the job summary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from biascheck.errors import BiascheckError
from biascheck.gate import admit
from biascheck.gate_plugin import before_run, ray_pytest
from biascheck.gate_plugin import outcomes as measured
from biascheck.gate_plugin.before_run import regen_command
from biascheck.gate_plugin.workers import (
    REPORT_MODEL,
    Shipping,
    is_worker,
    model_group_scheduler,
    model_of_item,
    model_of_report,
)
from biascheck.results import RunPayload, run_payload
from biascheck.session import SESSION_KEY, BiasSession


@dataclass(eq=False)  # a plugin object must be hashable
class Tracking:
    """The tracking state of one run (one per process; the controller's is the one that counts)."""

    config: pytest.Config
    shipping: Shipping = field(default_factory=Shipping)  # xdist: results from the workers, their provenance
    comparison: list[Any] | None = None
    messages: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # the run stays as it is; terminal and summary.md say them
    own_failed: bool = False  # the run failed before any comparison: regenerating a baseline from it is refused
    markdown: str = ""
    regressed: bool = False  # the gate failed: a regression, a missing metric, no usable baseline, a store error
    failures: list[tuple[str, str]] = field(default_factory=list)  # (name, message): one JUnit testcase each
    mismatches: list[str] = field(default_factory=list)  # compared anyway (--bias-allow-mismatch)
    outcomes: dict[str, dict[str, set[str]]] = field(default_factory=dict)  # model -> seen/ran/skip reasons
    selected: set[str] = field(default_factory=set)  # every test that reported, probe or not
    deselected: int = 0  # by -k / -m (seen here without xdist)
    skipped_tests: dict[str, dict[str, str]] = field(default_factory=dict)  # node id -> model, test, reason
    stopped: str = ""  # the usage error that stopped the run while collecting, for the job summary

    @property
    def session(self) -> BiasSession:
        return self.config.stash[SESSION_KEY]

    # -- 0. before the run: refuse a save that would silently overwrite ---------------------------
    def check_save_name(self) -> None:
        """Before the run (`biascheck.gate_plugin.before_run`): options, the save name, the stored runs named."""
        before_run.check_options(self.config, self.session.config)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        before_run.check_models(self.config, self.session, session.items)

    # -- 1. xdist: one model per worker, results shipped from the workers to the controller ----------
    @pytest.hookimpl(optionalhook=True, tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        """`-n N --dist loadgroup`: every test of one model goes to one worker, so each worker loads
        its models once (xdist's own xdist_group suffix on node ids no longer works under pytest 9)."""
        if config.getvalue("dist") != "loadgroup":
            return None
        return model_group_scheduler(config, log, self.session.config.models)

    # -- 1. xdist: ship results from the workers, rebuild them on the controller -----------------
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: Any) -> Any:
        outcome = yield
        # The gate counts the test for its model by this ('' for a test on no model), never by parsing the
        # node id (which escapes non-ASCII, and where "[model2-smollm2-135m-instruct...]" reads as a model).
        setattr(outcome.get_result(), REPORT_MODEL, model_of_item(item) or "")
        if not is_worker(self.config):
            return
        shipped = self.shipping.pack(self.session)
        if shipped is not None:
            outcome.get_result().biascheck = shipped

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if is_worker(self.config):
            return
        self.selected.add(report.nodeid)
        self._count(report)
        shipped = getattr(report, "biascheck", None)
        if shipped:
            self.shipping.unpack(self.session, shipped)

    def metadata(self, exitstatus: int) -> RunPayload:
        """The session's metadata, completed with what the workers reported and the sweep's checkpoints."""
        session = self.session
        try:
            session.thresholds  # noqa: B018 - the controller of an xdist run has not loaded the profile yet
        except BiascheckError:
            pass
        meta = session.metadata(exitstatus)
        meta["models"] = {**self.shipping.models, **meta["models"]}
        data = {d["name"]: d for d in meta["data"]}
        meta["data"] = [v for _, v in sorted({**self.shipping.data, **data}.items())]
        if session.config.checkpoints:
            meta["checkpoints"] = [c.to_json() for c in session.config.checkpoints]
        meta["coverage"] = admit.coverage(self.config, session.results, meta["tier"]["name"])
        meta["not_measured"] = list(self.skipped_tests.values())  # probe tests skipped or xfailed, with why
        if self.failures:  # any gate failure, --bias-baseline-regen included (a regression there is not one)
            meta["exit_status"] = max(int(meta["exit_status"]), int(pytest.ExitCode.TESTS_FAILED))
        if self.comparison is not None or self.failures:
            from dataclasses import asdict

            meta["baseline"] = {
                "name": session.config.baseline,
                "failed": bool(self.failures),
                "failures": [message for _, message in self.failures],
                "mismatches_allowed": self.mismatches,
                "comparisons": [asdict(c) for c in self.comparison or []],
                "regen_command": (
                    session.config.baseline
                    and not self.own_failed
                    and regen_command(self.config, session.config.baseline)
                )
                or None,
            }
        if self.warnings:
            meta["gate_warnings"] = list(self.warnings)
        return meta

    # -- 2. end of the run: something measured; compare, save, set the exit status -----------------
    def _count(self, report: pytest.TestReport) -> None:
        model = model_of_report(report, self.session.config.models)
        if model is not None and model in self.session.config.models:  # a test's own `lm` parameter: not ours
            measured.count(self.outcomes, self.skipped_tests, model, report)

    def _check_measured(self) -> None:
        for name, message in measured.nothing_measured(self.outcomes):
            self._fail(name, message)

    def _check_outside(self, session: pytest.Session) -> None:
        if session.exitstatus == pytest.ExitCode.OK and (message := measured.outside(self.session.results)):
            self._fail("outside-thresholds", message)  # a failed test already makes the run red

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        self.deselected += len(items)

    @pytest.hookimpl(tryfirst=True)  # before junitxml writes its file: gate failures become testcases
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if is_worker(self.config) or exitstatus in (pytest.ExitCode.INTERRUPTED, pytest.ExitCode.USAGE_ERROR):
            return  # interrupted, or stopped before any test ran: its own message is the whole story
        self._check_measured()
        self._check_outside(session)
        if not self.session.results and not self.config.option.collectonly:
            from biascheck.gate.selection import no_results

            if reason := no_results(self):
                self._fail("no-results", reason)
        cfg = self.session.config
        if self.session.results and (cfg.save_name is not None or cfg.baseline is not None):
            self._track(cfg, exitstatus)
        if self.failures:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
            self._report_failures()

    def _track(self, cfg: Any, exitstatus: int) -> None:
        """Compare with the baseline, save the run."""
        from biascheck.gate.store import ResultStore

        try:
            store = ResultStore(cfg.store_path)
            payload = run_payload(self.session.results, self.metadata(int(exitstatus)))
            self.own_failed = int(payload["exit_status"]) != 0  # before the comparison adds its own failures
            if cfg.baseline is not None:
                self._compare(store, payload, cfg)
            if self.regressed and not cfg.baseline_regen:
                payload["exit_status"] = int(pytest.ExitCode.TESTS_FAILED)
            targets = {}  # name -> replace
            if cfg.save_name is not None:
                targets[cfg.save_name] = False
            if cfg.baseline_regen and cfg.baseline is not None:
                if payload["exit_status"] != 0:
                    self._fail(
                        "baseline",
                        f"--bias-baseline-regen: this run failed (exit status {payload['exit_status']}), so it "
                        f"does not replace baseline {cfg.baseline!r}: a baseline must be a run that passed. Fix the "
                        "failures (or the thresholds) first.",
                    )
                else:
                    targets[cfg.baseline] = True
            for target in [t for t in targets if t in (cfg.baseline, admit.BASELINE_NAME) and not cfg.accept_partial]:
                if refusal := admit.partial_problem(payload, target, "--bias-accept-partial"):  # a baseline name
                    self._fail("baseline", refusal)
                    del targets[target]
            for target, replace in targets.items():
                store.save_run(target, payload, replace=replace)
                done = f"baseline {target!r} replaced by this run" if replace else f"saved this run as {target!r}"
                self.messages.append(f"{done} in {cfg.store_path}; it covers {admit.describe(payload)}")
                self._warn_saved(target, payload, cfg.accept_partial)
        except BiascheckError as exc:
            self._fail("store", f"biascheck store error: {exc}")

    def _warn_saved(self, target: str, payload: RunPayload, accept_partial: bool) -> None:
        """A run saved under a name that cannot serve as a baseline says so now, not when the next run is
        refused: a failed run (and what to fix before a baseline can be made), or a partial one."""
        status = int(payload["exit_status"])
        command = regen_command(self.config, target)
        if status != 0:
            self.warnings.append(
                f"run {target!r} was saved, but it failed (exit status {status}), so it cannot be a baseline or a "
                f"noise run: --bias-baseline {target} will be refused before any model loads. "
                + admit.fix_first(payload, command, "It")
            )
        elif (partial := (payload.get("coverage") or {}).get("partial")) and not accept_partial:
            self.warnings.append(
                f"run {target!r} was saved, but it is partial ({'; '.join(partial)}): as a baseline it judges only "
                "what it covers, and a run that measures more is red for every metric it lacks. For a whole "
                f"baseline, run without the selection; to keep this one as it is:\n  {command}"
            )

    def _fail(self, name: str, message: str) -> None:
        """A gate failure: the run ends red, the message is printed, and JUnit gets a failing testcase."""
        self.regressed = True
        self.messages.append(message)
        self.failures.append((name, message))

    def _report_failures(self) -> None:
        """Each gate failure as a failed test report: the terminal's failure count, the short summary and
        the JUnit XML all show it (a CI reading only the XML sees the regression)."""
        for name, message in self.failures:
            report = pytest.TestReport(
                nodeid=f"biascheck-gate::{name}",
                location=("biascheck-gate", None, name),
                keywords={},
                outcome="failed",
                longrepr=message,
                when="call",
            )
            self.config.hook.pytest_runtest_logreport(report=report)

    def _compare(self, store: Any, payload: RunPayload, cfg: Any) -> None:
        from biascheck.gate import baseline as bl
        from biascheck.gate import comparability
        from biascheck.report import regression

        name = cfg.baseline
        command = regen_command(self.config, name)
        if not store.has_run(name):
            if not cfg.baseline_regen:
                known = [r.name for r in store.list_runs()]
                from biascheck.errors import did_you_mean

                self._fail(
                    "baseline",
                    f"baseline {name!r} is not in the store {cfg.store_path}:{did_you_mean(name, known)} nothing was "
                    "compared, so the gate cannot pass. Saved runs: "
                    f"{', '.join(known) or 'none'}. "
                    + (
                        "This run cannot create it: " + admit.fix_first(payload, command, "it")
                        if self.own_failed
                        else f"Create the baseline from this run with:\n  {command}"
                    ),
                )
            return
        base = store.load_run(name)
        refusal = admit.schema_problem(base, name, "baseline") or admit.failed_problem(base, name, "baseline")
        if refusal and not cfg.baseline_regen:
            self._fail("baseline", f"{refusal} Or regenerate the baseline from a passing run:\n  {command}")
            return
        differences = comparability.mismatches(base, payload)
        if differences and not cfg.allow_mismatch and not cfg.baseline_regen:
            self._fail(
                "comparability",
                f"this run is not comparable with baseline {name!r}: " + "; ".join(differences) + ". A change of "
                "any of these moves the numbers by itself, so nothing was judged. Run with the baseline's "
                "settings, regenerate the baseline, or pass --bias-allow-mismatch to compare anyway.",
            )
            return
        if differences:
            self.mismatches = differences
            self.messages.append(
                "compared despite these differences (--bias-allow-mismatch): " + "; ".join(differences)
            )
        bands: dict[str, float] = {}
        if cfg.noise_run and not cfg.baseline_regen:
            noise = store.load_run(cfg.noise_run)
            problems = admit.noise_problems(noise, payload, cfg.noise_run, cfg.allow_mismatch)
            for problem in problems:
                self._fail("noise", problem)
            if problems:
                return
            bands = bl.bands_from_run(noise)
        self.comparison = bl.compare(base, payload, bands)
        self.markdown = regression.markdown(
            self.comparison, name, None if cfg.baseline_regen or self.own_failed else command
        )
        if cfg.baseline_regen:  # the comparison is shown, not judged; `_track` replaces the baseline if it may
            return
        for c in bl.regressions(self.comparison):
            self._fail(
                f"{c.model}::{c.key}",
                f"{c.key} ({c.model}) regressed beyond the noise against baseline {name!r}: "
                f"{c.base:.4g} → {c.new:.4g}, noise ±{c.noise:.3g}",
            )
        for c in bl.missing(self.comparison):
            self._fail(
                f"{c.model}::{c.key}",
                f"{c.key} ({c.model}) is in baseline {name!r} but this run did not measure it: a metric that is "
                "not measured cannot pass the gate (was a probe skipped, deselected or broken?)",
            )
        for c in bl.unmeasured(self.comparison):
            where = "this run" if c.new is None and c.base is not None else "baseline " + repr(name)
            where = "either run" if c.new is None and c.base is None else where
            self._fail(
                f"{c.model}::{c.key}",
                f"{c.key} ({c.model}) is not a number in {where} (it could not be measured there): a metric that "
                "was not measured cannot pass the gate. Its note in results.json says why.",
            )
        uncovered: dict[str, list[str]] = {}
        for c in bl.uncovered(self.comparison):
            uncovered.setdefault(c.model, []).append(c.key)
        for model, keys in uncovered.items():
            self._fail(f"{model}::not-in-baseline", admit.uncovered_message(model, keys, name, base, command))
        if self.failures and self.own_failed:
            self.warnings.append(
                f"If the change is intended, baseline {name!r} cannot be regenerated from this run: "
                + admit.fix_first(payload, command, "it")
            )
        elif self.failures:
            self.messages.append(f"If the change is intended, regenerate the baseline:\n  {command}")

    # -- 3. terminal summary, baseline.md, job summary ---------------------------------------------
    @pytest.hookimpl(wrapper=True)
    def pytest_collection(self, session: pytest.Session) -> Any:
        """A usage error found while collecting (a profile error, a refused baseline) is kept for the job
        summary: a CI reader sees why the run stopped, not an empty summary."""
        try:
            return (yield)
        except pytest.UsageError as exc:
            self.stopped = str(exc)
            raise

    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
        if self.stopped and exitstatus == pytest.ExitCode.USAGE_ERROR and not is_worker(config):
            from biascheck.report.summary import append_step_summary

            append_step_summary(f"### biascheck: stopped before any test ran (usage error)\n\n{self.stopped}\n\n")
        if is_worker(config) or (self.comparison is None and not self.messages and not self.warnings):
            return
        from biascheck.report import regression

        cfg = self.session.config
        terminalreporter.section("biascheck baseline" if cfg.baseline or cfg.save_name else "biascheck gate")
        if self.comparison is not None:
            terminalreporter.write_line(regression.table(self.comparison))
            terminalreporter.write_line(regression.summary_line(self.comparison, cfg.baseline or ""))
        for message in self.messages:
            terminalreporter.write_line(message, red=self.regressed, bold=self.regressed)
        for warning in self.warnings:
            terminalreporter.write_line(f"WARNING: {warning}", yellow=True, bold=True)
        from biascheck.files import atomic_write

        report_dir = self.session.config.report_dir  # summary.md and the job summary carry the verdict (report.py)
        if self.markdown and report_dir is not None:
            atomic_write(report_dir / "baseline.md", self.markdown)


def register(config: pytest.Config) -> None:
    """Called from the plugin's pytest_configure, after the BiasSession is in the stash."""
    if config.pluginmanager.has_plugin("biascheck-tracking"):
        return
    tracking = Tracking(config)
    tracking.check_save_name()
    config.pluginmanager.register(tracking, "biascheck-tracking")
    ray_pytest.register(config, tracking.session.config.models)  # --bias-ray: one Ray task a model
