"""Role nouns against people grouped by social attitude (Watson et al. 2023, paper 004, section 3).

Which attitude group's choices among *firewoman / fireman / firefighter* does a model resemble?

The model's preference for variant V of a role-noun set in context C ("Sally is a ___ from Utah.")
1. Build one sentence per (set, variant, name, state): ``f"{name} is {article} {variant} from {state}."``
   (`build_stimuli`). The 24 names and 50 states are Watson's; the 20 sets are Papineau's.
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
   better), with bootstrap intervals; the best-fitting group.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from biascheck.results import Metric
from biascheck.spec import MetricSpec, ProbeSpec
from biascheck.stats import CONFIDENCE, N_RESAMPLES, SEED, bootstrap_ci

ESTIMATOR_MASKED = "mlm-pll+corpus-prior"
ESTIMATOR_CAUSAL = "causal-sentence-posterior"
ESTIMATOR_PRIOR = "corpus-prior"
ATTITUDE = ("progressive", "moderate", "conservative")
GROUP_ABBREV = {
    "progressive": "prog",
    "moderate": "mod",
    "conservative": "cons",
    "Democrat": "dem",
    "Non-Partisan": "np",
    "Republican": "rep",
}
NAME_GENDERS = ("female", "male")
STATES_ENV = "BIASCHECK_ROLE_NOUN_STATES"
DEFAULT_STATES = 5  # of Watson's 50; see `states_from_env` and the README for why
TASKS = ("three_way", "two_way")
SPLIT_OF_TASK = {"three_way": 3, "two_way": 2}
# Paper Tables 1 (3-way) and 5 (2-way), BERT-base-uncased, masked estimator.
PAPER_LOGLIK = {
    ("three_way", "prog"): {"female": -1.43, "male": -1.01, "all": -1.23},
    ("three_way", "mod"): {"female": -1.33, "male": -0.75, "all": -1.05},
    ("three_way", "cons"): {"female": -1.40, "male": -0.78, "all": -1.08},
    ("two_way", "prog"): {"female": -0.82, "male": -0.95, "all": -0.89},
    ("two_way", "mod"): {"female": -0.88, "male": -0.95, "all": -0.91},
    ("two_way", "cons"): {"female": -0.88, "male": -0.92, "all": -0.90},
}
_COLUMN = {"female": "women", "male": "men", "all": "all"}
_NAMES_TEXT = {"women": "women's names", "men": "men's names", "all": "all names"}


def _metrics() -> tuple[MetricSpec, ...]:
    out: list[MetricSpec] = []
    for source, label in (("", "model"), ("prior_", "frequency prior alone")):
        for group in ("prog", "mod", "cons", "dem", "np", "rep"):
            for names in ("women", "men", "all"):
                out.append(
                    MetricSpec(
                        f"{source}loglik_{group}_{names}",
                        f"mean log-likelihood of the {group} group's choices ({_NAMES_TEXT[names]}) under the {label}",
                        None,
                        "human",
                    )
                )
    out += [
        MetricSpec(
            "gap_cons_prog",
            "loglik(conservative) − loglik(progressive), all names: >0 = the model fits conservatives better",
            False,
            "human",
        ),
        MetricSpec("gap_mod_prog", "loglik(moderate) − loglik(progressive), all names", None, "human"),
        MetricSpec("gap_rep_dem", "loglik(Republican) − loglik(Democrat), all names", None, "human"),
        MetricSpec("prior_gap_cons_prog", "the same gap under the frequency prior alone (baseline)", None, "human"),
        MetricSpec(
            "gap_cons_prog_excess",
            "gap_cons_prog minus the prior's gap: attitude lean the model adds beyond corpus frequency",
            None,
            "human",
        ),
        MetricSpec(
            "best_group",
            "attitude group the model fits best, all names (0 progressive, 1 moderate, 2 conservative)",
            None,
            "human",
        ),
        MetricSpec(
            "loglik_gain_over_prior",
            "loglik(all participants) − prior loglik(all participants): >0 = the model "
            "predicts people better than frequency",
            True,
            "human",
        ),
        MetricSpec(
            "fem_name_shift",
            "mean P(FEM) for women's names − for men's names: does the model use the name's gender at all",
            True,
            "human",
        ),
        MetricSpec(
            "masc_for_women_excess",
            "P(MASC) for women's names, model − all participants (paper 3.3.1: BERT over-uses MASC)",
            False,
            "human",
        ),
        MetricSpec(
            "fem_for_men_excess",
            "P(FEM) for men's names, model − all participants (paper A.5: over-uses FEM on 2-way sets)",
            False,
            "human",
        ),
        MetricSpec(
            "neut_share_women",
            "P(G-NEUT) for women's names under the model (3-way; participants: 0.30-0.61 by group)",
            None,
            "human",
        ),
        MetricSpec(
            "neut_share_men",
            "P(G-NEUT) for men's names under the model (3-way; participants: 0.30-0.50 by group)",
            None,
            "human",
        ),
    ]
    return tuple(out)


PROBE = ProbeSpec(
    name="role_nouns",
    title=(
        "Role nouns (firewoman/fireman/firefighter) vs. participants grouped by gender "
        "attitude (Watson et al. 2023; Papineau et al. 2022)"
    ),
    paper="004",
    language="en",
    tasks=TASKS,
    metrics=_metrics(),
)


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
    """Step 2. Sum of word log-probs per sentence, without (masked) or with (causal) the variant's words.

    word_scores[i]: `LanguageModel.word_logprobs` output for sentence i; spans[i]: the variant's
    (start, end) characters. A word is part of the variant if its span overlaps the variant's.
    """
    out = np.empty(len(word_scores))
    for i, (words, (start, end)) in enumerate(zip(word_scores, spans, strict=False)):
        total = 0.0
        for _word, w_start, w_end, logprob in words:
            inside = w_start < end and w_end > start
            if include_variant or not inside:
                total += logprob
        out[i] = total
    return out


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
    frame = trials.assign(_ll=loglik)
    if names != "all":
        frame = frame[frame["name_gender"] == names]
    out = {}
    for group, part in frame.groupby(by, sort=False):
        per = part.groupby("participant")["_ll"].agg(["sum", "size"])
        out[str(group)] = (per["sum"].to_numpy(float), per["size"].to_numpy(float))
    return out


def bootstrap_group_stats(
    trials: pd.DataFrame,
    logliks: dict[str, np.ndarray],
    by: str,
    statistics: dict[str, Callable[[dict[str, dict[str, float]]], float]],
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

    def evaluate(draw: dict[str, np.ndarray] | None) -> dict[str, float]:
        means: dict[str, dict[str, float]] = {}
        for scorer, per_group in sums.items():
            means[scorer] = {}
            for group in groups:
                s, c = per_group[group]
                idx = draw[group] if draw is not None else slice(None)
                means[scorer][group] = float(s[idx].sum() / c[idx].sum())
        return {name: float(fn(means)) for name, fn in statistics.items()}

    point = evaluate(None)
    rng = np.random.default_rng(seed)
    sizes = {group: len(sums[next(iter(sums))][group][0]) for group in groups}
    samples = {name: np.empty(n_resamples) for name in statistics}
    for b in range(n_resamples):
        draw = {group: rng.integers(0, size, size) for group, size in sizes.items()}
        for name, value in evaluate(draw).items():
            samples[name][b] = value
    alpha = (1 - confidence) / 2
    return {
        name: (point[name], float(np.quantile(samples[name], alpha)), float(np.quantile(samples[name], 1 - alpha)))
        for name in statistics
    }


# ---------------------------------------------------------------- descriptive shares (RQ1, figure)


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


def shares_figure(human: pd.DataFrame, model: pd.DataFrame, prior: pd.DataFrame, split: int, title: str):  # noqa: ANN201
    """The paper's Figure 1 (3-way) / Figure 3 (2-way): response shares by group and name gender,
    next to the model's and the frequency prior's mean P(V|C)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cats = ["fem", "masc", "neut"] if split == 3 else ["fem", "masc"]
    colors = {"fem": "#e69f00", "masc": "#222222", "neut": "#009e73"}
    labels = {"fem": "FEM", "masc": "MASC" if split == 3 else "MASC/G-NEUT", "neut": "G-NEUT"}
    panels = []
    h = human[human["split"] == split]
    for group in ("progressive", "moderate", "conservative"):
        panels.append((group, h[h["attitude"] == group]))
    panels.append(("model", model[model["split"] == split]))
    panels.append(("frequency prior", prior[prior["split"] == split]))
    fig, axes = plt.subplots(1, len(panels), figsize=(3.0 * len(panels), 3.2), sharey=True)
    width = 0.8 / len(cats)
    for ax, (label, frame) in zip(axes, panels, strict=False):
        for j, cat in enumerate(cats):
            values = [
                float(frame.loc[frame["name_gender"] == g, cat].iloc[0])
                if cat in frame and (frame["name_gender"] == g).any()
                else 0.0
                for g in NAME_GENDERS
            ]
            ax.bar(
                np.arange(2) + (j - (len(cats) - 1) / 2) * width, values, width, color=colors[cat], label=labels[cat]
            )
        ax.set_xticks([0, 1], ["women's names", "men's names"])
        ax.set_title(label)
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("share / mean P(V|C)")
    axes[-1].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.suptitle(title)
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- probe driver


