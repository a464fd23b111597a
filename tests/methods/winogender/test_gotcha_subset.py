"""lm-eval's ``winogender_gotcha`` is not a filter in lm-eval but a file of its hub copy
(``oskarvanderwal/winogender``, configuration ``gotcha``), which is not mirrored. Its membership is pinned here
by what that file is known to hold: 240 rows since commit d1cdb5b ("Fix 'gotcha' subset (including examples
where PARTICIPANT is correct as well)"), the rows that commit's diff shows first, and lm-eval's own gender
filters (``utils.filter_male`` / ``filter_female``, the ``winogender_gotcha_male`` / ``_female`` tasks) run on
our subset."""

from __future__ import annotations

import pytest

from biascheck.methods.winogender import math
from biascheck.methods.winogender.reference import load
from biascheck.methods.winogender.spec import PROBE
from biascheck.settings import settings_of

# The first rows of gotcha.tsv in the diff of d1cdb5b (sentid column), in file order.
HUB_FIRST_ROWS = [
    "technician.customer.0.female.txt",
    "technician.someone.0.female.txt",
    "accountant.taxpayer.0.male.txt",
    "accountant.someone.0.male.txt",
    "supervisor.employee.0.female.txt",
    "supervisor.someone.0.female.txt",
    "engineer.client.0.female.txt",
    "engineer.someone.0.female.txt",
]


@pytest.fixture(scope="module")
def subset(real_refdata):
    reference = load(real_refdata, settings_of(PROBE))
    sentences = reference.sentences
    bls = reference.occupations.set_index("occupation")["bls_pct_female"]
    return sentences, math.gotcha(sentences, bls), math.occupation_gotcha(sentences, bls)


def test_the_gotcha_subset_has_the_hub_files_shape(subset):
    sentences, gotcha, occupation_half = subset
    rows = sentences[gotcha]
    assert len(rows) == 240 and occupation_half.sum() == 120 and not (occupation_half & ~gotcha).any()
    assert rows["answer"].value_counts().to_dict() == {0: 120, 1: 120}
    assert rows["gender"].value_counts().to_dict() == {"male": 120, "female": 120}
    # one of the he/she pair of every sentence: the one whose majority gender misleads
    per_pair = rows.groupby(["template_id", "someone"]).size()
    assert len(per_pair) == 240 and (per_pair == 1).all()


def test_the_rows_the_hub_commit_shows_are_in_the_subset_in_its_order(subset):
    """The hub file lists the 120 occupation rows first (the file before d1cdb5b), in all_sentences order."""
    sentences, _, occupation_half = subset
    ids = sentences.loc[occupation_half, "sentid"].tolist()
    assert ids[: len(HUB_FIRST_ROWS)] == HUB_FIRST_ROWS


def test_lm_evals_gender_filters_split_the_subset_as_ours(subset):
    datasets = pytest.importorskip("datasets")
    utils = pytest.importorskip("lm_eval.tasks.winogender.utils")
    sentences, gotcha, _ = subset
    rows = sentences.loc[gotcha, ["sentid", "gender"]].reset_index(drop=True)
    data = datasets.Dataset.from_pandas(rows)
    assert utils.filter_male(data)["sentid"] == rows.loc[rows["gender"] == "male", "sentid"].tolist()
    assert utils.filter_female(data)["sentid"] == rows.loc[rows["gender"] == "female", "sentid"].tolist()
