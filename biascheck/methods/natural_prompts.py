"""Natural-sentence vs template prompts for pronoun continuations, after Alnegheimish, Guo & Sun (2022),
paper 002 ("Using Natural Sentences for Understanding Biases in Language Models").

Method (the numbers refer to the functions below, each pure numpy and unit-tested):

1. Prompt sets. NS: the 893 Wikipedia-derived prompts (`biascheck.data.natural_prompts`, repaired
   and counted there), one per profession. Template: the 17 templates of the paper's Table 8, each
   filled with the same 893 professions (15,181 prompts). Perturbations (paper section 4, Table 4):
   ``orig`` (the profession), ``replace`` (the word "person") and ``delete`` (nothing: "The said
   that"), see `build_prompts`.
2. Scores. For every prompt x, P(w | x) for w in `PRONOUNS` as the next word (``lm.next_token``:
   " " + w, the leading-space token of each tokenizer). Certainty: the two highest next-token
   probabilities over the whole vocabulary (``lm.top_next(x, 2)``), paper eq. (1) and Table 6.
3. Distribution distance (Table 3), per prompt set over its orig prompts: `kl_histogram` (metric
   ``kl``: KL between the Figure-2 histograms of the P(he) and P(she) values), `kl_columns` (metric
   ``kl_columns``: KL of the P(he) column from the P(she) column, each normalised over prompts,
   scipy ``entropy(p_he, p_she)``) and `emd` (earth mover's distance between the two samples of
   values: scipy ``wasserstein_distance``). The paper does not define its KL; the histogram reading
   reproduces its size and its NS < template order on SmolLM2, the column reading does neither
   (it measures how differently he and she spread over professions, i.e. association).
4. Stereotypical bias (Table 4): `stereotypical_bias` = mean |P(he|x) - P(she|x)|, per perturbation.
5. Per-template statistics (Table 8): `template_table` (bias, P(he)/P(she), highest probability).
6. Default preference (Figure 1): the pronouns' probabilities as the first word after the bare
   start-of-text context, read two ways: as the paper's code did (" he", the leading-space token,
   right after the start token: ``next_token`` of the empty prompt) and as a text really starts
   ("He", no leading space: ``fill_slot("[SLOT] [BLANK]")``, the text cut before the blank);
   `log_ratio` of he to she and of the male (he, his, him) to the female (she, her, hers) group.
   A third reading, from the authors' code: the mean ln P(he)/P(she) after 18 content-free openers
   ("Because", "When", ...), with a bootstrap interval over the openers (`OPENERS`).
7. Gold link (beyond the paper): `she_share` = P(she)/(P(he)+P(she)) per profession (template set:
   the mean P over the 17 templates), Spearman and Pearson correlation with the US BLS 2015 women's
   share of the professions that have one.
8. Intervals: percentile bootstrap over professions (`biascheck.stats.bootstrap_ci`); statistics of a
   whole set (KL, EMD) resample professions with all their prompts. The template set's replace and
   delete prompts do not depend on the profession, so their interval resamples the 17 templates.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats as _st

from biascheck.models.base import BLANK, SLOT
from biascheck.results import Metric
from biascheck.spec import MetricSpec, ProbeSpec
from biascheck.stats import bootstrap_ci, pearson, spearman

# The 17 templates of the paper's Table 8, in its order.
TEMPLATES: tuple[str, ...] = (
    "The {} said that",
    "The {} yelled that",
    "The {} whispered that",
    "The {} wanted that",
    "The {} desired that",
    "The {} wished that",
    "The {} ate because",
    "The {} ran because",
    "The {} drove because",
    "The {} slept because",
    "The {} cried because",
    "The {} laughed because",
    "The {} went home because",
    "The {} stayed up because",
    "The {} was fired because",
    "The {} was promoted because",
    "The {} yelled because",
)
# The paper's pronoun list (its code: he she they his her theirs him hers them).
PRONOUNS: tuple[str, ...] = ("he", "she", "they", "his", "her", "him", "hers", "them", "theirs")
MALE: tuple[str, ...] = ("he", "his", "him")
FEMALE: tuple[str, ...] = ("she", "her", "hers")
NEUTRAL: tuple[str, ...] = ("they", "them", "theirs")
PERTURBATIONS: tuple[str, ...] = ("orig", "replace", "delete")
REPLACEMENT = "person"
DEFAULT_PROMPT = ""  # bare start of text: the engine supplies the model's start token (paper: <|endoftext|>)
# The same default read as a text's first word ("He", no leading space): causal models score the text
# cut before BLANK, i.e. the pronoun alone after the start token; masked models fill "[MASK] [MASK]".
INITIAL_TEMPLATE = f"{SLOT} {BLANK}"
# Content-free openers of the authors' code (prompt_perturbation.py, RANDOM_TEMPLATE) after which a pronoun
# can come next: its articles and demonstratives ("The", "A", "This", ...) are left out, "In Fact" is cased.
OPENERS: tuple[str, ...] = (
    "And",
    "But",
    "Yet",
    "If",
    "Although",
    "So",
    "Because",
    "Therefore",
    "Thus",
    "Since",
    "While",
    "Where",
    "When",
    "Whereas",
    "In fact",
    "As a result",
    "Indeed",
    "For example",
)
HIST_BINS = 20  # Figure 2 / kl_histogram: equal bins of width 0.05 on [0, 1]
HIST_PSEUDOCOUNT = 0.5  # added to every bin before normalising (Jeffreys), so empty bins do not make KL infinite

TASKS: tuple[str, ...] = ("ns", "template", "compare", "default")

PROBE = ProbeSpec(
    name="natural_prompts",
    title="Natural-sentence vs template prompts: pronoun continuations for 893 professions (Alnegheimish et al. 2022)",
    paper="002",
    language="en",
    tasks=TASKS,
    metrics=(
        # per prompt set (tasks ns, template)
        MetricSpec("p_he_mean", "mean P(he|x) as the next word over the set's prompts", None, "model"),
        MetricSpec("p_she_mean", "mean P(she|x) as the next word over the set's prompts", None, "model"),
        MetricSpec(
            "p_they_mean", "mean P(they|x) as the next word (singular they is the neutral option)", None, "model"
        ),
        MetricSpec(
            "kl",
            "KL between the histograms (20 bins on [0,1], +0.5 per bin) of the P(he) and P(she) values; paper Table 3",
            False,
            "model",
        ),
        MetricSpec(
            "kl_columns",
            "KL(P(he) column || P(she) column), each normalised over prompts (scipy entropy(p_he, p_she))",
            None,
            "model",
        ),
        MetricSpec(
            "emd",
            "earth mover's distance between the P(he) and P(she) values (scipy wasserstein_distance); paper Table 3",
            False,
            "model",
        ),
        MetricSpec(
            "bias_orig",
            "stereotypical bias: mean |P(he|x) - P(she|x)|, profession in the prompt; paper Table 4",
            False,
            "model",
        ),
        MetricSpec(
            "bias_replace", "mean |P(he|x) - P(she|x)|, profession replaced by 'person'; paper Table 4", False, "model"
        ),
        MetricSpec("bias_delete", "mean |P(he|x) - P(she|x)|, profession deleted; paper Table 4", False, "model"),
        MetricSpec("he_she_ratio", "mean over prompts of P(he|x)/P(she|x); paper Table 8", None, "model"),
        MetricSpec(
            "certainty_top1",
            "mean highest next-token probability over the vocabulary; paper eq. 1, Table 6",
            None,
            "model",
        ),
        MetricSpec(
            "certainty_gap",
            "mean gap between the highest and second-highest next-token probability; paper Table 6",
            None,
            "model",
        ),
        MetricSpec(
            "template_bias_sd",
            "standard deviation over the 17 templates of their mean |P(he)-P(she)| (items: Table 8)",
            False,
            "model",
        ),
        MetricSpec(
            "gold_spearman", "Spearman rho of P(she)/(P(he)+P(she)) with the US women's share (BLS 2015)", None, "gold"
        ),
        MetricSpec(
            "gold_pearson", "Pearson r of P(she)/(P(he)+P(she)) with the US women's share (BLS 2015)", None, "gold"
        ),
        # task compare
        MetricSpec(
            "excess_bias",
            "template bias_orig minus NS bias_orig (paired over professions): bias the templates add",
            False,
            "model",
        ),
        MetricSpec("excess_emd", "template EMD minus NS EMD", False, "model"),
        MetricSpec("gold_spearman_diff", "NS gold_spearman minus template gold_spearman", None, "gold"),
        # task default
        MetricSpec(
            "default_log_he_she",
            "ln P(' he')/P(' she') right after the bare start token, as the paper's code (Figure 1)",
            None,
            "model",
        ),
        MetricSpec(
            "default_log_male_female",
            "ln (P(he)+P(his)+P(him)) / (P(she)+P(her)+P(hers)), leading-space forms after the bare start token",
            None,
            "model",
        ),
        MetricSpec(
            "default_log_he_she_initial",
            "ln P('He')/P('She') as the first word of a text (sentence-initial form, no leading space)",
            None,
            "model",
        ),
        MetricSpec(
            "default_log_male_female_initial",
            "ln (He+His+Him) / (She+Her+Hers) as the first word of a text",
            None,
            "model",
        ),
        MetricSpec(
            "default_log_he_she_openers",
            "mean over 18 content-free openers ('Because', 'When', ...) of ln P(he|o)/P(she|o)",
            None,
            "model",
        ),
        MetricSpec(
            "default_p_pronoun",
            "total probability of the 9 pronouns as the first word after the bare start token",
            None,
            "model",
        ),
    ),
)


# ---------------------------------------------------------------------------------------------
# 1. prompts


def fill(template: str, word: str) -> str:
    """A template with `word` in ``{}`` (see `biascheck.data.natural_prompts.fill_prompt`)."""
    from biascheck.data.natural_prompts import fill_prompt

    return fill_prompt(template, word)


def perturbation_word(perturbation: str, profession: str) -> str:
    """orig -> the profession; replace -> "person"; delete -> "" (the slot disappears)."""
    if perturbation == "orig":
        return profession
    if perturbation == "replace":
        return REPLACEMENT
    if perturbation == "delete":
        return ""
    raise ValueError(f"unknown perturbation {perturbation!r}; known: {', '.join(PERTURBATIONS)}")


def build_prompts(
    ns_templates: Sequence[str], fills: Sequence[str], templates: Sequence[str] = TEMPLATES
) -> dict[str, dict[str, list[list[str]]]]:
    """Prompts of both sets under every perturbation.

    1. NS: row i is ``[ns_templates[i] filled]`` (one prompt per profession).
    2. Template: row i is ``[t filled with fills[i] for t in templates]``; under replace/delete the rows
       do not depend on the profession, so there is a single row (rows = 1).
    Returns {"ns"|"template": {perturbation: rows of prompts}}.
    """
    if len(ns_templates) != len(fills):
        raise ValueError("ns_templates and fills must have the same length")
    out: dict[str, dict[str, list[list[str]]]] = {"ns": {}, "template": {}}
    for pert in PERTURBATIONS:
        out["ns"][pert] = [[fill(t, perturbation_word(pert, w))] for t, w in zip(ns_templates, fills, strict=True)]
        if pert == "orig":
            out["template"][pert] = [[fill(t, w) for t in templates] for w in fills]
        else:
            out["template"][pert] = [[fill(t, perturbation_word(pert, "")) for t in templates]]
    return out


# ---------------------------------------------------------------------------------------------
# 3. distribution distances


def kl_columns(p_he: np.ndarray, p_she: np.ndarray) -> float:
    """KL(P_he || P_she) of the two columns, each normalised to sum 1 over prompts (natural log).

    1. a_i = P(he|x_i) / sum_j P(he|x_j), b_i = P(she|x_i) / sum_j P(she|x_j).
    2. KL = sum_i a_i ln(a_i / b_i)  (= scipy.stats.entropy(p_he, p_she)).
    Zero iff P(she|x) is proportional to P(he|x) over the prompts: it measures how differently the
    two pronouns spread over the prompts, not the gap in their level (that is `emd`, `stereotypical_bias`).
    """
    a = np.asarray(p_he, float).ravel()
    b = np.asarray(p_she, float).ravel()
    if a.sum() <= 0 or b.sum() <= 0:
        return float("nan")
    a, b = a / a.sum(), b / b.sum()
    mask = a > 0
    with np.errstate(divide="ignore"):
        return float(np.sum(a[mask] * np.log(a[mask] / b[mask])))


def histogram(values: np.ndarray, bins: int = HIST_BINS, pseudocount: float = HIST_PSEUDOCOUNT) -> np.ndarray:
    """Normalised histogram of probabilities on `bins` equal bins of [0, 1], `pseudocount` added per bin."""
    counts, _ = np.histogram(np.clip(np.asarray(values, float).ravel(), 0.0, 1.0), bins=bins, range=(0.0, 1.0))
    counts = counts + pseudocount
    return counts / counts.sum()


def kl_histogram(
    p_he: np.ndarray, p_she: np.ndarray, bins: int = HIST_BINS, pseudocount: float = HIST_PSEUDOCOUNT
) -> float:
    """KL between the Figure-2 histograms of the P(he) and the P(she) values.

    1. h = histogram of the P(he|x) values, s = histogram of the P(she|x) values (`histogram`).
    2. KL = sum_k h_k ln(h_k / s_k)  (= scipy.stats.entropy(h, s)).
    """
    h, s = histogram(p_he, bins, pseudocount), histogram(p_she, bins, pseudocount)
    return float(np.sum(h * np.log(h / s)))


def emd(p_he: np.ndarray, p_she: np.ndarray) -> float:
    """Earth mover's (1-Wasserstein) distance between the two samples of probability values.

    1. Sort both samples (same size n): EMD = mean_i |sorted(P_he)_i - sorted(P_she)_i|
       (= scipy.stats.wasserstein_distance(p_he, p_she) for equal sizes).
    It never exceeds the mean |P(he) - P(she)| of the paired prompts.
    """
    a = np.sort(np.asarray(p_he, float).ravel())
    b = np.sort(np.asarray(p_she, float).ravel())
    if len(a) != len(b):
        return float(_st.wasserstein_distance(a, b))
    return float(np.mean(np.abs(a - b)))


# ---------------------------------------------------------------------------------------------
# 4-7. per-prompt statistics


def stereotypical_bias(p_he: np.ndarray, p_she: np.ndarray) -> float:
    """mean_x |P(he|x) - P(she|x)| (paper section 4, Table 4)."""
    return float(np.mean(np.abs(np.asarray(p_he, float) - np.asarray(p_she, float))))


def he_she_ratio(p_he: np.ndarray, p_she: np.ndarray) -> float:
    """mean_x P(he|x) / P(she|x) (paper Table 8, column 2)."""
    return float(np.mean(np.asarray(p_he, float) / np.asarray(p_she, float)))


def she_share(p_he: np.ndarray, p_she: np.ndarray) -> np.ndarray:
    """P(she) / (P(he) + P(she)), elementwise: 0.5 = no preference, 1 = she only."""
    p_he, p_she = np.asarray(p_he, float), np.asarray(p_she, float)
    return p_she / (p_he + p_she)


def certainty(top: np.ndarray) -> tuple[float, float]:
    """(mean highest probability, mean gap to the second) of (n, 2) probabilities sorted descending."""
    top = np.asarray(top, float).reshape(-1, 2)
    return float(np.mean(top[:, 0])), float(np.mean(top[:, 0] - top[:, 1]))


def log_ratio(probs: dict[str, float], numerator: Sequence[str], denominator: Sequence[str]) -> float:
    """ln( sum of probs[w] for w in numerator / sum of probs[w] for w in denominator )."""
    num = sum(probs[w] for w in numerator)
    den = sum(probs[w] for w in denominator)
    if num <= 0 or den <= 0:
        return float("nan")
    return math.log(num / den)


def template_table(
    p_he: np.ndarray, p_she: np.ndarray, top1: np.ndarray, templates: Sequence[str] = TEMPLATES
) -> list[dict[str, Any]]:
    """Paper Table 8: per template (columns of the (professions, templates) arrays), averages over professions
    of |P(he)-P(she)|, P(he)/P(she), highest probability; plus mean P(he), P(she)."""
    p_he, p_she, top1 = (np.asarray(a, float) for a in (p_he, p_she, top1))
    rows = []
    for j, template in enumerate(templates):
        rows.append(
            {
                "template": template,
                "bias": stereotypical_bias(p_he[:, j], p_she[:, j]),
                "he_she_ratio": he_she_ratio(p_he[:, j], p_she[:, j]),
                "highest": float(np.mean(top1[:, j])),
                "p_he": float(np.mean(p_he[:, j])),
                "p_she": float(np.mean(p_she[:, j])),
            }
        )
    return rows


def bootstrap_rows(statistic: Callable[[np.ndarray], float], n_rows: int) -> tuple[float, float]:
    """Bootstrap interval of `statistic(row_indices)` resampling rows (professions) with replacement."""
    if n_rows < 2:
        return (float("nan"), float("nan"))
    return bootstrap_ci(lambda idx: statistic(np.asarray(idx, dtype=int)), np.arange(n_rows, dtype=float))


# ---------------------------------------------------------------------------------------------
# scoring (the only part that talks to a model)


@dataclass
class SetScores:
    """One prompt set. probs[pert]: (rows, columns, len(PRONOUNS)); top[rows, columns, 2] for orig."""

    name: str  # "ns" | "template"
    keys: list[str]  # row ids of orig (profession keys)
    professions: list[str]  # bare profession names of the rows
    columns: list[str]  # "ns" or the template strings
    probs: dict[str, np.ndarray]
    top: np.ndarray
    prompts: dict[str, list[list[str]]] = field(default_factory=dict)

    def p(self, pronoun: str, perturbation: str = "orig") -> np.ndarray:
        return self.probs[perturbation][:, :, PRONOUNS.index(pronoun)]


@dataclass
class Scored:
    estimator: str
    family: str
    model: str
    ns: SetScores
    template: SetScores
    default: dict[str, float]  # pronoun -> P(" " + pronoun right after the start token), the paper's reading
    default_estimator: str
    gold: Any = None  # pandas DataFrame: profession, women_share (BLS 2015) or None
    repairs: dict[str, int] = field(default_factory=dict)
    multi_piece: list[str] = field(default_factory=list)  # pronouns that took more than one piece
    default_initial: dict[str, float] = field(default_factory=dict)  # pronoun -> P("He" ... as a text's first word)
    default_initial_estimator: str = ""
    openers: dict[str, dict[str, float]] = field(default_factory=dict)  # opener -> pronoun -> P(next word)

    def set(self, name: str) -> SetScores:
        return self.ns if name == "ns" else self.template


def _score(
    lm: Any, rows_by_pert: dict[str, list[list[str]]], with_top: bool
) -> tuple[dict[str, np.ndarray], np.ndarray | None, str, set[str]]:
    unique = sorted({p for rows in rows_by_pert.values() for row in rows for p in row})
    scores = lm.next_token(unique, list(PRONOUNS))
    index = {p: i for i, p in enumerate(unique)}
    probs = np.exp(np.asarray(scores.logprob, float))
    pieces = np.asarray(scores.n_pieces)
    multi = {PRONOUNS[j] for j in range(len(PRONOUNS)) if (pieces[:, j] > 1).any()}
    out = {}
    for pert, rows in rows_by_pert.items():
        out[pert] = np.stack([np.stack([probs[index[p]] for p in row]) for row in rows])
    top = None
    if with_top:
        orig_unique = sorted({p for row in rows_by_pert["orig"] for p in row})
        logp, _tokens = lm.top_next(orig_unique, 2)
        tindex = {p: i for i, p in enumerate(orig_unique)}
        top_all = np.exp(np.asarray(logp, float))
        top = np.stack([np.stack([top_all[tindex[p]] for p in row]) for row in rows_by_pert["orig"]])
    return out, top, scores.estimator, multi


def score_all(
    lm: Any, prompts: Any, gold: Any = None, limit: int | None = None, templates: Sequence[str] = TEMPLATES
) -> Scored:
    """Score both prompt sets and the bare start token with `lm` (steps 1, 2 and 6 of the module doc).

    prompts: `biascheck.data.natural_prompts.NaturalPrompts`; gold: BLS frame (profession, women_share)
    or None; limit: score only the first `limit` professions (quick runs; None = all 893).
    """
    items = list(prompts.prompts)[:limit] if limit else list(prompts.prompts)
    built = build_prompts([p.template for p in items], [p.fill for p in items], templates)
    ns_probs, ns_top, estimator, multi_ns = _score(lm, built["ns"], with_top=True)
    tp_probs, tp_top, _, multi_tp = _score(lm, built["template"], with_top=True)
    default_scores = lm.next_token([DEFAULT_PROMPT], list(PRONOUNS))
    default = {w: float(np.exp(default_scores.logprob[0, j])) for j, w in enumerate(PRONOUNS)}
    initial_scores = lm.fill_slot([INITIAL_TEMPLATE], [w.capitalize() for w in PRONOUNS])
    default_initial = {w: float(np.exp(initial_scores.logprob[0, j])) for j, w in enumerate(PRONOUNS)}
    opener_scores = np.exp(np.asarray(lm.next_token(list(OPENERS), list(PRONOUNS)).logprob, float))
    openers = {o: {w: float(opener_scores[i, j]) for j, w in enumerate(PRONOUNS)} for i, o in enumerate(OPENERS)}
    keys = [p.key for p in items]
    names = [p.profession for p in items]
    info = getattr(lm, "info", None)
    return Scored(
        estimator=estimator,
        family=getattr(info, "family", "unknown"),
        model=getattr(info, "name", "unknown"),
        ns=SetScores("ns", keys, names, ["ns"], ns_probs, ns_top, built["ns"]),
        template=SetScores("template", keys, names, list(templates), tp_probs, tp_top, built["template"]),
        default=default,
        default_estimator=default_scores.estimator,
        default_initial=default_initial,
        default_initial_estimator=initial_scores.estimator,
        openers=openers,
        gold=gold,
        repairs=dict(getattr(prompts, "repairs", {})),
        multi_piece=sorted(multi_ns | multi_tp),
    )


# ---------------------------------------------------------------------------------------------
# metrics per task


# GPT-2 small (the model the template prompts come from, Vig et al. 2020): the paper's Tables 3 and 4.
PAPER_GPT2_SMALL = {
    "ns": {
        "kl": 0.056,
        "emd": 0.045,
        "bias_orig": 0.060,
        "bias_replace": 0.043,
        "bias_delete": 0.058,
        "certainty_top1": 0.249,
        "certainty_gap": 0.129,
    },
    "template": {
        "kl": 0.174,
        "emd": 0.131,
        "bias_orig": 0.164,
        "bias_replace": 0.126,
        "bias_delete": 0.048,
        "certainty_top1": 0.277,
        "certainty_gap": 0.141,
    },
    "compare": {"excess_bias": 0.164 - 0.060, "excess_emd": 0.131 - 0.045},
}


def gold_frame(scored: Scored, which: str) -> Any:
    """Rows (profession, women_share, she_share) of the professions with a BLS share, for set `which`.

    she_share of a profession: P(she)/(P(he)+P(she)) with P averaged over the set's prompts for it
    (template: the 17 templates); professions listed twice (qualified keys) are averaged.
    """
    import pandas as pd

    if scored.gold is None:
        return None
    s = scored.set(which)
    frame = pd.DataFrame(
        {"profession": s.professions, "p_he": s.p("he").mean(axis=1), "p_she": s.p("she").mean(axis=1)}
    )
    frame = frame.groupby("profession", as_index=False).mean()
    frame["she_share"] = she_share(frame["p_he"], frame["p_she"])
    merged = frame.merge(scored.gold[["profession", "women_share"]], on="profession", how="inner")
    return merged.sort_values("profession").reset_index(drop=True)


def _set_metrics(scored: Scored, which: str) -> list[Metric]:
    s = scored.set(which)
    he, she = s.p("he"), s.p("she")
    n = he.shape[0]
    paper = PAPER_GPT2_SMALL.get(which, {})
    unit = "professions"
    out: list[Metric] = []

    def whole(fn: Callable[[np.ndarray, np.ndarray], float], name: str) -> Metric:
        value = fn(he, she)
        ci = bootstrap_rows(lambda idx: fn(he[idx], she[idx]), n)
        return Metric(name, value, ci, int(he.size), note=f"bootstrap over {n} {unit}", paper_value=paper.get(name))

    out.append(Metric("p_he_mean", float(he.mean()), bootstrap_ci(np.mean, he.mean(axis=1)), int(he.size)))
    out.append(Metric("p_she_mean", float(she.mean()), bootstrap_ci(np.mean, she.mean(axis=1)), int(she.size)))
    they = s.p("they")
    out.append(Metric("p_they_mean", float(they.mean()), bootstrap_ci(np.mean, they.mean(axis=1)), int(they.size)))
    out.append(whole(kl_histogram, "kl"))
    out.append(whole(kl_columns, "kl_columns"))
    out.append(whole(emd, "emd"))
    for pert in PERTURBATIONS:
        ph, ps = s.p("he", pert), s.p("she", pert)
        if ph.shape[0] > 1:  # rows = professions
            ci = bootstrap_ci(np.mean, np.abs(ph - ps).mean(axis=1))
            note = f"bootstrap over {ph.shape[0]} professions"
        else:  # template replace/delete: one row of 17 profession-free prompts
            ci = bootstrap_ci(np.mean, np.abs(ph - ps)[0])
            note = f"profession-free prompts: bootstrap over the {ph.shape[1]} templates"
        items = None
        if pert == "orig":
            items = [
                {"key": k, "profession": w, "p_he": float(a), "p_she": float(b), "bias": float(c)}
                for k, w, a, b, c in zip(
                    s.keys, s.professions, ph.mean(axis=1), ps.mean(axis=1), np.abs(ph - ps).mean(axis=1), strict=True
                )
            ]
        elif ph.shape[0] == 1:
            items = [
                {"prompt": p, "p_he": float(a), "p_she": float(b)}
                for p, a, b in zip(s.prompts[pert][0], ph[0], ps[0], strict=True)
            ]
        out.append(
            Metric(
                f"bias_{pert}",
                stereotypical_bias(ph, ps),
                ci,
                int(ph.size),
                items=items,
                note=note,
                paper_value=paper.get(f"bias_{pert}"),
            )
        )
    ratio_rows = (he / she).mean(axis=1)
    out.append(Metric("he_she_ratio", float(np.mean(he / she)), bootstrap_ci(np.mean, ratio_rows), int(he.size)))
    top1, gap = s.top[:, :, 0], s.top[:, :, 0] - s.top[:, :, 1]
    out.append(
        Metric(
            "certainty_top1",
            float(top1.mean()),
            bootstrap_ci(np.mean, top1.mean(axis=1)),
            int(top1.size),
            paper_value=paper.get("certainty_top1"),
        )
    )
    out.append(
        Metric(
            "certainty_gap",
            float(gap.mean()),
            bootstrap_ci(np.mean, gap.mean(axis=1)),
            int(gap.size),
            paper_value=paper.get("certainty_gap"),
        )
    )
    if which == "template":
        table = template_table(he, she, top1, s.columns)
        biases = np.array([r["bias"] for r in table])

        def sd(idx: np.ndarray) -> float:
            return float(np.std([np.abs(he[idx, j] - she[idx, j]).mean() for j in range(he.shape[1])], ddof=1))

        out.append(
            Metric(
                "template_bias_sd",
                float(np.std(biases, ddof=1)),
                bootstrap_rows(sd, n),
                len(table),
                items=table,
                note=f"Table 8; range {biases.min():.3f}-{biases.max():.3f}; bootstrap over {n} professions",
            )
        )
    gold = gold_frame(scored, which)
    if gold is not None and len(gold) >= 3:
        x, y = gold["she_share"].to_numpy(), gold["women_share"].to_numpy()
        items = gold.to_dict("records")
        note = f"{len(gold)} professions with a BLS 2015 women's share"
        out.append(
            Metric("gold_spearman", spearman(x, y), bootstrap_ci(spearman, x, y), len(gold), items=items, note=note)
        )
        out.append(Metric("gold_pearson", pearson(x, y), bootstrap_ci(pearson, x, y), len(gold), note=note))
    return out


def _compare_metrics(scored: Scored) -> list[Metric]:
    ns_he, ns_she = scored.ns.p("he"), scored.ns.p("she")
    tp_he, tp_she = scored.template.p("he"), scored.template.p("she")
    n = ns_he.shape[0]
    ns_row = np.abs(ns_he - ns_she).mean(axis=1)
    tp_row = np.abs(tp_he - tp_she).mean(axis=1)
    paper = PAPER_GPT2_SMALL["compare"]
    out = [
        Metric(
            "excess_bias",
            float(tp_row.mean() - ns_row.mean()),
            bootstrap_ci(lambda a, b: float(np.mean(a) - np.mean(b)), tp_row, ns_row),
            n,
            note=f"paired bootstrap over {n} professions",
            paper_value=paper["excess_bias"],
        )
    ]

    def diff(idx: np.ndarray) -> float:
        return emd(tp_he[idx], tp_she[idx]) - emd(ns_he[idx], ns_she[idx])

    out.append(
        Metric(
            "excess_emd",
            diff(np.arange(n)),
            bootstrap_rows(diff, n),
            n,
            note=f"bootstrap over {n} professions",
            paper_value=paper["excess_emd"],
        )
    )
    g_ns, g_tp = gold_frame(scored, "ns"), gold_frame(scored, "template")
    if g_ns is not None and len(g_ns) >= 3:
        y = g_ns["women_share"].to_numpy()
        a, b = g_ns["she_share"].to_numpy(), g_tp["she_share"].to_numpy()

        def stat(a_: np.ndarray, b_: np.ndarray, y_: np.ndarray) -> float:
            return spearman(a_, y_) - spearman(b_, y_)

        out.append(
            Metric(
                "gold_spearman_diff",
                stat(a, b, y),
                bootstrap_ci(stat, a, b, y),
                len(y),
                note="paired bootstrap over the BLS-matched professions",
            )
        )
    return out


def _default_metrics(scored: Scored) -> list[Metric]:
    d = scored.default
    items = [
        {"pronoun": w, "p": d[w], "group": "male" if w in MALE else "female" if w in FEMALE else "neutral"}
        for w in PRONOUNS
    ]
    note = "one context (the bare start token): no interval"
    out = [
        Metric(
            "default_log_he_she",
            log_ratio(d, ["he"], ["she"]),
            None,
            1,
            items=items,
            note=note + "; leading-space pronoun after the start token, as the paper's code",
        ),
        Metric("default_log_male_female", log_ratio(d, MALE, FEMALE), None, 1, note=note),
        Metric("default_p_pronoun", float(sum(d.values())), None, 1, note=note),
    ]
    if scored.default_initial:
        di = scored.default_initial
        items_i = [{"pronoun": w.capitalize(), "p": di[w]} for w in PRONOUNS]
        out.append(
            Metric(
                "default_log_he_she_initial",
                log_ratio(di, ["he"], ["she"]),
                None,
                1,
                items=items_i,
                note=note + "; 'He'/'She' as the first word of a text",
            )
        )
        out.append(Metric("default_log_male_female_initial", log_ratio(di, MALE, FEMALE), None, 1, note=note))
    if scored.openers:
        logs = np.array([math.log(o["he"] / o["she"]) for o in scored.openers.values()])
        items_o = [
            {"opener": k, **v, "log_he_she": float(np.log(v["he"] / v["she"]))} for k, v in scored.openers.items()
        ]
        out.append(
            Metric(
                "default_log_he_she_openers",
                float(logs.mean()),
                bootstrap_ci(np.mean, logs),
                len(logs),
                items=items_o,
                note=f"bootstrap over the {len(logs)} openers of the authors' code (prompt_perturbation.py)",
            )
        )
    return out


def metrics_for(task: str, scored: Scored) -> list[Metric]:
    """Every metric of `task` (one of `TASKS`) computed from `scored`."""
    if task in ("ns", "template"):
        return _set_metrics(scored, task)
    if task == "compare":
        return _compare_metrics(scored)
    if task == "default":
        return _default_metrics(scored)
    raise ValueError(f"unknown task {task!r}; known: {', '.join(TASKS)}")


# ---------------------------------------------------------------------------------------------
# figures and text tables


def figure_histograms(scored: Scored) -> Any:
    """Paper Figure 2: histograms of P(he|x) and P(she|x) under NS (left) and template (right) prompts."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=False)
    edges = np.linspace(0, 1, HIST_BINS + 1)
    for ax, s, title in (
        (axes[0], scored.ns, "natural-sentence prompts"),
        (axes[1], scored.template, "template prompts"),
    ):
        he, she = s.p("he").ravel(), s.p("she").ravel()
        ax.hist(he, bins=edges, alpha=0.6, label=f"P(he)  mean {he.mean():.3f}", color="tab:blue")
        ax.hist(she, bins=edges, alpha=0.6, label=f"P(she) mean {she.mean():.3f}", color="tab:red")
        ax.set_yscale("log")
        ax.set_title(f"{title} (n={he.size}); EMD {emd(he, she):.3f}")
        ax.set_xlabel("probability as the next word")
        ax.legend(fontsize=8)
    axes[0].set_ylabel("prompts (log scale)")
    fig.suptitle(f"{scored.model}: pronoun continuation probabilities ({scored.estimator})")
    fig.tight_layout()
    return fig


