"""Read-outs of a fitted latent-variable model (`biascheck.methods.politicians.latent.model.LvmResult`): rankings,
gender deviations, the sentiment gaps and mixes (paper 003, Tab 4 / 6, Fig 4 / 6).

Derived quantities
* `rank_by_eta`: the words with the largest (mean, centred) η[w, s, g] for one sentiment and gender
  (the paper's Tab 4 / 6 "largest average deviation for each sentiment"); `eta_table` lays them out
  as Tab 4.
* `gender_deviation`: one score per word and gender for rankings across sentiments,
      d(w, g) = log Σ_s pσ(s|g) pη(w|s,g) − m_w = log pθ(w|g) − log p̃(w),
  the log-sum-exp of η[w, ·, g] weighted by the model's own pσ(s|g) / Σ_w' exp(m_w' + η[w', s, g]).
  With one sentiment it is η[w, g] − log Σ_w' exp(m_w' + η[w', g]), the paper's Eq 9, so ranking by it
  is the paper's "rank by deviation" generalised to a latent sentiment. (The paper does not say how its
  Fig 4 / 6 rank words per gender. max_s η or a q-weighted mean of η would mix a word's SENTIMENT
  membership, which η also carries here, into its GENDER association: a purely negative word has a
  high η[w, neg, g] for both genders; d(w, g) integrates the sentiments out as the model does.)
* `soft_gaps`: the gated gaps, as Tab 5 / Fig 4 compute them: among each gender's k words with the
  highest d(w, g) (`pmi.top_k_weights`: ties share the last slots), the mean of the lexicon's soft
  q(s|w), share_s(g) = Σ_w weight_g(w) q(s|w) (the three shares sum to 1 per gender); neg_gap =
  share_neg(female) − share_neg(male), pos_gap likewise, with a standard error over the k words,
  se(gap) = sqrt(v_f / k + v_m / k), v_g = Σ_w weight_g(w) (q(s|w) − share_s(g))², the spread of the
  soft labels over the list (for one-hot labels the Bernoulli p(1 − p), and the shares those of
  `pmi.top_k_shares`).
* `sent_mix`: pσ(s|female) − pσ(s|male) per sentiment (not identified by the data: see "What the data
  identify" in `model`);
  `lexicon_sent_mix`: Σ_w p̃(w|female) q(s|w) − Σ_w p̃(w|male) q(s|w), its identified plug-in analogue.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from biascheck.methods.politicians.latent.objective import _lse
from biascheck.methods.politicians.latent.result import LvmResult
from biascheck.methods.politicians.pmi import SENTIMENTS, TOP_K, top_k_weights

TIE = 1e-9  # η values closer than this are one value (the grid average of identical fits)


def _word_labels(result: LvmResult) -> np.ndarray:
    return result.words if result.words is not None else np.arange(len(result.eta)).astype(str).astype(object)


def rank_by_eta(
    result: LvmResult, sentiment: str, gender: str, k: int = 10, keep: np.ndarray | None = None
) -> pd.DataFrame:
    """The k words with the largest mean centred η[w, sentiment, gender] (paper Tab 4 / 6).

    keep: optional (W,) bool, the words that may be ranked (e.g. PMI's distinct-names filter).
    Columns word, eta; sorted by eta descending (ties by word order). A tie across the k-th place is
    left out whole, so fewer than k words may come back: the L1 penalty sets most words' η in a column
    to one value (on SmolLM2 ~380 of 436 adjectives for neg and pos), and filling the list from such a
    tie by word order would put the same arbitrary words in both genders' lists.
    """
    values = result.eta[:, result.sentiment(sentiment), result.gender(gender)]
    allowed = np.arange(len(values)) if keep is None else np.flatnonzero(np.asarray(keep, bool))
    order = allowed[np.argsort(-values[allowed], kind="stable")]
    if len(order) > k and values[order[k]] >= values[order[k - 1]] - TIE:
        order = order[values[order] > values[order[k - 1]] + TIE]
    order = order[:k]
    return pd.DataFrame({"word": _word_labels(result)[order], "eta": values[order]})


def eta_table(result: LvmResult, k: int = 10, keep: np.ndarray | None = None) -> pd.DataFrame:
    """Tab 4 / 6: for each gender and sentiment (columns ``female_neg`` ... ``male_pos``), the k words with
    the largest η (`rank_by_eta`), row 0 the largest; a column shorter than k is padded with ''."""
    columns = {}
    for g in result.genders:
        for s in result.sentiments:
            words = list(rank_by_eta(result, s, g, k, keep)["word"])
            columns[f"{g}_{s}"] = words + [""] * (k - len(words))
    return pd.DataFrame(columns)


def gender_deviation(result: LvmResult) -> np.ndarray:
    """d(w, g) = log Σ_s pσ(s|g) pη(w|s,g) − m_w = log pθ(w|g) − log p̃(w): (W, G), from the mean η and
    mean pσ (module docstring; with one sentiment, Eq 9)."""
    with np.errstate(divide="ignore"):
        logits = result.log_prior[:, None, None] + result.eta
        log_eta = logits - _lse(logits, 0)
        mixed = _lse(log_eta + np.log(result.p_sigma)[None], 1)[:, 0, :]
    return mixed - result.log_prior[:, None]


def soft_gaps(
    result: LvmResult,
    q: np.ndarray,
    k: int = TOP_K,
    female: str = "female",
    male: str = "male",
    keep: np.ndarray | None = None,
) -> dict[str, float]:
    """neg_gap / pos_gap as mean soft shares among each gender's k words with the highest d(w, g) (module
    docstring). q: (W, 3) q(s|w) over SENTIMENTS, rows summing to 1; keep: optional (W,) bool, the words
    that may be ranked. Returns neg_gap, pos_gap, se_neg_gap, se_pos_gap, share_<s>_<gender> and
    words_<gender> (how many words the list holds, at most k)."""
    q = np.asarray(q, dtype=float)
    if q.shape != (len(result.eta), len(SENTIMENTS)) or np.isnan(q).any():
        raise ValueError(f"soft_gaps needs q of shape ({len(result.eta)}, 3) without NaN, got {q.shape}")
    score = gender_deviation(result)
    if keep is not None:
        score = np.where(np.asarray(keep, bool)[:, None], score, -np.inf)
    out: dict[str, float] = {}
    spread = {}
    for g in (female, male):
        weights = top_k_weights(score[:, result.gender(g)], k)
        shares = weights @ q
        n_words = min(k, int((weights > 0).sum()))
        spread[g] = weights @ (q - shares) ** 2 / max(n_words, 1)
        out[f"words_{g}"] = float(n_words)
        for i, s in enumerate(SENTIMENTS):
            out[f"share_{s}_{g}"] = float(shares[i])
    for s in ("neg", "pos"):
        i = SENTIMENTS.index(s)
        out[f"{s}_gap"] = out[f"share_{s}_{female}"] - out[f"share_{s}_{male}"]
        out[f"se_{s}_gap"] = float(np.sqrt(spread[female][i] + spread[male][i]))
    return out


def sent_mix(result: LvmResult, female: str = "female", male: str = "male") -> np.ndarray:
    """pσ(s|female) − pσ(s|male) per sentiment: (S,), in `result.sentiments` order (sums to 0)."""
    return result.p_sigma[:, result.gender(female)] - result.p_sigma[:, result.gender(male)]


def lexicon_sent_mix(counts: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Σ_w p̃(w|g) q(s|w) − Σ_w p̃(w|g') q(s|w) per sentiment, for the first two columns of `counts`
    (g = female, g' = male): (S,). The sentiment mix of the words generated for each gender, by the
    lexicon; identified by the data, unlike pσ (`model` module docstring). Words without a lexicon entry (a row
    of NaN in q) are left out and p̃(w|g) renormalised over the rest.

    counts: (W, G ≥ 2) samples per word and gender; q: (W, S).
    """
    counts = np.asarray(counts, dtype=float)
    q = np.asarray(q, dtype=float)
    if counts.ndim != 2 or counts.shape[1] < 2 or q.ndim != 2 or len(q) != len(counts):
        raise ValueError(f"need counts (W, G >= 2) and q (W, S) with the same W, got {counts.shape} and {q.shape}")
    lex = ~np.isnan(q).any(axis=1)
    per_gender = counts[lex, :2]
    if (per_gender.sum(axis=0) == 0).any():
        raise ValueError("a gender has no samples of lexicon words")
    mix = q[lex].T @ (per_gender / per_gender.sum(axis=0))  # (S, 2)
    return mix[:, 0] - mix[:, 1]
