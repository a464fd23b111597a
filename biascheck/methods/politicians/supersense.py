"""politicians supersenses (paper 003, section 5.1.1 and Fig 3, after Hoyle et al. 2019): the semantic
classes of the words the latent model ties most to each gender, per sentiment. Pure numpy.

1. For each sentiment s and gender g, the k (100) words with the largest mean centred eta[w, s, g]
   (`latent.readout.rank_by_eta`, the paper's "100 largest-deviation words"), among the words that pass
   PMI's 5-name filter. A tie across the k-th place is left out whole (the L1 penalty ties most words
   at one η), so a list may be shorter than k: `k_female`, `k_male` say how long.
2. share[c] = the fraction of those k words that have class c (`biascheck.data.supersenses`). A word with
   several classes (one per sense) counts in each; a word with none counts in none, so `coverage` (the
   fraction with any class) says how much of the list the shares describe. The paper does not say how it
   treats either case.
3. Unpaired permutation test per (s, c), the two lists as two samples of "word has class c": gender labels
   shuffled `n_perm` times, two-sided p = (1 + #{|diff*| >= |diff|}) / (1 + n_perm). Significant when
   p < 0.05 / number of classes (Bonferroni: 0.0038 for the 13 adjective classes, the paper's p < 0.004).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

ALPHA = 0.05
N_PERM = 10_000
_CHUNK = 2_000  # permutations per matrix product: bounds the (chunk, n) mask in memory


def class_matrix(words: Sequence[str], classes: Mapping[str, frozenset[str]], class_names: Sequence[str]) -> np.ndarray:
    """Step 2. (len(words), len(class_names)) bool: word i has class j."""
    col = {c: j for j, c in enumerate(class_names)}
    out = np.zeros((len(words), len(class_names)), dtype=bool)
    for i, w in enumerate(words):
        for c in classes.get(w, ()):
            out[i, col[c]] = True
    return out


def permutation_p(first: np.ndarray, second: np.ndarray, n_perm: int = N_PERM, seed: int = 0) -> np.ndarray:
    """Step 3. Two-sided unpaired permutation p of mean(first) - mean(second), per column.

    first: (n1, C), second: (n2, C) indicators (or any numbers). Each permutation draws which n1 of the
    n1 + n2 rows are 'first'; p = (1 + #{|diff*| >= |diff|}) / (1 + n_perm) (never 0)."""
    first, second = np.asarray(first, float), np.asarray(second, float)
    n1, n2 = len(first), len(second)
    if n1 == 0 or n2 == 0:
        return np.full(first.shape[1], np.nan)
    pooled = np.vstack([first, second])
    total = pooled.sum(axis=0)
    observed = np.abs(first.mean(axis=0) - second.mean(axis=0))
    rng = np.random.default_rng(seed)
    hits = np.zeros(pooled.shape[1])
    for start in range(0, n_perm, _CHUNK):
        size = min(_CHUNK, n_perm - start)
        mask = rng.random((size, n1 + n2)).argsort(axis=1) < n1  # a uniformly random n1-subset per row
        in_first = mask.astype(float) @ pooled
        diff = np.abs(in_first / n1 - (total - in_first) / n2)
        hits += (diff >= observed - 1e-12).sum(axis=0)
    return (1 + hits) / (1 + n_perm)


def supersense_table(
    top: Mapping[tuple[str, str], Sequence[str]],
    classes: Mapping[str, frozenset[str]],
    class_names: Sequence[str],
    n_perm: int = N_PERM,
    seed: int = 0,
) -> pd.DataFrame:
    """Steps 2-3. top: (sentiment, gender) -> that list of words, for genders 'female' and 'male'.

    One row per (sentiment, supersense): share_female, share_male, diff (female - male), p, significant
    (p < 0.05 / len(class_names)), coverage_female, coverage_male, k_female, k_male."""
    rows = []
    alpha = ALPHA / len(class_names)
    for sentiment in dict.fromkeys(s for s, _ in top):
        women = class_matrix(top[sentiment, "female"], classes, class_names)
        men = class_matrix(top[sentiment, "male"], classes, class_names)
        p = permutation_p(women, men, n_perm, seed)
        share_f = women.mean(axis=0) if len(women) else np.full(len(class_names), np.nan)
        share_m = men.mean(axis=0) if len(men) else np.full(len(class_names), np.nan)
        for j, c in enumerate(class_names):
            rows.append(
                {
                    "sentiment": sentiment,
                    "supersense": c,
                    "share_female": float(share_f[j]),
                    "share_male": float(share_m[j]),
                    "diff": float(share_f[j] - share_m[j]),
                    "p": float(p[j]),
                    "significant": bool(p[j] < alpha),
                    "coverage_female": float(women.any(axis=1).mean()) if len(women) else np.nan,
                    "coverage_male": float(men.any(axis=1).mean()) if len(men) else np.nan,
                    "k_female": len(women),
                    "k_male": len(men),
                }
            )
    return pd.DataFrame(rows)