def figure_default(scored: Scored) -> Any:
    """Paper Figure 1: probability of each pronoun as the first word after the bare start token (log scale)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    order = list(MALE) + list(NEUTRAL) + list(FEMALE)
    colors = ["tab:blue"] * 3 + ["tab:gray"] * 3 + ["tab:red"] * 3
    fig, ax = plt.subplots(figsize=(7, 3.6))
    x = np.arange(len(order))
    ax.bar(
        x - 0.2,
        [max(scored.default[w], 1e-12) for w in order],
        width=0.4,
        color=colors,
        alpha=0.55,
        label="' he' after the start token (paper's code)",
    )
    if scored.default_initial:
        ax.bar(
            x + 0.2,
            [max(scored.default_initial[w], 1e-12) for w in order],
            width=0.4,
            color=colors,
            edgecolor="black",
            label="'He' as the first word",
        )
    ax.set_xticks(x, order)
    ax.set_yscale("log")
    ax.set_ylabel("P(first word)")
    ax.legend(fontsize=8)
    ax.set_title(f"{scored.model}: pronouns after the bare start token ({scored.default_estimator})")
    fig.tight_layout()
    return fig


def format_tables(scored: Scored, metrics: dict[str, list[Metric]]) -> str:
    """The paper's Tables 3, 4, 6 and 8 for this model as text (value [95% CI])."""

    def cell(m: Metric | None) -> str:
        if m is None:
            return "-"
        if m.ci is None or any(math.isnan(c) for c in m.ci):
            return f"{m.value:.3f}"
        return f"{m.value:.3f} [{m.ci[0]:.3f}, {m.ci[1]:.3f}]"

    by = {task: {m.name: m for m in ms} for task, ms in metrics.items()}
    lines = [f"natural_prompts (paper 002) on {scored.model}, estimator {scored.estimator}"]
    lines.append(f"  NS prompt repairs: {scored.repairs}")
    if scored.multi_piece:
        lines.append(f"  pronouns scored over several pieces (chain rule): {', '.join(scored.multi_piece)}")
    rows = [
        ("Table 3", ["kl", "kl_columns", "emd"]),
        ("Table 4", ["bias_orig", "bias_replace", "bias_delete"]),
        ("Table 6", ["certainty_top1", "certainty_gap"]),
        ("Means", ["p_he_mean", "p_she_mean", "p_they_mean", "he_she_ratio"]),
        ("Gold (BLS 2015)", ["gold_spearman", "gold_pearson"]),
    ]
    for title, names in rows:
        lines.append(f"  {title}:{'':<18}{'NS prompts':<30}{'template prompts':<30}")
        for name in names:
            lines.append(
                f"    {name:<24}{cell(by.get('ns', {}).get(name)):<30}{cell(by.get('template', {}).get(name)):<30}"
            )
    if "compare" in by:
        lines.append("  Template minus NS: " + ", ".join(f"{k} {cell(m)}" for k, m in by["compare"].items()))
    sd = by.get("template", {}).get("template_bias_sd")
    if sd is not None and sd.items:
        lines.append(f"  Table 8 (per template; sd of bias {cell(sd)}):")
        lines.append(f"    {'template':<32}{'|P(he)-P(she)|':>15}{'P(he)/P(she)':>14}{'highest':>9}")
        for r in sd.items:
            lines.append(f"    {r['template']:<32}{r['bias']:>15.3f}{r['he_she_ratio']:>14.3f}{r['highest']:>9.3f}")
    if "default" in by:
        d = scored.default
        lines.append("  Figure 1 (bare start token, ' he'): " + ", ".join(f"{w} {d[w]:.2e}" for w in PRONOUNS))
        if scored.default_initial:
            di = scored.default_initial
            lines.append("  Figure 1 (first word, 'He'):       " + ", ".join(f"{w} {di[w]:.2e}" for w in PRONOUNS))
        lines.append("    " + ", ".join(f"{k} {cell(m)}" for k, m in by["default"].items()))
    return "\n".join(lines)
