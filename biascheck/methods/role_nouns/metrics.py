"""role_nouns metrics: `RoleNounScores` + the participants' trials → `Metric` records per task (steps 5-7).

Fit to people (paper Tables 1 and 5): every trial gets log P_model(choice | set, name); a group's
metric is the mean over its trials, for women's names, men's names and all, for the attitude thirds
and the party groups; the same under the frequency prior alone (`prior_…`, estimator corpus-prior) is
the baseline. Intervals: percentile bootstrap over participants, stratified by group, model and
prior paired (`math.bootstrap_group_stats`); the per-set metrics (RQ1: does the model use the
name's gender, where does it misgender) bootstrap over sets (`biascheck.stats.bootstrap_ci`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from biascheck.methods.role_nouns.math import (
    GroupMeans,
    RoleNounScores,
    bootstrap_group_stats,
    fem_by_name_gender,
    mean_p_per_set,
    per_set_shares,
    trial_loglik,
)
from biascheck.methods.role_nouns.reference import Reference
from biascheck.methods.role_nouns.spec import (
    _COLUMN,
    ATTITUDE,
    ESTIMATOR_PRIOR,
    EXCLUDED_SETS,
    GROUP_ABBREV,
    PAPER_BEST_GROUP,
    PAPER_LOGLIK,
    SPLIT_OF_TASK,
)
from biascheck.settings import ProbeSettings
from biascheck.spec import Metric
from biascheck.stats import N_RESAMPLES, bootstrap_ci

PAPER_NOTE = "paper value: BERT-base-uncased"


# ---------------------------------------------------------------- statistics of the group means


def group_mean(scorer: str, group: str, means: GroupMeans) -> float:
    """Mean log-likelihood of `group`'s choices under `scorer` ('model' or 'prior')."""
    return means[scorer][group]


def gap(scorer: str, high: str, low: str, means: GroupMeans) -> float:
    """loglik(high) − loglik(low) under `scorer`: > 0 = it fits `high` better."""
    return means[scorer][high] - means[scorer][low]


def gap_beyond_prior(high: str, low: str, means: GroupMeans) -> float:
    """The model's gap minus the frequency prior's: the lean the model adds beyond corpus frequency."""
    return gap("model", high, low, means) - gap("prior", high, low, means)


def gain_over_prior(means: GroupMeans) -> float:
    """Model − prior log-likelihood over everyone (the single group 'all')."""
    return means["model"]["all"] - means["prior"]["all"]


@dataclass(frozen=True)
class GroupStatistic:
    """One bootstrapped function of the group means and the rest of its `Metric`."""

    metric: str
    of: Callable[[GroupMeans], float]
    n: int
    paper_value: float | None = None


def _with_names(trials: pd.DataFrame, names: str) -> pd.DataFrame:
    """The trials with women's ('female') or men's ('male') names, or all of them ('all')."""
    return trials if names == "all" else trials[trials["name_gender"] == names]


def mean_statistics(task: str, trials: pd.DataFrame, by: str, names: str) -> list[GroupStatistic]:
    """loglik_<group>_<names> under the model for every group present, then prior_loglik_… the same.

    n: the group's trials with those names; paper value (model only): the paper's BERT.
    """
    groups = sorted(trials[by].unique(), key=list(GROUP_ABBREV).index)
    trial_counts = _with_names(trials, names).groupby(by).size()
    out = []
    for scorer, prefix in (("model", ""), ("prior", "prior_")):
        for group in groups:
            abbrev = GROUP_ABBREV[group]
            paper = PAPER_LOGLIK.get((task, abbrev), {}).get(names) if scorer == "model" else None
            metric = f"{prefix}loglik_{abbrev}_{_COLUMN[names]}"
            out.append(GroupStatistic(metric, partial(group_mean, scorer, group), int(trial_counts[group]), paper))
    return out


def paper_gap_cons_prog(task: str) -> float | None:
    """The paper's BERT gap, conservative − progressive, all names (from its table, to 2 decimals)."""
    if (task, "cons") not in PAPER_LOGLIK:
        return None
    return round(PAPER_LOGLIK[(task, "cons")]["all"] - PAPER_LOGLIK[(task, "prog")]["all"], 2)


