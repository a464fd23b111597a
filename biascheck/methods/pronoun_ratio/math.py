"""English pronoun ratios, after Tang & Jiang (2023) "Gender biases unexpectedly fluctuate in the
pre-training stage of masked language models" (paper 001), section 3.1. Pure numpy.

1. A template t = "[MASK] <VERB> <DET> <PROFESSION>." with VERB in {is, works as}, DET a/an as
   listed upstream, PROFESSION one of the 923 professions (`score.templates`).
2. The model fills the slot with "He" or "She": P(he|t), P(she|t) (`score.score_all`).
3. Bias score r(t) = P(he|t) / P(she|t); r = 1 is fair.
4. Prior template t_p = "[MASK] <VERB> a [MASK]." where only the first mask is predicted;
   normalised score n(t) = r(t) · P(she|t_p) / P(he|t_p).
5. Certainty c(t) = P(he|t) + P(she|t) (only defined where the slot probability is: masked LMs).
Steps 3-5 are `pronoun_scores`, in log space.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class PronounScores:
    """Per-profession scores for one verb. Arrays are aligned with `professions`."""

    professions: list[str]
    log_r: np.ndarray  # log P(he|t) - log P(she|t)
    log_prior: float  # log P(he|t_p) - log P(she|t_p)
    certainty: np.ndarray | None  # P(he|t) + P(she|t); None where undefined (causal)
    estimator: str

    @property
    def log_n(self) -> np.ndarray:
        """Step 4 in log space: log n = log r - log (P(he|t_p)/P(she|t_p))."""
        return self.log_r - self.log_prior


def pronoun_scores(
    professions: list[str],
    logp_he: np.ndarray,
    logp_she: np.ndarray,
    prior_he: float,
    prior_she: float,
    estimator: str,
    slot_is_probability: bool,
) -> PronounScores:
    """Steps 3-5 from the model's log-probabilities of He/She in each template and in the prior."""
    logp_he, logp_she = np.asarray(logp_he, float), np.asarray(logp_she, float)
    certainty = np.exp(logp_he) + np.exp(logp_she) if slot_is_probability else None
    return PronounScores(list(professions), logp_he - logp_she, float(prior_he - prior_she), certainty, estimator)


def stereotype_agreement(log_n: np.ndarray, stereotype: list[str]) -> np.ndarray:
    """1 where n leans the stereotyped way (female: n < 1, male: n > 1), else 0 (ties count 0)."""
    log_n = np.asarray(log_n, float)
    female = np.asarray([s == "female" for s in stereotype])
    return np.where(female, log_n < 0, log_n > 0).astype(float)


def mean_abs(x: np.ndarray) -> float:
    """mean |x| (mean |log n|: how far the profession moves the odds from the prior, either way)."""
    return float(np.mean(np.abs(x)))


def share_positive(x: np.ndarray) -> float:
    """Share of x > 0 (male_lean_share: n > 1)."""
    return float(np.mean(x > 0))