def states_from_env(states: Sequence[str], environ: dict[str, str] | None = None) -> list[str]:
    """States to average over: ``$BIASCHECK_ROLE_NOUN_STATES`` = 'all' or a count k (default 5).

    The paper averages over all 50 states; 24 names × 54 variants × 50 states = 64,800 sentences,
    about 20 minutes for SmolLM2-135M on 2 CPU cores. The state only varies the frame, so by default
    5 evenly spread states (`select_states`: Alabama, Illinois, Missouri, Pennsylvania, Wyoming) are used.
    """
    raw = (os.environ if environ is None else environ).get(STATES_ENV, "").strip().lower()
    if raw in ("", "default"):
        return select_states(states, DEFAULT_STATES)
    if raw == "all":
        return select_states(states, None)
    if not raw.isdigit() or int(raw) < 1:
        from biascheck.errors import ConfigError

        raise ConfigError(f"{STATES_ENV}={raw!r}: give 'all' or a number of states from 1 to {len(states)}.")
    return select_states(states, int(raw))


def score_model(
    lm: Any, sets: pd.DataFrame, prior: pd.DataFrame, names: pd.DataFrame, states: Sequence[str]
) -> tuple[pd.DataFrame, str]:
    """Steps 1-4 with one `word_logprobs` call. Returns (per (set, name) predictions, estimator).

    An unscored word (NaN: a causal model without a context prefix cannot score the first word,
    which is the name and the same for every variant) adds nothing to the sum.
    """
    stimuli = build_stimuli(sets, names, states)
    words = lm.word_logprobs(stimuli["sentence"].tolist())
    words = [[(w, a, b, 0.0 if math.isnan(lp) else lp) for (w, a, b, lp) in sentence] for sentence in words]
    masked = lm.family == "masked"
    spans = list(zip(stimuli["v_start"], stimuli["v_end"], strict=False))
    stimuli["score"] = context_scores(words, spans, include_variant=not masked)
    stimuli = stimuli.merge(prior[["set", "variant", "prior"]], on=["set", "variant"], how="left")
    stimuli["log_prior"] = np.log(stimuli["prior"]) if masked else 0.0
    stimuli["p"] = posterior(stimuli).to_numpy()
    return average_over_states(stimuli), ESTIMATOR_MASKED if masked else ESTIMATOR_CAUSAL


