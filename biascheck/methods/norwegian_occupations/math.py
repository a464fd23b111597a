"""Norwegian occupations against Statistics Norway, after Touileb, Øvrelid & Velldal (2022), paper 000.
Pure numpy/pandas/scipy.

Method (the paper's Section 4, step by step; each step is one pure function below)
-------------------------------------------------------------------------------
Gold. 417 occupations from Statistics Norway with the female and male % of their workforce.
  G1 `gold_difference`: gold score = female % - male %; > 0 female-dominated, < 0 male-dominated
     (no occupation is exactly 50/50). This sign is the class every model score is compared to.
  G2 `gold_subsets`: balanced, clearly female and clearly male occupations (rules below).

Tasks: the five template tasks (`templates`); `score.score` fills them with the model.

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
  E3-E4 (per-subset F1, Spearman rho, female share, bootstrap intervals) are `metrics`.

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

from biascheck.methods.norwegian_occupations.spec import (
    BALANCED,
    BALANCED_POINTS,
    CLEAR_SHARE,
    CLEARLY_FEMALE,
    CLEARLY_MALE,
    FEMALE,
    MALE,
    OTHER,
    PRONOUNS,
    SUBSET_RULES,
)
from biascheck.stats import class_f1_rows as stats_class_f1_rows


# ---------------------------------------------------------------------------------------------
# G: gold
# ---------------------------------------------------------------------------------------------
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
    return float(class_f1_rows(gold_female, pred_female, female))


def class_f1_rows(gold_female: np.ndarray, pred_female: np.ndarray, female: bool, axis: int = -1) -> np.ndarray:
    """`class_f1` of every row of a stack of (gold, predicted) resamples at once (along `axis`;
    `biascheck.stats.class_f1_rows`)."""
    gold = np.asarray(gold_female, bool) == female
    pred = np.asarray(pred_female, bool) == female
    return stats_class_f1_rows(gold, pred, axis)


def f1_scores(gold_female: np.ndarray, pred_female: np.ndarray) -> dict[str, float]:
    """E2. {'f1_female', 'f1_male', 'macro_f1'} (macro = mean of the two class F1)."""
    f = class_f1(gold_female, pred_female, True)
    m = class_f1(gold_female, pred_female, False)
    return {"f1_female": f, "f1_male": m, "macro_f1": (f + m) / 2.0}


# ---------------------------------------------------------------------------------------------
# The per-occupation table of one task
# ---------------------------------------------------------------------------------------------
@dataclass
class TaskScores:
    task: str
    table: pd.DataFrame  # one row per occupation: gold columns + candidate, model_f, model_diff, pred_female, n_pieces
    estimator: str
    n_templates: int
    note: str = ""
    extra: dict = field(default_factory=dict)


def occupation_table(
    gold: pd.DataFrame, candidates: Sequence[str], female_share: np.ndarray, n_pieces: np.ndarray
) -> pd.DataFrame:
    """M3 and E1 per occupation: `gold` rows plus candidate (the text scored), model_f (f %),
    model_diff, pred_female and n_pieces (word pieces of the scored candidate), index reset."""
    table = gold.copy()
    table["candidate"] = list(candidates)
    table["model_f"] = 100.0 * np.asarray(female_share, float)
    table["model_diff"] = model_difference(female_share)
    table["pred_female"] = predicted_female(table["model_diff"].to_numpy())
    table["n_pieces"] = np.asarray(n_pieces, int)
    return table.reset_index(drop=True)
