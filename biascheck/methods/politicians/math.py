"""politicians: from a model's distribution next to each name to (name, lemma) samples (paper 003,
section 3.2). Numpy, and torch's `topk` for each name's most probable forms; `pmi` and the latent model (`latent`)
take the samples from here.

1. Candidates (`candidate_forms`): the surface forms a treebank of the language tags, whose lemma is an
   adjective (a verb) of that treebank: form -> lemma. A form counts for a part of speech when its
   treebank lemma has it, or when the form itself is such a lemma (EWT lemmatises "left" to "leave";
   "left" is also an adjective).
2. Both casings (`casing_variants`): each form is scored lower-cased and capitalised ("Former" opens a
   sentence before a name); the probabilities of the variants of one form are summed (`folded`).
   The paper predicts one token (a model's top-k over its vocabulary), so only forms that are a single
   token of the model's vocabulary in that place are candidates: the others are never predicted. Two
   casings that are one token (an uncased vocabulary) count once (`distinct_tokens`).
3. Top k per name (`top_lemmas`): for every name, the k most probable forms of the part of speech (20 in
   English, 100 adjectives elsewhere; section 5), lemmatised; a lemma reached by two of the k forms is
   one sample, with the log-probability of its most probable form. Each (name, lemma) is one sample of
   Eq 2.
4. `spread_subset`: a quick look at `limit` names per gender, evenly spaced over the sorted names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd


def candidate_forms(lemmatizer: Mapping[str, str], lemmas: frozenset[str] | set[str]) -> dict[str, str]:
    """Step 1. form -> lemma for every lower-case alphabetic form whose lemma (or which itself) is in
    `lemmas`; forms of more than one word or with digits/punctuation are left out (one token each)."""
    out: dict[str, str] = {}
    for form, lemma in lemmatizer.items():
        f = form.lower()
        if not f.isalpha():
            continue
        if lemma in lemmas:
            out.setdefault(f, lemma)
        elif f in lemmas:
            out.setdefault(f, f)
    for lemma in lemmas:
        if lemma.isalpha():
            out.setdefault(lemma.lower(), lemma)
    return dict(sorted(out.items()))


def casing_variants(forms: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """Step 2. The strings to score (each form lower-cased and capitalised, once if equal) and, for each,
    the index of its form in `forms`."""
    strings: list[str] = []
    owner: list[int] = []
    for i, f in enumerate(forms):
        for variant in dict.fromkeys((f, f[:1].upper() + f[1:])):
            strings.append(variant)
            owner.append(i)
    return strings, np.asarray(owner, dtype=np.int64)


def casing_layout(owner: np.ndarray, n_forms: int) -> np.ndarray:
    """Step 2, laid out once for `folded`: (places, n_forms), the index of each form's first, second, ... string
    (in string order; -1 where it has no more), from each string's form `owner`."""
    owner = np.asarray(owner, dtype=np.int64)
    by_form = np.argsort(owner, kind="stable")
    place = np.empty(owner.size, dtype=np.int64)
    place[by_form] = np.arange(owner.size) - np.searchsorted(owner[by_form], owner[by_form])
    layout = np.full((int(place.max(initial=-1)) + 1, n_forms), -1, dtype=np.int64)
    layout[place, owner] = np.arange(owner.size)
    return layout


