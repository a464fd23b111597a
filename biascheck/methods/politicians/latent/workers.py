"""Processes for the latent model's grid (`model.fit_lvm`): how many (`fit_workers`) and a map over jobs in
spawned processes that falls back to this process (`map_spawned`). Spawned, not forked: the parent's
torch and OpenMP state is not copied into the workers."""

from __future__ import annotations

import atexit
import os
from collections.abc import Callable, Sequence
from typing import Any

WORKERS_ENV = "BIASCHECK_FIT_WORKERS"


def fit_workers() -> int:
    """Processes for a grid's fits: $BIASCHECK_FIT_WORKERS if set (1 = no processes); else 1 inside a
    pytest-xdist worker (the workers already share the cores); else the CPUs this process may use."""
    value = os.environ.get(WORKERS_ENV, "").strip()
    if value:
        if not value.isdigit() or int(value) < 1:
            from biascheck.errors import ConfigError

            raise ConfigError(f"{WORKERS_ENV}={value!r}: give a whole number of processes, 1 or more")
        return int(value)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return 1
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def map_spawned(function: Callable[[Any], Any], jobs: Sequence[Any], workers: int) -> list[Any]:
    """[function(job) for job in jobs], in `workers` spawned processes when there are several jobs and
    workers (each process takes the next job as it comes free), else here; also here, with a warning
    and the same results, when the processes cannot start (e.g. a script without an
    ``if __name__ == "__main__":`` guard, which a spawned process would run again). `function` must be
    importable by name (a module-level function). The processes stay up for the next call with as many
    workers (starting them costs ~1 s: the probe fits eight grids a run)."""
    global _pool
    if workers > 1 and len(jobs) > 1:
        import multiprocessing
        import warnings
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        try:
            if _pool is None or _pool[0] != workers:
                shutdown_pool()
                _pool = (workers, ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")))
            return list(_pool[1].map(function, jobs))
        except (BrokenProcessPool, OSError) as exc:
            shutdown_pool()
            warnings.warn(
                f"the latent-model fits could not run in {workers} processes ({exc!r}); running them "
                f"one after another (set {WORKERS_ENV}=1 to skip the attempt)",
                RuntimeWarning,
                stacklevel=4,
            )
    return [function(job) for job in jobs]


_pool: tuple[int, Any] | None = None


def shutdown_pool() -> None:
    """Stop the processes `map_spawned` keeps (also done at exit)."""
    global _pool
    if _pool is not None:
        _pool[1].shutdown(wait=True, cancel_futures=True)
        _pool = None


atexit.register(shutdown_pool)