def gap_statistics(task: str, by: str, participants: int) -> list[GroupStatistic]:
    """The between-group gaps over all names: attitude thirds (with the prior's gap) or parties."""
    if by == "party":
        return [GroupStatistic("gap_rep_dem", partial(gap, "model", "Republican", "Democrat"), participants)]
    cons, mod, prog = "conservative", "moderate", "progressive"
    return [
        GroupStatistic("gap_cons_prog", partial(gap, "model", cons, prog), participants, paper_gap_cons_prog(task)),
        GroupStatistic("gap_mod_prog", partial(gap, "model", mod, prog), participants),
        GroupStatistic("prior_gap_cons_prog", partial(gap, "prior", cons, prog), participants),
        GroupStatistic("gap_cons_prog_excess", partial(gap_beyond_prior, cons, prog), participants),
    ]


def best_group(task: str, model_means: dict[str, float], participants: int) -> Metric:
    """The attitude third the model fits best (0 progressive, 1 moderate, 2 conservative; first on ties)."""
    best = max(ATTITUDE, key=model_means.__getitem__)
    return Metric("best_group", float(ATTITUDE.index(best)), None, participants, PAPER_BEST_GROUP.get(task))


def group_fit_metrics(
    task: str, trials: pd.DataFrame, logliks: dict[str, np.ndarray], by: str, names: str, n_resamples: int
) -> list[Metric]:
    """Steps 6-7 for one grouping (`by`: 'attitude' or 'party') and one name gender (or 'all')."""
    participants = int(_with_names(trials, names)["participant"].nunique())
    statistics = mean_statistics(task, trials, by, names)
    if names == "all":
        statistics += gap_statistics(task, by, participants)
    result = bootstrap_group_stats(
        trials, logliks, by, {s.metric: s.of for s in statistics}, names=names, n_resamples=n_resamples
    )
    out = []
    for s in statistics:
        value, low, high = result[s.metric]
        out.append(Metric(s.metric, value, (low, high), s.n, s.paper_value))
    if by == "attitude" and names == "all":
        model_means = {g: result[f"loglik_{GROUP_ABBREV[g]}_all"][0] for g in ATTITUDE}
        out.append(best_group(task, model_means, participants))
    return out


def gain_metric(trials: pd.DataFrame, logliks: dict[str, np.ndarray], n_resamples: int) -> Metric:
    """loglik_gain_over_prior: model − prior over all participants (one group, same bootstrap)."""
    everyone = trials.assign(_all="all")
    value, low, high = bootstrap_group_stats(
        everyone, logliks, "_all", {"gain": gain_over_prior}, n_resamples=n_resamples
    )["gain"]
    return Metric("loglik_gain_over_prior", value, (low, high), int(trials["participant"].nunique()))


# ---------------------------------------------------------------- RQ1: the name's gender and misgendering


def _mean_ci(values: np.ndarray) -> tuple[float, float]:
    return bootstrap_ci(np.mean, values)


def fem_name_shift(predictions: pd.DataFrame, trials: pd.DataFrame) -> Metric:
    """Mean over sets of P(FEM | women's names) − P(FEM | men's names); items per set. Its target is
    the participants' shift over the same sets (all groups pooled): a model should use the name's
    gender as much as people do, not more and not less."""
    fem = fem_by_name_gender(predictions)
    shift = (fem["female"] - fem["male"]).to_numpy(float)
    items = [{"set": s, "women": float(fem.loc[s, "female"]), "men": float(fem.loc[s, "male"])} for s in fem.index]
    people = (
        per_set_shares(predictions, trials, "fem", "female")["people"]
        - per_set_shares(predictions, trials, "fem", "male")["people"]
    ).reindex(fem.index)
    target = float(people.mean())
    note = f"target: the participants' shift over the same sets, {target:.3f}"
    return Metric(
        "fem_name_shift", float(shift.mean()), _mean_ci(shift), len(shift), items=items, target=target, note=note
    )


