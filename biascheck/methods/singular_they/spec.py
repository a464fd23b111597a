"""singular_they (paper 004, section 4; design of Camilliere et al. 2021): what the probe declares,
the antecedent design of the stimuli and the paper's published figures. Imports only `biascheck.spec`."""

from __future__ import annotations

from biascheck.spec import MetricSpec, ProbeSpec, Setting, optional_file

CONDITIONS = (
    "gendered_name",
    "nongendered_name",
    "close_gendered",
    "distant_gendered",
    "close_nongendered",
    "distant_nongendered",
    "quantified",
    "plural",
)
CONTROL = "inanimate"
ALL_CONDITIONS = (CONTROL, *CONDITIONS)  # the order of the paper's Figure 2
LABELS = {
    "inanimate": "Inanimate control",
    "gendered_name": "Gendered name",
    "nongendered_name": "Non-gendered name",
    "close_gendered": "Close, gendered",
    "distant_gendered": "Distant, gendered",
    "close_nongendered": "Close, non-gendered",
    "distant_nongendered": "Distant, non-gendered",
    "quantified": "Quantified NP",
    "plural": "Plural NP",
}
# Closeness × gender cells of the paper's Table 2 regression, sum-coded (+1 close / gendered, -1 distant /
# non-gendered) as in Camilliere et al. (2021), whose analysis the paper follows: a coefficient is half
# the difference between the two levels' mean surprisal, the scale of the paper's beta_close 0.51 and
# beta_gendered 0.34. (Dummy 0/1 coding would give the whole difference: twice the paper's scale.)
CLOSENESS_GENDER = {
    "close_gendered": (1, 1),
    "distant_gendered": (-1, 1),
    "close_nongendered": (1, -1),
    "distant_nongendered": (-1, -1),
}

RATINGS_ENV = "BIASCHECK_THEY_RATINGS"
# Participant groups of the paper's Table 4 (metric r_<group>) with BERT's correlations.
PAPER_GROUPS = {
    "non_innovators": -0.62,
    "innovators": -0.57,
    "super_innovators": -0.38,
    "low_acceptance": -0.59,
    "med_acceptance": -0.60,
    "high_acceptance": -0.43,
}
PAPER_BETA = {"close": 0.51, "gendered": 0.34}
TASKS = ("antecedents", "closeness_gender", "human_ratings")

PROBE = ProbeSpec(
    name="singular_they",
    title=(
        "Singular they: pronoun surprisal by antecedent type, closeness and gender (Watson "
        "et al. 2023; design of Camilliere et al. 2021)"
    ),
    paper="004",
    language="en",
    tasks=TASKS,
    metrics=(
        *(
            MetricSpec(
                name=f"surprisal_{c}",
                description=f"mean surprisal (nats) of the pronoun, antecedent: {LABELS[c]}",
                better="none",
                reference="model",
            )
            for c in ALL_CONDITIONS
        ),
        MetricSpec(
            name="specific_minus_quantified",
            description="mean surprisal over the 6 specific singular antecedent types − quantified: >0 = they is "
            "harder for a specific person than for 'every dentist' (the non-innovative pattern)",
            better="none",
            reference="model",
        ),
        MetricSpec(
            name="inanimate_minus_specific",
            description="surprisal(inanimate) − mean over the 6 specific singular types: >0 = the model "
            "rejects they for things more than for people",
            better="none",
            reference="model",
        ),
        MetricSpec(
            name="pattern_checks",
            description="share of the paper's 4 human-pattern checks the model shows (plural/quantified easiest, "
            "inanimate hardest, close harder, gendered harder)",
            better="none",
            reference="model",
        ),
        MetricSpec(
            name="beta_close",
            description="mixed-model effect of a socially close antecedent on surprisal (nats; sum coding: half the "
            "close - distant difference)",
            better="none",
            reference="model",
        ),
        MetricSpec(
            name="beta_gendered",
            description="mixed-model effect of a gendered antecedent on surprisal (nats; sum coding: half the "
            "gendered - non-gendered difference): how much gender cues lower P(they)",
            better="lower",
            reference="model",
        ),
        MetricSpec(name="p_close", description="p-value of beta_close", better="none", reference="model"),
        MetricSpec(name="p_gendered", description="p-value of beta_gendered", better="none", reference="model"),
        *(
            MetricSpec(
                name=f"r_{g}",
                description=f"Pearson r of surprisal with the mean rating of group {g} (user ratings file)",
                better="none",
                reference="human",
            )
            for g in PAPER_GROUPS
        ),
        MetricSpec(
            name="r_all",
            description="Pearson r of surprisal with the mean rating over all participants (user ratings file)",
            better="none",
            reference="human",
        ),
    ),
    settings=(
        Setting(
            "ratings",
            "",
            "a CSV of human ratings (columns item, condition, group, rating) for the human_ratings task; "
            "empty: the correlations are reported as absent",
            optional_file,
            env=RATINGS_ENV,
        ),
    ),
)
