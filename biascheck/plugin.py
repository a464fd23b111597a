"""pytest plugin: fixtures and hooks only (the options are `biascheck.options`), each a short hand-off to
`biascheck.session`, `biascheck.gate_plugin.tracking` or `biascheck.report`. Importing it does not import torch.

Fixtures for probe modules (marked ``pytestmark = pytest.mark.biascheck(probe="<name>")``):
- ``lm``: the loaded `LanguageModel`, session scope, one per ``--model`` (tests parametrized by model name).
- ``refdata``: the run's `ReferenceData` (mirror from --bias-data / BIASCHECK_DATA_DIR).
- ``probe_settings``: the module's probe settings (``--bias-set``, environment, defaults), module scope.
- ``kept``: ``kept(name, build)`` is ``build()`` once per run and probe, kept across the models of a run.
- ``bias``: a `ProbeRecorder` for the module's probe and the current model.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from biascheck.errors import BiascheckError, NotApplicable
from biascheck.options import OPTIONS  # every --model / --bias-* option, with its parser
from biascheck.results import ProbeRecorder, ThresholdFailure
from biascheck.run_config import RunConfig
from biascheck.session import SESSION_KEY, BiasSession

MARKER = "biascheck"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("biascheck", "gender-bias probes for language models")
    for flag, kwargs in OPTIONS:
        group.addoption(flag, **kwargs)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    from biascheck.invocation import misread_option_values

    problem = misread_option_values(early_config)
    if problem:
        raise pytest.UsageError(problem)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}(probe): the biascheck probe a test module implements")
    session = config.stash[SESSION_KEY] = BiasSession(RunConfig.from_pytest(config))
    try:
        session.check_settings()
        if _distributes(config):  # xdist's controller collects nothing, and a worker's usage error only crashes it
            session.thresholds  # noqa: B018 - validate the profile here, as collection does in a plain run
    except BiascheckError as exc:
        raise pytest.UsageError(str(exc)) from None
    from biascheck.gate_plugin import tracking
    from biascheck.report import summary

    if not hasattr(config, "workerinput"):
        summary.discard_plots(session.config.report_dir)  # figures a killed run left half-way
    tracking.register(config)  # results store, baseline gate, xdist result shipping
    _show_progress_past_capture(config)


def _show_progress_past_capture(config: pytest.Config) -> None:
    """Scoring heartbeats (`biascheck.models.progress`) reach the terminal or CI log during the run: each
    line is written with pytest's capture suspended, as pytest's own live logging does."""
    import sys

    from biascheck.models import progress

    capture = config.pluginmanager.getplugin("capturemanager")
    if capture is None:  # -p no:capture: the stream is not captured
        return

    def write(line: str) -> None:
        with capture.global_and_fixture_disabled():
            if sys.__stderr__ is not None:
                sys.__stderr__.write(line + "\n")
                sys.__stderr__.flush()

    progress.write_past_capture(write)


def pytest_unconfigure(config: pytest.Config) -> None:
    from biascheck.models import progress

    progress.write_past_capture(None)
    _end_report(config)


# The report directory's state in this run (`biascheck.report.unfinished`): begun, the session's exit status
# once it finished, whether the report is being written and whether it was.
_REPORT_RUN = pytest.StashKey[dict[str, Any]]()


def pytest_sessionstart(session: pytest.Session) -> None:
    if _distributes(session.config):  # the controller of an xdist run collects nothing: it cannot tell
        _begin_report(session.config)


def _begin_report(config: pytest.Config) -> None:
    """A run of probe tests (or with gate options) starts: the previous report's verdict moves aside while
    it works, so a run that dies never leaves it where this run's would be."""
    directory = config.stash[SESSION_KEY].config.report_dir
    if hasattr(config, "workerinput") or directory is None or config.option.collectonly or _REPORT_RUN in config.stash:
        return
    import datetime

    from biascheck.report import unfinished

    try:
        unfinished.begin(directory, datetime.datetime.now().astimezone().isoformat(timespec="seconds"))
    except OSError as exc:
        raise pytest.UsageError(
            f"--bias-report {directory}: the report directory cannot be written ({exc}). Pick a writable "
            "directory, or --bias-report none."
        ) from None
    config.stash[_REPORT_RUN] = {"status": None, "writing": False, "written": False}


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    state = session.config.stash.get(_REPORT_RUN, None)
    if state is not None:
        state["status"] = int(session.exitstatus)
    session.config.stash[SESSION_KEY].store_memo(int(session.exitstatus))


def _end_report(config: pytest.Config) -> None:
    """The report directory after the run: its report written (the previous one goes), or none written by a
    run that ended green, interrupted or with a usage error (the previous one comes back). A run that
    crashed, or ended red without writing its report, leaves the 'no verdict' marker."""
    state = config.stash.get(_REPORT_RUN, None)
    directory = config.stash[SESSION_KEY].config.report_dir
    if state is None or directory is None:
        return
    from biascheck.report import unfinished

    if state["written"]:
        unfinished.finish(directory)
    elif not state["writing"] and state["status"] in (
        pytest.ExitCode.OK,
        pytest.ExitCode.INTERRUPTED,
        pytest.ExitCode.USAGE_ERROR,
        pytest.ExitCode.NO_TESTS_COLLECTED,
    ):
        unfinished.restore(directory)


