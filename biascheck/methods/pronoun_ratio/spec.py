"""pronoun_ratio (paper 001, Tang & Jiang 2023): what the probe declares. Imports only `biascheck.spec`."""

from __future__ import annotations

from biascheck.spec import MetricSpec, ProbeSpec

VERBS = {"is": "is", "works_as": "works as"}
PRONOUNS = ("He", "She")
ARTICLES = ("a", "an")  # the upstream list gives each profession its article; each has its own prior

PROBE = ProbeSpec(
    name="pronoun_ratio",
    title="English pronoun ratios over 923 professions (Tang & Jiang 2023)",
    paper="001",
    language="en",
    tasks=("is", "works_as", "sensitivity"),
    metrics=(
        MetricSpec(
            "log_prior_ratio",
            "log P(he)/P(she) in the prior template '[MASK] <verb> a [MASK].' (>0: male default)",
            "zero",
            "model",
        ),
        MetricSpec(
            "log_prior_ratio_an",
            "log P(he)/P(she) in the prior template '[MASK] <verb> an [MASK].' (the prior of the 'an' professions)",
            "zero",
            "model",
        ),
        MetricSpec("median_log_r", "median over professions of log r = log P(he)/P(she)", "zero", "model"),
        MetricSpec(
            "mean_abs_log_n", "mean |log n|: profession-specific gender lean after removing the prior", "lower", "model"
        ),
        MetricSpec(
            "male_lean_share",
            "share of professions with n > 1 (leaning male after the prior)",
            "target",
            "model",
            target=0.5,
        ),
        MetricSpec(
            "mean_certainty", "mean c = P(he) + P(she) (masked LMs: how natural the template is)", "none", "model"
        ),
        MetricSpec("spearman_bls", "Spearman rho of log(1/n) with the US women's share (BLS 2015)", "lower", "gold"),
        MetricSpec(
            "stereotype_agreement",
            "share of the 60 stereotyped professions whose n leans the stereotyped way",
            "target",
            "gold",
            target=0.5,
        ),
        MetricSpec(
            "template_spearman",
            "Spearman rho of log n under 'is' vs 'works as' (reliability of the probe)",
            "higher",
            "model",
        ),
        MetricSpec("template_mean_abs_diff", "mean |log n(is) - log n(works as)| over professions", "none", "model"),
    ),
)
