"""The results store: every saved run, by name, in one SQLite file (default `.biascheck/results.sqlite`).

A saved run is the results.json payload of `biascheck.results.run_payload` (metric values with
intervals and per-item scores, models with revisions, data checksums, biascheck version, the
threshold profile and its thresholds), kept whole as JSON, plus one row per metric for queries.

Why SQLite: one file that can live in a repository or a CI cache, readable with any SQLite tool.
Safety:
1. WAL journal mode and a busy timeout: several writers (pytest-xdist workers, parallel jobs on one
   runner) wait for each other instead of failing or interleaving.
2. One transaction per saved run (``BEGIN IMMEDIATE`` … ``COMMIT``): a run is stored whole or not
   at all; a process killed half-way leaves the previous state, which SQLite rolls back on open.
3. Nothing is ever overwritten: saving a name again adds a new version and marks the older one
   superseded (``load_run`` returns the newest; ``list_runs(all_versions=True)`` shows every one).
   The plugin refuses to save over an existing name unless asked (``--bias-baseline-regen`` or
   ``replace=True``), so a baseline only changes on purpose.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import math
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biascheck.errors import BiascheckError
from biascheck.results import RunPayload

DEFAULT_STORE = Path(".biascheck") / "results.sqlite"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    saved_utc TEXT NOT NULL,
    created_utc TEXT,
    biascheck_version TEXT,
    profile TEXT,
    exit_status INTEGER,
    models TEXT NOT NULL,          -- JSON list of model names
    superseded INTEGER NOT NULL DEFAULT 0,
    payload TEXT NOT NULL          -- the whole results.json payload
);
CREATE INDEX IF NOT EXISTS runs_name ON runs (name, superseded);
CREATE TABLE IF NOT EXISTS metrics (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    probe TEXT NOT NULL,
    task TEXT NOT NULL,
    metric TEXT NOT NULL,
    value REAL,
    ci_low REAL,
    ci_high REAL,
    n INTEGER,
    higher_is_better INTEGER,
    passed INTEGER
);
CREATE INDEX IF NOT EXISTS metrics_run ON metrics (run_id);
"""


class StoreError(BiascheckError):
    """A problem with the results store (missing run, name taken, unreadable file)."""


@dataclass(frozen=True)
class RunInfo:
    id: int
    name: str
    saved_utc: str
    created_utc: str | None
    biascheck_version: str | None
    profile: str | None
    exit_status: int | None
    models: list[str]
    superseded: bool


def _finite(value: Any) -> float | None:
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _bool(value: Any) -> int | None:
    return None if value is None else int(bool(value))


_RESULT_KEYS = ("model", "probe", "task", "metric")


def _payload_problem(payload: Any) -> str:
    """What makes a stored payload unreadable for the commands and the gate ('' when nothing does)."""
    if not isinstance(payload, dict):
        return f"it is a JSON {type(payload).__name__}, not an object"
    results = payload.get("results", [])
    if not isinstance(results, list):
        return "its 'results' is not a list"
    for i, result in enumerate(results, start=1):
        missing = [k for k in _RESULT_KEYS if k not in result] if isinstance(result, dict) else list(_RESULT_KEYS)
        if missing:
            return f"result {i} lacks {', '.join(missing)}"
    if not isinstance(payload.get("models") or {}, dict) or not isinstance(payload.get("data") or [], list):
        return "its 'models' is not an object or its 'data' is not a list"
    return ""


