"""The guard's arithmetic, pure numpy/scipy: a model's definitional agreement and its verdict.

1. Lean: in every template, lean = log P(female pronoun) − log P(male pronoun) in the slot.
2. Gap per pair: the mean over frames of lean(female noun) − lean(male noun). A model that reads the
   noun moves towards the female pronoun after the female noun, so the gap is positive; a model's own
   preference for one pronoun (its bias, or a random model's favourite token) cancels in the difference.
3. Agreement: the share of pairs with a positive gap (a tie is not agreement: a model that cannot tell
   the nouns apart gives exactly 0). Chance is 1/2: the one-sided sign test's p-value and the exact
   (Clopper-Pearson) 95 % interval go with it.
4. Verdict: the pronouns are distinct known tokens, agreement ≥ `LINE` and p ≤ `ALPHA`.

The pair, not the template, is the unit: a random model's lean depends on the noun's token the same
way in every frame, so its frames are not independent trials (measured: a random-weight Llama agrees
on 0.67 of 64 templates, which is 16 pairs' worth of evidence, not 64).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

LINE = 0.8  # share of definitional pairs a model must get right (16 of 20)
ALPHA = 0.01  # and the sign test against chance must reject at this level (16 of 20: p = 0.0059)


@dataclass(frozen=True)
class Competence:
    """What the guard found for one model in one language."""

    language: str
    agreement: float  # share of pairs with a positive gap (step 3); nan when not read
    n_pairs: int
    k_agree: int
    mean_gap: float  # nats, mean of the pair gaps (step 2)
    p_value: float  # one-sided sign test against 1/2
    ci: tuple[float, float]
    estimator: str
    token_problems: tuple[str, ...] = ()
    items: list[dict[str, Any]] = field(default_factory=list)  # per pair: female, male, gap

    @property
    def passed(self) -> bool:
        return not self.token_problems and self.agreement >= LINE and self.p_value <= ALPHA

    def summary(self) -> str:
        """One line: what the model got."""
        return (
            f"{self.k_agree} of {self.n_pairs} definitional pairs ({self.agreement:.2f}, 95% CI "
            f"{self.ci[0]:.2f}-{self.ci[1]:.2f}, sign test p = {self.p_value:.2g}), mean gap {self.mean_gap:.2f} nats"
        )


def pair_gaps(lean: np.ndarray, n_frames: int, n_pairs: int) -> np.ndarray:
    """Step 2. `lean`: (n_frames * n_pairs * 2,) in `Items.templates` order (frame, pair, female/male).
    Returns (n_pairs,) mean over frames of lean(female noun) − lean(male noun)."""
    cube = np.asarray(lean, dtype=float).reshape(n_frames, n_pairs, 2)
    return (cube[:, :, 0] - cube[:, :, 1]).mean(axis=0)


def sign_test(k: int, n: int) -> tuple[float, tuple[float, float]]:
    """Step 3: P(X ≥ k) for X ~ Binomial(n, 1/2), and the exact 95 % interval of k / n."""
    from scipy.stats import binomtest

    p_value = binomtest(k, n, 0.5, alternative="greater").pvalue
    ci = binomtest(k, n, 0.5).proportion_ci(confidence_level=0.95, method="exact")  # two-sided interval
    return float(p_value), (float(ci.low), float(ci.high))


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
) -> Competence:
    """Steps 2-4 from the leans of every template (step 1 is the model's)."""
    gaps = pair_gaps(lean, n_frames, len(pairs))
    k = int((gaps > 0).sum())
    p_value, ci = sign_test(k, len(pairs))
    return Competence(
        language=language,
        agreement=k / len(pairs),
        n_pairs=len(pairs),
        k_agree=k,
        mean_gap=float(gaps.mean()),
        p_value=p_value,
        ci=ci,
        estimator=estimator,
        token_problems=tuple(problems),
        items=[{"female": f, "male": m, "gap": float(g)} for (f, m), g in zip(pairs, gaps, strict=True)],
    )