def _distributes(config: pytest.Config) -> bool:
    """This process is the controller of a pytest-xdist run (-n N): the workers collect and run the tests."""
    option = config.option
    return (
        not hasattr(config, "workerinput")
        and getattr(option, "dist", "no") != "no"
        and bool(getattr(option, "tx", None))
        and not getattr(option, "collectonly", False)
    )


def _probe_of(item: pytest.Item) -> Any:
    marker = item.get_closest_marker(MARKER)
    if marker is None:
        return None
    from biascheck.catalog import PROBES

    name = str(marker.kwargs.get("probe") or (marker.args[0] if marker.args else ""))
    if name not in PROBES:
        raise pytest.UsageError(
            f"{item.nodeid}: @pytest.mark.biascheck names unknown probe {name!r}; known: {', '.join(PROBES)}."
        )
    unknown = set(marker.kwargs) - {"probe"}
    if unknown:
        raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.biascheck takes only 'probe', got {sorted(unknown)}.")
    return PROBES[name]


def _record_timings(item: pytest.Item) -> None:
    """The stage times since the last take, recorded under `item` when it is a probe test."""
    from biascheck.timing import CLOCK

    seconds = CLOCK.take()
    probe, callspec = _probe_of(item), getattr(item, "callspec", None)
    if probe is not None and callspec is not None and "lm" in callspec.params:
        item.config.stash[SESSION_KEY].add_timings(callspec.params["lm"], probe.name, item.nodeid, seconds)


def _guard_early(item: pytest.Item) -> None:
    """The competence guard before the test's fixtures, so that a model that cannot read the probe is red
    before the probe's module scores it (the `bias` fixture runs the guard too, for tests this leaves)."""
    probe, callspec = _probe_of(item), getattr(item, "callspec", None)
    if (
        probe is None
        or callspec is None
        or "lm" not in callspec.params
        or "bias" not in getattr(item, "fixturenames", ())
    ):
        return
    if item.get_closest_marker("skip") or item.get_closest_marker("skipif"):
        return
    definitions = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {}).get("lm")
    if not definitions or getattr(definitions[-1].func, "__module__", "") != __name__:
        return  # a conftest's own lm fixture (a fake model): the bias fixture guards with it
    session = item.config.stash[SESSION_KEY]
    try:
        lm = session.model(callspec.params["lm"])
    except BiascheckError:
        return  # the lm fixture reports it
    if lm.family in probe.families:
        _fail_unless_measurable(session, probe, lm, callspec.params.get("task"))


def _fail_unless_measurable(session: BiasSession, probe: Any, lm: Any, task: Any, recorder: Any = None) -> None:
    failure = session.guard(probe, lm, task if isinstance(task, str) else None, recorder)
    if failure:
        pytest.fail(failure, pytrace=False)


