"""What a saved run must be to take part in a comparison: a baseline, a candidate, a noise run, a run accepted.

Each check returns the reasons it refuses, each one paragraph (what, why, how to fix); the callers
(the pytest gate in `biascheck.gate_plugin.tracking`, `biascheck compare`, `biascheck accept`) turn them into a
red run or exit status 2. A gate fails closed: what cannot be checked is refused, never passed.
Pure: payloads (results.json dicts) and option values in, strings out.

1. Schema (`schema_problem`): a run saved under another results.json schema lacks what this version
   compares (coverage, quantisation, tokenizer hash, the profile's resolved thresholds); it is refused,
   not read as if it were current.
2. Failed (`failed_problem`): a run whose exit status is not 0 is neither a baseline nor a noise run,
   and `biascheck compare` does not call a failed candidate green.
3. Coverage (`coverage`, `partial_problem`): what a run measured (probes, tasks, models, tier) and how
   its tests were selected. A selection that narrowed the collected tests (-k, -m, --lf, --sw,
   --deselect, node ids) makes the run partial; a partial run becomes a baseline only when asked
   (--bias-accept-partial, `biascheck accept --partial`). Whatever the selection, the comparison
   itself turns every metric the baseline does not cover red (`biascheck.gate.baseline.uncovered`).
4. Noise (`noise_problems`): the band comes only from a passing sweep (--model-list) of at least two
   checkpoints or seeds of one model (same architecture and every `comparability.MODEL_FIELDS`), comparable
   with the run it judges: the spread of unrelated models is not noise.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from biascheck.results import SCHEMA_VERSION, RunPayload

BASELINE_NAME = "baseline"  # the name `biascheck accept` writes by default and the release workflow reads

# pytest options that narrow the collected tests: (attribute of config.option, flag)
SELECTING = (("keyword", "-k"), ("markexpr", "-m"), ("lf", "--lf"), ("stepwise", "--sw"), ("deselect", "--deselect"))


def schema_problem(payload: RunPayload, name: str, role: str) -> str | None:
    """A run of another results.json schema version than this biascheck writes (see `results.SCHEMA_VERSION`)."""

    found = payload.get("schema_version")
    if found == SCHEMA_VERSION:
        return None
    made = f"biascheck {payload.get('biascheck_version') or '?'}"
    fix = (
        "Upgrade biascheck to the version that saved it."
        if isinstance(found, int) and found > SCHEMA_VERSION
        else "Run its model again with this biascheck and save that run (pytest --bias-save NAME, or "
        "--bias-baseline NAME --bias-baseline-regen to replace a baseline)."
    )
    return (
        f"{role} {name!r} was saved with results schema {found if found is not None else 'unknown'} ({made}); this "
        f"biascheck reads schema {SCHEMA_VERSION}, which records what a comparison checks (coverage, quantisation, "
        f"tokenizer hash, the profile's resolved thresholds). It is not migrated, because what it lacks cannot be "
        f"made up, so nothing was compared. {fix}"
    )


def failed_problem(payload: RunPayload, name: str, role: str, override: str | None = None) -> str | None:
    """A run that failed (exit status not 0): its numbers passed nothing, so it judges nothing."""
    status = int(payload.get("exit_status", 0) or 0)
    if status == 0:
        return None
    why = {
        "baseline": "a failed run cannot be a baseline, or every regression up to its level would pass",
        "candidate": "a run that failed its thresholds or its own gate is not made green by a comparison",
        "noise run": "the spread of a run that failed is not a measured noise",
    }.get(role, "a failed run cannot be used here")
    also = f", or pass {override} to compare anyway" if override else ""
    return f"{role} {name!r} was saved from a run that failed (exit status {status}): {why}. Use a passing run{also}."


def why_failed(payload: RunPayload) -> str:
    """What made a saved run fail, in one line: its results outside their thresholds (the first three) and
    how many gate failures it had; "" when neither is recorded (a test that errored)."""
    outside = [r for r in payload.get("results") or [] if r.get("passed") is False]
    shown = ", ".join(
        f"{r.get('probe')}.{r.get('task')}.{r.get('metric')} ({r.get('model')}) = "
        + (f"{r['value']:.4g}" if isinstance(r.get("value"), float) else str(r.get("value")))
        for r in outside[:3]
    )
    more = f" and {len(outside) - 3} more" if len(outside) > 3 else ""
    parts = [f"{len(outside)} result(s) outside their thresholds: {shown}{more}"] if outside else []
    gate = len((payload.get("baseline") or {}).get("failures") or [])
    return "; ".join(parts + ([f"{gate} gate failure(s)"] if gate else []))


def fix_first(payload: RunPayload, command: str, subject: str = "It") -> str:
    """How to make a baseline when the run `payload` (called `subject`) failed: regenerating from a run that
    fails the same way is refused, so the failures come first, then `command` (accepted once a run passes)."""
    why = why_failed(payload)
    return (
        f"{subject} failed{f' ({why})' if why else ''}, and a run that fails the same way is refused as a baseline "
        "too: fix those failures first (a known one belongs in a threshold profile with its reason, see "
        f"docs/thresholds.md). Once a run passes, this makes it the baseline:\n  {command}"
    )


def coverage(config: Any, results: Iterable[Any], tier: str | None) -> dict[str, Any]:
    """What a run covered, for results.json: the selection options and paths (`config` is pytest's: its
    option and args, paths relative to its rootpath), the partial reasons (empty when the selection
    narrowed nothing), the tier, and the probes, tasks and models it measured."""
    option, root = config.option, str(getattr(config, "rootpath", ""))
    args = [os.path.relpath(a, root) if root and os.path.isabs(a) else a for a in config.args]
    selection = {}
    for attr, flag in SELECTING:
        value = getattr(option, attr, None)
        if value:
            selection[flag] = list(value) if isinstance(value, (list, tuple)) else value
    node_ids = [a for a in args if "::" in a]
    partial = [f"{flag} {value!r}" if value is not True else flag for flag, value in selection.items()]
    if node_ids:
        partial.append(f"node ids {', '.join(node_ids)}")
    rows = [(r.model, r.probe, r.task) for r in results]
    return {
        "selection": {**selection, "paths": [a for a in args if "::" not in a], "node_ids": node_ids},
        "partial": partial,
        "tier": tier,
        "probes": sorted({p for _, p, _ in rows}),
        "tasks": sorted({f"{p}.{t}" for _, p, t in rows}),
        "models": list(dict.fromkeys(m for m, _, _ in rows)),
    }


def describe(payload: RunPayload) -> str:
    """One line: what a saved run covered and how it was selected."""
    cov = payload.get("coverage")
    if not cov:
        return "coverage not recorded"
    selection = cov.get("selection") or {}
    chosen = [f"{k} {v!r}" for k, v in selection.items() if k not in ("paths", "node_ids") and v]
    chosen += [f"paths {' '.join(selection['paths'])}"] if selection.get("paths") else []
    text = (
        f"{len(cov.get('tasks') or [])} task(s) of probes {', '.join(cov.get('probes') or []) or 'none'} on models "
        f"{', '.join(cov.get('models') or []) or 'none'}, tier {cov.get('tier') or '?'}"
    )
    text += f"; selection: {'; '.join(chosen)}" if chosen else ""
    return text + (f" (PARTIAL: {'; '.join(cov['partial'])})" if cov.get("partial") else "")


def partial_problem(payload: RunPayload, target: Any, flag: str = "--partial") -> str | None:
    """A partial run about to become the baseline `target` without `flag` (`target` may be `biascheck
    accept`'s arguments: its --as name, and no refusal with --partial)."""
    partial = (payload.get("coverage") or {}).get("partial")
    if not isinstance(target, str):
        target, partial = target.as_name, None if target.partial else partial
    if not partial:
        return None
    return (
        f"this run is partial ({'; '.join(partial)}), so it does not become baseline {target!r} without {flag}: a "
        "partial baseline leaves every metric it lacks unjudged until a comparison finds it uncovered. It covers "
        f"{describe(payload)}. Run the whole selection, or pass {flag} to accept it as it is."
    )


def uncovered_message(model: str, keys: list[str], baseline: str, base: RunPayload, command: str) -> str:
    shown = ", ".join(keys[:6]) + (f" and {len(keys) - 6} more" if len(keys) > 6 else "")
    return (
        f"{len(keys)} metric(s) that this run measured on {model} are not in baseline {baseline!r} ({shown}): the "
        "baseline does not cover them, so they were not judged and the gate cannot pass. The baseline covers "
        f"{describe(base)}. Compare with a baseline that covers this run, select only what the baseline covers, "
        f"or, if this run is the new reference, regenerate the baseline:\n  {command}"
    )


def noise_problems(noise: RunPayload, new: RunPayload, name: str, allow_mismatch: bool = False) -> list[str]:
    """Why the run `name` cannot give the noise band for judging `new` (empty: it can)."""
    from biascheck.gate import baseline as bl
    from biascheck.gate import comparability

    first = schema_problem(noise, name, "noise run") or failed_problem(noise, name, "noise run")
    if first:
        return [first]
    models = noise.get("models") or {}
    fix = "Save a passing sweep of one model's checkpoints or seeds (pytest --model-list FILE --bias-save NAME)."
    if len(bl.models_of(noise)) < 2:
        return [
            f"noise run {name!r} holds {len(bl.models_of(noise))} model(s): a band is the spread over at "
            f"least two checkpoints or seeds. {fix}"
        ]
    if not noise.get("checkpoints"):
        return [
            f"noise run {name!r} is not a sweep: its models ({', '.join(bl.models_of(noise))}) were not run "
            "from a --model-list of checkpoints and seeds, and the spread of unrelated models is not noise "
            f"(it would hide real regressions). {fix}"
        ]
    out = []
    for field in ("architecture", *comparability.MODEL_FIELDS):
        values = {
            str(m.get("architecture") if field == "architecture" else comparability.model_identity(m)[field])
            for m in models.values()
        }
        if len(values) > 1:
            out.append(field + " (" + " vs ".join(sorted(values)) + ")")
    if out:
        return [
            f"noise run {name!r} is not one model's checkpoints or seeds: its models differ in {'; '.join(out)}. {fix}"
        ]
    differences = comparability.mismatches(noise, new)
    if differences and not allow_mismatch:
        return [
            f"noise run {name!r} is not comparable with the run it judges: {'; '.join(differences)}. A band "
            "measured under other conditions is not this run's noise. Sweep under this run's settings, or "
            "allow the mismatch (--bias-allow-mismatch, compare --allow-mismatch)."
        ]
    return []


def compare_refusals(base: RunPayload, candidate: RunPayload, noise: RunPayload | None, args: Any) -> list[str]:
    """`biascheck compare`'s refusals (exit 2): a run of another schema; a failed baseline or candidate unless
    --allow-failed; runs that are not comparable unless --allow-mismatch; a noise run that cannot give the
    band (`noise_problems`)."""
    from biascheck.gate.comparability import mismatches

    runs = ((base, args.baseline, "baseline"), (candidate, args.candidate, "candidate"))
    out = [schema_problem(run, name, role) for run, name, role in runs]
    differences = [] if any(out) or args.allow_mismatch else mismatches(base, candidate)
    if differences:
        out.append(
            f"{args.candidate!r} is not comparable with {args.baseline!r}: {'; '.join(differences)}. A change "
            "of any of these moves the numbers by itself. Pass --allow-mismatch to compare anyway."
        )
    if not args.allow_failed:
        out += [failed_problem(run, name, role, "--allow-failed") for run, name, role in runs]
    if noise is not None:
        out += noise_problems(noise, candidate, args.noise, args.allow_mismatch)
    return [r for r in out if r]
