"""PMI between a politician's gender and the words a model puts next to the name, and the sentiment gaps
among each gender's most associated words (paper 003, Stańczak et al. 2023, section 4, Eq 1-2; Fig 4, 6).
Pure numpy/scipy: no model calls.

The data: one sample per (name, lemma) pair, the model's top-k predicted words next to a politician's
name, lemmatised; each name has one gender label (any number of labels: 'female', 'male', 'non-binary',
or whatever a user file brings).

1. Counts (`sample_matrix`): a sparse name × word matrix C[n, w] = number of samples (n, w); the
   word × gender table n(w, g) = sum of C over the names of gender g (`gender_word_counts`); and the
   number of distinct names a word was seen with (`names_per_word`).
2. The empirical distribution (Eq 2) with additive smoothing: ½ is added to EVERY cell of the word ×
   gender table, over the whole vocabulary of the sample table (every word seen at least once, before
   any filter), ñ(w, g) = n(w, g) + ½. All probabilities come from that one smoothed joint:
       p̃(w | g) = ñ(w, g) / Σ_w' ñ(w', g) = (n(w, g) + ½) / (N_g + ½·|W|)
       p̃(w)     = Σ_g ñ(w, g) / Σ_w',g ñ  = (n(w) + ½·|G|) / (N + ½·|W|·|G|)
   so a word never seen with a gender has a finite PMI, and PMI(w, g) = log p̃(w, g) / (p̃(w) p̃(g)) holds
   exactly for the smoothed joint (both forms of Eq 1 agree).
3. PMI(w, g) = log p̃(w | g) − log p̃(w) (Eq 1, plug-in estimator) (`pmi`).
4. Reliability filter: only words seen with at least `min_names` (5) distinct names (of any gender) are
   reported or ranked. The filter selects words; it does not renormalise step 2 (PMI is a property of the
   whole distribution, the filter of what we trust enough to look at).
5. Sentiment of the top-k words (`top_k_shares`): among each gender's k (100) highest-PMI words that
   pass the filter and have a sentiment label (argmax of the lexicon's q(s|w), `sentiment_labels`, or a
   label passed in), the share labelled neg / neu / pos. Words without a label are not ranked (the
   paper's lexicon words only). Ties at the k-th place share the remaining slots equally (m words tied
   for r slots count r/m each), so the result does not depend on the order of the words.
6. Gaps (`pmi_gaps`): neg_gap = share_neg(female top-k) − share_neg(male top-k), pos_gap likewise
   (paper Fig 4, 6; positive neg_gap = the words most associated with women are more often negative).
7. Uncertainty, with names as the sampling unit (percentile bootstrap, `bootstrap_gaps`; unpaired
   permutation test, `permutation_gaps`): in `pmi_resampling`.
8. `pmi_table`: per lemma, distinct names, counts per gender, PMI per gender and PMI_female − PMI_male.
The choices of steps 2, 4, 5 and 6 (smoothing, the filter, k, the two genders compared) are one
`PmiOptions`, which every function of steps 2-8 takes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse

SENTIMENTS = ("neg", "neu", "pos")  # the columns of q(s|w), in this order
SMOOTHING = 0.5  # added to every (word, gender) count
MIN_NAMES = 5  # a word must be seen with this many distinct names
TOP_K = 100  # words per gender in the gap statistics (paper: the 100 largest-deviation words)
_TIE = 1e-9  # relative tolerance for "tied at the k-th place"


@dataclass(frozen=True, kw_only=True)
class PmiOptions:
    """The choices that turn samples into PMI and gaps, one value each for a whole analysis (the point, its
    bootstrap and its permutation test must agree on them): k words per gender (step 5), a word's
    min_names distinct names (step 4), the smoothing added to every cell (step 2), and the female and male
    labels compared (step 6: female − male)."""

    k: int = TOP_K
    min_names: int = MIN_NAMES
    smoothing: float = SMOOTHING
    female: str = "female"
    male: str = "male"


DEFAULTS = PmiOptions()


@dataclass(frozen=True)
class SampleMatrix:
    """Step 1. The (name, lemma) samples as a sparse count matrix.

    names: (n_names,) str, sorted; name_gender: (n_names,) int, index into `genders`;
    genders: the gender labels, sorted; words: (n_words,) str, sorted;
    counts: (n_names, n_words) CSR int64, number of samples of each (name, word).
    """

    names: np.ndarray
    name_gender: np.ndarray
    genders: tuple[str, ...]
    words: np.ndarray
    counts: sparse.csr_matrix

    def gender_index(self, gender: str) -> int:
        if gender not in self.genders:
            raise ValueError(f"gender {gender!r} has no names in the samples; genders present: {list(self.genders)}")
        return self.genders.index(gender)


def sample_matrix(
    samples: pd.DataFrame, name: str = "name", gender: str = "gender", word: str = "lemma"
) -> SampleMatrix:
    """Step 1. Build the name × word count matrix from a table with one row per (name, lemma) sample.

    A repeated (name, lemma) row counts again (two templates or models predicting the same word).
    A name with two different gender labels is an error.
    """
    missing = [c for c in (name, gender, word) if c not in samples.columns]
    if missing:
        raise ValueError(f"the sample table has no column(s) {missing}; columns: {list(samples.columns)}")
    frame = samples[[name, gender, word]]
    every = np.arange(len(frame))  # sample i is row i and column i
    names, genders, words = (frame[c].to_numpy(dtype=object) for c in (name, gender, word))
    return coded_matrix(names, genders, every, words, every)


def coded_matrix(
    names: np.ndarray, genders: np.ndarray, rows: np.ndarray, words: np.ndarray, cols: np.ndarray
) -> SampleMatrix:
    """Step 1 from codes: the count matrix of the samples (names[rows[i]], genders[rows[i]], words[cols[i]]),
    values read as strings: the names, genders and words seen sorted once each and every sample two lookups
    (the probe's scoring has each sample as a name's row and a form's column: 0.9 s of a tiny BERT's full tier
    as tables of strings); a name with two gender labels is an error. names, genders: (n,) per row; words: (m,)
    per column. `sample_matrix` calls it with a table's own rows."""
    rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
    names, genders, words = (np.asarray(a, dtype=object) for a in (names, genders, words))
    used_rows = np.flatnonzero(np.bincount(rows, minlength=len(names)))
    used_cols = np.flatnonzero(np.bincount(cols, minlength=len(words)))
    name_labels, name_code = sorted_codes(names[used_rows].astype(str))
    gender_labels, gender_code = sorted_codes(genders[used_rows].astype(str))
    word_labels, word_code = sorted_codes(words[used_cols].astype(str))
    pairs = np.unique(name_code * len(gender_labels) + gender_code)  # the (name, gender) pairs seen
    twice = np.flatnonzero(np.bincount(pairs // max(len(gender_labels), 1), minlength=len(name_labels)) > 1)
    if twice.size:
        raise ValueError(f"names with more than one gender label: {name_labels[twice[:5]].tolist()}")
    name_gender = np.zeros(len(name_labels), dtype=int)
    name_gender[name_code] = gender_code
    name_at = np.zeros(len(names), dtype=np.int64)
    name_at[used_rows] = name_code
    word_at = np.zeros(len(words), dtype=np.int64)
    word_at[used_cols] = word_code
    counts = sparse.csr_matrix(
        (np.ones(rows.size, dtype=np.int64), (name_at[rows], word_at[cols])), shape=(len(name_labels), len(word_labels))
    )
    counts.sum_duplicates()
    return SampleMatrix(name_labels, name_gender, tuple(str(g) for g in gender_labels), word_labels, counts)


def with_genders(matrix: SampleMatrix, genders: Sequence[str]) -> SampleMatrix:
    """Step 1. The samples of the names of `genders` only: `sample_matrix` of the table's rows with those
    labels (its names, the words they were seen with and the genders present, each sorted)."""
    kept = [i for i, g in enumerate(matrix.genders) if g in genders]
    rows = np.flatnonzero(np.isin(matrix.name_gender, kept))
    counts = matrix.counts[rows]
    used = np.flatnonzero(np.diff(counts.tocsc().indptr) > 0)
    present, name_gender = np.unique(matrix.name_gender[rows], return_inverse=True)
    return SampleMatrix(
        matrix.names[rows],
        name_gender.astype(int),
        tuple(matrix.genders[i] for i in present),
        matrix.words[used],
        sparse.csr_matrix(counts[:, used]),
    )


def sorted_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """np.unique(values, return_inverse=True) for an array of strings: hashed (pandas.factorize), then
    only the distinct values sorted, where np.unique sorts every entry by Python comparisons (17.8 s of
    the politicians full tier's 72 calls on up to a million samples)."""
    codes, uniques = pd.factorize(values, sort=True)
    return np.asarray(uniques, dtype=object), codes.astype(np.int64)


def _as_matrix(samples: SampleMatrix | pd.DataFrame) -> SampleMatrix:
    return samples if isinstance(samples, SampleMatrix) else sample_matrix(samples)


def gender_word_counts(matrix: SampleMatrix) -> np.ndarray:
    """Step 1. n(w, g): (n_words, n_genders) float, columns in `matrix.genders` order."""
    onehot = np.eye(len(matrix.genders))[matrix.name_gender]  # (n_names, n_genders)
    return np.asarray(matrix.counts.T @ onehot, dtype=float)


def names_per_word(matrix: SampleMatrix) -> np.ndarray:
    """Step 1. Number of distinct names each word was seen with: (n_words,) int."""
    return np.asarray((matrix.counts > 0).sum(axis=0), dtype=int).ravel()


def _pmi(counts: np.ndarray, smoothing: float) -> np.ndarray:
    """Steps 2-3 on (..., n_genders, n_words) counts → PMI of the same shape."""
    smoothed = np.asarray(counts, dtype=float) + smoothing
    per_gender = smoothed.sum(axis=-1, keepdims=True)  # (..., G, 1)
    per_word = smoothed.sum(axis=-2, keepdims=True)  # (..., 1, W)
    total = per_word.sum(axis=-1, keepdims=True)  # (..., 1, 1)
    with np.errstate(divide="ignore"):
        return np.log(smoothed) - np.log(per_gender) - np.log(per_word) + np.log(total)


def pmi(counts: np.ndarray, smoothing: float = SMOOTHING) -> np.ndarray:
    """Steps 2-3. PMI(w, g) = log p̃(w|g) − log p̃(w) from an (n_words, n_genders) count table.

    `smoothing` is added to every cell (module docstring, step 2). Returns (n_words, n_genders).
    """
    counts = np.asarray(counts, dtype=float)
    if counts.ndim != 2 or (counts < 0).any():
        raise ValueError(f"counts must be a non-negative (n_words, n_genders) table, got shape {counts.shape}")
    if smoothing <= 0 and (counts.sum(axis=1) == 0).any():
        raise ValueError("a word with no samples has no PMI without smoothing")
    return _pmi(counts.T, smoothing).T


def sentiment_labels(q: np.ndarray) -> np.ndarray:
    """The lexicon label of each word: argmax over (neg, neu, pos) of q(s|w), (n_words, 3) → (n_words,) str.

    A row of NaN (word not in the lexicon) gives ''. Exact ties go to the first column (neg before neu
    before pos).
    """
    q = np.asarray(q, dtype=float)
    if q.ndim != 2 or q.shape[1] != len(SENTIMENTS):
        raise ValueError(f"q must be (n_words, {len(SENTIMENTS)}) over {SENTIMENTS}, got shape {q.shape}")
    known = ~np.isnan(q).any(axis=1)
    out = np.full(len(q), "", dtype=object)
    out[known] = np.asarray(SENTIMENTS, dtype=object)[np.argmax(q[known], axis=1)]
    return out


def label_codes(words: Sequence[str] | np.ndarray, labels: Mapping[str, str] | pd.Series) -> np.ndarray:
    """Index into SENTIMENTS of each word's label (lemma → 'neg'/'neu'/'pos'); −1 for an unlabelled word."""
    series = pd.Series(labels, dtype=object).reindex(pd.Index(np.asarray(words, dtype=object)))
    code = {s: i for i, s in enumerate(SENTIMENTS)}
    return np.array([code.get(v, -1) if isinstance(v, str) else -1 for v in series.to_numpy()], dtype=int)


def top_k_weights(scores: np.ndarray, k: int = TOP_K) -> np.ndarray:
    """Each word's weight in the top k: (n_words,) or (batch, n_words) scores, NaN or −inf not eligible.
    1 / k_eff for a word above the k-th eligible score, and words tied with the k-th share its remaining
    slots (module docstring, step 5); k_eff = min(k, eligible words); a row with none eligible is all 0.
    Each row sums to 1 (or 0)."""
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    scores = np.asarray(scores, dtype=float)
    single = scores.ndim == 1
    scores = np.atleast_2d(scores).copy()
    scores[np.isnan(scores)] = -np.inf
    eligible = np.isfinite(scores)
    n_eligible = eligible.sum(axis=1)
    k_eff = np.minimum(k, n_eligible)
    kth = min(k, scores.shape[1]) - 1
    threshold = -np.partition(-scores, kth, axis=1)[:, kth]
    lowest = np.where(eligible, scores, np.inf).min(axis=1)  # the threshold when fewer than k are eligible
    threshold = np.where(n_eligible >= k, threshold, lowest)[:, None]
    tol = _TIE * np.maximum(1.0, np.abs(np.where(np.isfinite(threshold), threshold, 0.0)))
    tied = eligible & (np.abs(scores - threshold) <= tol)
    above = eligible & (scores > threshold + tol)
    n_above, n_tied = above.sum(axis=1), tied.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        slots = np.where(n_tied > 0, (k_eff - n_above) / np.maximum(n_tied, 1), 0.0)
        weights = (above + slots[:, None] * tied) / np.maximum(k_eff, 1)[:, None]
    return weights[0] if single else weights


def top_k_shares(scores: np.ndarray, codes: np.ndarray, k: int = TOP_K) -> np.ndarray:
    """Step 5. Share of each sentiment among the k highest-scoring eligible words.

    scores: (n_words,) or (batch, n_words); NaN or −inf = not eligible (filtered out).
    codes: (n_words,) index into SENTIMENTS; −1 = no label, not eligible.
    Returns (3,) or (batch, 3): shares over (neg, neu, pos), summing to 1; NaN where nothing is
    eligible. With fewer than k eligible words, all of them are used (`top_k_weights`).
    """
    codes = np.asarray(codes, dtype=int)
    weights = np.atleast_2d(top_k_weights(np.where(codes < 0, -np.inf, scores), k))
    onehot = np.zeros((len(codes), len(SENTIMENTS)))
    onehot[codes >= 0, codes[codes >= 0]] = 1.0
    shares = weights @ onehot
    shares[weights.sum(axis=1) == 0] = np.nan
    return shares[0] if np.ndim(scores) == 1 else shares


@dataclass(frozen=True)
class _Setup:
    """What every resample shares: the labels, the two compared genders' columns, the options."""

    codes: np.ndarray
    female: int
    male: int
    options: PmiOptions


def _shares_from_counts(counts: np.ndarray, n_names: np.ndarray, setup: _Setup) -> np.ndarray:
    """Steps 2-5 for a batch: counts (batch, n_genders, n_words), n_names (batch, n_words) →
    shares (batch, 2, 3): [female, male] × (neg, neu, pos)."""
    values = _pmi(counts, setup.options.smoothing)
    keep = n_names >= setup.options.min_names
    out = np.empty((len(counts), 2, len(SENTIMENTS)))
    for j, g in enumerate((setup.female, setup.male)):
        out[:, j] = top_k_shares(np.where(keep, values[:, g], -np.inf), setup.codes, setup.options.k)
    return out


def _gaps(shares: np.ndarray) -> dict[str, np.ndarray]:
    """Step 6 from (batch, 2, 3) shares."""
    neg, pos = SENTIMENTS.index("neg"), SENTIMENTS.index("pos")
    return {
        "neg_gap": shares[:, 0, neg] - shares[:, 1, neg],
        "pos_gap": shares[:, 0, pos] - shares[:, 1, pos],
    }


def _setup(matrix: SampleMatrix, labels: Mapping[str, str] | pd.Series, options: PmiOptions) -> _Setup:
    return _Setup(
        label_codes(matrix.words, labels),
        matrix.gender_index(options.female),
        matrix.gender_index(options.male),
        options,
    )


def pmi_gaps(
    samples: SampleMatrix | pd.DataFrame,
    labels: Mapping[str, str] | pd.Series,
    options: PmiOptions = DEFAULTS,
) -> dict[str, float]:
    """Steps 1-6. Point estimates: neg_gap, pos_gap and the shares behind them.

    labels: lemma → 'neg' / 'neu' / 'pos' (e.g. ``dict(zip(words, sentiment_labels(q)))``); lemmas
    missing from it are not ranked. Returns {'neg_gap', 'pos_gap', 'share_neg_female', 'share_neu_female',
    'share_pos_female', 'share_neg_male', ...} (the shares named by the options' `female` / `male` labels).
    """
    matrix = _as_matrix(samples)
    setup = _setup(matrix, labels, options)
    counts = gender_word_counts(matrix).T[None]
    shares = _shares_from_counts(counts, names_per_word(matrix)[None], setup)
    out = {name: float(value[0]) for name, value in _gaps(shares).items()}
    for j, gender in enumerate((options.female, options.male)):
        for i, s in enumerate(SENTIMENTS):
            out[f"share_{s}_{gender}"] = float(shares[0, j, i])
    return out


def pmi_table(samples: SampleMatrix | pd.DataFrame, options: PmiOptions = DEFAULTS) -> pd.DataFrame:
    """Step 8. One row per lemma seen with ≥ `options.min_names` distinct names, sorted by lemma (k is not
    used: every such lemma has a row).

    Columns: lemma, names (distinct names), n_<g> (samples) and pmi_<g> for every gender label g in
    the data, and pmi_diff = pmi_<female> − pmi_<male> (NaN when either gender is absent).
    PMI is computed over the whole vocabulary before the filter (step 2).
    """
    matrix = _as_matrix(samples)
    counts = gender_word_counts(matrix)
    values = pmi(counts, options.smoothing)
    female, male, min_names = options.female, options.male, options.min_names
    table = pd.DataFrame({"lemma": matrix.words, "names": names_per_word(matrix)})
    for j, g in enumerate(matrix.genders):
        table[f"n_{g}"] = counts[:, j].astype(int)
    for j, g in enumerate(matrix.genders):
        table[f"pmi_{g}"] = values[:, j]
    if female in matrix.genders and male in matrix.genders:
        table["pmi_diff"] = table[f"pmi_{female}"] - table[f"pmi_{male}"]
    else:
        table["pmi_diff"] = np.nan
    return table[table["names"] >= min_names].reset_index(drop=True)
