"""The whole gate loop on two real checkpoints whose bias differs by construction: a tiny
BERT (A) and the same weights with the output bias of 'she' raised by 3 nats (B), so every
P(he)/P(she) drops by e^3 while the rest of the model is unchanged. Run → save → compare → accept →
history, through the console commands a CI job would call. A random-weight BERT cannot read a probe and the
competence guard says so (tests/plugin/test_competence_guard.py): this test of the gate's machinery switches
the guard off (`biascheck.testing.UNGUARDED_CONFTEST`)."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from biascheck.testing import UNGUARDED_CONFTEST

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def checkpoints(tiny_bert, tmp_path_factory):
    """(A, B): B is A with the MLM output bias of 'she' raised by 3."""
    b = tmp_path_factory.mktemp("tiny-bert-she")
    model = transformers.BertForMaskedLM.from_pretrained(tiny_bert)
    tokenizer = transformers.AutoTokenizer.from_pretrained(tiny_bert)
    with torch.no_grad():
        model.cls.predictions.bias[tokenizer.convert_tokens_to_ids("she")] += 3.0
    model.save_pretrained(b)
    tokenizer.save_pretrained(b)
    return tiny_bert, b


def _biascheck(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "biascheck.cli", *args], cwd=cwd, capture_output=True, text=True, check=False
    )


def test_a_planted_shift_is_red_everywhere_a_ci_looks_and_cannot_be_accepted(pytester, checkpoints, mirror):
    a, b = checkpoints
    shutil.copytree(REPO / "probes", pytester.path / "probes")
    pytester.makeconftest(UNGUARDED_CONFTEST)
    (pytester.path / "thresholds").mkdir()
    (pytester.path / "thresholds" / "report.toml").write_text("")  # no thresholds: only the gate judges
    common = [
        "probes/test_pronoun_ratio.py",
        "--device",
        "cpu",
        "--bias-data",
        str(mirror),
        "--bias-profile",
        str(pytester.path / "thresholds" / "report.toml"),
        "--bias-store",
        "store.sqlite",
        "-p",
        "no:cacheprovider",
    ]
    # regression-only (a profile without thresholds) needs a baseline: the first run creates it
    first = pytester.runpytest_subprocess(
        *common, "--model", str(a), "--bias-baseline", "v1", "--bias-baseline-regen", "--bias-report", "r1"
    )
    assert first.ret == 0
    second = pytester.runpytest_subprocess(
        *common,
        "--model",
        str(b),
        "--bias-save",
        "v2",
        "--bias-baseline",
        "v1",
        "--bias-report",
        "r2",
        "--junitxml",
        "junit.xml",
    )
    assert second.ret == pytest.ExitCode.TESTS_FAILED
    second.stdout.fnmatch_lines(
        ["*pronoun_ratio.is.median_log_r*REGRESSED*", "*FAILED *biascheck-gate::*pronoun_ratio.is.median_log_r*"]
    )
    results = json.loads((pytester.path / "r2" / "results.json").read_text())
    assert results["exit_status"] == 1
    regressed = {c["key"] for c in results["baseline"]["comparisons"] if c["status"] == "regressed"}
    assert {"pronoun_ratio.is.median_log_r", "pronoun_ratio.works_as.median_log_r"} <= regressed
    page = (pytester.path / "r2" / "report.html").read_text()
    assert "the regression gate FAILED" in page and "<td>regressed</td>" in page
    # log n subtracts the prior, which moved by the same 3 nats: the profession-specific lean is unchanged
    assert "pronoun_ratio.is.mean_abs_log_n" not in regressed
    assert "pronoun_ratio.is.median_log_r" in (pytester.path / "junit.xml").read_text()

    refused = _biascheck("accept", "v2", "--why", "try", "--store", "store.sqlite", cwd=pytester.path)
    assert refused.returncode == 2 and "cannot become a baseline" in refused.stderr
    accepted = _biascheck(
        "accept", "v1", "--as", "baseline", "--why", "reviewed", "--store", "store.sqlite", cwd=pytester.path
    )
    assert accepted.returncode == 0, accepted.stderr
    history = _biascheck(
        "history", "--store", "store.sqlite", "--metric", "pronoun_ratio.is.median_log_r", cwd=pytester.path
    )
    assert history.returncode == 0 and "v1" in history.stdout and "v2" in history.stdout
    plotted = _biascheck("history", "--store", "store.sqlite", "--plot", "all.png", cwd=pytester.path)
    assert plotted.returncode == 0 and (pytester.path / "all.png").stat().st_size > 10_000
