"""The real path, end to end: `pytest --model <local dir>` → loader → engine → pronoun-ratio probe →
summary and results.json. The model is a tiny BertForMaskedLM built from a config (random weights)
with the real bert-base-uncased tokenizer, so every step runs for real in seconds. Random weights cannot
read a probe, and the competence guard says so (tests/plugin/test_competence_guard.py): these plumbing
runs switch it off (`biascheck.testing.UNGUARDED_CONFTEST`)."""

import json
import shutil
from pathlib import Path

import pytest

from biascheck.testing import UNGUARDED_CONFTEST

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def checkout(pytester):
    """A pytester directory holding the project's probes and threshold profiles, as a checkout does."""
    shutil.copytree(REPO / "probes", pytester.path / "probes")
    shutil.copytree(REPO / "thresholds", pytester.path / "thresholds")
    pytester.makeconftest(UNGUARDED_CONFTEST)


@pytest.mark.usefixtures("checkout")
def test_pronoun_probe_runs_on_a_real_masked_model_directory(pytester, tiny_bert, mirror):
    result = pytester.runpytest_subprocess(
        "probes/test_pronoun_ratio.py",
        "--model",
        str(tiny_bert),
        "--device",
        "cpu",
        "--bias-data",
        str(mirror),
        "--bias-report",
        "out",
        "-p",
        "no:cacheprovider",
    )
    result.stdout.fnmatch_lines(
        [
            f"pronoun_ratio · {tiny_bert} · tier quick · estimator mlm-slot*",
            "*is*mean_certainty*model*[[]*]*923*",
            "*is*spearman_bls*gold*99*",
            "*sensitivity*template_spearman*923*",
        ]
    )
    data = json.loads((pytester.path / "out" / "results.json").read_text())
    assert data["models"][str(tiny_bert)]["family"] == "masked"
    assert {d["name"] for d in data["data"]} == {"professions_923", "professions_60", "bls2015"}
    per_profession = next(r for r in data["results"] if r["metric"] == "mean_abs_log_n" and r["task"] == "is")["items"]
    assert len(per_profession) == 923 and {"profession", "log_r", "log_n", "certainty"} <= set(per_profession[0])
    assert (pytester.path / "out" / "plots").is_dir()


@pytest.mark.usefixtures("checkout")
def test_missing_reference_data_is_reported_as_its_message_not_a_traceback(pytester, tiny_bert, tmp_path, monkeypatch):
    """A probe stopped by a biascheck error (here the reference data is nowhere) shows the error's own
    message (which file, where it looked, how to fix it) without pytest's traceback through the plugin;
    the run fails (fails closed); --tb=long gives the traceback back."""
    (tmp_path / "empty").mkdir()
    args = [
        "probes/test_pronoun_ratio.py",
        "--model",
        str(tiny_bert),
        "--device",
        "cpu",
        "--bias-data",
        str(tmp_path / "empty"),
        "--bias-report",
        "none",
        "-p",
        "no:cacheprovider",
        "-k",
        "is",
    ]
    env = {"BIASCHECK_OFFLINE": "1", "BIASCHECK_CACHE_DIR": str(tmp_path / "cache"), "BIASCHECK_DATA_DIR": ""}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    short = pytester.runpytest_subprocess(*args)
    assert short.ret == 1
    short.stdout.fnmatch_lines(
        [
            "MissingDataError: Reference file 'professions_923'*was not found. Looked in: *",
            "(pytest --tb=long shows where it was raised)",
        ]
    )
    assert "resolve.py" not in short.stdout.str() and "Traceback" not in short.stdout.str()
    long = pytester.runpytest_subprocess(*args, "--tb=long")
    assert long.ret == 1 and "biascheck/data/resolve.py" in long.stdout.str()


@pytest.mark.usefixtures("checkout")
def test_a_model_that_does_not_load_is_reported_once_per_test(pytester, tmp_path, mirror):
    """The model fixture's failure message stands alone (it used to be printed twice, chained to the
    error it was made from by "During handling of the above exception")."""
    (tmp_path / "not-a-model").mkdir()
    got = pytester.runpytest_subprocess(
        "probes/test_pronoun_ratio.py",
        f"--model={tmp_path / 'not-a-model'}",
        "--bias-data",
        str(mirror),
        "--bias-report",
        "none",
        "-p",
        "no:cacheprovider",
    )
    assert got.ret == 1
    text = got.stdout.str()
    reports = [line for line in text.splitlines() if line.startswith(f"--model '{tmp_path / 'not-a-model'}'")]
    assert len(reports) == 3  # one per test (is, works_as, sensitivity), the short summary's lines aside
    assert "During handling" not in text
    assert "holds a saved model: config.json" in reports[0] and "network" not in reports[0]  # a directory


@pytest.mark.usefixtures("checkout")
def test_a_model_directory_without_its_tokenizer_fails_the_run_with_one_message(pytester, tmp_path, mirror):
    """Such a directory loaded with an empty tokenizer and the probes passed with perfect
    numbers; now the model is refused, the run fails, and the message is shown once, without a traceback."""
    from biascheck.testing import tiny_bert_config

    directory = tmp_path / "notok"
    transformers.BertForMaskedLM(tiny_bert_config(200)).save_pretrained(directory)
    args = ["-k", "is", "--bias-data", str(mirror), "--bias-report", "none", "-p", "no:cacheprovider"]
    got = pytester.runpytest_subprocess("probes/test_pronoun_ratio.py", f"--model={directory}", *args)
    assert got.ret == 1
    text = got.stdout.str()
    reports = [line for line in text.splitlines() if line.startswith(f"--model '{directory}'")]
    assert len(reports) == 1 and "During handling" not in text and "Traceback" not in text
    assert "no tokenizer files" in reports[0] and "tokenizer.save_pretrained(" in reports[0]
    assert "1 error" in text or "1 failed" in text
