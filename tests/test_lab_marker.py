"""`pytest tests -m "not lab"` (docs/development.md): the product's own tests without the lab's (tests/lab/, the
known answers on planted models); `-m lab` is the rest. Together they are `pytest tests`, what CI runs."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _collected(marks: str) -> list[str]:
    command = [sys.executable, "-m", "pytest", "tests", "-m", marks, "--collect-only", "-q", "-p", "no:cacheprovider"]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_not_lab_leaves_out_the_lab_and_keeps_the_product():
    """One collection (about 30 s): the known answers (every probe's test_known_answer.py, the planted models'
    records) and tests/lab/ are out, the planted aliases' own build and resolve tests stay (a `planted-*` alias is
    product)."""
    product = _collected("not lab")
    assert not [t for t in product if t.startswith(("tests/lab/", "tests/planted/test_known_answers"))]
    assert not [t for t in product if "/test_known_answer.py::" in t]
    assert any(t.startswith("tests/methods/pronoun_ratio/test_math.py") for t in product)
    assert any(t.startswith("tests/planted/test_build.py") for t in product)
    assert any(t.startswith("tests/test_architecture.py") for t in product)