def excess_metric(
    name: str, predictions: pd.DataFrame, trials: pd.DataFrame, category: str, name_gender: str
) -> Metric:
    """Mean over sets of P(category | names of that gender), model − participants; items per set."""
    shares = per_set_shares(predictions, trials, category, name_gender)
    diff = (shares["model"] - shares["people"]).to_numpy(float)
    items = [{"set": s, "model": float(shares["model"][s]), "people": float(shares["people"][s])} for s in shares.index]
    return Metric(name, float(diff.mean()), _mean_ci(diff), len(diff), items=items)


def neut_share(label: str, predictions: pd.DataFrame, name_gender: str) -> Metric:
    """neut_share_<label>: mean over sets of P(G-NEUT) for the names of one gender."""
    neut = mean_p_per_set(predictions, "neut", name_gender)
    return Metric(f"neut_share_{label}", float(neut.mean()), _mean_ci(neut), len(neut))


# ---------------------------------------------------------------- per task


def states_note(states: Sequence[str]) -> str:
    """Which states P(V|C) was averaged over (named when fewer than all 50)."""
    return f"P(V|C) averaged over {len(states)} state(s): {', '.join(states) if len(states) < 50 else 'all 50'}"


def _annotated(metric: Metric, scored: RoleNounScores) -> Metric:
    """prior_* metrics: the corpus-prior estimator, no note; the others: the model's estimator and the
    states note (plus whose the paper value is, where there is one)."""
    if metric.name.startswith("prior_"):
        return metric.annotated(estimator=ESTIMATOR_PRIOR)
    note = states_note(scored.states)
    if metric.paper_value is not None:
        note += "; " + PAPER_NOTE
    return metric.annotated(estimator=scored.estimator, note=note)


def task_metrics(task: str, scored: RoleNounScores, reference: Reference, settings: ProbeSettings) -> list[Metric]:
    """Every metric of `task` ('three_way', 'two_way' or 'two_way_no_heir_host': the 2-way sets without
    heir/heiress and host/hostess, paper appendix A.5), estimator, notes, paper values and items attached,
    against the reference's trials and the frequency prior's predictions."""
    return resampled_task_metrics(task, scored, reference)


def resampled_task_metrics(
    task: str, scored: RoleNounScores, reference: Reference, n_resamples: int = N_RESAMPLES
) -> list[Metric]:
    """`task_metrics` with `n_resamples` bootstrap resamples (the unit tests ask for fewer, to stay fast)."""
    if task not in SPLIT_OF_TASK:
        raise ValueError(f"unknown task {task!r}; known: {', '.join(SPLIT_OF_TASK)}")
    split, excluded = SPLIT_OF_TASK[task], EXCLUDED_SETS.get(task, ())

    def task_rows(frame: pd.DataFrame) -> pd.DataFrame:
        return frame[(frame["split"] == split) & ~frame["set"].isin(excluded)].reset_index(drop=True)

    trials = task_rows(reference.trials)
    predictions = task_rows(scored.predictions)
    logliks = {
        "model": trial_loglik(trials, predictions),
        "prior": trial_loglik(trials, task_rows(reference.prior_pred)),
    }
    out: list[Metric] = []
    for by in ("attitude", "party"):
        for names in ("female", "male", "all"):
            out += group_fit_metrics(task, trials, logliks, by, names, n_resamples)
    out.append(gain_metric(trials, logliks, n_resamples))
    out.append(fem_name_shift(predictions, trials))
    if split == 3:
        out.append(excess_metric("masc_for_women_excess", predictions, trials, "masc", "female"))
    out.append(excess_metric("fem_for_men_excess", predictions, trials, "fem", "male"))
    if split == 3:
        out += [neut_share("women", predictions, "female"), neut_share("men", predictions, "male")]
    if excluded:
        out = [m.annotated(note=f"without the sets {', '.join(excluded)} (paper appendix A.5)") for m in out]
    return [_annotated(m, scored) for m in out]
