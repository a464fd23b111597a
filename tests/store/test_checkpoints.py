"""--model-list files: CSV and TOML, relative paths, errors that name the file and entry."""

import pytest

from biascheck.checkpoints import Checkpoint, read_model_list
from biascheck.errors import ConfigError


def test_csv_with_relative_directories(tmp_path):
    (tmp_path / "ck1").mkdir()
    f = tmp_path / "list.csv"
    f.write_text("# sweep\nmodel,step,seed\nck1,100,0\ngpt2,,\n")
    assert read_model_list(f) == [Checkpoint(str(tmp_path / "ck1"), 100, "0"), Checkpoint("gpt2", None, None)]


def test_toml(tmp_path):
    f = tmp_path / "list.toml"
    f.write_text('[[checkpoint]]\nmodel = "a"\nstep = 5\nseed = 1\n[[checkpoint]]\nmodel = "b"\n')
    assert read_model_list(f) == [Checkpoint("a", 5, "1"), Checkpoint("b")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,step\na,1\n", "header with a 'model' column"),
        ("model,step\na,x\n", "entry 1: step 'x' is not an integer"),
        ("model,step,extra\na,1,2\n", "unknown field"),
        ("model,step\na,1\na,2\n", "listed twice"),
        ("model\n", "lists no model"),
    ],
)
def test_errors(tmp_path, text, message):
    f = tmp_path / "list.csv"
    f.write_text(text)
    with pytest.raises(ConfigError, match=message):
        read_model_list(f)
