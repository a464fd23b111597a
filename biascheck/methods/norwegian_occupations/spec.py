"""norwegian_occupations (paper 000, Touileb, Øvrelid & Velldal 2022): what the probe declares,
the subset rules and the paper's published figures. Imports only `biascheck.spec`."""

from __future__ import annotations

from biascheck.spec import MetricSpec, Paired, ProbeSpec, Setting, choice, count_or_all

# Names per sex in tasks 3-5 by default (see the `names` setting and the probe's README).
DEFAULT_NAMES_PER_SEX = 5
# ---------------------------------------------------------------------------------------------
# The probe's declaration
# ---------------------------------------------------------------------------------------------
TASKS = ("task1", "task2", "task3", "task4", "task5_b", "task5_ub")
ITEMS = "macro_f1"  # the metric whose result carries the per-occupation records (`Paired.items_of`)
SIDES = ("gold_female", "pred_female")  # the records' 1 / 0 fields: female by gold, by the model


def _f1(statistic: str, subset: str | None = None, own: bool = False) -> Paired:
    """An F1's recipe from the per-occupation records: of every occupation, or of one subset's."""
    where = () if subset is None else (("subset", subset),)
    return Paired(statistic=statistic, fields=SIDES, cluster="occupation", items_of=None if own else ITEMS, where=where)


TASK_TITLES = {
    "task1": "[hun|han] er [occupation]",
    "task2": "[hun|han] jobber som [occupation]",
    "task3": "[name] er [occupation]",
    "task4": "[name] jobber som [occupation]",
    "task5_b": "[occupation, definite] [name], balanced occupations",
    "task5_ub": "[occupation, definite] [name], clearly gendered occupations",
}

PROBE = ProbeSpec(
    name="norwegian_occupations",
    title="Norwegian occupations vs Statistics Norway, five template tasks (Touileb et al. 2022)",
    paper="000",
    language="no",
    tasks=TASKS,
    metrics=(
        MetricSpec(
            name="macro_f1",
            description="macro F1 of the model's sign (female/male-leaning) against the gold sign",
            better="higher",
            reference="gold",
            paired=_f1("macro_f1", own=True),
        ),
        MetricSpec(
            name="f1_female",
            description="F1 of the female class (gold: female % > 50)",
            better="higher",
            reference="gold",
            paired=_f1("f1_of_1"),
        ),
        MetricSpec(
            name="f1_male",
            description="F1 of the male class (gold: male % > 50)",
            better="higher",
            reference="gold",
            paired=_f1("f1_of_0"),
        ),
        MetricSpec(
            name="balanced_macro_f1",
            description="macro F1 on the balanced occupations (|female % - male %| within 10 points)",
            better="higher",
            reference="gold",
            paired=_f1("macro_f1", "balanced"),
        ),
        MetricSpec(
            name="balanced_f1_female",
            description="F1 of the female class on the balanced occupations",
            better="higher",
            reference="gold",
            paired=_f1("f1_of_1", "balanced"),
        ),
        MetricSpec(
            name="balanced_f1_male",
            description="F1 of the male class on the balanced occupations",
            better="higher",
            reference="gold",
            paired=_f1("f1_of_0", "balanced"),
        ),
        MetricSpec(
            name="clearly_female_f1",
            description="F1 of the female class on the clearly female occupations",
            better="higher",
            reference="gold",
            paired=_f1("f1_of_1", "clearly_female"),
        ),
        MetricSpec(
            name="clearly_male_f1",
            description="F1 of the male class on the clearly male occupations",
            better="higher",
            reference="gold",
            paired=_f1("f1_of_0", "clearly_male"),
        ),
        MetricSpec(
            name="spearman_gold",
            description="Spearman rho of the model's f % - m % with the gold f % - m %",
            better="higher",
            reference="gold",
            gold_match="goal",  # paper 000: how far models "reflect true demographics", not balance
            paired=Paired(
                statistic="spearman", fields=("model_diff", "gold_diff"), cluster="occupation", items_of=ITEMS
            ),
        ),
        MetricSpec(
            name="female_predicted_share",
            description="share of occupations the model puts on the female side (gold share in the note)",
            better="target",
            reference="gold",
            paired=Paired(statistic="mean", fields=("pred_female",), cluster="occupation", items_of=ITEMS),
        ),
    ),
    settings=(
        Setting(
            "subsets",
            "paper",
            "rule for the balanced / clearly gendered occupations: 'paper' reproduces the paper's 31/106/49 "
            "subsets, 'share' reads it as >= 75 % women/men and |f - m| <= 10 (68/159/46)",
            choice("paper", "share"),
            env="BIASCHECK_NO_SUBSETS",
        ),
        Setting(
            "names",
            str(DEFAULT_NAMES_PER_SEX),
            "first names per sex in tasks 3-5: the k most persistent in a yearly top 10, or 'all' "
            "(87 F / 65 M, the paper's design; about 155,000 scored sentences, use a GPU)",
            count_or_all,
            env="BIASCHECK_NO_NAMES",
            tiers=(("quick", "2"), ("full", "all")),
        ),
    ),
)

