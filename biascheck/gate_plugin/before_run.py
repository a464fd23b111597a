"""What a run checks before it works, so that it is refused at once and not after every probe ran: the
options that cannot go together, the save name, the baseline and noise run it names (in the store, saved
under this schema, from a passing run), and, once collected, the models it compares with the baseline
(loaded then, once; the tests reuse them). Called by `biascheck.gate_plugin.tracking`; each refusal is a usage
error with its one-paragraph reason."""

from __future__ import annotations

import shlex
from typing import Any

import pytest

from biascheck.errors import BiascheckError
from biascheck.gate import admit
from biascheck.gate_plugin.workers import is_worker, model_of_item
from biascheck.invocation import without_options

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


def check_options(config: pytest.Config, cfg: Any) -> None:
    """--collect-only with gate options, --bias-baseline-regen alone, the stored runs named (`check_stored_runs`)
    and a save name already taken: usage errors before the run."""
    if is_worker(config):
        return
    from biascheck.gate.selection import gate_options

    if config.option.collectonly and (given := gate_options(cfg)):
        raise pytest.UsageError(
            f"--collect-only with {' '.join(given)}: a run that only collects measures, compares and saves "
            "nothing, so it cannot pass a gate. Leave out --collect-only (check PYTEST_ADDOPTS and the "
            "arguments given to `biascheck run`), or the gate options."
        )
    if cfg.baseline_regen and cfg.baseline is None:
        raise pytest.UsageError("--bias-baseline-regen needs --bias-baseline NAME: the run it replaces.")
    check_stored_runs(config, cfg)
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


def check_stored_runs(config: pytest.Config, cfg: Any) -> None:
    """Before any model loads: the baseline and the noise run a run names are in the store and may be
    used (saved under this schema, from a passing run), so a run is not refused after the probes ran.
    What needs this run's results (comparability, coverage, the noise run's fit) is checked at the end."""
    wanted = [(cfg.baseline, "baseline")] if cfg.baseline is not None and not cfg.baseline_regen else []
    wanted += [(cfg.noise_run, "noise run")] if cfg.noise_run is not None and not cfg.baseline_regen else []
    if not wanted:
        return
    from biascheck.errors import did_you_mean
    from biascheck.gate.store import ResultStore, StoreError

    command = regen_command(config, cfg.baseline) if cfg.baseline else ""
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
                f"compare nothing, so it stops before any model loads. Saved runs: {', '.join(known) or 'none'}. " + fix
            )
        if refusal := admit.schema_problem(run, name, role):
            again = f" Or regenerate the baseline from a passing run:\n  {command}" if role == "baseline" else ""
            raise pytest.UsageError(f"{refusal}{again}")
        if refusal := admit.failed_problem(run, name, role):
            again = " " + admit.fix_first(run, command, "It") if role == "baseline" else ""
            raise pytest.UsageError(f"{refusal}{again}")


def check_models(config: pytest.Config, bias: Any, items: list[pytest.Item]) -> None:
    """Before the first probe test: the models this run compares with a baseline, loaded now (each once
    per run; the tests reuse them), are compared with the baseline's models, so a run of another model
    or of one loaded another way is refused before any probe runs, not after all of them."""
    cfg = bias.config
    if (
        is_worker(config)
        or config.option.collectonly
        or cfg.baseline is None
        or cfg.baseline_regen
        or cfg.allow_mismatch
        or getattr(config.option, "dist", "no") != "no"
        or not any(model_of_item(item) in cfg.models for item in items)
        or not all(_loads_its_own_model(item) for item in items if model_of_item(item) is not None)
    ):
        return
    from biascheck.gate import comparability
    from biascheck.gate.store import ResultStore
    from biascheck.session import model_record

    records = {}
    for name in cfg.models:
        try:
            records[name] = model_record(bias.model(name).info)
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


def _loads_its_own_model(item: pytest.Item) -> bool:
    """The test's `lm` is the plugin's fixture (the model loaded from --model), not a conftest's own."""
    definitions: Any = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {}).get("lm")
    return bool(definitions) and getattr(definitions[-1].func, "__module__", "") == "biascheck.plugin"
