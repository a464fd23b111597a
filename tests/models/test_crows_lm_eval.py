"""crows_pairs_gender on causal LMs equals lm-evaluation-harness: its own ``crows_pairs_english_gender`` task
definition (lm-eval 0.4.13, extra ``oracles``), pointed at the mirrored CrowS-Pairs file instead of its hub
copy, run through its ``HFLM`` on the same local causal model, gives the same two log-likelihoods per pair and
the same aggregates (``pct_stereotype``, ``likelihood_diff``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from biascheck.methods.crows_pairs_gender import metrics, score
from biascheck.methods.crows_pairs_gender.reference import load
from biascheck.methods.crows_pairs_gender.spec import PROBE
from biascheck.models.causal import CausalLM
from biascheck.settings import settings_of

lm_eval = pytest.importorskip("lm_eval", reason="lm-evaluation-harness is in the 'oracles' extra")


def _local_task(directory: Path, csv: Path) -> str:
    """A task that includes lm-eval's own gender task and replaces only where the data come from."""
    import lm_eval.tasks

    upstream = Path(lm_eval.tasks.__file__).parent / "crows_pairs" / "crows_pairs_english_gender.yaml"
    (directory / "crows_pairs_local_gender.yaml").write_text(
        f"include: {upstream}\n"
        "task: crows_pairs_local_gender\n"
        "dataset_path: csv\n"
        "dataset_name: null\n"
        f"dataset_kwargs:\n  data_files:\n    test: {csv}\n"
    )
    return "crows_pairs_local_gender"


@pytest.fixture(scope="module")
def harness_run(gpt2_tiny, real_refdata, tmp_path_factory, monkeypatch_module):
    from lm_eval.models.huggingface import HFLM
    from lm_eval.tasks import TaskManager

    model, tok = gpt2_tiny
    directory = tmp_path_factory.mktemp("lm_eval_tasks")
    task = _local_task(directory, real_refdata.path("crows_pairs"))
    harness = HFLM(pretrained=model, tokenizer=tok, device="cpu", batch_size=8)
    out = lm_eval.simple_evaluate(
        model=harness, tasks=[task], task_manager=TaskManager(include_path=str(directory)), log_samples=True
    )
    return out["results"][task], out["samples"][task]


@pytest.fixture(scope="module")
def monkeypatch_module(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("HF_DATASETS_OFFLINE", "1")
    mp.setenv("HF_DATASETS_CACHE", str(tmp_path_factory.mktemp("hf_datasets")))
    yield mp
    mp.undo()


def test_per_pair_log_likelihoods_and_aggregates_equal_the_harness(harness_run, gpt2_tiny, real_refdata):
    results, samples = harness_run
    model, tok = gpt2_tiny
    settings = settings_of(PROBE)
    reference = load(real_refdata, settings)
    scored = score.score(CausalLM(model, tok), reference, settings)
    assert len(samples) == len(scored.pairs) == 262
    theirs = {(s["doc"]["sent_more"], s["doc"]["sent_less"]): [r[0] for r in s["filtered_resps"]] for s in samples}
    for r in scored.pairs.itertuples():
        ll_more, ll_less = theirs[r.sent_more, r.sent_less]
        assert r.score_more == pytest.approx(ll_more, abs=1e-4, rel=1e-5), r.row
        assert r.score_less == pytest.approx(ll_less, abs=1e-4, rel=1e-5), r.row
    ours = {m.name: m.value for m in metrics.task_metrics("all", scored, reference, settings)}
    assert ours["stereo_share"] == pytest.approx(results["pct_stereotype,none"])
    assert ours["mean_abs_logprob_diff"] == pytest.approx(results["likelihood_diff,none"], rel=1e-5)
    assert np.isfinite(ours["mean_logprob_diff"])
