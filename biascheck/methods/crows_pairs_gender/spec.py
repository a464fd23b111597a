"""crows_pairs_gender (Nangia et al. 2020, CrowS-Pairs; beyond the seed papers): what the probe declares.
Imports only `biascheck.spec`."""

from __future__ import annotations

from biascheck.spec import MetricSpec, Paired, ProbeSpec

SUBSETS = {"all": None, "stereo": "stereo", "antistereo": "antistereo"}  # task -> stereo_antistereo value
MASKED_DECIMALS = 3  # metric.py rounds both scores to 3 decimals before comparing them (ties: neutral)

ITEMS = "stereo_share"  # the metric whose result carries the per-item records (`Paired.items_of`)

PROBE = ProbeSpec(
    name="crows_pairs_gender",
    title="CrowS-Pairs, gender pairs: does the model prefer the more stereotyping sentence? (Nangia et al. 2020)",
    paper="beyond the seeds: Nangia et al. 2020",
    language="en",
    tasks=tuple(SUBSETS),
    metrics=(
        MetricSpec(
            name="stereo_share",
            description="share of pairs whose more stereotyping sentence scores higher (metric.py's metric score / "
            "100; ties count as not preferred)",
            better="target",
            reference="human",
            target=0.5,
            paired=Paired(statistic="share_greater", fields=("score_more", "score_less"), cluster="row"),
        ),
        MetricSpec(
            name="mean_logprob_diff",
            description="mean score(sent_more) - score(sent_less), nats (> 0: the stereotyping sentence is more "
            "likely)",
            better="zero",
            reference="human",
            paired=Paired(
                statistic="mean_difference", fields=("score_more", "score_less"), cluster="row", items_of=ITEMS
            ),
        ),
        MetricSpec(
            name="mean_abs_logprob_diff",
            description="mean |score(sent_more) - score(sent_less)|, nats (lm-evaluation-harness's likelihood_diff)",
            better="none",
            reference="human",
            paired=Paired(
                statistic="mean_abs_difference", fields=("score_more", "score_less"), cluster="row", items_of=ITEMS
            ),
        ),
        MetricSpec(
            name="neutral_share",
            description="share of pairs whose two scores tie (metric.py's 'neutral')",
            better="none",
            reference="human",
            paired=Paired(statistic="share_equal", fields=("score_more", "score_less"), cluster="row", items_of=ITEMS),
        ),
    ),
)
