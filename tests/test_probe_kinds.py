"""What each probe reads of a model (`biascheck.spec.Kind`): intrinsic probes the likelihood of words or sentences,
extrinsic ones a task's answers. The catalog's kinds are pinned, a kind that is neither is refused, and the probe
table lists the intrinsic probes before the extrinsic ones with the kind in each entry."""

from __future__ import annotations

import pytest

from biascheck.catalog import PROBES
from biascheck.probe_table import default_profile, markdown
from biascheck.spec import ProbeSpec

EXTRINSIC = {"bbq_gender_identity"}


def test_every_probe_is_intrinsic_except_the_task_probes():
    kinds = {name: spec.kind for name, spec in PROBES.items()}
    assert {name for name, kind in kinds.items() if kind == "extrinsic"} == EXTRINSIC
    assert set(kinds.values()) == {"intrinsic", "extrinsic"}


def test_a_kind_that_is_neither_is_refused():
    with pytest.raises(ValueError, match="kind='likelihood'; use one of intrinsic, extrinsic"):
        ProbeSpec(name="x", title="x", paper="x", language="en", tasks=(), metrics=(), kind="likelihood")  # type: ignore[arg-type]


def test_the_probe_table_groups_probes_by_kind():
    block = markdown(PROBES, default_profile(PROBES)).replace("\n  ", " ")
    rows = [line for line in block.splitlines() if line.startswith("- [`")]
    kinds = [line.split(". Reads: ")[1].split(".")[0] for line in rows]
    assert kinds == sorted(kinds, key=["intrinsic", "extrinsic"].index)
    assert kinds.count("extrinsic") == len(EXTRINSIC)
