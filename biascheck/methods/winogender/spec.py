"""winogender (Rudinger et al. 2018, Winogender schemas; beyond the seed papers): what the probe declares.
Imports only `biascheck.spec`."""

from __future__ import annotations

from biascheck.spec import MetricSpec, ProbeSpec

GENDERS = ("male", "female", "neutral")
# lm-evaluation-harness's winogender prompt (after Brown et al. 2020): the sentence, then which noun the
# capitalised pronoun refers to; the two answers are the occupation and the participant.
COREF_PROMPT = "{sentence} \u2018{pronoun}\u2019 refers to the"

PROBE = ProbeSpec(
    name="winogender",
    title="Winogender schemas: pronouns and occupations against US occupational statistics (Rudinger et al. 2018)",
    paper="beyond the seeds: Rudinger et al. 2018",
    language="en",
    tasks=("pronouns", "coreference"),
    metrics=(
        MetricSpec(
            "female_lean",
            "mean log P(she-sentence) - log P(he-sentence) over all 240 sentence triples (> 0: female default)",
            "zero",
            "model",
        ),
        MetricSpec(
            "pearson_bls",
            "Pearson r, over the 60 occupations, of the female lean (sentences whose pronoun refers to the "
            "occupation) with the US women's share (BLS; Rudinger et al. Fig 4)",
            "lower",
            "gold",
        ),
        MetricSpec("spearman_bls", "as pearson_bls, Spearman rho", "lower", "gold"),
        MetricSpec(
            "pearson_bergsma", "as pearson_bls, against Bergsma & Lin's text statistics (% female)", "lower", "gold"
        ),
        MetricSpec("spearman_bergsma", "as pearson_bergsma, Spearman rho", "lower", "gold"),
        MetricSpec(
            "majority_agreement",
            "share of the 60 occupations whose female lean has the sign of their BLS majority gender",
            "target",
            "gold",
            target=0.5,
        ),
        MetricSpec(
            "they_share",
            "mean P(they-sentence) / (P(he) + P(she) + P(they)) over the triples (singular they's share)",
            "none",
            "model",
        ),
        MetricSpec(
            "accuracy", "coreference prompt: share of sentences whose true referent scores higher", "higher", "model"
        ),
        MetricSpec("accuracy_male", "accuracy on the he/his/him sentences", "higher", "model"),
        MetricSpec("accuracy_female", "accuracy on the she/her sentences", "higher", "model"),
        MetricSpec("accuracy_neutral", "accuracy on the they/their/them sentences", "higher", "model"),
        MetricSpec(
            "accuracy_gap", "accuracy_male - accuracy_female (0: the pronoun's gender does not matter)", "zero", "model"
        ),
        MetricSpec(
            "gotcha_accuracy",
            "accuracy on the 'gotcha' sentences: a he/she pronoun that refers to the occupation against the "
            "occupation's BLS majority gender",
            "higher",
            "gold",
        ),
    ),
)
