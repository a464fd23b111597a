"""The guard's arithmetic, pure numpy/scipy: a model's definitional agreement and its verdict.

1. Lean: in every template, lean = log P(female pronoun) − log P(male pronoun) in the slot.
2. Gap per pair: the mean over frames of lean(female noun) − lean(male noun). A model that reads the
   noun moves towards the female pronoun after the female noun, so the gap is positive; a model's own
   preference for one pronoun (its bias, or a random model's favourite token) cancels in the difference.
3. Agreement: the share of pairs with a positive gap (a tie is not agreement: a model that cannot tell
   the nouns apart gives exactly 0), with the exact (Clopper-Pearson) 95 % interval.
4. Clustered sign test: chance is 1/2 per cluster of pairs, not per pair. Pairs whose nouns differ by a
   shared surface change (mother/grandmother/stepmother; actress/princess/waitress), or whose nouns differ
   in length the same way in the model's tokens, form one cluster (`clusters`), since a model whose lean
   follows that change (or the slot's position) and not the meaning moves them together; the test swaps
   each cluster's labels as one (`clustered_sign_test`). Every pair alone: the sign test.
5. Effect, scale free: the mean gap over the model's own within-gender lean spread (`effect_size`), so
   that a gap counts only if it is large beside how much the model's lean moves between nouns of one
   gender (a random model's logits, and so its leans and gaps in nats, grow with its width).
6. Verdict: the pronouns are distinct known tokens, agreement ≥ `LINE`, p ≤ `ALPHA`, effect ≥ `EFFECT_LINE`.

The pair, not the template, is the unit: a random model's lean depends on the noun's token the same
way in every frame, so its frames are not independent trials (measured: a random-weight Llama agrees
on 0.67 of 64 templates, which is 16 pairs' worth of evidence, not 64). And the cluster, not the pair,
where pairs share a token that differs: with la/le before 19 of 20 French nouns a random Llama read all
20 pairs one way (issue 54), which is why no pair's nouns carry a gendered article any more.
The measured false-pass rate: docs/competence/false_pass.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

LINE = 0.9  # share of definitional pairs a model must get right (18 of 20; every model that passes reads 19-20)
ALPHA = 0.002  # the clustered sign test against chance must reject at this level (17 of 20 lone pairs: 0.0013)
EFFECT_LINE = 0.5  # and the mean gap must be at least half the model's own within-gender lean spread


@dataclass(frozen=True)
class Competence:
    """What the guard found for one model in one language."""

    language: str
    agreement: float  # share of pairs with a positive gap (step 3); nan when not read
    n_pairs: int
    k_agree: int
    mean_gap: float  # nats, mean of the pair gaps (step 2)
    p_value: float  # one-sided clustered sign test against 1/2 (step 4)
    ci: tuple[float, float]
    estimator: str
    token_problems: tuple[str, ...] = ()
    items: list[dict[str, Any]] = field(default_factory=list)  # per pair: female, male, gap
    effect: float = float("nan")  # mean gap / within-gender lean spread (step 5)
    n_clusters: int = 0

    @property
    def passed(self) -> bool:
        return (
            not self.token_problems
            and self.agreement >= LINE
            and self.p_value <= ALPHA
            and bool(self.effect >= EFFECT_LINE)
        )

    def summary(self) -> str:
        """One line: what the model got."""
        return (
            f"{self.k_agree} of {self.n_pairs} definitional pairs ({self.agreement:.2f}, 95% CI "
            f"{self.ci[0]:.2f}-{self.ci[1]:.2f}; clustered sign test over {self.n_clusters} clusters p = "
            f"{self.p_value:.2g}), mean gap {self.mean_gap:.2f} nats = {self.effect:.2f} within-gender spreads"
        )


def noun_leans(lean: np.ndarray, n_frames: int, n_pairs: int) -> np.ndarray:
    """`lean`: (n_frames * n_pairs * 2,) in `Items.templates` order (frame, pair, female/male).
    Returns (n_pairs, 2): each noun's lean averaged over the frames (female, male)."""
    return np.asarray(lean, dtype=float).reshape(n_frames, n_pairs, 2).mean(axis=0)


def pair_gaps(lean: np.ndarray, n_frames: int, n_pairs: int) -> np.ndarray:
    """Step 2. Returns (n_pairs,) mean over frames of lean(female noun) − lean(male noun)."""
    cube = np.asarray(lean, dtype=float).reshape(n_frames, n_pairs, 2)
    return (cube[:, :, 0] - cube[:, :, 1]).mean(axis=0)


def sign_test(k: int, n: int) -> tuple[float, tuple[float, float]]:
    """P(X ≥ k) for X ~ Binomial(n, 1/2), and the exact 95 % interval of k / n."""
    from scipy.stats import binomtest

    p_value = binomtest(k, n, 0.5, alternative="greater").pvalue
    ci = binomtest(k, n, 0.5).proportion_ci(confidence_level=0.95, method="exact")  # two-sided interval
    return float(p_value), (float(ci.low), float(ci.high))


