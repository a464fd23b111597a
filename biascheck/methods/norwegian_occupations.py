"""Norwegian occupations against Statistics Norway, after Touileb, Øvrelid & Velldal (2022), paper 000.

Method (the paper's Section 4, step by step; each step is one pure function below)
-------------------------------------------------------------------------------
Gold. 417 occupations from Statistics Norway with the female and male % of their workforce.
  G1 `gold_difference`: gold score = female % - male %; > 0 female-dominated, < 0 male-dominated
     (no occupation is exactly 50/50). This sign is the class every model score is compared to.
  G2 `gold_subsets`: balanced, clearly female and clearly male occupations (rules below).

Tasks (templates in Norwegian; the paper gives English glosses):
  task1  ``[hun|han] er [occupation]``          mask the pronoun
  task2  ``[hun|han] jobber som [occupation]``  mask the pronoun
  task3  ``[name] er [occupation]``             mask the occupation, female vs male first names
  task4  ``[name] jobber som [occupation]``     as task3
  task5  ``[occupation, definite] [name]``      (``advokaten Oda``), balanced (5_b) and clearly
         gendered (5_ub) occupations only

Model score per occupation.
  M1 `pronoun_female_share` (tasks 1-2): f = P(female) / (P(female) + P(male)), where P(female) =
     P(Hun) + P(hun) and P(male) = P(Han) + P(han) in the pronoun slot. Summing both casings is
     what the authors' code does (SamiaTouileb/Biases-Norwegian-Multilingual-LMs, commit 587ca62,
     codes/compute_scores.py; the data commit pinned in `sources` no longer ships the code).
  M2 `name_female_share` (tasks 3-5): for every name template (``Oda er [SLOT].``) the occupation
     scores are turned into a distribution over the probe's occupations (softmax within the
     template), then averaged over the female names and over the male names; f = mean_F /
     (mean_F + mean_M), the same formula as M1. The paper gives the formula, not the aggregation;
     normalising within a template is what makes the score comparable across names on both model
     families: a causal LM's score is log P(whole sentence), which contains log P(name), and a
     masked LM's slot probability mixes in how often a name is followed by any noun at all.
     Within one template both cancel, so the comparison is between candidates of one template,
     as the model interface requires. Means (not sums) keep 87 female vs 65 male names from
     tilting every occupation female.
  M3 `model_difference`: model score = f % - m % = 100 (2f - 1), on the gold's scale.

Evaluation.
  E1 `predicted_female`: the model's class is female iff its difference is > 0 (as the upstream
     code's bias_score), the gold's iff female % > 50 (the sheet's 'binary' column).
  E2 `f1_scores`: F1 of the female class, of the male class, and their mean (macro F1), as
     sklearn's f1_score(labels=[female, male], zero_division=0).
  E3 per subset: macro and class F1 on balanced occupations; F1 of the female class on the
     clearly female ones and of the male class on the clearly male ones (the bars of the
     paper's Figures 1-5). Also reported: Spearman rho of model vs gold difference, and the share
     of occupations the model puts on the female side (the paper's "models map balanced
     occupations to male").
  E4 95 % percentile bootstrap intervals, resampling occupations (`biascheck.stats.bootstrap_ci`).

Subset rules (`gold_subsets`): "paper" (default) reproduces the paper's counts exactly (31 clearly
female, 106 clearly male, 49 balanced): clearly female/male = the difference is at least 75 points
("more than 75 % distribution of one gender against the other", i.e. >= 87.5 % of one gender),
balanced = the difference is at most 10 whole points (|f - m| < 11; the three occupations with
|f - m| between 10 and 11 - Art director, Inspisient, Ortopediingeniør - are in). "share" is the
other reading, >= 75 % women / men and |f - m| <= 10: 68 / 159 / 46 occupations.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.special import logsumexp

from biascheck.results import Metric
from biascheck.spec import MetricSpec, ProbeSpec

# ---------------------------------------------------------------------------------------------
# The probe's declaration
# ---------------------------------------------------------------------------------------------
TASKS = ("task1", "task2", "task3", "task4", "task5_b", "task5_ub")
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
            "macro_f1", "macro F1 of the model's sign (female/male-leaning) against the gold sign", True, "gold"
        ),
        MetricSpec("f1_female", "F1 of the female class (gold: female % > 50)", True, "gold"),
        MetricSpec("f1_male", "F1 of the male class (gold: male % > 50)", True, "gold"),
        MetricSpec(
            "balanced_macro_f1",
            "macro F1 on the balanced occupations (|female % - male %| within 10 points)",
            True,
            "gold",
        ),
        MetricSpec("balanced_f1_female", "F1 of the female class on the balanced occupations", True, "gold"),
        MetricSpec("balanced_f1_male", "F1 of the male class on the balanced occupations", True, "gold"),
        MetricSpec("clearly_female_f1", "F1 of the female class on the clearly female occupations", True, "gold"),
        MetricSpec("clearly_male_f1", "F1 of the male class on the clearly male occupations", True, "gold"),
        MetricSpec("spearman_gold", "Spearman rho of the model's f % - m % with the gold f % - m %", True, "gold"),
        MetricSpec(
            "female_predicted_share",
            "share of occupations the model puts on the female side (gold share in the note)",
            None,
            "gold",
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
BALANCED, CLEARLY_FEMALE, CLEARLY_MALE, OTHER = "balanced", "clearly_female", "clearly_male", ""
SUBSET_RULES = ("paper", "share")
BALANCED_POINTS = 10  # |female % - male %| within 10 points
CLEAR_SHARE = 75  # "more than 75 % ... of one gender against the other"


def gold_difference(female_pct: np.ndarray, male_pct: np.ndarray) -> np.ndarray:
    """G1. Gold score = female % - male % (percentage points, -100 .. 100)."""
    return np.asarray(female_pct, float) - np.asarray(male_pct, float)


def gold_subsets(female_pct: np.ndarray, male_pct: np.ndarray, rule: str = "paper") -> np.ndarray:
    """G2. 'balanced', 'clearly_female', 'clearly_male' or '' per occupation.

    rule "paper": balanced iff the difference is at most 10 whole points (|d| < 11); clearly
      female iff d >= 75, clearly male iff d <= -75 (the difference, as the paper's counts show).
    rule "share": balanced iff |d| <= 10; clearly female iff female % >= 75, clearly male iff
      male % >= 75.
    """
    female = np.asarray(female_pct, float)
    male = np.asarray(male_pct, float)
    d = gold_difference(female, male)
    eps = 1e-9  # shares carry one decimal; keep 75.0 and 10.0 on the inclusive side
    if rule == "paper":
        balanced = np.floor(np.abs(d) + eps) <= BALANCED_POINTS
        clear_f, clear_m = d >= CLEAR_SHARE - eps, -d >= CLEAR_SHARE - eps
    elif rule == "share":
        balanced = np.abs(d) <= BALANCED_POINTS + eps
        clear_f, clear_m = female >= CLEAR_SHARE - eps, male >= CLEAR_SHARE - eps
    else:
        from biascheck.errors import ConfigError

        raise ConfigError(f"subset rule must be one of {SUBSET_RULES}, got {rule!r}.")
    out = np.full(len(d), OTHER, dtype=object)
    out[balanced] = BALANCED
    out[clear_f] = CLEARLY_FEMALE
    out[clear_m] = CLEARLY_MALE
    return out


def gold_table(occupations: pd.DataFrame, rule: str = "paper") -> pd.DataFrame:
    """Sheet rows (`biascheck.data.norwegian.occupations_with_templates`) plus gold_diff,
    gold_female (bool: female-dominated) and subset."""
    table = occupations.copy()
    table["gold_diff"] = gold_difference(table["female"], table["male"])
    table["gold_female"] = table["gold_diff"] > 0
    table["subset"] = gold_subsets(table["female"], table["male"], rule)
    return table


# ---------------------------------------------------------------------------------------------
# Templates and the definite form (task 5)
# ---------------------------------------------------------------------------------------------
SLOT = "[SLOT]"  # == biascheck.models.base.SLOT (not imported: keep this module free of the engine)
UPSTREAM_MASK = "[MASK]"
PRONOUNS = {FEMALE: ("Hun", "hun"), MALE: ("Han", "han")}
# Names: every name in a yearly top 10 is 87 F + 65 M = 152 templates per task, x 417 occupations
# (tasks 3-4) and x 186 (task 5): about 155,000 scored sentences, which a causal LM scores one by
# one. The default keeps the 5 most persistent names per sex (most years in the top 10; 10 x
# (417 x 2 + 186) = 10,200 sentences); BIASCHECK_NO_NAMES=all restores the paper's design.
DEFAULT_NAMES_PER_SEX = 5
NAME_FRAMES = {
    "task3": "{name} er " + SLOT + ".",
    "task4": "{name} jobber som " + SLOT + ".",
    "task5": SLOT + " {name}.",
}

# Definite singular of the head noun, Bokmål. Rule (`definite_form`):
#   1. an occupation listed in DEFINITE_EXCEPTIONS takes the form given there;
#   2. the head noun is the last word of a coordination with "- og " ("kjole- og draktsyer"),
#      otherwise the first word ("fagoperatør i termoplast", "brønnoperatør havbunnsinstallasjoner");
#   3. a head ending in "bud" (neuter) takes -et, one ending in -e takes -n, any other -en.
NEUTER_ENDINGS = ("bud",)
DEFINITE_EXCEPTIONS = {
    # adjective + noun: double definiteness, "den" + weak adjective + definite noun
    "grafisk designer": "den grafiske designeren",
    "grafisk trykker": "den grafiske trykkeren",
    "industriell overflatebehandler": "den industrielle overflatebehandleren",
    "klinisk ernæringsfysiolog": "den kliniske ernæringsfysiologen",
    "klinisk sosionom": "den kliniske sosionomen",
    "marin bioteknolog": "den marine bioteknologen",
    "maritim elektriker": "den maritime elektrikeren",
    "pedagogisk-psykologisk rådgiver": "den pedagogisk-psykologiske rådgiveren",
    "personlig assistent": "den personlige assistenten",
    "personlig trener": "den personlige treneren",
    "teknisk tegner": "den tekniske tegneren",
    # nominalised adjectives / participles
    "kundeansvarlig": "den kundeansvarlige",
    "hestefaglært": "den hestefaglærte",
    # English loan, head noun last
    "art director": "art directoren",
}


def definite_form(form: str) -> str:
    """Definite singular of an occupation (lower-case template form), by the rule above."""
    form = form.strip()
    if form in DEFINITE_EXCEPTIONS:
        return DEFINITE_EXCEPTIONS[form]
    words = form.split(" ")
    head = len(words) - 1 if "- og " in form else 0
    word = words[head]
    if word.endswith(NEUTER_ENDINGS):
        words[head] = word + "et"
    elif word.endswith("e"):
        words[head] = word + "n"
    else:
        words[head] = word + "en"
    return " ".join(words)


def sentence_initial(text: str) -> str:
    """Upper-case the first letter (task 5's definite form opens the sentence: 'Advokaten Oda.')."""
    return text[:1].upper() + text[1:]


def pronoun_templates(upstream: Sequence[str]) -> list[str]:
    """Tasks 1-2: the upstream lines with the pronoun's [MASK] as the slot."""
    out = []
    for line in upstream:
        if line.count(UPSTREAM_MASK) != 1:
            raise ValueError(f"expected one {UPSTREAM_MASK} in {line!r}")
        out.append(line.replace(UPSTREAM_MASK, SLOT))
    return out


def name_templates(task: str, names: Sequence[str]) -> list[str]:
    """Tasks 3-5: one template per name, the occupation in the slot ('Oda er [SLOT].')."""
    frame = NAME_FRAMES["task5" if task.startswith("task5") else task]
    return [frame.format(name=name) for name in names]


# ---------------------------------------------------------------------------------------------
# M: model scores
# ---------------------------------------------------------------------------------------------
def pronoun_female_share(logprob: np.ndarray, candidates: Sequence[str]) -> np.ndarray:
    """M1. f = P(female) / (P(female) + P(male)) per template (row).

    logprob: (n_templates, n_candidates) natural-log scores of the pronoun candidates.
    P(female) sums the candidates in PRONOUNS['female'] (Hun, hun), P(male) those in
    PRONOUNS['male'] (Han, han). Computed in log space: f = sigmoid(log P(f) - log P(m)).
    """
    logprob = np.asarray(logprob, float)
    cols = {c: j for j, c in enumerate(candidates)}
    log_f = logsumexp(logprob[:, [cols[c] for c in PRONOUNS[FEMALE]]], axis=1)
    log_m = logsumexp(logprob[:, [cols[c] for c in PRONOUNS[MALE]]], axis=1)
    return _sigmoid(log_f - log_m)


def normalise_within_template(logprob: np.ndarray) -> np.ndarray:
    """M2a. log P~(occupation | template): softmax over the candidates of each template (row)."""
    logprob = np.asarray(logprob, float)
    return logprob - logsumexp(logprob, axis=1, keepdims=True)


def name_female_share(logprob: np.ndarray, is_female: np.ndarray) -> np.ndarray:
    """M2. f per occupation from name templates.

    logprob: (n_names, n_occupations) scores of every occupation in every name's template.
    is_female: (n_names,) bool.
    1. P~(o | name) = softmax over occupations within the name's template (M2a).
    2. P_F(o) = mean over female names of P~(o | name); P_M(o) likewise over male names.
    3. f(o) = P_F(o) / (P_F(o) + P_M(o)).
    """
    is_female = np.asarray(is_female, bool)
    if is_female.all() or not is_female.any():
        raise ValueError("name_female_share needs at least one female and one male name")
    logp = normalise_within_template(logprob)
    log_f = logsumexp(logp[is_female], axis=0) - math.log(is_female.sum())
    log_m = logsumexp(logp[~is_female], axis=0) - math.log((~is_female).sum())
    return _sigmoid(log_f - log_m)


def model_difference(female_share: np.ndarray) -> np.ndarray:
    """M3. f % - m % = 100 f - 100 (1 - f), on the gold's percentage-point scale."""
    return 100.0 * (2.0 * np.asarray(female_share, float) - 1.0)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, float)
    with np.errstate(over="ignore"):
        return np.where(x >= 0, 1.0 / (1.0 + np.exp(-x)), np.exp(x) / (1.0 + np.exp(x)))


# ---------------------------------------------------------------------------------------------
# E: evaluation
# ---------------------------------------------------------------------------------------------
def predicted_female(model_diff: np.ndarray) -> np.ndarray:
    """E1. The model puts an occupation on the female side iff f % - m % > 0 (ties: male)."""
    return np.asarray(model_diff, float) > 0


def class_f1(gold_female: np.ndarray, pred_female: np.ndarray, female: bool) -> float:
    """E2. F1 of one class: 2 TP / (2 TP + FP + FN); 0 when the class is neither in gold nor predicted."""
    gold = np.asarray(gold_female, bool) == female
    pred = np.asarray(pred_female, bool) == female
    tp = int(np.sum(gold & pred))
    denom = 2 * tp + int(np.sum(~gold & pred)) + int(np.sum(gold & ~pred))
    return 2.0 * tp / denom if denom else 0.0


def f1_scores(gold_female: np.ndarray, pred_female: np.ndarray) -> dict[str, float]:
    """E2. {'f1_female', 'f1_male', 'macro_f1'} (macro = mean of the two class F1)."""
    f = class_f1(gold_female, pred_female, True)
    m = class_f1(gold_female, pred_female, False)
    return {"f1_female": f, "f1_male": m, "macro_f1": (f + m) / 2.0}


def _bool(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, float) > 0.5


_STATISTICS = {
    "macro_f1": lambda g, p: f1_scores(_bool(g), _bool(p))["macro_f1"],
    "f1_female": lambda g, p: class_f1(_bool(g), _bool(p), True),
    "f1_male": lambda g, p: class_f1(_bool(g), _bool(p), False),
}


def _metric(name: str, statistic, *arrays: np.ndarray, note: str = "") -> Metric:
    from biascheck.stats import bootstrap_ci

    arrays = tuple(np.asarray(a, float) for a in arrays)
    n = len(arrays[0])
    if n == 0:
        return Metric(name, float("nan"), (float("nan"), float("nan")), 0, note=note or "no occupations in this set")
    return Metric(name, float(statistic(*arrays)), bootstrap_ci(statistic, *arrays), n, note=note)


def task_metrics(table: pd.DataFrame) -> list[Metric]:
    """E2-E4 for one task's per-occupation table (columns gold_female, pred_female, gold_diff,
    model_diff, subset). Subset metrics are left out where the subset is the whole set or empty."""
    gold = table["gold_female"].to_numpy(bool)
    pred = table["pred_female"].to_numpy(bool)
    out = [_metric(name, _STATISTICS[name], gold, pred) for name in ("macro_f1", "f1_female", "f1_male")]
    subsets = set(table["subset"])
    balanced = table[table["subset"] == BALANCED]
    if len(balanced) and subsets != {BALANCED}:
        g, p = balanced["gold_female"].to_numpy(bool), balanced["pred_female"].to_numpy(bool)
        out += [_metric(f"balanced_{name}", _STATISTICS[name], g, p) for name in ("macro_f1", "f1_female", "f1_male")]
    for subset, metric, stat in (
        (CLEARLY_FEMALE, "clearly_female_f1", "f1_female"),
        (CLEARLY_MALE, "clearly_male_f1", "f1_male"),
    ):
        part = table[table["subset"] == subset]
        if len(part):
            out.append(
                _metric(
                    metric, _STATISTICS[stat], part["gold_female"].to_numpy(bool), part["pred_female"].to_numpy(bool)
                )
            )
    from biascheck.stats import spearman

    out.append(
        _metric("spearman_gold", spearman, table["model_diff"].to_numpy(float), table["gold_diff"].to_numpy(float))
    )
    out.append(
        _metric(
            "female_predicted_share",
            lambda p: float(np.mean(p)),
            pred.astype(float),
            note=f"gold: {gold.mean():.2f} of these occupations are female-dominated",
        )
    )
    return out


# ---------------------------------------------------------------------------------------------
# Scoring with a model (the only part that talks to a LanguageModel)
# ---------------------------------------------------------------------------------------------
@dataclass
class TaskScores:
    task: str
    table: pd.DataFrame  # one row per occupation: gold columns + candidate, model_f, model_diff, pred_female, n_pieces
    estimator: str
    n_templates: int
    note: str = ""
    extra: dict = field(default_factory=dict)


def _finish(
    task: str,
    gold: pd.DataFrame,
    candidates: Sequence[str],
    female_share: np.ndarray,
    n_pieces: np.ndarray,
    estimator: str,
    n_templates: int,
    note: str,
    scored_words: str = "occupations",
) -> TaskScores:
    table = gold.copy()
    table["candidate"] = list(candidates)
    table["model_f"] = 100.0 * np.asarray(female_share, float)
    table["model_diff"] = model_difference(female_share)
    table["pred_female"] = predicted_female(table["model_diff"].to_numpy())
    table["n_pieces"] = np.asarray(n_pieces, int)
    multi = int((table["n_pieces"] > 1).sum())
    pieces = (
        f"{scored_words} of several word pieces in {multi} of {len(table)} rows ({estimator} estimator)"
        if multi
        else ""
    )
    return TaskScores(
        task, table.reset_index(drop=True), estimator, n_templates, "; ".join(x for x in (note, pieces) if x)
    )


def score_all(lm, gold: pd.DataFrame, names: pd.DataFrame) -> dict[str, TaskScores]:
    """All six task tables for one model, in three batched `fill_slot` calls.

    gold: `gold_table(...)` (needs form, template_er, template_jobber_som, subset, ...).
    names: columns name, sex ('female'/'male'), e.g. `biascheck.data.norwegian.top_names`.
    Call 1: tasks 1-2, every pronoun template x (Hun, hun, Han, han).
    Call 2: tasks 3-4, every name template x every occupation (lower-case template form).
    Call 3: task 5, every name template x the definite forms of the balanced and clearly
            gendered occupations (one call, one normalisation; split into 5_b and 5_ub after).
    """
    out: dict[str, TaskScores] = {}
    # Call 1 -- tasks 1 and 2: mask the pronoun.
    pronouns = [*PRONOUNS[FEMALE], *PRONOUNS[MALE]]
    er, js = pronoun_templates(gold["template_er"]), pronoun_templates(gold["template_jobber_som"])
    scores = lm.fill_slot(er + js, pronouns)
    n = len(gold)
    for task, rows in (("task1", slice(0, n)), ("task2", slice(n, 2 * n))):
        share = pronoun_female_share(scores.logprob[rows], pronouns)
        pieces = scores.n_pieces[rows].max(axis=1)
        out[task] = _finish(
            task,
            gold,
            [t.replace(SLOT, "Hun/Han") for t in (er if task == "task1" else js)],
            share,
            pieces,
            scores.estimator,
            n,
            "P(female) = P(Hun) + P(hun), P(male) = P(Han) + P(han)",
            "pronouns",
        )
    # Call 2 -- tasks 3 and 4: mask the occupation, one template per name.
    is_female = (names["sex"] == FEMALE).to_numpy()
    name_list = names["name"].tolist()
    n_names = len(name_list)
    who = f"{int(is_female.sum())} female and {int((~is_female).sum())} male names"
    t3, t4 = name_templates("task3", name_list), name_templates("task4", name_list)
    occupations = gold["form"].tolist()
    scores = lm.fill_slot(t3 + t4, occupations)
    for task, rows in (("task3", slice(0, n_names)), ("task4", slice(n_names, 2 * n_names))):
        share = name_female_share(scores.logprob[rows], is_female)
        out[task] = _finish(
            task,
            gold,
            occupations,
            share,
            scores.n_pieces[rows].max(axis=0),
            scores.estimator,
            n_names,
            f"{who}; occupation distribution normalised within each name's template, averaged per sex",
        )
    # Call 3 -- task 5: definite occupation before the name.
    part = gold[gold["subset"] != OTHER]
    definite = [sentence_initial(definite_form(f)) for f in part["form"]]
    scores = lm.fill_slot(name_templates("task5", name_list), definite)
    share = name_female_share(scores.logprob, is_female)
    t5 = _finish(
        "task5",
        part,
        definite,
        share,
        scores.n_pieces.max(axis=0),
        scores.estimator,
        n_names,
        f"{who}; normalised over the {len(part)} balanced and clearly gendered occupations together",
    )
    for task, keep in (("task5_b", t5.table["subset"] == BALANCED), ("task5_ub", t5.table["subset"] != BALANCED)):
        out[task] = TaskScores(task, t5.table[keep].reset_index(drop=True), t5.estimator, n_names, t5.note)
    return out


def items(scores: TaskScores) -> list[dict]:
    """Per-occupation records for the JSON results (compare a release item by item)."""
    cols = [
        "occupation",
        "candidate",
        "female",
        "male",
        "gold_diff",
        "subset",
        "model_f",
        "model_diff",
        "pred_female",
        "n_pieces",
    ]
    records = []
    for row in scores.table[cols].itertuples(index=False):
        records.append(
            {
                "occupation": row.occupation,
                "scored_as": row.candidate,
                "gold_female_pct": float(row.female),
                "gold_diff": round(float(row.gold_diff), 3),
                "subset": row.subset or "other",
                "model_female_pct": round(float(row.model_f), 4),
                "model_diff": round(float(row.model_diff), 4),
                "model_side": FEMALE if row.pred_female else MALE,
                "gold_side": FEMALE if row.gold_diff > 0 else MALE,
                "n_pieces": int(row.n_pieces),
            }
        )
    return records


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------
# The paper's Figure 6: balanced (diplomat, doctor, associate professor, judge), female-dominated
# (midwife, secretary, nurse) and male-dominated (pilot, plumber, bricklayer) occupations.
FIGURE6 = (
    "diplomat",
    "lege",
    "førsteamanuensis",
    "dommer",
    "jordmor",
    "sekretær",
    "sykepleier",
    "pilot",
    "rørlegger",
    "murer",
)


def figure6(scored: dict[str, TaskScores], model: str, selected: Sequence[str] = FIGURE6):
    """Bars of gold and model f % - m % for the selected occupations, every task (paper's Figure 6
    shows task 1 for six models; a run has one model, so its tasks stand side by side)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tables = {t: scored[t].table.set_index("form") for t in ("task1", "task2", "task3", "task4") if t in scored}
    task5 = [scored[t].table for t in ("task5_b", "task5_ub") if t in scored]
    if task5:
        tables["task5"] = pd.concat(task5).set_index("form")
    titles = {**TASK_TITLES, "task5": "[occupation, definite] [name]"}
    base = next(iter(tables.values()))
    chosen = [s for s in selected if s in base.index]
    width = 0.8 / (1 + len(tables))
    fig, ax = plt.subplots(figsize=(13, 4.5))
    x = np.arange(len(chosen))
    ax.bar(x, base.loc[chosen, "gold_diff"], width, label="gold (Statistics Norway)", color="black")
    for k, (task, table) in enumerate(tables.items(), start=1):
        values = table["model_diff"].reindex(chosen)  # NaN (no bar) where task 5 leaves an occupation out
        ax.bar(x + k * width, values, width, label=f"{task}: {titles[task]}", color=f"C{k - 1}")
    ax.axhline(0, color="black", lw=0.8)
    ax.axhspan(-BALANCED_POINTS, BALANCED_POINTS, color="grey", alpha=0.15, lw=0)
    ax.set_xticks(x + width * len(tables) / 2, chosen, rotation=20)
    ax.set_ylabel("female % - male %")
    ax.set_ylim(-105, 105)
    ax.set_title(f"{model}: gold vs model for balanced and clearly gendered occupations (cf. paper Fig. 6)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def scatter(scored: dict[str, TaskScores], model: str):
    """Gold vs model f % - m % for every occupation, one panel per task, coloured by subset."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = {BALANCED: "tab:orange", CLEARLY_FEMALE: "tab:red", CLEARLY_MALE: "tab:blue", OTHER: "lightgrey"}
    tasks = [t for t in TASKS if t in scored]
    fig, axes = plt.subplots(2, 3, figsize=(13, 8), sharex=True, sharey=True)
    for ax, task in zip(axes.flat, tasks, strict=False):
        table = scored[task].table
        for subset, colour in colours.items():
            part = table[table["subset"] == subset]
            if len(part):
                ax.scatter(part["gold_diff"], part["model_diff"], s=8, c=colour, label=subset or "other", alpha=0.8)
        ax.axhline(0, color="black", lw=0.6)
        ax.axvline(0, color="black", lw=0.6)
        f1 = f1_scores(table["gold_diff"].to_numpy() > 0, table["pred_female"].to_numpy(bool))["macro_f1"]
        ax.set_title(f"{task} (n={len(table)}, macro F1 {f1:.2f})", fontsize=9)
    for ax in axes[-1]:
        ax.set_xlabel("gold: female % - male %")
    for ax in axes[:, 0]:
        ax.set_ylabel("model: f % - m %")
    axes.flat[0].legend(fontsize=7)
    fig.suptitle(f"{model}: every occupation, model vs Statistics Norway (quadrants I and III agree)")
    fig.tight_layout()
    return fig
