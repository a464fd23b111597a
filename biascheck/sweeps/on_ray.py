"""Sweeps on Ray: each checkpoint of a sweep is one Ray task; the driver gathers what the tasks return.

Ray is an optional extra (``pip install biascheck[ray]``). `connect` joins the cluster at an address, or
with none starts a local one on this machine. `run_tasks` submits one task a checkpoint with its resource
request (one GPU each where the cluster has GPUs, else one CPU), retries a task that fails (its process
died, or it raised) `max_retries` times, and returns every task's outcome: a value, or the reason it
failed after its last attempt. Nothing is dropped: the caller reports each failure and the run fails
closed. Only the driver writes the results store and the report (the tasks return their results).

Each task runs in a fresh worker process (``max_calls=1``): a model and a pytest session per process, as
one checkpoint per process is what a serial sweep's memory assumes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from biascheck.errors import ConfigError

MAX_RETRIES = 2


@dataclass(frozen=True)
class Outcome:
    """What one checkpoint's task came back with: its value, or why it failed after every attempt."""

    label: str
    value: Any = None
    error: str | None = None

    @property
    def failed(self) -> bool:
        return self.error is not None


def import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise ConfigError(
            "--ray needs the ray package: pip install 'biascheck[ray]' (or run the sweep without --ray)."
        ) from exc
    return ray


def connect(address: str | None, log: Callable[[str], None] | None = None) -> Any:
    """The ray module, initialised: joined to the cluster at `address`, or a local cluster started here when
    `address` is None. A driver already connected stays connected."""
    ray = import_ray()
    if not ray.is_initialized():
        try:
            ray.init(address=address or None, log_to_driver=False, include_dashboard=False)
        except Exception as exc:  # noqa: BLE001 - Ray raises ConnectionError, RuntimeError, ValueError ...
            where = f"the Ray cluster at {address!r}" if address else "a local Ray cluster"
            raise ConfigError(f"--ray: could not start or join {where} ({type(exc).__name__}: {exc}).") from exc
    if log is not None:
        resources = ray.cluster_resources()
        log(
            f"ray: {'joined ' + address if address else 'local cluster'} with {resources.get('CPU', 0):g} CPUs and "
            f"{resources.get('GPU', 0):g} GPUs"
        )
    return ray


def resource_request(ray: Any, device: str = "auto") -> dict[str, float]:
    """One GPU a task where the cluster has GPUs and the device allows one, else one CPU."""
    gpus = float(ray.cluster_resources().get("GPU", 0))
    if gpus >= 1 and not str(device).startswith(("cpu", "mps")):
        return {"num_gpus": 1.0, "num_cpus": 1.0}
    return {"num_cpus": 1.0}


def run_tasks(
    ray: Any,
    body: Callable[..., Any],
    calls: Sequence[tuple[str, tuple[Any, ...]]],
    resources: dict[str, float],
    max_retries: int = MAX_RETRIES,
    on_done: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Run `body(*args)` as one Ray task per (label, args) in `calls`; outcomes in the order of `calls`.
    `on_done` sees each outcome as it arrives (the driver reports progress with it)."""
    remote = ray.remote(max_retries=max_retries, retry_exceptions=True, max_calls=1, **resources)(body)
    pending = {remote.remote(*args): label for label, args in calls}
    outcomes: dict[str, Outcome] = {}
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            label = pending.pop(ref)
            try:
                outcome = Outcome(label, value=ray.get(ref))
            except Exception as exc:  # noqa: BLE001 - a task's failure, after its retries, is reported
                outcome = Outcome(label, error=_reason(exc, max_retries))
            outcomes[label] = outcome
            if on_done is not None:
                on_done(outcome)
    return [outcomes[label] for label, _ in calls]


def _reason(exc: BaseException, max_retries: int) -> str:
    cause = getattr(exc, "cause", None) or exc  # a RayTaskError wraps the task's own exception
    first = str(cause).strip().splitlines()
    text = next((line for line in reversed(first) if line.strip()), type(cause).__name__)
    return f"failed after {max_retries + 1} attempts ({type(cause).__name__}: {text})"
