"""Role nouns against people grouped by social attitude (Watson et al. 2023, paper 004, section 3).
Pure numpy/pandas: no model calls.

Which attitude group's choices among *firewoman / fireman / firefighter* does a model resemble?

The model's preference for variant V of a role-noun set in context C ("Sally is a ___ from Utah.")
1. Build one sentence per (set, variant, name, state): ``f"{name} is {article} {variant} from {state}."``
   (`build_stimuli`, kept on the reference: `Reference.stimuli`). The 24 names and 50 states are Watson's;
   the 20 sets are Papineau's.
2. Score C given V (`context_scores`):
   * masked LMs (estimator ``mlm-pll+corpus-prior``, the paper's eq. 1-2): log P(C|V) = sum of the
     pseudo-log-likelihood terms of the context words (every word except the variant's), each piece
     masked in turn; combined with the corpus prior log P(V) (Wikipedia + BookCorpus counts,
     normalised within the set).
   * causal LMs (estimator ``causal-sentence-posterior``): the sum of the chain-rule log-probs of
     *all* words = log P(sentence) + const, i.e. log P(V|left context) + log P(right context|..., V).
     Normalised over the variants this is the model's own exact posterior P(V|C), with the model's
     own prior in it, so no corpus prior is added (that would count the prior twice).
3. P(V|C) = softmax over the variants of a set of (score + log prior) (`posterior`), per name and state.
4. Average P(V|C) over the states (paper 3.2) → one distribution per (set, name) (`average_over_states`).

Fit to people (paper Tables 1 and 5)
5. Every critical trial of a participant (name, set, chosen variant) gets log P_model(choice | set,
   name) (`trial_loglik`); the frequency baseline uses log P(V) alone (`prior_predictions`).
6. Average log-likelihood per group (progressive / moderate / conservative; Democrat / Non-Partisan
   / Republican), per name gender and for all trials, separately for 3-way and 2-way sets
   (`group_loglik`); intervals: percentile bootstrap over participants, stratified by group
   (`bootstrap_group_stats`).
7. Gaps between groups, e.g. conservative − progressive (positive: the model fits conservatives
   better), with bootstrap intervals; the best-fitting group (`metrics`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
import pandas as pd

from biascheck.methods.role_nouns.spec import NAME_GENDERS
from biascheck.stats import CONFIDENCE, N_RESAMPLES, SEED

GroupMeans = dict[str, dict[str, float]]  # scorer ('model', 'prior') → group → mean log-likelihood


@dataclass(frozen=True)
class RoleNounScores:
    """What the model said (steps 1-4): P(V|C) per (set, name), averaged over `states`.

    predictions: columns set, split, name, name_gender, category, variant, p (`average_over_states`).
    """

    predictions: pd.DataFrame
    estimator: str
    states: list[str]


# ---------------------------------------------------------------- stimuli and model scores


def select_states(states: Sequence[str], k: int | None) -> list[str]:
    """k states spread evenly over the alphabetical list (indices round(linspace(0, 49, k))); None = all.

    Deterministic, so every run and every model sees the same states.
    """
    ordered = sorted(states)
    if k is None or k >= len(ordered):
        return ordered
    if k < 1:
        raise ValueError(f"need at least one state, got k={k}")
    index = np.unique(np.round(np.linspace(0, len(ordered) - 1, k)).astype(int))
    return [ordered[i] for i in index]


def build_stimuli(sets: pd.DataFrame, names: pd.DataFrame, states: Sequence[str]) -> pd.DataFrame:
    """Step 1. One row per (set, variant, name, state).

    sets: columns set, split, category, variant, article (`biascheck.data.role_nouns.role_noun_sets`).
    names: columns name, name_gender.
    Returns the columns of both plus state, sentence, v_start, v_end (the variant's character span).
    """
    rows = []
    for s in sets.itertuples(index=False):
        for n in names.itertuples(index=False):
            for state in states:
                prefix = f"{n.name} is {s.article} "
                sentence = f"{prefix}{s.variant} from {state}."
                rows.append(
                    (
                        s.set,
                        s.split,
                        s.category,
                        s.variant,
                        n.name,
                        n.name_gender,
                        state,
                        sentence,
                        len(prefix),
                        len(prefix) + len(s.variant),
                    )
                )
    return pd.DataFrame(
        rows,
        columns=["set", "split", "category", "variant", "name", "name_gender", "state", "sentence", "v_start", "v_end"],
    )


def context_scores(
    word_scores: Sequence[Sequence[tuple[str, int, int, float]]],
    spans: Sequence[tuple[int, int]],
    include_variant: bool,
) -> np.ndarray:
    """Step 2. Sum of word log-probs per sentence, without (masked) or with (causal) the variant's words; an
    unscored word (NaN: a causal model without a context prefix cannot score the first word, which is the name
    and the same for every variant) adds nothing.

    word_scores[i]: `LanguageModel.word_logprobs` output for sentence i; spans[i]: the variant's
    (start, end) characters. A word is part of the variant if its span overlaps the variant's. All sentences'
    words at once (role nouns score 64,800 sentences a model); each sum in word order, as a loop would add.
    """
    n = len(word_scores)
    columns = getattr(word_scores, "columns", None)  # the engines' `WordScores`: the same numbers as arrays
    if columns is not None:
        sentence, w_start, w_end, logprob = columns.sentence, columns.start, columns.end, columns.logprob
        if not len(sentence):
            return np.zeros(n)
    else:
        counts = np.fromiter(map(len, word_scores), dtype=np.int64, count=n)
        if not counts.sum():
            return np.zeros(n)
        _, w_start, w_end, logprob = (np.asarray(c) for c in zip(*chain.from_iterable(word_scores), strict=True))
        sentence = np.repeat(np.arange(n), counts)
    bounds = np.asarray(spans, dtype=np.int64).reshape(n, 2)[sentence]
    inside = (w_start < bounds[:, 1]) & (w_end > bounds[:, 0])
    kept = ~np.isnan(logprob)
    if not include_variant:
        kept &= ~inside
    return np.bincount(sentence[kept], weights=logprob[kept].astype(np.float64), minlength=n)


def posterior(frame: pd.DataFrame, score: str = "score", log_prior: str | None = "log_prior") -> pd.Series:
    """Step 3. P(V|C) = exp(score + log prior) normalised over the variants of (set, name, state)."""
    logit = frame[score].astype(float) + (frame[log_prior].astype(float) if log_prior else 0.0)
    keys = [frame["set"], frame["name"], frame["state"]]
    logit = logit - logit.groupby(keys).transform("max")
    weight = np.exp(logit)
    return (weight / weight.groupby(keys).transform("sum")).rename("p")


def average_over_states(frame: pd.DataFrame, p: str = "p") -> pd.DataFrame:
    """Step 4. Mean P(V|C) over states. Columns: set, split, name, name_gender, category, variant, p."""
    keys = ["set", "split", "name", "name_gender", "category", "variant"]
    return frame.groupby(keys, as_index=False)[p].mean().rename(columns={p: "p"})


def prior_predictions(prior: pd.DataFrame, names: pd.DataFrame) -> pd.DataFrame:
    """Step 5 baseline: P(V) for every name (the prior ignores the name). Same columns as step 4."""
    grid = prior[["set", "split", "category", "variant", "prior"]].merge(names[["name", "name_gender"]], how="cross")
    return grid.rename(columns={"prior": "p"})[["set", "split", "name", "name_gender", "category", "variant", "p"]]


# ---------------------------------------------------------------- fit to participants


def trial_loglik(trials: pd.DataFrame, predictions: pd.DataFrame) -> np.ndarray:
    """Step 5. log P(chosen category | set, name) for every trial (trials: set, name, category)."""
    table = predictions.set_index(["set", "name", "category"])["p"]
    index = pd.MultiIndex.from_frame(trials[["set", "name", "category"]])
    values = table.reindex(index).to_numpy(dtype=float)
    if np.isnan(values).any():
        missing = trials.loc[np.isnan(values), ["set", "name", "category"]].drop_duplicates().values.tolist()
        raise ValueError(f"no prediction for trials {missing[:5]}")
    with np.errstate(divide="ignore"):
        return np.log(values)


def group_loglik(trials: pd.DataFrame, loglik: np.ndarray, by: str) -> pd.DataFrame:
    """Step 6. Mean log-likelihood per group (`by`: 'attitude' or 'party') and name gender.

    Returns columns group, names ('female', 'male', 'all'), loglik, n (trials), participants.
    Each trial counts once (the paper's "average log likelihood" over observations).
    """
    frame = trials.assign(_ll=loglik)
    rows = []
    for group, part in frame.groupby(by, sort=False):
        for names, sub in [*((g, part[part["name_gender"] == g]) for g in NAME_GENDERS), ("all", part)]:
            rows.append(
                (
                    group,
                    names,
                    float(sub["_ll"].mean()) if len(sub) else float("nan"),
                    len(sub),
                    sub["participant"].nunique(),
                )
            )
    return pd.DataFrame(rows, columns=["group", "names", "loglik", "n", "participants"])


def _participant_sums(
    trials: pd.DataFrame, loglik: np.ndarray, by: str, names: str
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per group of `by` (in order of first appearance), each participant's sum of trial log-likelihoods and
    number of trials (of `names`), participants sorted: `trials.groupby(by, sort=False)`, then by participant,
    taken as codes and two bincounts (the pandas groups took 20 ms a call, 42 calls a quick tier)."""
    keep = np.ones(len(trials), dtype=bool) if names == "all" else (trials["name_gender"] == names).to_numpy()
    group_code, groups = pd.factorize(trials[by].to_numpy()[keep], sort=False)
    person_code, people = pd.factorize(trials["participant"].to_numpy()[keep], sort=True)
    key, at = np.unique(group_code * len(people) + person_code, return_inverse=True)  # sorted: group, participant
    sums = np.bincount(at, weights=np.asarray(loglik, dtype=float)[keep], minlength=len(key))
    sizes = np.bincount(at, minlength=len(key)).astype(float)
    of_group = key // max(len(people), 1)
    return {str(group): (sums[of_group == g], sizes[of_group == g]) for g, group in enumerate(groups)}


@functools.lru_cache(maxsize=64)
def stratified_draws(sizes: tuple[int, ...], n_resamples: int, seed: int) -> tuple[np.ndarray, ...]:
    """Per group of `sizes`, (n_resamples, size) indices drawn with replacement, one resample at a time (each
    resample draws every group in turn from one stream seeded by `seed`). They depend on nothing else, so they
    are drawn once for the process (read-only): a model's role-nouns intervals ask for the same ones about 20
    times, and a sweep's next checkpoint again (each draw a call of the generator: 0.4 s a model)."""
    rng = np.random.default_rng(seed)
    draws = tuple(np.empty((n_resamples, size), dtype=np.int64) for size in sizes)
    for b in range(n_resamples):
        for group, size in enumerate(sizes):
            draws[group][b] = rng.integers(0, size, size)
    for d in draws:
        d.flags.writeable = False
    return draws


def bootstrap_group_stats(
    trials: pd.DataFrame,
    logliks: dict[str, np.ndarray],
    by: str,
    statistics: dict[str, Callable[[GroupMeans], float]],
    names: str = "all",
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = SEED,
) -> dict[str, tuple[float, float, float]]:
    """Step 6-7 intervals: percentile bootstrap over participants, stratified by group.

    1. Per participant and scorer (`logliks`: e.g. {'model': ..., 'prior': ...}, one value per
       trial), the sum of trial log-likelihoods and the number of trials (of `names`).
    2. Each resample draws, within every group, as many participants as it has, with replacement
       (the same draw for every scorer, so model − prior differences stay paired).
    3. A group's mean = sum of sums / sum of counts (trial-weighted, as the point estimate).
    4. statistics[name](means) with means[scorer][group]; returns {name: (estimate, low, high)}.
    """
    sums = {scorer: _participant_sums(trials, values, by, names) for scorer, values in logliks.items()}
    groups = list(next(iter(sums.values())).keys())

    def evaluate(draw: dict[str, np.ndarray] | None) -> dict[str, np.ndarray]:
        """The statistics at the point (draw None) or at every resample at once (draw: group -> (B, size)
        participant indices): the group means are arrays over the resamples, the statistics their arithmetic."""
        means: GroupMeans = {}
        for scorer, per_group in sums.items():
            means[scorer] = {}
            for group in groups:
                s, c = per_group[group]
                if draw is None:
                    means[scorer][group] = float(s.sum() / c.sum())
                else:
                    means[scorer][group] = s[draw[group]].sum(axis=1) / c[draw[group]].sum(axis=1)  # type: ignore[assignment]
        return {name: np.asarray(fn(means), dtype=float) for name, fn in statistics.items()}

    point = {name: float(value) for name, value in evaluate(None).items()}
    sizes = tuple(len(sums[next(iter(sums))][group][0]) for group in groups)
    draws = dict(zip(groups, stratified_draws(sizes, n_resamples, seed), strict=True))
    samples = {name: np.broadcast_to(values, (n_resamples,)) for name, values in evaluate(draws).items()}
    alpha = (1 - confidence) / 2
    return {
        name: (point[name], float(np.quantile(samples[name], alpha)), float(np.quantile(samples[name], 1 - alpha)))
        for name in statistics
    }


# ---------------------------------------------------------------- where the model differs from people (RQ1)


def fem_by_name_gender(predictions: pd.DataFrame) -> pd.DataFrame:
    """Mean P(FEM) per set (rows) for women's and men's names (columns 'female', 'male')."""
    fem = predictions[predictions["category"] == "fem"]
    return fem.groupby(["set", "name_gender"])["p"].mean().unstack("name_gender")


def per_set_shares(predictions: pd.DataFrame, trials: pd.DataFrame, category: str, name_gender: str) -> pd.DataFrame:
    """Per set (index): the model's mean P(category | names of that gender) ('model') and the
    participants' share of that category for those names ('people'; 0 where nobody chose it)."""
    model = (
        predictions[predictions["name_gender"] == name_gender]
        .groupby(["set", "category"])["p"]
        .mean()
        .unstack("category")
    )
    human = (
        trials[trials["name_gender"] == name_gender]
        .groupby("set")["category"]
        .value_counts(normalize=True)
        .unstack("category")
    )
    model, human = model.fillna(0.0), human.reindex(model.index).fillna(0.0)
    m = model[category] if category in model else pd.Series(0.0, index=model.index)
    h = human[category] if category in human else pd.Series(0.0, index=model.index)
    return pd.DataFrame({"model": m, "people": h})


def mean_p_per_set(predictions: pd.DataFrame, category: str, name_gender: str) -> np.ndarray:
    """Mean P(category) per set for the names of one gender (one value per set, sets sorted)."""
    rows = predictions[(predictions["category"] == category) & (predictions["name_gender"] == name_gender)]
    return rows.groupby("set")["p"].mean().to_numpy(float)


# ---------------------------------------------------------------- descriptive shares (figure)


def category_shares(predictions: pd.DataFrame) -> pd.DataFrame:
    """Mean P(category) per (split, name_gender) over sets and names. Columns split, name_gender, fem, masc, neut."""
    table = predictions.groupby(["split", "name_gender", "category"])["p"].sum().unstack("category").fillna(0.0)
    counts = predictions.groupby(["split", "name_gender"])[["set", "name"]].apply(lambda f: len(f.drop_duplicates()))
    return table.div(counts, axis=0).reset_index()


def human_shares(trials: pd.DataFrame, by: str | None = "attitude") -> pd.DataFrame:
    """Share of responses per category, per (split, [group], name_gender)."""
    keys = ["split", *([by] if by else []), "name_gender"]
    table = trials.groupby(keys)["category"].value_counts(normalize=True).unstack("category").fillna(0.0)
    return table.reset_index()