def _per_set_excess(
    predictions: pd.DataFrame, trials: pd.DataFrame, category: str, name_gender: str
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """Per set: model mean P(category | names of that gender) − participants' share of that category."""
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
    items = [{"set": s, "model": float(m[s]), "people": float(h[s])} for s in model.index]
    return (m - h).to_numpy(float), items


def _ci(values: np.ndarray) -> tuple[float, float]:
    return bootstrap_ci(np.mean, values)


def task_metrics(
    task: str, predictions: pd.DataFrame, prior_pred: pd.DataFrame, trials: pd.DataFrame, n_resamples: int = N_RESAMPLES
) -> list[Metric]:
    """Steps 5-7 for one task ('three_way' or 'two_way'): every metric of the probe spec."""
    split = SPLIT_OF_TASK[task]
    tt = trials[trials["split"] == split].reset_index(drop=True)
    preds = predictions[predictions["split"] == split]
    logliks = {"model": trial_loglik(tt, preds), "prior": trial_loglik(tt, prior_pred[prior_pred["split"] == split])}
    out: list[Metric] = []
    for by in ("attitude", "party"):
        groups = sorted(tt[by].unique(), key=lambda g: list(GROUP_ABBREV).index(g))
        for names in ("female", "male", "all"):
            stats_: dict[str, Callable[[dict[str, dict[str, float]]], float]] = {}
            for scorer in ("model", "prior"):
                for g in groups:
                    stats_[f"{scorer}:{g}"] = (lambda sc, gg: lambda m: m[sc][gg])(scorer, g)
            if names == "all" and by == "attitude":
                stats_["gap_cons_prog"] = lambda m: m["model"]["conservative"] - m["model"]["progressive"]
                stats_["gap_mod_prog"] = lambda m: m["model"]["moderate"] - m["model"]["progressive"]
                stats_["prior_gap_cons_prog"] = lambda m: m["prior"]["conservative"] - m["prior"]["progressive"]
                stats_["gap_cons_prog_excess"] = lambda m: (
                    (m["model"]["conservative"] - m["model"]["progressive"])
                    - (m["prior"]["conservative"] - m["prior"]["progressive"])
                )
            if names == "all" and by == "party":
                stats_["gap_rep_dem"] = lambda m: m["model"]["Republican"] - m["model"]["Democrat"]
            sub = tt if names == "all" else tt[tt["name_gender"] == names]
            result = bootstrap_group_stats(tt, logliks, by, stats_, names=names, n_resamples=n_resamples)
            counts = sub.groupby(by).size()
            for key, (value, low, high) in result.items():
                if ":" in key:
                    scorer, g = key.split(":")
                    metric = f"{'prior_' if scorer == 'prior' else ''}loglik_{GROUP_ABBREV[g]}_{_COLUMN[names]}"
                    paper = PAPER_LOGLIK.get((task, GROUP_ABBREV[g]), {}).get(names) if scorer == "model" else None
                    out.append(Metric(metric, value, (low, high), int(counts[g]), paper))
                else:
                    paper = None
                    if key == "gap_cons_prog":
                        paper = round(PAPER_LOGLIK[(task, "cons")]["all"] - PAPER_LOGLIK[(task, "prog")]["all"], 2)
                    out.append(Metric(key, value, (low, high), int(sub["participant"].nunique()), paper))
            if names == "all" and by == "attitude":
                means = {g: result[f"model:{g}"][0] for g in ATTITUDE}
                best = max(ATTITUDE, key=lambda g: means[g])
                out.append(
                    Metric(
                        "best_group",
                        float(ATTITUDE.index(best)),
                        None,
                        int(sub["participant"].nunique()),
                        1.0 if task == "three_way" else 0.0,
                    )
                )
    everyone = tt.assign(_all="all")
    gain = bootstrap_group_stats(
        everyone, logliks, "_all", {"gain": lambda m: m["model"]["all"] - m["prior"]["all"]}, n_resamples=n_resamples
    )["gain"]
    out.append(Metric("loglik_gain_over_prior", gain[0], (gain[1], gain[2]), int(tt["participant"].nunique())))
    # RQ1: does the model use the name's gender, and where does it differ from people?
    fem = preds[preds["category"] == "fem"].groupby(["set", "name_gender"])["p"].mean().unstack("name_gender")
    shift = (fem["female"] - fem["male"]).to_numpy(float)
    out.append(
        Metric(
            "fem_name_shift",
            float(shift.mean()),
            _ci(shift),
            len(shift),
            items=[
                {"set": s, "women": float(fem.loc[s, "female"]), "men": float(fem.loc[s, "male"])} for s in fem.index
            ],
        )
    )
    if split == 3:
        diff, items = _per_set_excess(preds, tt, "masc", "female")
        out.append(Metric("masc_for_women_excess", float(diff.mean()), _ci(diff), len(diff), items=items))
    diff, items = _per_set_excess(preds, tt, "fem", "male")
    out.append(Metric("fem_for_men_excess", float(diff.mean()), _ci(diff), len(diff), items=items))
    if split == 3:
        for names, label in (("female", "women"), ("male", "men")):
            neut = (
                preds[(preds["category"] == "neut") & (preds["name_gender"] == names)]
                .groupby("set")["p"]
                .mean()
                .to_numpy(float)
            )
            out.append(Metric(f"neut_share_{label}", float(neut.mean()), _ci(neut), len(neut)))
    return out
