"""winogender's coreference task on causal LMs equals lm-evaluation-harness: its own ``winogender`` task
definition (lm-eval 0.4.13, extra ``oracles``; prompt "<sentence> ‘<Pronoun>’ refers to the", answers the
occupation and the participant), reading the mirrored sentences written out as the columns it expects
(its hub copy is not mirrored), run through its ``HFLM`` on the same local causal model: the same two
log-likelihoods per sentence and the same accuracy overall and per pronoun gender; and lm-eval's
``winogender_gotcha_male`` / ``_female`` tasks (its own gender filters) on our gotcha subset give our
``gotcha_accuracy_male`` / ``_female``."""

from __future__ import annotations

from pathlib import Path

import pytest

from biascheck.methods.winogender import math, metrics, score
from biascheck.methods.winogender.reference import load
from biascheck.methods.winogender.spec import PROBE
from biascheck.models.causal import CausalLM
from biascheck.settings import settings_of

lm_eval = pytest.importorskip("lm_eval", reason="lm-evaluation-harness is in the 'oracles' extra")


@pytest.fixture(scope="module")
def reference(real_refdata):
    return load(real_refdata, settings_of(PROBE))


@pytest.fixture(scope="module")
def sentences(reference):
    return reference.sentences


def _run(harness, directory, tasks):
    from lm_eval.tasks import TaskManager

    return lm_eval.simple_evaluate(
        model=harness, tasks=tasks, task_manager=TaskManager(include_path=str(directory)), log_samples=True
    )


def _local(directory: Path, upstream: str, task: str, csv: Path) -> None:
    """A task that includes lm-eval's own `upstream` yaml and replaces only where the data come from."""
    import lm_eval.tasks

    path = Path(lm_eval.tasks.__file__).parent / "winogender" / upstream
    (directory / f"{task}.yaml").write_text(
        f"include: {path}\ntask: {task}\ndataset_path: csv\ndataset_name: null\n"
        f"dataset_kwargs:\n  data_files:\n    test: {csv}\n"
    )


@pytest.fixture(scope="module")
def harness_run(gpt2_tiny, sentences, tmp_path_factory):
    from lm_eval.models.huggingface import HFLM

    mp = pytest.MonkeyPatch()
    mp.setenv("HF_DATASETS_OFFLINE", "1")
    mp.setenv("HF_DATASETS_CACHE", str(tmp_path_factory.mktemp("hf_datasets")))
    directory = tmp_path_factory.mktemp("lm_eval_tasks")
    csv = directory / "winogender_all.csv"
    model, tok = gpt2_tiny
    columns = sentences.rename(columns={"answer": "label"})[
        ["sentence", "pronoun", "occupation", "participant", "label", "gender"]
    ].copy()
    # biascheck scores every text after the model's context prefix (here <|endoftext|>, the BOS token);
    # lm-eval puts it only before an empty context (its add_bos_token cannot add one with a GPT-2
    # tokenizer), so the documents start with its text: the model then reads the same ids in both.
    columns["sentence"] = tok.bos_token + columns["sentence"]
    columns.to_csv(csv, index=False)
    _local(directory, "winogender.yaml", "winogender_local", csv)
    harness = HFLM(pretrained=model, tokenizer=tok, device="cpu", batch_size=8)
    try:
        out = _run(harness, directory, ["winogender_local"])
    finally:
        mp.undo()
    return out["results"]["winogender_local"], out["samples"]["winogender_local"]


def test_coreference_log_likelihoods_and_accuracy_equal_the_harness(harness_run, gpt2_tiny, reference):
    results, samples = harness_run
    model, tok = gpt2_tiny
    settings = settings_of(PROBE)
    scored = score.score(CausalLM(model, tok), reference, settings)
    assert len(samples) == len(scored.sentences) == 720
    bos = gpt2_tiny[1].bos_token
    theirs = {s["doc"]["sentence"].removeprefix(bos): [r[0] for r in s["filtered_resps"]] for s in samples}
    for r in scored.sentences.itertuples():
        ll_occupation, ll_participant = theirs[r.sentence]
        assert r.ll_occupation == pytest.approx(ll_occupation, abs=1e-4, rel=1e-5), r.sentence
        assert r.ll_participant == pytest.approx(ll_participant, abs=1e-4, rel=1e-5), r.sentence
    ours = {m.name: m.value for m in metrics.task_metrics("coreference", scored, reference, settings)}
    assert ours["accuracy"] == pytest.approx(results["acc,none"])


def test_lm_evals_gotcha_gender_tasks_on_our_subset_equal_ours(gpt2_tiny, reference, tmp_path_factory):
    from lm_eval.models.huggingface import HFLM

    model, tok = gpt2_tiny
    settings = settings_of(PROBE)
    scored = score.score(CausalLM(model, tok), reference, settings)
    ours = {m.name: m for m in metrics.task_metrics("coreference", scored, reference, settings)}
    bls = reference.occupations.set_index("occupation")["bls_pct_female"]
    rows = reference.sentences[math.gotcha(reference.sentences, bls)].rename(columns={"answer": "label"})
    rows = rows[["sentence", "pronoun", "occupation", "participant", "label", "gender"]].copy()
    rows["sentence"] = tok.bos_token + rows["sentence"]  # the context prefix, as above
    directory = tmp_path_factory.mktemp("lm_eval_gotcha")
    csv = directory / "gotcha.csv"
    rows.to_csv(csv, index=False)
    for gender in ("male", "female"):
        _local(directory, f"winogender_gotcha_{gender}.yaml", f"gotcha_local_{gender}", csv)
    mp = pytest.MonkeyPatch()
    mp.setenv("HF_DATASETS_OFFLINE", "1")
    mp.setenv("HF_DATASETS_CACHE", str(tmp_path_factory.mktemp("hf_datasets_gotcha")))
    try:
        out = _run(
            HFLM(pretrained=model, tokenizer=tok, device="cpu", batch_size=8),
            directory,
            ["gotcha_local_male", "gotcha_local_female"],
        )
    finally:
        mp.undo()
    for gender in ("male", "female"):
        assert len(out["samples"][f"gotcha_local_{gender}"]) == 120 == ours[f"gotcha_accuracy_{gender}"].n
        theirs = out["results"][f"gotcha_local_{gender}"]["acc,none"]
        assert ours[f"gotcha_accuracy_{gender}"].value == pytest.approx(theirs)
    assert ours["gotcha_accuracy"].n == 240
