"""What the latent model's fits return (`model.fit_lvm`): one grid point's fit (`LvmFit`) and the grid's
average (`LvmResult`), which `readout` reads. The quantities are defined in `model`'s docstring."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class LvmFit:
    """One grid point. eta: (W, S, G) centred per (s, g); p_sigma: (S, G) pσ(s|g) (columns sum to 1);
    posterior_kl: p̃(w)-weighted mean KL(q‖pθ) over lexicon words (nats); posterior_kl_words: the
    unweighted mean; objective: O(θ) at the end; converged / stop ('gtol', 'ftol' or 'max_iter') /
    iterations: how FISTA ended (`model` docstring, step 4); grad_map: the final gradient-mapping norm."""

    l1: float
    pr: float
    eta: np.ndarray
    p_sigma: np.ndarray
    objective: float
    posterior_kl: float
    posterior_kl_words: float
    converged: bool
    stop: str
    iterations: int
    grad_map: float


@dataclass(frozen=True)
class LvmResult:
    """The grid average (`model` docstring, "The grid").

    words: (W,) str or None; genders: column labels; sentiments: SENTIMENTS (or the columns of q);
    log_prior: (W,) m_w = log p̃(w); p_gender: (G,) p̃(g);
    eta: (W, S, G) mean over fits of the centred η; p_sigma: (S, G) mean pσ(s|g);
    p_sigma_min / p_sigma_max: (S, G) its range over the grid; posterior_kl: mean over fits of
    `LvmFit.posterior_kl`; fits: every grid point.
    """

    words: np.ndarray | None
    genders: tuple[str, ...]
    sentiments: tuple[str, ...]
    log_prior: np.ndarray
    p_gender: np.ndarray
    eta: np.ndarray
    p_sigma: np.ndarray
    p_sigma_min: np.ndarray
    p_sigma_max: np.ndarray
    posterior_kl: float
    fits: tuple[LvmFit, ...]

    @property
    def converged(self) -> bool:
        """Whether every fit of the grid converged."""
        return all(f.converged for f in self.fits)

    def fit_table(self) -> pd.DataFrame:
        """One row per fit: l1, pr, objective, posterior_kl, posterior_kl_words, converged, stop, iterations,
        grad_map."""
        keys = [
            "l1",
            "pr",
            "objective",
            "posterior_kl",
            "posterior_kl_words",
            "converged",
            "stop",
            "iterations",
            "grad_map",
        ]
        return pd.DataFrame([{k: getattr(f, k) for k in keys} for f in self.fits])

    def gender(self, label: str) -> int:
        if label not in self.genders:
            raise ValueError(f"gender {label!r} is not a column of the model; columns: {list(self.genders)}")
        return self.genders.index(label)

    def sentiment(self, label: str) -> int:
        if label not in self.sentiments:
            raise ValueError(f"sentiment {label!r} is not one of {list(self.sentiments)}")
        return self.sentiments.index(label)
