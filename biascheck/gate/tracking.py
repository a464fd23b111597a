"""Regression tracking inside a pytest run: results from xdist workers, the results store, the baseline gate.

Registered by `biascheck.plugin` (a second plugin object, so the main plugin stays small). It reads
the run's state from `biascheck.session` and never imports the plugin.

1. Workers (pytest-xdist): one model per worker, and the results recorded on a worker shipped to the
   controller with every test report (`biascheck.gate.workers`). The controller alone writes the summary,
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

import shlex
from dataclasses import dataclass, field
from typing import Any

import pytest

from biascheck.errors import BiascheckError
from biascheck.gate import admit, ray_pytest
from biascheck.gate.workers import (
    REPORT_MODEL,
    Shipping,
    is_worker,
    model_group_scheduler,
    model_of_item,
    model_of_report,
)
from biascheck.invocation import without_options
from biascheck.session import SESSION_KEY, BiasSession

_BASELINE_OPTIONS = ("--bias-save", "--bias-baseline", "--bias-baseline-regen", "--bias-noise", "--bias-accept-partial")
_FLAGS = ("--bias-baseline-regen", "--bias-accept-partial")


def regen_command(config: pytest.Config, baseline: str) -> str:
    """This run's command line with the baseline options replaced by the ones that regenerate `baseline`. A
    partial run (-k, -m, node ids: `admit.coverage`) is refused as a baseline without --bias-accept-partial, so
    the command carries it: a suggested command is one the gate accepts (once the run passes)."""
    with_value = [name for name in _BASELINE_OPTIONS if name not in _FLAGS]
    kept = without_options(list(config.invocation_params.args), with_value, _FLAGS)
    partial = ["--bias-accept-partial"] if admit.coverage(config, [], None)["partial"] else []
    return shlex.join(["pytest", *kept, "--bias-baseline", baseline, "--bias-baseline-regen", *partial])


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

    @property
    def session(self) -> BiasSession:
        return self.config.stash[SESSION_KEY]

    # -- 0. before the run: refuse a save that would silently overwrite ---------------------------
    def check_save_name(self) -> None:
        cfg = self.session.config
        if is_worker(self.config):
            return
        from biascheck.gate.selection import gate_options

        if self.config.option.collectonly and (given := gate_options(cfg)):
            raise pytest.UsageError(
                f"--collect-only with {' '.join(given)}: a run that only collects measures, compares and saves "
                "nothing, so it cannot pass a gate. Leave out --collect-only (check PYTEST_ADDOPTS and the "
                "arguments given to `biascheck run`), or the gate options."
            )
        if cfg.baseline_regen and cfg.baseline is None:
            raise pytest.UsageError("--bias-baseline-regen needs --bias-baseline NAME: the run it replaces.")
        self.check_stored_runs()
        if cfg.save_name is None or (cfg.baseline_regen and cfg.save_name == cfg.baseline):
            return
        from biascheck.gate.store import ResultStore

        try:
            taken = ResultStore(cfg.store_path).has_run(cfg.save_name)
        except BiascheckError as exc:
            raise pytest.UsageError(str(exc)) from None
        if taken:
            raise pytest.UsageError(
                f"--bias-save {cfg.save_name}: a run with that name is already in {cfg.store_path}. Use another name, "
                f"or replace it on purpose: --bias-baseline {cfg.save_name} --bias-baseline-regen"
            )

    def check_stored_runs(self) -> None:
        """Before any model loads: the baseline and the noise run a run names are in the store and may be
        used (saved under this schema, from a passing run), so a run is not refused after the probes ran.
        What needs this run's results (comparability, coverage, the noise run's fit) is checked at the end."""
        cfg = self.session.config
        wanted = [(cfg.baseline, "baseline")] if cfg.baseline is not None and not cfg.baseline_regen else []
        wanted += [(cfg.noise_run, "noise run")] if cfg.noise_run is not None and not cfg.baseline_regen else []
        if not wanted:
            return
        from biascheck.errors import did_you_mean
        from biascheck.gate.store import ResultStore, StoreError

        command = regen_command(self.config, cfg.baseline) if cfg.baseline else ""
        try:
            store = ResultStore(cfg.store_path, create=False)
        except StoreError:
            store = None
        for name, role in wanted:
            try:
                known = [r.name for r in store.list_runs()] if store is not None else []
                run = store.load_run(name) if store is not None and name in known else None
            except BiascheckError as exc:
                raise pytest.UsageError(f"--bias-{role.split()[0]} {name}: {exc}") from None
            if run is None:
                fix = (
                    f"Create it from this run with:\n  {command}"
                    if role == "baseline"
                    else (
                        "Save a sweep of checkpoints or seeds under that name first (pytest --model-list FILE "
                        "--bias-save NAME)."
                    )
                )
                raise pytest.UsageError(
                    f"{role} {name!r} is not in the store {cfg.store_path}:{did_you_mean(name, known)} the run would "
                    f"compare nothing, so it stops before any model loads. Saved runs: {', '.join(known) or 'none'}. "
                    + fix
                )
            if refusal := admit.schema_problem(run, name, role):
                again = f" Or regenerate the baseline from a passing run:\n  {command}" if role == "baseline" else ""
                raise pytest.UsageError(f"{refusal}{again}")
            if refusal := admit.failed_problem(run, name, role):
                again = " " + admit.fix_first(run, command, "It") if role == "baseline" else ""
                raise pytest.UsageError(f"{refusal}{again}")

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Before the first probe test: the models this run compares with a baseline, loaded now (each once
        per run; the tests reuse them), are compared with the baseline's models, so a run of another model
        or of one loaded another way is refused before any probe runs, not after all of them."""
        cfg = self.session.config
        if (
            is_worker(self.config)
            or self.config.option.collectonly
            or cfg.baseline is None
            or cfg.baseline_regen
            or cfg.allow_mismatch
            or getattr(self.config.option, "dist", "no") != "no"
            or not any(model_of_item(item) in cfg.models for item in session.items)
            or not all(_loads_its_own_model(item) for item in session.items if model_of_item(item) is not None)
        ):
            return
        from biascheck.gate import comparability
        from biascheck.gate.store import ResultStore
        from biascheck.session import model_record

        records = {}
        for name in cfg.models:
            try:
                records[name] = model_record(self.session.model(name).info)
            except BiascheckError:
                continue  # a model that does not load: its tests say why
        try:
            base = ResultStore(cfg.store_path, create=False).load_run(cfg.baseline)
        except BiascheckError:
            return  # checked at the start; the end of the run reports what changed since
        differences = comparability.model_mismatches(base, records)
        if not differences:
            return
        others = comparability.other_model(base, records)
        what = (
            f"these are different models ({'; '.join(others)}), so a change between them is not a regression"
            if others
            else "the same model loaded another way moves the numbers by itself"
        )
        raise pytest.UsageError(
            f"this run is not comparable with baseline {cfg.baseline!r}, found before any probe ran: "
            f"{'; '.join(differences)}. {what[0].upper()}{what[1:]}. To compare two models anyway (e.g. two "
            "candidate base models), add --bias-allow-mismatch: the table then shows every metric side by side "
            "and the differences are recorded. Otherwise load the model as the baseline was loaded, or "
            "regenerate the baseline."
        )

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

    def metadata(self, exitstatus: int) -> dict[str, Any]:
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
        """Which tests of each model were seen, which ran (reached their call) and why others were skipped."""
        model = model_of_report(report, self.session.config.models)
        if model is None or model not in self.session.config.models:  # a test's own `lm` parameter: not ours
            return
        seen = self.outcomes.setdefault(model, {"seen": set(), "ran": set(), "failed": set(), "skips": set()})
        self._note_skip(model, report)
        seen["seen"].add(report.nodeid)
        if report.failed:
            seen["failed"].add(report.nodeid)
        elif report.skipped and hasattr(report, "wasxfail"):  # an expected failure (xfail) failed: not measured
            why = f": {report.wasxfail}" if report.wasxfail else ""
            seen["skips"].add(f"marked xfail{why} (an expected failure is not a measurement)")
        elif report.when == "call" and not report.skipped:
            seen["ran"].add(report.nodeid)  # passed (an xfail that passed too): the test measured
        elif report.skipped and isinstance(report.longrepr, tuple):  # in setup, or by pytest.skip in the test
            seen["skips"].add(str(report.longrepr[2]).removeprefix("Skipped: "))

    def _note_skip(self, model: str, report: pytest.TestReport) -> None:
        """A probe test that measured nothing (skipped, or an expected failure) with why, for the report's
        'not measured' list (`not_measured`)."""
        if not report.skipped:
            return
        if hasattr(report, "wasxfail"):
            why = f"marked xfail{': ' + report.wasxfail if report.wasxfail else ''}"
        elif isinstance(report.longrepr, tuple):
            why = str(report.longrepr[2]).removeprefix("Skipped: ")
        else:
            why = "skipped"
        self.skipped_tests[report.nodeid] = {"model": model, "test": report.nodeid, "reason": why}

    def _check_measured(self) -> None:
        """A model whose every selected test was skipped was not measured: the gate cannot pass on it. (A
        test that failed or errored, e.g. a model that did not load, is already red with its own reason.)"""
        for model, seen in self.outcomes.items():
            if seen["seen"] and not seen["ran"] and not seen["failed"]:
                reasons = sorted(seen["skips"])
                more = f" (and {len(reasons) - 2} other reasons)" if len(reasons) > 2 else ""
                self._fail(
                    f"{model}::nothing-measured",
                    f"nothing was measured on {model}: all {len(seen['seen'])} selected tests were skipped, so the "
                    f"gate cannot pass on it. Skipped because: {' | '.join(reasons[:2])}{more}. Select probes that "
                    "apply to this model, or say what it covers (--bias-language, --bias-any-language).",
                )

    def _check_outside(self, session: pytest.Session) -> None:
        """A result outside its threshold fails the gate even when its test did not fail (marked xfail, or a
        test that records and never calls `bias.check()`): otherwise the run ends green beside a failed
        threshold, and may be saved and accepted as a passing baseline."""
        outside = [r for r in self.session.results if r.passed is False]
        if not outside or session.exitstatus != pytest.ExitCode.OK:
            return  # none, or a failed test already makes the run red
        shown = ", ".join(f"{r.key} ({r.model}) = {r.value:.4g}" for r in outside[:5])
        more = f" and {len(outside) - 5} more" if len(outside) > 5 else ""
        self._fail(
            "outside-thresholds",
            f"{len(outside)} result(s) outside their thresholds, yet no test failed: {shown}{more}. Their tests "
            "were marked xfail, or their failure was otherwise kept from pytest, and a gate does not pass a "
            "threshold it saw fail. A known issue belongs in a threshold profile with its reason (see "
            "docs/thresholds.md), not in an xfail marker.",
        )

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
        from biascheck.report.summary import results_payload

        try:
            store = ResultStore(cfg.store_path)
            payload = results_payload(self.session.results, self.metadata(int(exitstatus)))
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

    def _warn_saved(self, target: str, payload: dict[str, Any], accept_partial: bool) -> None:
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

    def _compare(self, store: Any, payload: dict[str, Any], cfg: Any) -> None:
        from biascheck.gate import baseline as bl
        from biascheck.gate import comparability

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
        self.markdown = bl.markdown(self.comparison, name, None if cfg.baseline_regen or self.own_failed else command)
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
    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
        if is_worker(config) or (self.comparison is None and not self.messages and not self.warnings):
            return
        from biascheck.gate import baseline as bl

        cfg = self.session.config
        terminalreporter.section("biascheck baseline" if cfg.baseline or cfg.save_name else "biascheck gate")
        if self.comparison is not None:
            terminalreporter.write_line(bl.table(self.comparison))
            terminalreporter.write_line(bl.summary_line(self.comparison, cfg.baseline or ""))
        for message in self.messages:
            terminalreporter.write_line(message, red=self.regressed, bold=self.regressed)
        for warning in self.warnings:
            terminalreporter.write_line(f"WARNING: {warning}", yellow=True, bold=True)
        from biascheck.files import atomic_write

        report_dir = self.session.config.report_dir  # summary.md and the job summary carry the verdict (report.py)
        if self.markdown and report_dir is not None:
            atomic_write(report_dir / "baseline.md", self.markdown)


def _loads_its_own_model(item: pytest.Item) -> bool:
    """The test's `lm` is the plugin's fixture (the model loaded from --model), not a conftest's own."""
    definitions: Any = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {}).get("lm")
    return bool(definitions) and getattr(definitions[-1].func, "__module__", "") == "biascheck.plugin"


def register(config: pytest.Config) -> None:
    """Called from the plugin's pytest_configure, after the BiasSession is in the stash."""
    if config.pluginmanager.has_plugin("biascheck-tracking"):
        return
    tracking = Tracking(config)
    tracking.check_save_name()
    config.pluginmanager.register(tracking, "biascheck-tracking")
    ray_pytest.register(config, tracking.session.config.models)  # --bias-ray: one Ray task a model
