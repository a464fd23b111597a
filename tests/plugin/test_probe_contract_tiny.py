"""Every probe of the catalog, through the real plugin, keeps the probe contract (`biascheck.testing`) on a tiny
real masked LM (random weights, the real bert-base-uncased tokenizer): a plumbing run with the guard switched off,
since the guard rightly finds that model cannot read any probe (`test_competence_guard.py`). The small designs
of test_probe_contract.py."""

from pathlib import Path

import pytest
from test_probe_contract import QUICK

from biascheck.catalog import PROBES
from biascheck.testing import check_contract, run_probes

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory, mirror, tiny_bert):
    return run_probes(
        tmp_path_factory.mktemp("tiny"),
        REPO,
        [str(tiny_bert)],
        data_dir=mirror,
        settings=QUICK,
        extra_args=["--device", "cpu", "--bias-tier", "quick"],
        guard=False,
    )


@pytest.mark.parametrize("probe", list(PROBES))
def test_probe_keeps_the_contract_on_a_tiny_real_masked_model(probe, tiny_run):
    assert check_contract(PROBES[probe], tiny_run) == [], tiny_run.output[-3000:]
