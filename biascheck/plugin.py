"""pytest plugin: options, fixtures and the summary. Importing it does not import torch.

Fixtures for probe modules (marked ``pytestmark = pytest.mark.biascheck(probe="<name>")``):
- ``lm``: the loaded `LanguageModel`, session scope, one per ``--model`` (tests are parametrized
  over the models, ids = the names given).
- ``refdata``: the run's `ReferenceData` (mirror from --bias-data / BIASCHECK_DATA_DIR).
- ``bias``: a `ProbeRecorder` for the module's probe and the current model.
"""
from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path
from typing import Any

import pytest

from biascheck import __version__
from biascheck.errors import BiascheckError
from biascheck.registry import DEFAULT_MODEL, resolve_model_name
from biascheck.results import ProbeRecorder
from biascheck.session import (
    BiasSession,
    RunConfig,
    parse_batch_size,
    parse_device,
    parse_dir,
    parse_dtype,
    parse_model,
    parse_model_list,
    parse_run_name,
)

SESSION_KEY = pytest.StashKey[BiasSession]()
MARKER = "biascheck"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("biascheck", "gender-bias probes for language models")
    group.addoption("--model", dest="bias_models", action="append", type=parse_model, metavar="NAME",
                    help=f"model alias, hub id or local directory; repeat for several (default: {DEFAULT_MODEL})")
    group.addoption("--device", dest="bias_device", default="auto", type=parse_device,
                    help="auto, cpu, cuda, cuda:N or mps (default: auto = cuda if available, else mps, else cpu)")
    group.addoption("--dtype", dest="bias_dtype", default="auto", type=parse_dtype,
                    help="auto, float32, bfloat16 or float16 (default: auto = float32 on CPU, half precision on GPU)")
    group.addoption("--batch-size", dest="bias_batch_size", default=None, type=parse_batch_size, metavar="N",
                    help="sequences per forward pass, or 'auto' (default: auto, backs off on out-of-memory)")
    group.addoption("--bias-profile", dest="bias_profile", default="default", metavar="NAME",
                    help="threshold profile: thresholds/NAME.toml, or a path to a .toml file (default: default)")
    group.addoption("--bias-report", dest="bias_report", default="bias-report", metavar="DIR",
                    help="write results.json, summary.md and plots here; 'none' to skip (default: bias-report)")
    group.addoption("--bias-data", dest="bias_data", default=None, type=parse_dir, metavar="DIR",
                    help="reference-data mirror directory (default: $BIASCHECK_DATA_DIR, then cache, then download)")
    group.addoption("--bias-any-language", dest="bias_any_language", action="store_true",
                    help="run probes even where the model's registry entry does not list the probe's language")
    group.addoption("--model-list", dest="bias_model_list", default=None, type=parse_model_list, metavar="FILE",
                    help="CSV (model,step,seed) or TOML ([[checkpoint]]) list of checkpoints to probe, added to --model")
    group.addoption("--bias-store", dest="bias_store", default=None, metavar="PATH",
                    help="results store, an SQLite file (default: .biascheck/results.sqlite)")
    group.addoption("--bias-save", dest="bias_save", default=None, type=parse_run_name, metavar="NAME",
                    help="save this run in the store under NAME (a release tag, commit, checkpoint step)")
    group.addoption("--bias-baseline", dest="bias_baseline", default=None, type=parse_run_name, metavar="NAME",
                    help="compare with the saved run NAME; a regression beyond the noise fails the session")
    group.addoption("--bias-baseline-regen", dest="bias_baseline_regen", action="store_true",
                    help="save this run as the --bias-baseline (or --bias-save) run, replacing it; nothing is judged")
    group.addoption("--bias-noise", dest="bias_noise", default=None, type=parse_run_name, metavar="NAME",
                    help="a saved run of several checkpoints/seeds whose spread per metric is the noise band")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}(probe): the biascheck probe a test module implements")
    config.stash[SESSION_KEY] = BiasSession(RunConfig.from_pytest(config))
    from biascheck import tracking

    tracking.register(config)  # results store, baseline gate, xdist result shipping