def folded(probs: np.ndarray, layout: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """Step 2. (n_names, n_strings) probabilities -> (n_names, len(columns)): the casings of each form of
    `columns` summed, `layout` = `casing_layout(owner, n_forms)`: each form's first casing, then its second
    added, and so on (the additions of `np.add.at`, one string after another, bit for bit). One gather a
    place, not a scatter over every form and then a gather of the columns (the probe reads adjectives and
    verbs apart)."""
    probs = np.asarray(probs, dtype=np.float64)
    layout = layout[:, np.asarray(columns, dtype=np.int64)]
    if not layout.size:
        return np.zeros((probs.shape[0], layout.shape[1]))
    out = np.take(probs, np.maximum(layout[0], 0), axis=1)
    out[:, layout[0] < 0] = 0.0  # a form with no string (not one of the probe's)
    for strings in layout[1:]:
        has = np.flatnonzero(strings >= 0)
        if has.size:
            out[:, has] += np.take(probs, strings[has], axis=1)
    return out


def distinct_tokens(n_pieces: np.ndarray, token_ids: np.ndarray | None, owner: np.ndarray) -> np.ndarray:
    """Step 2. Indices of the strings to score: the one-token ones (`n_pieces` 1), each (form, token) once.
    An uncased vocabulary reads "former" and "Former" as one token: summing both would count it twice.
    token_ids None (a model that does not say): every one-token string is kept."""
    one = np.flatnonzero(n_pieces == 1)
    if token_ids is None:
        return one
    seen: set[tuple[int, int]] = set()
    keep = []
    for i in one:
        key = (int(owner[i]), int(token_ids[i]))
        if key not in seen:
            seen.add(key)
            keep.append(i)
    return np.asarray(keep, dtype=np.int64)


def lemma_codes(lemmas: Sequence[str]) -> np.ndarray:
    """Each form's lemma as a code, 0 for the first lemma seen, 1 for the next (`pd.factorize`), for `top_lemmas`:
    made once for a language's forms, not once per block of names."""
    return pd.factorize(np.asarray(lemmas, dtype=object))[0].astype(np.int64)


def top_lemmas(
    probs: np.ndarray, lemmas: Sequence[str], k: int, codes: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Step 3. For each row (a name) of (n_names, n_forms) probabilities, the lemmas of its k most
    probable forms (forms with probability 0, i.e. not a single token, are never taken), most probable
    first, each lemma once, with the log-probability of its most probable form. Ties are broken by form
    order (the forms are sorted), so the result is deterministic. As three arrays, rows ascending and each
    row's most probable first: the row, the form (column) and its log-probability of every (name, lemma).

    The first k of a full stable sort of each row, computed for the whole block at once (`first_k`), and a
    lemma reached twice in a row keeps its first (most probable) form. `codes`: `lemma_codes(lemmas)`, where
    the caller has them."""
    probs = np.asarray(probs, dtype=np.float64)
    n, m = probs.shape
    k = min(k, m)
    if n == 0 or k <= 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
    rows, cols, values = first_k(probs, k)
    codes = lemma_codes(lemmas) if codes is None else codes
    _, first = np.unique(rows * (int(codes.max(initial=-1)) + 1) + codes[cols], return_index=True)
    first.sort()  # back to (row, value desc, form) order: each (row, lemma) at its most probable form
    return rows[first].astype(np.int64), cols[first].astype(np.int64), np.log(values[first])


def first_k(probs: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's first k positive entries of a full stable sort by value, descending, as (rows, columns,
    values), rows ascending and each row's in that order; zeros and NaN are never taken (0 < k <= n_forms).

    Each row's k+1 largest entries come from torch's `topk` (one pass over the block, on every thread); a row
    whose k largest are positive and whose (k+1)-th is smaller than its k-th takes those k, ties among them
    by form. The other rows (a tie at the k-th place, a zero or a NaN among the k+1) go through `_first_k_sorted`.
    256 names x 3,355 forms: 2.9 ms a block against 18.7 ms by the partition alone."""
    n, m = probs.shape
    if k >= m:
        return _first_k_sorted(probs, k)
    import torch  # here: the module is numpy otherwise

    top = torch.topk(torch.from_numpy(probs), k + 1, dim=1, sorted=True)  # NaN sorts above every number
    values, cols = top.values.numpy(), top.indices.numpy()
    clear = ~np.isnan(values).any(axis=1) & (values[:, k - 1] > 0) & (values[:, k] < values[:, k - 1])
    values, cols = values[clear, :k], cols[clear, :k]
    order = np.lexsort((cols, -values), axis=1)  # ties among the k by form, as a stable sort leaves them
    rows = np.repeat(np.flatnonzero(clear), k)
    cols = np.take_along_axis(cols, order, axis=1).ravel()
    values = np.take_along_axis(values, order, axis=1).ravel()
    if clear.all():
        return rows, cols, values
    others = np.flatnonzero(~clear)
    more_rows, more_cols, more_values = _first_k_sorted(probs[others], k)
    rows = np.concatenate([rows, others[more_rows]])
    merged = np.argsort(rows, kind="stable")  # each row's entries keep their order
    return rows[merged], np.concatenate([cols, more_cols])[merged], np.concatenate([values, more_values])[merged]


def _first_k_sorted(probs: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`first_k` by a partial partition: each row's k-th largest value, every positive value at or above it a
    candidate (ties with the k-th included), the candidates sorted by (row, value desc, form) and cut at k
    per row."""
    m = probs.shape[1]
    taken = probs > 0
    if k < m:
        key = np.where(taken, probs, -np.inf)
        kth = np.partition(key, m - k, axis=1)[:, m - k : m - k + 1]  # each row's k-th largest
        taken &= key >= kth
    rows, cols = np.nonzero(taken)
    values = probs[rows, cols]
    order = np.lexsort((cols, -values, rows))
    rows, cols, values = rows[order], cols[order], values[order]
    rank = np.arange(rows.size) - np.searchsorted(rows, rows)  # place within its row
    first = rank < k
    return rows[first], cols[first], values[first]


SAMPLE_COLUMNS = ["name", "gender", "lemma", "rank", "logprob"]


def samples_frame(names: pd.DataFrame, rows: np.ndarray, lemmas: np.ndarray, logs: np.ndarray) -> pd.DataFrame:
    """Step 3. One row per (name, lemma): columns name, gender, lemma, rank (0 = most probable), logprob
    (of the lemma's most probable form, casings summed), from `top_lemmas`' arrays (rows ascending, each
    row's most probable first; the rows index `names`' rows, `lemmas` the lemma of each entry)."""
    if not len(rows):
        return pd.DataFrame([], columns=SAMPLE_COLUMNS)
    rows = np.asarray(rows, dtype=np.int64)
    return pd.DataFrame(
        {
            "name": names["name"].to_numpy(dtype=object)[rows],
            "gender": names["gender"].to_numpy(dtype=object)[rows],
            "lemma": np.asarray(lemmas, dtype=object),
            "rank": np.arange(rows.size) - np.searchsorted(rows, rows),
            "logprob": np.asarray(logs, dtype=np.float64),
        }
    )


def spread_subset(names: pd.DataFrame, limit: int | None) -> pd.DataFrame:
    """Step 4. At most `limit` names per gender, evenly spaced over each gender's names sorted by name
    (None: all)."""
    if limit is None:
        return names.reset_index(drop=True)
    parts = []
    for _, group in names.sort_values("name").groupby("gender", sort=True):
        if len(group) > limit:
            group = group.iloc[np.linspace(0, len(group) - 1, limit).round().astype(int)]
        parts.append(group)
    return pd.concat(parts).sort_values(["gender", "name"]).reset_index(drop=True)