@contextlib.contextmanager
def _skip_if_not_applicable() -> Iterator[None]:
    """A probe that finds its task cannot be asked of this model (`NotApplicable`: a language it does not
    cover, no word of a class is one token) skips the test with the probe's reason."""
    try:
        yield
    except NotApplicable as exc:
        pytest.skip(str(exc))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Any:
    from biascheck.timing import stage

    try:
        with stage("setup"), _skip_if_not_applicable():  # a model's load and the reference data, when first needed
            _guard_early(item)
            return (yield)
    except BaseException:
        _record_timings(item)  # skipped or failed in setup (a model loaded, then the wrong family): its own time
        raise


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    from biascheck.timing import stage

    try:
        with stage("other"), _skip_if_not_applicable():
            return (yield)
    finally:
        _record_timings(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Any:
    """A probe stopped by one of biascheck's own errors (reference data missing, a model that does not
    load, a tokenizer that splits a pronoun) reports its message alone: the message says what, where and
    how to fix it, and a traceback through the plugin and transformers only buries it. `--tb=long` (or
    any --tb other than the default) keeps pytest's full report."""
    outcome = yield
    if (
        call.excinfo is None
        or not call.excinfo.errisinstance((BiascheckError, ThresholdFailure))
        or _probe_of(item) is None
        or item.config.getoption("tbstyle", "auto") != "auto"
    ):
        return
    report = outcome.get_result()
    if call.excinfo.errisinstance(ThresholdFailure):  # the metrics and their limits, not the test's source
        report.longrepr = f"{call.excinfo.value}\n(pytest --tb=long shows the test's code)"
        return
    report.longrepr = f"{call.excinfo.typename}: {call.excinfo.value}\n(pytest --tb=long shows where it was raised)"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "lm" in metafunc.fixturenames:
        models = metafunc.config.stash[SESSION_KEY].config.models
        metafunc.parametrize("lm", models, indirect=True, scope="session", ids=list(models))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    session = config.stash[SESSION_KEY]
    probe_items = [(item, _probe_of(item)) for item in items]
    if not any(probe for _, probe in probe_items):
        return
    try:
        session.thresholds  # noqa: B018 - validate the profile once, before any model loads
    except BiascheckError as exc:
        raise pytest.UsageError(str(exc)) from None
    for item, probe in probe_items:
        callspec = getattr(item, "callspec", None)
        if probe is not None and callspec is not None and "lm" in callspec.params:
            reason = session.skip_reason(probe, callspec.params["lm"], callspec.params.get("task"))
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


def pytest_collection_finish(session: pytest.Session) -> None:
    """After -k/-m deselection: a profile with no threshold for any selected probe is a usage error."""
    probes = {p.name: p for p in map(_probe_of, session.items) if p is not None}
    try:
        session.config.stash[SESSION_KEY].check_gates(list(probes.values()))
    except BiascheckError as exc:
        raise pytest.UsageError(str(exc)) from None
    from biascheck.gate.selection import gate_options

    if probes or gate_options(session.config.stash[SESSION_KEY].config):
        _begin_report(session.config)


@pytest.fixture(scope="session")
def lm(request: pytest.FixtureRequest) -> Any:
    session = request.config.stash[SESSION_KEY]
    name = getattr(request, "param", session.config.models[0])
    try:
        return session.model(name)
    except BiascheckError as exc:
        failure = str(exc)
    pytest.fail(failure, pytrace=False)  # outside the except: the message once, not chained to itself


@pytest.fixture(scope="session")
def refdata(request: pytest.FixtureRequest) -> Any:
    return request.config.stash[SESSION_KEY].refdata


def _marked_probe(request: pytest.FixtureRequest, fixture: str) -> Any:
    probe = _probe_of(request.node)
    if probe is None:
        raise pytest.UsageError(
            f"{request.node.nodeid} uses the '{fixture}' fixture but its module has no "
            "@pytest.mark.biascheck(probe=...)."
        )
    return probe


@pytest.fixture(scope="module")
def kept(request: pytest.FixtureRequest) -> Any:
    """``kept(name, build)``: `BiasSession.kept_value` for this module's probe."""
    session, probe = request.config.stash[SESSION_KEY], _marked_probe(request, "kept").name
    return lambda name, build: session.kept_value(probe, name, build)


@pytest.fixture(scope="module")
def probe_settings(request: pytest.FixtureRequest) -> Any:
    return request.config.stash[SESSION_KEY].probe_settings[_marked_probe(request, "probe_settings").name]


@pytest.fixture
def bias(request: pytest.FixtureRequest, lm: Any) -> ProbeRecorder:
    probe = _marked_probe(request, "bias")
    if lm.family not in probe.families:
        pytest.skip(f"{probe.name} needs a {' or '.join(probe.families)} model; {lm.info.name} is {lm.family}")
    session = request.config.stash[SESSION_KEY]
    callspec = getattr(request.node, "callspec", None)
    recorder = session.recorder(probe, lm.info.name)
    _fail_unless_measurable(session, probe, lm, callspec.params.get("task") if callspec else None, recorder)
    return recorder


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    session = config.stash[SESSION_KEY]
    if hasattr(config, "workerinput"):
        return  # under pytest-xdist the controller writes the summary and the report, from every worker's results
    from biascheck.gate.selection import gate_options
    from biascheck.report import page, summary

    tracking = config.pluginmanager.get_plugin("biascheck-tracking")
    assert tracking is not None  # registered with the session in pytest_configure
    # A run that recorded nothing still writes its report (the verdict and why) when it meant to measure or
    # ended red beside an older report: a reader must never find an earlier green report beside it.
    red = exitstatus != pytest.ExitCode.OK or tracking.failures
    meant = tracking.outcomes or gate_options(session.config) or (red and summary.has_report(session.config.report_dir))
    stopped = exitstatus in (pytest.ExitCode.INTERRUPTED, pytest.ExitCode.USAGE_ERROR)  # the previous report stays
    if not session.results and (not meant or stopped):
        summary.discard_plots(session.config.report_dir)
        return

    meta = tracking.metadata(exitstatus)
    history = None  # report.html's history panels: read the store only when a report is written
    if session.config.report_dir and session.results:
        stored = page.stored_rows(session.config.store_path)
        history = page.history_rows(stored, session.results, session.config.save_name)
    state = config.stash.get(_REPORT_RUN, {})
    state["writing"] = exitstatus != pytest.ExitCode.INTERRUPTED
    try:
        state["written"] = summary.terminal_summary(
            terminalreporter,
            session.results,
            meta,
            session.config.report_dir,
            interrupted=exitstatus == pytest.ExitCode.INTERRUPTED,
            history_rows=history,
        )
    except KeyboardInterrupt:  # Ctrl-C while the files are written: no traceback, and no verdict left behind
        terminalreporter.write_line(
            "interrupted while the report was written: its summary.md says the run has no verdict "
            "(the previous report is in previous-run/)",
            red=True,
        )
        return
    if config.getoption("bias_timings") and session.timings:
        summary.timings_table(terminalreporter, session.timings)
