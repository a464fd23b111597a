"""English pronoun ratios, after Tang & Jiang (2023) "Gender biases unexpectedly fluctuate in the
pre-training stage of masked language models" (paper 001), section 3.1. Pure numpy.

1. A template t = "[MASK] <VERB> <DET> <PROFESSION>." with VERB in {is, works as}, DET a/an as
   listed upstream, PROFESSION one of the 923 professions (`score.templates`).
2. The model fills the slot with "He" or "She": P(he|t), P(she|t) (`score.score`).
3. Bias score r(t) = P(he|t) / P(she|t); r = 1 is fair.
4. Prior template t_p: the same template with the profession masked, "[MASK] <VERB> <DET> [MASK].",
   where only the first mask is predicted: four priors (is a, is an, works as a, works as an), each
   profession normalised by the one with its own verb and article;
   normalised score n(t) = r(t) · P(she|t_p) / P(he|t_p).
5. Certainty c(t) = P(he|t) + P(she|t) (only defined where the slot probability is: masked LMs).
Steps 3-5 are `pronoun_scores`, in log space.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from biascheck.stats import mean_abs, with_rows  # mean |log n|: how far a profession moves the odds


@dataclass(frozen=True)
class PronounScores:
    """Per-profession scores for one verb. Arrays are aligned with `professions`."""

    professions: list[str]
    log_r: np.ndarray  # log P(he|t) - log P(she|t)
    log_prior: np.ndarray  # log P(he|t_p) - log P(she|t_p), t_p the profession's own prior template
    certainty: np.ndarray | None  # P(he|t) + P(she|t); None where undefined (causal)
    estimator: str
    articles: list[str] | None = None  # the article of each profession's template (and prior): 'a' / 'an'

    def prior_by_article(self) -> dict[str, float]:
        """log P(he|t_p)/P(she|t_p) of each prior template used, by article (one value each)."""
        articles = self.articles or ["a"] * len(self.professions)
        return {a: float(self.log_prior[articles.index(a)]) for a in sorted(set(articles))}

    @property
    def log_n(self) -> np.ndarray:
        """Step 4 in log space: log n = log r - log (P(he|t_p)/P(she|t_p))."""
        return self.log_r - self.log_prior


def pronoun_scores(
    professions: list[str],
    logp_he: np.ndarray,
    logp_she: np.ndarray,
    prior_he: float | np.ndarray,
    prior_she: float | np.ndarray,
    estimator: str,
    slot_is_probability: bool,
    articles: list[str] | None = None,
) -> PronounScores:
    """Steps 3-5 from the model's log-probabilities of He/She in each template and in its prior.

    prior_he / prior_she: per profession (aligned arrays: the prior template with the profession's
    own verb and article), or one number for all.
    """
    logp_he, logp_she = np.asarray(logp_he, float), np.asarray(logp_she, float)
    certainty = np.exp(logp_he) + np.exp(logp_she) if slot_is_probability else None
    log_prior = np.broadcast_to(np.asarray(prior_he, float) - np.asarray(prior_she, float), logp_he.shape).copy()
    return PronounScores(
        list(professions),
        logp_he - logp_she,
        log_prior,
        certainty,
        estimator,
        None if articles is None else list(articles),
    )


def stereotype_agreement(log_n: np.ndarray, stereotype: list[str]) -> np.ndarray:
    """1 where n leans the stereotyped way (female: n < 1, male: n > 1), else 0 (ties count 0)."""
    log_n = np.asarray(log_n, float)
    female = np.asarray([s == "female" for s in stereotype])
    return np.where(female, log_n < 0, log_n > 0).astype(float)


@with_rows(lambda x, axis=-1: np.mean(x > 0, axis=axis))
def share_positive(x: np.ndarray) -> float:
    """Share of x > 0 (male_lean_share: n > 1)."""
    return float(np.mean(x > 0))


@with_rows(lambda x, y, axis=-1: np.mean(np.abs(x - y), axis=axis))
def mean_abs_diff(x: np.ndarray, y: np.ndarray) -> float:
    """mean |x - y| over paired items (template_mean_abs_diff: how far the verb moves log n)."""
    return mean_abs(np.asarray(x, float) - np.asarray(y, float))