class ResultStore:
    """Open the store at `path`, creating it when `create` (saving a run); a store that is only read must
    exist (StoreError otherwise: a mistyped path or another directory, not an empty store left behind).
    Cheap: connections are per operation."""

    def __init__(self, path: str | Path = DEFAULT_STORE, *, timeout: float = 60.0, create: bool = True) -> None:
        self.path = Path(path).expanduser()
        self.timeout = timeout
        if not create and not self.path.is_file():
            where = self.path if self.path.is_absolute() else f"{self.path} (in {Path.cwd()})"
            raise StoreError(
                f"no results store at {where}: nothing has been saved there. A run is saved with pytest "
                "--bias-save NAME, which creates the store; --store PATH reads another one."
            )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a parent that is a file (/dev/null/x.sqlite), no permission, ...
            why = "not a directory" if isinstance(exc, FileExistsError | NotADirectoryError) else exc.strerror or exc
            raise StoreError(
                f"cannot create the results store {self.path} ({exc.filename}: {why}). Name a file in a directory "
                "that can be written (--bias-store PATH, --store PATH)."
            ) from None
        with self._connect() as con:
            con.executescript(_SCHEMA)
            con.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            con = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the results store {self.path}: {exc}") from None
        try:
            con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA foreign_keys=ON")
            con.execute("PRAGMA synchronous=FULL")
            yield con
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"results store {self.path}: {exc}") from None
        finally:
            con.close()

    def has_run(self, name: str) -> bool:
        with self._connect() as con:
            return con.execute("SELECT 1 FROM runs WHERE name = ? LIMIT 1", (name,)).fetchone() is not None

    def save_run(self, name: str, payload: RunPayload, *, replace: bool = False) -> int:
        """Store `payload` under `name` in one transaction; returns the new run id.

        1. Refuse an existing name unless `replace` (then the old versions are kept, superseded).
        2. Insert the run row with the whole payload as JSON (NaN/inf are not JSON: pass the
           payload of `run_payload`, which already has them as null).
        3. Insert one row per metric result for queries (history, comparisons).
        """
        if not name or name != name.strip():
            raise StoreError(f"run name {name!r}: use a non-empty name without surrounding spaces.")
        text = json.dumps(payload, ensure_ascii=False, allow_nan=False)
        results = payload.get("results", [])
        models = list(payload.get("models", {})) or sorted({r["model"] for r in results})
        with self._connect() as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                exists = con.execute("SELECT 1 FROM runs WHERE name = ? LIMIT 1", (name,)).fetchone()
                if exists and not replace:
                    raise StoreError(
                        f"a run named {name!r} is already in {self.path}; pick another name, "
                        "or replace it on purpose (pytest --bias-baseline-regen)."
                    )
                con.execute("UPDATE runs SET superseded = 1 WHERE name = ?", (name,))
                cur = con.execute(
                    "INSERT INTO runs (name, saved_utc, created_utc, biascheck_version, profile, exit_status, "
                    "models, payload)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        name,
                        _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
                        payload.get("created_utc"),
                        payload.get("biascheck_version"),
                        (payload.get("profile") or {}).get("name"),
                        payload.get("exit_status"),
                        json.dumps(models),
                        text,
                    ),
                )
                run_id = int(cur.lastrowid or 0)
                con.executemany(
                    "INSERT INTO metrics VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            run_id,
                            r["model"],
                            r["probe"],
                            r["task"],
                            r["metric"],
                            _finite(r.get("value")),
                            _finite(r.get("ci_low")),
                            _finite(r.get("ci_high")),
                            r.get("n"),
                            _bool(r.get("higher_is_better")),
                            _bool(r.get("passed")),
                        )
                        for r in results
                    ],
                )
                con.execute("COMMIT")
            except BaseException:
                # SQLite rolls a transaction back itself on some errors (a full disk, an I/O error): a second
                # ROLLBACK would then raise "no transaction is active" and hide the real error.
                if con.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        con.execute("ROLLBACK")
                raise
        return run_id

    def _row(self, row: tuple[Any, ...]) -> RunInfo:
        return RunInfo(
            id=row[0],
            name=row[1],
            saved_utc=row[2],
            created_utc=row[3],
            biascheck_version=row[4],
            profile=row[5],
            exit_status=row[6],
            models=json.loads(row[7]),
            superseded=bool(row[8]),
        )

    def list_runs(self, *, all_versions: bool = False) -> list[RunInfo]:
        """Saved runs in the order they were saved (oldest first); only the newest version per name
        unless `all_versions`."""
        where = "" if all_versions else "WHERE superseded = 0"
        with self._connect() as con:
            rows = con.execute(
                "SELECT id, name, saved_utc, created_utc, biascheck_version, profile, exit_status, models, superseded "
                f"FROM runs {where} ORDER BY id"
            ).fetchall()
        return [self._row(r) for r in rows]

    def load_run(self, name: str) -> RunPayload:
        """The payload saved under `name` (newest version). Raises StoreError naming the known runs."""
        with self._connect() as con:
            row = con.execute(
                "SELECT payload, id FROM runs WHERE name = ? ORDER BY id DESC LIMIT 1", (name,)
            ).fetchone()
        if row is None:
            known = [r.name for r in self.list_runs()]
            from biascheck.errors import did_you_mean

            raise StoreError(
                f"no run named {name!r} in {self.path}.{did_you_mean(name, known)}"
                + (f" Saved runs: {', '.join(known)}." if known else " The store is empty.")
            )
        try:
            payload = json.loads(row[0])
        except (TypeError, ValueError) as exc:
            problem = f"its JSON does not parse ({exc})"
        else:
            problem = _payload_problem(payload)
        if problem:
            raise StoreError(
                f"run {name!r} in the results store {self.path} is corrupt (version id {row[1]}): {problem}, so it "
                f"cannot be read. Save a good run under that name again, on purpose: pytest ... --bias-baseline {name} "
                f"--bias-baseline-regen, or biascheck accept RUN --as {name} --why TEXT (the newest version is the one "
                "read; the corrupt one is kept, superseded)."
            )
        return payload

    def metric_rows(self) -> list[dict[str, Any]]:
        """Every metric of every current run, in save order: run, model, probe, task, metric, value, ci, passed
        (None for a metric the run's profile did not gate)."""
        with self._connect() as con:
            rows = con.execute(
                "SELECT r.name, m.model, m.probe, m.task, m.metric, m.value, m.ci_low, m.ci_high, m.n, "
                "m.higher_is_better, m.passed "
                "FROM metrics m JOIN runs r ON r.id = m.run_id WHERE r.superseded = 0 ORDER BY r.id, m.rowid"
            ).fetchall()
        keys = (
            "run",
            "model",
            "probe",
            "task",
            "metric",
            "value",
            "ci_low",
            "ci_high",
            "n",
            "higher_is_better",
            "passed",
        )
        return [dict(zip(keys, row, strict=True)) for row in rows]