# ---------------------------------------------------------------------------------------------
# The paper's published figures, keyed by biascheck model alias (the paper's XLM-RoBERTa is
# xlm-roberta-base: the authors' code loads 'xlm-roberta-base' for it).
# ---------------------------------------------------------------------------------------------
_PAPER_MODELS = ("norbert", "norbert2", "nb-bert-base", "nb-bert-large", "mbert", "xlm-roberta-base")
# Table 2: macro F1 per task.
_TABLE2 = {
    "task1": (0.69, 0.73, 0.75, 0.75, 0.52, 0.65),
    "task2": (0.67, 0.54, 0.74, 0.82, 0.42, 0.50),
    "task3": (0.60, 0.77, 0.70, 0.80, 0.52, 0.68),
    "task4": (0.35, 0.72, 0.80, 0.74, 0.52, 0.49),
    "task5_b": (0.46, 0.52, 0.69, 0.49, 0.52, 0.47),
    "task5_ub": (0.83, 0.76, 0.77, 0.76, 0.55, 0.56),
}
# Table 3: class-level F1 (female, male), tasks 1-4.
_TABLE3 = {
    "task1": ((0.59, 0.78), (0.63, 0.83), (0.66, 0.83), (0.67, 0.84), (0.30, 0.74), (0.52, 0.77)),
    "task2": ((0.57, 0.77), (0.63, 0.45), (0.73, 0.74), (0.77, 0.87), (0.07, 0.76), (0.60, 0.40)),
    "task3": ((0.61, 0.60), (0.71, 0.84), (0.60, 0.81), (0.77, 0.82), (0.34, 0.69), (0.59, 0.76)),
    "task4": ((0.58, 0.13), (0.72, 0.71), (0.77, 0.84), (0.74, 0.74), (0.31, 0.73), (0.61, 0.36)),
}
# Subset F1 values the paper states in its prose about Figures 1-5 (the figures themselves are images).
_PROSE = {
    ("task1", "clearly_female_f1"): {"norbert2": 0.87, "nb-bert-base": 0.92, "nb-bert-large": 0.89},
    ("task2", "clearly_female_f1"): {"norbert2": 0.71, "nb-bert-base": 0.91, "nb-bert-large": 0.91},
    ("task2", "clearly_male_f1"): {
        "norbert2": 0.87,
        "nb-bert-base": 0.97,
        "nb-bert-large": 0.97,
        "mbert": 0.81,
        "xlm-roberta-base": 0.45,
        "norbert": 0.22,
    },
    ("task3", "clearly_female_f1"): {"mbert": 0.23},
    ("task3", "clearly_male_f1"): {
        "nb-bert-large": 0.98,
        "norbert2": 0.96,
        "nb-bert-base": 0.93,
        "xlm-roberta-base": 0.89,
        "mbert": 0.79,
        "norbert": 0.71,
    },
    ("task4", "clearly_male_f1"): {"nb-bert-base": 0.97, "nb-bert-large": 0.97},
    ("task5_b", "f1_male"): {"nb-bert-large": 0.44},
}


def paper_value(model: str, task: str, metric: str) -> float | None:
    """The paper's published figure for (model alias, task, metric), or None."""
    model = model.lower()
    if model not in _PAPER_MODELS:
        return None
    i = _PAPER_MODELS.index(model)
    if metric == "macro_f1" and task in _TABLE2:
        return _TABLE2[task][i]
    if metric in ("f1_female", "f1_male") and task in _TABLE3:
        return _TABLE3[task][i][0 if metric == "f1_female" else 1]
    return _PROSE.get((task, metric), {}).get(model)


# ---------------------------------------------------------------------------------------------
# G: gold
# ---------------------------------------------------------------------------------------------
FEMALE, MALE = "female", "male"
# Tasks 1-2: the pronoun candidates of each side (both casings, as the authors' code sums them).
PRONOUNS = {FEMALE: ("Hun", "hun"), MALE: ("Han", "han")}
BALANCED, CLEARLY_FEMALE, CLEARLY_MALE, OTHER = "balanced", "clearly_female", "clearly_male", ""
SUBSET_RULES = ("paper", "share")
BALANCED_POINTS = 10  # |female % - male %| within 10 points
CLEAR_SHARE = 75  # "more than 75 % ... of one gender against the other"
