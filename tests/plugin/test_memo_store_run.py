"""A run of the probes keeps what its texts became on disk (`biascheck.models.memo_store`), and the next run on the
machine with the same tokenizer reads it: the same results, nothing stored again; $BIASCHECK_MEMO_STORE=off keeps
nothing."""

import json
import os
from pathlib import Path

from biascheck.models import memo_store
from biascheck.testing import run_probes

REPO = Path(__file__).resolve().parents[2]
ARGS = ["--device", "cpu", "--bias-tier", "quick", "-k", "crows_pairs or winobias"]


def _numbers(run) -> list:
    return sorted((r["probe"], r["task"], r["metric"], json.dumps(r["value"])) for r in run.results["results"])


def test_the_next_run_reads_the_store_the_first_one_wrote(tmp_path, mirror, tiny_bert, monkeypatch):
    monkeypatch.setenv("BIASCHECK_CACHE_DIR", str(tmp_path / "cache"))
    store = tmp_path / "cache" / "memo"
    first = run_probes(tmp_path / "a", REPO, [str(tiny_bert)], data_dir=mirror, extra_args=ARGS, guard=False)
    assert first.results and not store.exists(), first.output[-2000:]  # the tests' default: no store
    monkeypatch.setenv("BIASCHECK_MEMO_STORE", "on")  # passed on to the runs, as the cache folder is
    second = run_probes(tmp_path / "b", REPO, [str(tiny_bert)], data_dir=mirror, extra_args=ARGS, guard=False)
    (stored,) = store.glob(f"*{memo_store.SUFFIX}")
    inode = stored.stat().st_ino  # a file written again is a new file (written whole, then renamed)
    os.utime(stored, (0, 0))
    third = run_probes(tmp_path / "c", REPO, [str(tiny_bert)], data_dir=mirror, extra_args=ARGS, guard=False)
    assert first.returncode == second.returncode == third.returncode, third.output[-2000:]  # random weights: red
    assert stored.stat().st_mtime > 0 and stored.stat().st_ino == inode  # read, and not written: nothing added
    assert _numbers(first) == _numbers(second) == _numbers(third)
