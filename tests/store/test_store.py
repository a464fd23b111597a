"""Results store: save/load/list, no silent overwrite, whole-or-nothing saves, concurrent writers."""

import json
import multiprocessing
import sqlite3

import pytest

from biascheck.gate.store import ResultStore, StoreError


def payload(value=0.5, model="m", exit_status=0):
    return {
        "biascheck_version": "0.1.0",
        "created_utc": "2024-01-01T00:00:00+00:00",
        "exit_status": exit_status,
        "profile": {"name": "default", "files": ["thresholds/default.toml"]},
        "models": {model: {"name": model, "revision": "abc"}},
        "data": [{"name": "professions_923", "sha256": "00"}],
        "results": [
            {
                "model": model,
                "probe": "p",
                "task": "t",
                "metric": "x",
                "value": value,
                "ci_low": value - 0.1,
                "ci_high": value + 0.1,
                "n": 10,
                "higher_is_better": False,
                "passed": True,
                "items": [{"profession": "nurse", "log_n": -1.0}],
            }
        ],
    }


def test_save_load_list_roundtrip(tmp_path):
    store = ResultStore(tmp_path / "s.sqlite")
    store.save_run("v1", payload(0.5))
    store.save_run("v2", payload(0.7))
    assert store.load_run("v1") == payload(0.5)
    assert [r.name for r in store.list_runs()] == ["v1", "v2"]
    assert store.list_runs()[0].models == ["m"] and store.list_runs()[0].profile == "default"
    rows = store.metric_rows()
    assert [(r["run"], r["value"]) for r in rows] == [("v1", 0.5), ("v2", 0.7)]
    with sqlite3.connect(tmp_path / "s.sqlite") as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_existing_name_is_refused_unless_replace_and_old_versions_are_kept(tmp_path):
    store = ResultStore(tmp_path / "s.sqlite")
    store.save_run("v1", payload(0.5))
    with pytest.raises(StoreError, match="already in .*--bias-baseline-regen"):
        store.save_run("v1", payload(0.9))
    store.save_run("v1", payload(0.9), replace=True)
    assert store.load_run("v1")["results"][0]["value"] == 0.9
    assert len(store.list_runs()) == 1 and len(store.list_runs(all_versions=True)) == 2
    assert [r["value"] for r in store.metric_rows()] == [0.9]


def test_missing_run_names_the_known_ones(tmp_path):
    store = ResultStore(tmp_path / "s.sqlite")
    with pytest.raises(StoreError, match="store is empty"):
        store.load_run("v1")
    store.save_run("release-1", payload())
    with pytest.raises(StoreError, match="release-1"):
        store.load_run("release-2")


def test_a_failed_save_leaves_nothing_behind(tmp_path):
    store = ResultStore(tmp_path / "s.sqlite")
    bad = payload()
    bad["results"].append({"model": "m", "probe": "p"})  # no task/metric: fails half-way through the inserts
    with pytest.raises(KeyError):
        store.save_run("v1", bad)
    assert store.list_runs() == [] and store.metric_rows() == []
    with pytest.raises(ValueError):  # NaN is not JSON: refused before anything is written
        store.save_run("v1", payload(float("nan")))
    assert not store.has_run("v1")


def _writer(path, i):
    ResultStore(path).save_run(f"run-{i}", payload(i / 10, model=f"m{i}"))


def test_concurrent_writers_all_land(tmp_path):
    path = tmp_path / "s.sqlite"
    ResultStore(path)
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, i)) for i in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    store = ResultStore(path)
    assert sorted(r.name for r in store.list_runs()) == [f"run-{i}" for i in range(6)]
    assert json.loads(json.dumps(store.load_run("run-3")))["results"][0]["value"] == pytest.approx(0.3)


def test_a_store_that_cannot_be_created_is_a_store_error(tmp_path):
    """It was a FileExistsError traceback from mkdir (pytest --bias-store /dev/null/x.sqlite)."""
    (tmp_path / "afile").write_text("x")
    with pytest.raises(StoreError, match=r"cannot create the results store .*afile/x.sqlite \(.*afile: not a dir"):
        ResultStore(tmp_path / "afile" / "x.sqlite")


SAVE_PAST_A_FILE_SIZE_LIMIT = """
import os, resource, signal, sys
from biascheck.gate.store import ResultStore
store = ResultStore(sys.argv[1])
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
limit = os.path.getsize(sys.argv[1]) + 4096
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
store.save_run("big", {"results": [], "models": {"m": {}}, "exit_status": 0, "blob": "x" * 2_000_000})
"""


def test_a_save_that_fails_on_a_full_disk_says_so_and_leaves_the_store_whole(tmp_path):
    """A full disk (here a file-size limit) during the save reported "cannot rollback - no transaction is
    active": SQLite had rolled back itself, and the second rollback's error hid the real one."""
    import subprocess
    import sys

    path = tmp_path / "s.sqlite"
    ResultStore(path).save_run("v1", {"results": [], "models": {"m": {}}, "exit_status": 0})
    done = subprocess.run(
        [sys.executable, "-c", SAVE_PAST_A_FILE_SIZE_LIMIT, str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode != 0 and "StoreError" in done.stderr, done.stderr[-1500:]
    assert "disk I/O error" in done.stderr or "disk is full" in done.stderr, done.stderr[-1500:]
    assert "no transaction is active" not in done.stderr
    assert [r.name for r in ResultStore(path).list_runs()] == ["v1"]
