"""lab/scripts/frame_transfer.py: it runs on a real (tiny, random) checkpoint, and its tables hold what
they say: per antecedent type the mean surprisal of the item's own pronoun form, in both frame sets."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from script_module import load_script

SCRIPT = Path(__file__).resolve().parents[2] / "lab" / "scripts" / "frame_transfer.py"
pytest.importorskip("torch")


@pytest.mark.parametrize("frames", [["--frames", "they"], ["--frames", "norwegian", "--names", "2", "--limit", "12"]])
def test_the_command_runs_on_a_checkpoint(tiny_bert, mirror, frames):
    env = {**os.environ, "BIASCHECK_DATA_DIR": str(mirror), "BIASCHECK_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tiny_bert), *frames],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    expected = ("beta_gendered", "probe words") if frames[1] == "they" else ("task1 'Hun er X.'", "task4")
    assert all(e in done.stdout for e in expected), done.stdout


class _Scripted:
    """A masked 'model' whose log P of a form is -1 for they/them/their/themselves and -3 otherwise,
    minus 2 more in a sentence that starts with 'My sister'."""

    family = "masked"

    def fill_slot(self, templates, forms):
        they = {"they", "them", "their", "themselves"}
        logprob = np.array(
            [
                [(-1.0 if f in they else -3.0) - (2.0 if t.startswith("My sister") else 0.0) for f in forms]
                for t in templates
            ]
        )
        return type("S", (), {"logprob": logprob, "n_pieces": np.ones(logprob.shape, int), "estimator": "scripted"})()


def test_the_they_table_is_the_mean_surprisal_of_the_own_form_per_type():
    table = load_script(SCRIPT).they_transfer(_Scripted(), per_antecedent=2)
    assert table.loc["gendered_name"].tolist() == pytest.approx([1.0, 1.0])
    # 'My sister' is one of the 20 close gendered antecedents: 1 + 2 nats in its sentences, 1 elsewhere.
    from biascheck.methods.singular_they.stimuli import they_stimuli

    probe = they_stimuli()
    close = probe[probe["condition"] == "close_gendered"]
    expected = 1.0 + 2.0 * close["antecedent"].eq("my sister").mean()
    assert table.loc["close_gendered", "probe frames"] == pytest.approx(expected)
    assert table.loc["close_gendered", "corpus frames"] == pytest.approx(1.0 + 2.0 / 20)