def _probe_of(item: pytest.Item) -> Any:
    marker = item.get_closest_marker(MARKER)
    if marker is None:
        return None
    from biascheck.catalog import PROBES

    name = marker.kwargs.get("probe") or (marker.args[0] if marker.args else None)
    if name not in PROBES:
        raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.biascheck names unknown probe {name!r}; known: {', '.join(PROBES)}.")
    unknown = set(marker.kwargs) - {"probe"}
    if unknown:
        raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.biascheck takes only 'probe', got {sorted(unknown)}.")
    return PROBES[name]


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
        if probe is None or callspec is None or "lm" not in callspec.params:
            continue
        spec = resolve_model_name(callspec.params["lm"])
        if spec.family and spec.family not in probe.families:
            item.add_marker(pytest.mark.skip(reason=f"{probe.name} needs a {' or '.join(probe.families)} model; {callspec.params['lm']} is {spec.family}"))
        elif spec.languages and probe.language not in spec.languages and not session.config.any_language:
            item.add_marker(pytest.mark.skip(
                reason=f"{probe.name} is a '{probe.language}' probe and {callspec.params['lm']} covers {', '.join(spec.languages)}; "
                "pass --bias-any-language to run it anyway"))


@pytest.fixture(scope="session")
def lm(request: pytest.FixtureRequest) -> Any:
    session = request.config.stash[SESSION_KEY]
    name = getattr(request, "param", session.config.models[0])
    try:
        return session.model(name)
    except BiascheckError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def refdata(request: pytest.FixtureRequest) -> Any:
    return request.config.stash[SESSION_KEY].refdata


@pytest.fixture
def bias(request: pytest.FixtureRequest, lm: Any) -> ProbeRecorder:
    probe = _probe_of(request.node)
    if probe is None:
        raise pytest.UsageError(f"{request.node.nodeid} uses the 'bias' fixture but its module has no @pytest.mark.biascheck(probe=...).")
    if lm.family not in probe.families:
        pytest.skip(f"{probe.name} needs a {' or '.join(probe.families)} model; {lm.info.name} is {lm.family}")
    session = request.config.stash[SESSION_KEY]
    report = session.config.report_dir
    return ProbeRecorder(probe=probe, model=lm.info.name, thresholds=session.thresholds, sink=session.results.append,
                         figure_dir=None if report is None else report / "plots")


def run_metadata(session: BiasSession, exitstatus: int) -> dict[str, Any]:
    thresholds = session._thresholds
    return {
        "biascheck_version": __version__,
        "created_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "exit_status": int(exitstatus),
        "profile": {"name": session.config.profile, "files": thresholds.files if thresholds else []},
        "models": {name: {**vars(model.info), "languages": list(model.info.languages)} for name, model in session.models.items()},
        "data": session.refdata.provenance() if session._refdata is not None else [],
    }


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    from biascheck import report

    session = config.stash[SESSION_KEY]
    if not session.results or hasattr(config, "workerinput"):
        return  # under pytest-xdist the controller writes the summary and the report, from every worker's results
    tables = report.build_tables(session.results)
    terminalreporter.section("biascheck summary")
    terminalreporter.write_line(report.render(tables, "simple"))
    if exitstatus == pytest.ExitCode.INTERRUPTED:
        terminalreporter.write_line("run interrupted: no report files written (the previous ones are untouched)")
        return
    meta = config.pluginmanager.get_plugin("biascheck-tracking").metadata(exitstatus)
    step_summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if step_summary:
        with Path(step_summary).open("a", encoding="utf-8") as out:
            out.write(report.markdown_summary(session.results, meta))
    if session.config.report_dir is not None:
        written = report.write_report(session.config.report_dir, session.results, meta)
        terminalreporter.write_line(f"biascheck report: {', '.join(str(p) for p in written)}")
