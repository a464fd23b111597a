"""politicians (paper 003, Stańczak et al. 2023): what the probe declares and the paper's published
figures. Imports only `biascheck.spec`."""

from __future__ import annotations

from biascheck.spec import MetricSpec, ProbeSpec, Setting, choice, limit, optional_file

NAMES_ENV = "BIASCHECK_POLITICIANS_NAMES"
GRID_ENV = "BIASCHECK_POLITICIANS_GRID"
LIMIT_ENV = "BIASCHECK_POLITICIANS_LIMIT"

# Tasks are languages (paper Tab 10/11). ru/zh/ar/hi have 70 or fewer women with a name in the mirrored
# Popolo data (`biascheck.data.politicians`), too few for a gap over 100 words per gender: not tasks.
TASKS = ("en", "nb", "fr", "es")
# S2 Tab 11: adjective-noun order of the language. Adj Noun -> the masked slot before the name
# ("[MASK] <name>"); Noun Adj -> after it. A causal LM cannot see a name on its right: it always reads
# the word after the name (`next_token`), and masked models also record that order (like with like).
ADJ_BEFORE_NOUN = {"en": True, "nb": True, "fr": False, "es": False}
# Section 5: the 20 most probable adjectives and verbs per name in English; 100 adjectives and 20 verbs
# in the other languages (S4 Tab 13).
TOP_K = {
    "en": {"adj": 20, "verb": 20},
    "nb": {"adj": 100, "verb": 20},
    "fr": {"adj": 100, "verb": 20},
    "es": {"adj": 100, "verb": 20},
}
POS = ("adj", "verb")
MIN_NAMES = 5  # a word enters PMI once it was predicted for at least this many names (issue: Eq 1-2)
MIN_NAMES_PER_GENDER = 200  # a task with fewer names of a gender is skipped
TOP_WORDS = 100  # Fig 4 / 6: the 100 highest-deviation words per gender
# Hoyle et al.'s grid as the paper reports it (section 5: L1 alpha, posterior-regularisation beta); the
# default is a 2 x 3 corner of it (a prototype fit of 1,500 words took ~45 s for six fits on 2 cores).
GRID_DEFAULT: dict[str, tuple[float, ...]] = {"l1": (1e-5, 1e-4), "pr": (0.1, 1.0, 10.0)}
GRID_QUICK: dict[str, tuple[float, ...]] = {"l1": (1e-5,), "pr": (1.0,)}
GRID_FULL: dict[str, tuple[float, ...]] = {
    "l1": (0.0, 1e-5, 1e-4, 1e-3, 1e-2),
    "pr": (1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0),
}
POSTERIOR_KL_VALID = 0.1  # section 4: near 0 = the latent sentiment follows the lexicon

# Tab 5 (monolingual English models) and Tab 8 (cross-lingual), intercepts and effects of the ANOVA on
# the share of negative / neutral / positive words among the 100 largest-deviation adjectives per
# gender; a group's mean is intercept + its effects (the baselines are ALBERT / base and m-BERT / base /
# Arabic). `tests/test_threshold_rationales.py` derives the gaps the default gate is checked against.
TAB5 = {
    "intercept": {"male": (0.390, 0.401, 0.209), "female": (0.284, 0.435, 0.281)},
    "architecture": {
        "ALBERT": {"male": (0.0, 0.0, 0.0), "female": (0.0, 0.0, 0.0)},
        "BERT": {"male": (-0.016, 0.014, 0.001), "female": (-0.006, 0.016, -0.010)},
        "BERTweet": {"male": (0.057, 0.005, 0.004), "female": (0.008, 0.002, -0.010)},
        "RoBERTa": {"male": (-0.092, 0.088, 0.005), "female": (0.001, 0.006, -0.007)},
        "XLNet": {"male": (0.107, -0.114, 0.007), "female": (0.086, -0.040, -0.046)},
    },
    "size": {
        "base": {"male": (0.0, 0.0, 0.0), "female": (0.0, 0.0, 0.0)},
        "large": {"male": (0.000, -0.002, -0.002), "female": (0.035, -0.028, -0.008)},
        "xlarge": {"male": (0.022, -0.022, 0.000), "female": (-0.004, 0.010, -0.006)},
        "xxlarge": {"male": (0.104, -0.108, 0.004), "female": (0.012, 0.005, -0.017)},
    },
}
TAB8 = {
    "intercept": {"male": (0.310, 0.289, 0.401), "female": (0.327, 0.326, 0.347)},
    "architecture": {
        "m-BERT": {"male": (0.0, 0.0, 0.0), "female": (0.0, 0.0, 0.0)},
        "XLM": {"male": (-0.020, -0.019, 0.039), "female": (-0.013, 0.0006, 0.025)},
        "XLM-RoBERTa": {"male": (-0.057, 0.008, 0.050), "female": (-0.014, -0.005, 0.029)},
    },
    "size": {
        "base": {"male": (0.0, 0.0, 0.0), "female": (0.0, 0.0, 0.0)},
        "large": {"male": (0.007, 0.006, -0.013), "female": (0.002, -0.003, -0.006)},
    },
    "language": {
        "Arabic": {"male": (0.0, 0.0, 0.0), "female": (0.0, 0.0, 0.0)},
        "Chinese": {"male": (-0.031, -0.032, 0.063), "female": (-0.056, -0.049, 0.106)},
        "English": {"male": (0.091, 0.126, -0.216), "female": (-0.025, 0.125, -0.100)},
        "French": {"male": (0.024, 0.052, -0.077), "female": (0.062, -0.026, -0.350)},
        "Hindi": {"male": (-0.011, 0.091, -0.080), "female": (0.019, 0.026, -0.044)},
        "Russian": {"male": (-0.016, 0.173, -0.156), "female": (-0.023, 0.093, -0.069)},
        "Spanish": {"male": (-0.031, -0.041, 0.081), "female": (-0.033, -0.033, 0.066)},
    },
}