def clustered_sign_test(gaps: np.ndarray | Sequence[float], clusters: Sequence[int]) -> float:
    """Step 4: P(K ≥ k) where k is the number of positive gaps and K the same count when the female and
    male labels of each cluster are swapped together or not, each with probability 1/2 (a cluster's
    gaps change sign together: its positive count becomes its negative count). Pairs that share a cue
    are one cluster, so they count as one trial, not several; with every pair its own cluster this is
    the sign test (a tie, a gap of exactly 0, counts for neither side). Exact, by convolution."""
    values = np.asarray(gaps, dtype=float)
    labels = np.asarray(clusters)
    if values.shape != labels.shape:
        raise ValueError(f"{values.size} gaps and {labels.size} cluster labels")
    k = int((values > 0).sum())
    dist = np.zeros(values.size + 1)
    dist[0] = 1.0
    for c in np.unique(labels):
        pos, neg = int((values[labels == c] > 0).sum()), int((values[labels == c] < 0).sum())
        dist = 0.5 * (np.roll(dist, pos) + np.roll(dist, neg))  # counts never pass n: nothing wraps
    return float(min(1.0, dist[k:].sum()))


def clusters(cues: Sequence[str], lengths: Sequence[tuple[int, int]] | None = None) -> list[int]:
    """Per pair, its cluster (numbered in order of first appearance): pairs are one cluster when they
    share a cue (`Items.cues`, "" for none) or, given each noun's length in the model's tokens
    (`lengths`: (female, male) per pair), when their nouns differ in length the same way, as (2, 1) and
    (2, 1) or (1, 2): a random model's lean follows the slot's position (measured: a random BERT's gaps for
    such Spanish pairs correlate at 1.0 over seeds, and at -1.0 for the reversed lengths). Linked pairs
    are joined through any chain of links."""
    n = len(cues)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    keys: dict[object, int] = {}
    for i in range(n):
        found: list[tuple[str, object]] = [("cue", cues[i])] if cues[i] else []
        if lengths is not None and lengths[i][0] != lengths[i][1]:
            found.append(("lengths", frozenset(lengths[i])))
        for key in found:
            parent[root(i)] = root(keys.setdefault(key, i))
    ids: dict[int, int] = {}
    return [ids.setdefault(root(i), len(ids)) for i in range(n)]


def effect_size(leans: np.ndarray) -> float:
    """Step 5, scale free: the mean pair gap over the within-gender spread of the nouns' leans, sqrt of the
    mean of the female nouns' and the male nouns' sample variances (`leans`: (n_pairs, 2), `noun_leans`).
    A random model's logits, and so its leans and gaps, grow with its width; this ratio does not. A model
    whose nouns are all read alike within a gender (spread 0) gets +inf for a positive gap (0 for none)."""
    leans = np.asarray(leans, dtype=float)
    gap = float((leans[:, 0] - leans[:, 1]).mean())
    spread = float(np.sqrt((leans[:, 0].var(ddof=1) + leans[:, 1].var(ddof=1)) / 2))
    if spread == 0.0:
        return float(np.sign(gap) * np.inf) if gap else 0.0
    return gap / spread


def token_problems(words: Sequence[str], token_ids: Sequence[int] | None, unknown_id: int | None) -> list[str]:
    """Step 4's token check. `token_ids[i]`: the one token of `words[i]` (-1: several pieces). A word that
    is the unknown token, or two words that are one token, cannot be told apart by any reading."""
    if token_ids is None:
        return []
    unknown = [w for w, t in zip(words, token_ids, strict=True) if unknown_id is not None and t == unknown_id]
    problems = (
        [f"{', '.join(map(repr, unknown))} {'is' if len(unknown) == 1 else 'are'} the unknown token"] if unknown else []
    )
    by_token: dict[int, list[str]] = {}
    for word, token in zip(words, token_ids, strict=True):
        if token >= 0 and word.lower() not in (w.lower() for w in by_token.get(token, [])):
            by_token.setdefault(token, []).append(word)
    problems += [f"{' and '.join(map(repr, ws))} are one token (id {t})" for t, ws in by_token.items() if len(ws) > 1]
    return problems


def competence(
    language: str,
    pairs: Sequence[tuple[str, str]],
    lean: np.ndarray,
    n_frames: int,
    estimator: str,
    problems: Sequence[str] = (),
    clusters: Sequence[int] | None = None,
) -> Competence:
    """Steps 2-5 from the leans of every template (step 1 is the model's). `clusters`: per pair, its
    cluster (`Items.clusters`); None: every pair its own."""
    gaps = pair_gaps(lean, n_frames, len(pairs))
    labels = list(range(len(pairs))) if clusters is None else list(clusters)
    k = int((gaps > 0).sum())
    _, ci = sign_test(k, len(pairs))
    return Competence(
        language=language,
        agreement=k / len(pairs),
        n_pairs=len(pairs),
        k_agree=k,
        mean_gap=float(gaps.mean()),
        p_value=clustered_sign_test(gaps, labels),
        ci=ci,
        estimator=estimator,
        token_problems=tuple(problems),
        items=[{"female": f, "male": m, "gap": float(g)} for (f, m), g in zip(pairs, gaps, strict=True)],
        effect=effect_size(noun_leans(lean, n_frames, len(pairs))),
        n_clusters=len(set(labels)),
    )
