"""scripts/install_torch.sh, run with a fake pip that logs its arguments: torch comes from PyTorch's CPU
index; where that index fails, the script says so and falls back to the configured index; `none` skips the
CPU index. setup.sh, the action and the ship check all install torch through it."""

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "scripts" / "install_torch.sh"
CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def _run(tmp_path: Path, cpu_index_works: bool, index: str | None = None) -> tuple[subprocess.CompletedProcess, list]:
    log = tmp_path / "pip.log"
    pip = tmp_path / "pip"
    fail = "" if cpu_index_works else 'case "$*" in *--index-url*) exit 1;; esac\n'
    pip.write_text(f'#!/usr/bin/env bash\necho "$*" >> {log}\n{fail}exit 0\n')
    pip.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "TORCH_INDEX_URL"} | {"PIP": str(pip)}
    if index is not None:
        env["TORCH_INDEX_URL"] = index
    done = subprocess.run([str(SCRIPT), "torch==2.13.0"], env=env, capture_output=True, text=True, check=False)
    return done, log.read_text().splitlines()


def test_torch_comes_from_pytorchs_cpu_index(tmp_path):
    done, calls = _run(tmp_path, cpu_index_works=True)
    assert done.returncode == 0 and done.stderr == ""
    assert calls == [f"install -q --retries 1 --timeout 20 --index-url {CPU_INDEX} torch==2.13.0"]


def test_an_unreachable_cpu_index_is_said_and_the_configured_index_used(tmp_path):
    done, calls = _run(tmp_path, cpu_index_works=False)
    assert done.returncode == 0
    assert calls[-1] == "install -q torch==2.13.0" and len(calls) == 2
    assert "could not be installed from https://download.pytorch.org/whl/cpu" in done.stderr
    assert "CUDA" in done.stderr and "TORCH_INDEX_URL" in done.stderr


@pytest.mark.parametrize("index", ["none"])
def test_none_uses_the_configured_index_only(tmp_path, index):
    done, calls = _run(tmp_path, cpu_index_works=False, index=index)
    assert done.returncode == 0 and done.stderr == "" and calls == ["install -q torch==2.13.0"]


def test_every_installer_of_ours_goes_through_it():
    for path in ("setup.sh", "scripts/ship_check.sh", "action.yml"):
        text = (REPO / path).read_text()
        assert "install_torch.sh" in text, path
        assert "pip install -q torch" not in text and 'install -q "$TORCH"' not in text, path