def _pos_metrics(prefix: str, what: str) -> list[MetricSpec]:
    words = f"{what}s"
    return [
        MetricSpec(
            name=f"{prefix}neg_gap",
            description=f"mean q(neg|w) of the soft lexicon over women's 100 largest-deviation {words} (ranked by "
            "the latent model's d(w, g)) minus men's (Tab 5, Fig 4/6); red when the fit is unusable",
            better="zero",
            reference="model",
        ),
        MetricSpec(
            name=f"{prefix}pos_gap",
            description="the same for q(pos|w) (Tab 5, Fig 4/6)",
            better="zero",
            reference="model",
        ),
        MetricSpec(
            name=f"{prefix}pmi_neg_gap",
            description=f"share of negative {words} (hard labels: VADER, Chen & Skiena) among women's 100 "
            f"highest-PMI {words} minus men's (ranked by PMI)",
            better="zero",
            reference="model",
        ),
        MetricSpec(
            name=f"{prefix}pmi_pos_gap",
            description=f"the same for positive {words} (hard labels, ranked by PMI)",
            better="zero",
            reference="model",
        ),
        MetricSpec(
            name=f"{prefix}pmi_neg_gap_p",
            description="unpaired permutation p-value of pmi_neg_gap (names' genders shuffled)",
            better="none",
            reference="model",
        ),
        MetricSpec(
            name=f"{prefix}pmi_pos_gap_p",
            description="unpaired permutation p-value of pmi_pos_gap",
            better="none",
            reference="model",
        ),
        *(
            MetricSpec(
                name=f"{prefix}sent_mix_{s}",
                description=f"p(sentiment {s} | female) - p({s} | male) of the latent model (Eq 12), "
                "mean over the grid",
                better="zero",
                reference="model",
            )
            for s in ("neg", "neu", "pos")
        ),
        MetricSpec(
            name=f"{prefix}posterior_kl",
            description="mean over words (weighted by frequency) of KL(lexicon q(s|w) || model p(s|w)); "
            "near 0 = valid (section 4)",
            better="lower",
            reference="model",
        ),
        MetricSpec(
            name=f"{prefix}vocab_f",
            description=f"distinct {what} lemmas predicted for women's names (Tab 13)",
            better="none",
            reference="model",
        ),
        MetricSpec(
            name=f"{prefix}vocab_m",
            description=f"distinct {what} lemmas predicted for men's names (Tab 13)",
            better="none",
            reference="model",
        ),
    ]


def _metrics() -> tuple[MetricSpec, ...]:
    out = _pos_metrics("", "adjective") + _pos_metrics("verb_", "verb")
    out += [
        MetricSpec(
            name="after_pmi_neg_gap",
            description="pmi_neg_gap read in the slot after the name (masked LMs, en/nb: like a causal LM)",
            better="zero",
            reference="model",
        ),
        MetricSpec(
            name="after_pmi_pos_gap",
            description="pmi_pos_gap read in the slot after the name (masked LMs, en/nb)",
            better="zero",
            reference="model",
        ),
        MetricSpec(name="names_f", description="women's names scored", better="none", reference="model"),
        MetricSpec(name="names_m", description="men's names scored", better="none", reference="model"),
    ]
    return tuple(out)


PROBE = ProbeSpec(
    name="politicians",
    title="Words a model puts next to politicians' names, by gender: PMI, sentiment, latent model (Stańczak 2023)",
    paper="003",
    language="en",
    tasks=TASKS,
    task_languages=tuple((t, t) for t in TASKS),
    metrics=_metrics(),
    settings=(
        Setting(
            "names",
            "",
            "a CSV (columns name, gender, lang) whose rows replace the politicians' names; genders beyond "
            "female/male get PMI only; empty: the mirrored Congress and EveryPolitician names",
            optional_file,
            env=NAMES_ENV,
            check="biascheck.data.politicians:read_user_names",  # a bad file stops the run before a model loads
        ),
        Setting(
            "grid",
            "default",
            "the latent model's hyper-parameter grid: 'default' (L1 {1e-5, 1e-4} x PR {0.1, 1, 10}), 'full' "
            "(the paper's 5 x 8) or 'quick' (one fit, L1 1e-5 and PR 1: quick looks and tests)",
            choice("default", "full", "quick"),
            env=GRID_ENV,
            tiers=(("quick", "quick"), ("full", "full")),
        ),
        Setting(
            "limit",
            "0",
            "score at most this many names per gender (evenly spaced over the sorted names; quick looks only, 0 = all)",
            limit,
            env=LIMIT_ENV,
            tiers=(("quick", "400"), ("full", "0")),
        ),
    ),
)
