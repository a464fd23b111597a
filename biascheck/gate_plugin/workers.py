"""pytest-xdist and the gate: one model per worker, and every worker's results on the controller.

The gate judges a run as a whole, so under ``-n N`` the controller must hold what every worker measured:

1. Scheduling (``--dist loadgroup``): every test of one model goes to one worker (`model_of` reads the
   model from the test's node id), so each worker loads its models once.
2. Shipping: on a worker, every test report carries the results (and timings) recorded since the
   previous report, with the worker's model and data provenance, as the attribute ``biascheck``
   (`Shipping.pack`); xdist serialises a report's attributes, so they reach the controller, which
   rebuilds the `Result` records into its session and keeps the provenance (`Shipping.unpack`).

The controller alone then writes the summary, the report files and the store (`biascheck.gate_plugin.tracking`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from biascheck.results import Result
from biascheck.session import BiasSession


def is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


@dataclass
class Shipping:
    """What has gone from this worker (counts into the session's lists), and what came to the controller from
    all workers (their model and data records, by name)."""

    shipped: int = 0
    shipped_timings: int = 0
    models: dict[str, dict[str, Any]] = field(default_factory=dict)
    data: dict[str, dict[str, Any]] = field(default_factory=dict)

    def pack(self, session: BiasSession) -> dict[str, Any] | None:
        """On a worker: the results and timings recorded since the last report, with the provenance; None
        when there is nothing to send (nothing new and no model loaded yet)."""
        fresh = session.results[self.shipped :]
        self.shipped = len(session.results)
        timings = session.timings[self.shipped_timings :]
        self.shipped_timings = len(session.timings)
        if not fresh and not timings and not session.models:
            return None
        return {
            "results": [r.to_json() for r in fresh],
            "timings": timings,
            "models": session.model_records(),
            "data": session.data_records(),
        }

    def unpack(self, session: BiasSession, shipped: dict[str, Any]) -> None:
        """On the controller: a worker's results into the session, its provenance kept for the metadata."""
        session.results.extend(Result.from_json(r) for r in shipped["results"])
        session.timings.extend(shipped.get("timings", []))
        self.models.update(shipped["models"])
        self.data.update({d["name"]: d for d in shipped["data"]})


def model_of_item(item: Any) -> str | None:
    """The model a collected test runs on: its `lm` parameter as given on the command line, read from the
    test's parametrization (never from its node id, where pytest escapes non-ASCII names: `språk` is
    `spr\\xe5k` there)."""
    callspec = getattr(item, "callspec", None)
    model = callspec.params.get("lm") if callspec is not None else None
    return model if isinstance(model, str) else None


def node_id_forms(model: str) -> tuple[str, ...]:
    """How `model` can appear in a node id: as given, and as pytest escapes a non-ASCII id (`bért` ->
    `b\\xe9rt`; pytest's option disable_test_id_escaping... keeps it as given)."""
    from _pytest.compat import ascii_escaped

    return tuple(dict.fromkeys((model, ascii_escaped(model))))


def model_of(nodeid: str, models: tuple[str, ...]) -> str | None:
    """The model a test node id is parametrized with (its `lm` id is the model name), longest match; for
    where only the node id is known (xdist's scheduler on the controller). A test report carries its
    model as `REPORT_MODEL` (`model_of_report`), which needs no matching."""
    params = nodeid[nodeid.find("[") + 1 : nodeid.rfind("]")] if "[" in nodeid else ""
    found = [
        (len(m), m)
        for m in models
        for form in node_id_forms(m)
        if params == form or params.startswith(form + "-") or params.endswith("-" + form) or f"-{form}-" in params
    ]
    return max(found)[1] if found else None


REPORT_MODEL = "biascheck_model"  # a test report's attribute: its model (xdist ships it to the controller)


def model_of_report(report: Any, models: tuple[str, ...]) -> str | None:
    """The model of a test report: the attribute the run's makereport hook set from the item ('': a test on
    no model), else (a report from elsewhere) its node id."""
    model = getattr(report, REPORT_MODEL, None)
    return (model or None) if isinstance(model, str) else model_of(report.nodeid, models)


def model_group_scheduler(config: pytest.Config, log: Any, models: tuple[str, ...]) -> Any:
    """xdist's LoadGroupScheduling with the model as the group (tests without a model: their own node id)."""
    from xdist.scheduler import LoadGroupScheduling

    class ModelGroupScheduling(LoadGroupScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            model = model_of(nodeid, models)
            return f"model:{model}" if model is not None else super()._split_scope(nodeid)

    return ModelGroupScheduling(config, log)
