"""Every recipe a probe declares (`MetricSpec.paired`) recomputes the value its probe's metrics compute, from the
items the probe saves: else the paired rule would judge another number than the one recorded."""

from types import SimpleNamespace

import numpy as np
import pandas as pd

from biascheck.gate import paired as pr
from biascheck.gate.baseline import saved_result
from biascheck.methods.crows_pairs_gender import metrics as crows
from biascheck.methods.crows_pairs_gender.score import Scored as CrowsScored
from biascheck.methods.crows_pairs_gender.spec import PROBE as CROWS
from biascheck.methods.winobias import metrics as winobias
from biascheck.methods.winobias.score import Scored as WinobiasScored
from biascheck.methods.winobias.spec import PROBE as WINOBIAS


def recorded(probe, task, metrics):
    """The metrics as a saved run holds them: items as saved, the recipe as `ProbeRecorder.record` saves it."""
    out = []
    for m in metrics:
        spec = probe.metric(m.name)
        record = {"model": "m", "probe": probe.name, "task": task, "metric": m.name, "value": m.value, "items": m.items}
        out.append(saved_result({**record, "paired": None if spec.paired is None else spec.paired.to_json()}))
    return out


def check_every_recipe(results, expected):
    found = {}
    for r in results:
        if r.paired:
            items = pr.items_for(results, r)
            again = pr.paired_change(r.paired, items, items, (r.value, r.value))
            assert not isinstance(again, str), (r.key, again)
            found[r.metric] = again.half_width
    assert sorted(found) == sorted(expected) and all(h == 0 for h in found.values())


def test_crows_pairs_recipes_recompute_the_metrics_of_task_all():
    rng = np.random.default_rng(0)
    n = 40
    frame = pd.DataFrame(
        {"row": np.arange(n), "stereo_antistereo": ["stereo", "antistereo"] * (n // 2),
         "score_more": rng.normal(-30, 5, n), "score_less": rng.normal(-30, 5, n)}
    )  # fmt: skip
    frame.loc[3, "score_less"] = frame.loc[3, "score_more"]  # a tie: neutral_share is not 0
    metrics = crows.task_metrics("all", CrowsScored(frame, "causal-sentence", None), None, None)
    check_every_recipe(
        recorded(CROWS, "all", metrics), ["stereo_share", "mean_logprob_diff", "mean_abs_logprob_diff", "neutral_share"]
    )


def test_winobias_recipes_recompute_the_metrics_of_each_type():
    rng = np.random.default_rng(1)
    n = 30
    pairs = pd.DataFrame(
        {"type": 1, "pair_id": [f"p{i}" for i in range(n)], "occupation": [f"o{i % 7}" for i in range(n)],
         "occupation_gender": ["female", "male"] * (n // 2), "diff": rng.normal(0.2, 1.0, n)}
    )  # fmt: skip
    reference = SimpleNamespace(splits=("dev",))
    metrics = winobias.task_metrics("type1", WinobiasScored(pairs, 0, "causal-sentence"), reference, None)
    check_every_recipe(recorded(WINOBIAS, "type1", metrics), ["pro_share", "mean_pro_anti"])


def test_crows_pairs_rounded_scores_that_tie_only_after_rounding_fall_back_with_the_reason():
    """A masked model's scores are compared at 3 decimals (ties), which the saved items do not say: where that
    changes the share, the recipe does not recompute it, and the comparison keeps the unpaired rule."""
    frame = pd.DataFrame(
        {"row": [0, 1, 2], "stereo_antistereo": "stereo", "score_more": [-1.0001, -2.0, -3.0],
         "score_less": [-1.0002, -1.0, -4.0]}
    )  # fmt: skip
    results = recorded(CROWS, "all", crows.task_metrics("all", CrowsScored(frame, "mlm", 3), None, None))
    share = next(r for r in results if r.metric == "stereo_share")
    again = pr.paired_change(share.paired, share.items, share.items, (share.value, share.value))
    assert isinstance(again, str) and "not the recorded 0.3333" in again
