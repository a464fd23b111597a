"""The latent-variable model's log-probabilities, sentiment posterior, objective and analytic gradient
(paper 003, Eq 10-13; the model, the objective O(θ) and the notation are in
`biascheck.methods.politicians.latent.model`, which fits it). Pure numpy.

The sentiment posterior of a word (used by the posterior regulariser). By Bayes' rule, marginalising
the gender with its prior p(g):
    pθ(s | w) = pθ(w, s) / pθ(w) = Σ_g pη(w|s,g) pσ(s|g) p(g) / Σ_{s',g} pη(w|s',g) pσ(s'|g) p(g)
(in logs: logsumexp over g of log pθ(w,s,g), minus logsumexp over s and g; `sentiment_posterior`).

Gradient of the smooth part (analytic; `_objective`). Write J[w,s,g] = log pθ(w,s,g),
M[w,g] = log pθ(w,g) = logsumexp_s J, H[w,s] = logsumexp_g J, Z[w] = logsumexp_{s,g} J, and ω_w = λ_PR
(0 for words without a lexicon entry). Then
    ∂O/∂J[w,s,g] = − p̃(w,g) · pθ(s|w,g)                        (cross-entropy: responsibilities)
                   + ω_w · (− q(s|w) · pθ(g|w,s) + pθ(s,g|w))     (KL: −Σ_s q log pθ(s|w), pθ(s|w) = e^{H−Z})
and with D = ∂O/∂J, through the two softmaxes:
    ∂O/∂η[w,s,g] = D[w,s,g] − pη(w|s,g) · Σ_w' D[w',s,g]
    ∂O/∂σ[s,g]   = Σ_w D[w,s,g] − pσ(s|g) · Σ_{w,s'} D[w,s',g]
(checked against central finite differences in the tests).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from biascheck.methods.politicians.latent.solver import _row_dot


@dataclass(frozen=True)
class _Data:
    """What the objective needs, word-last: p̃(w,g) (G,W), m_w (W,), log p̃(g) (G,), q(s|w) (S,W) with
    0 for words without a lexicon entry, the lexicon mask (W,) and Σ_s q log q (W,)."""

    p_wg: np.ndarray
    m: np.ndarray
    log_pg: np.ndarray
    q: np.ndarray
    in_lexicon: np.ndarray
    q_log_q: np.ndarray


# ---------------------------------------------------------------- model and objective
# Inside, arrays are word-last, η as (S, G, W) and the data as (G, W) / (S, W), so every reduction is over
# a contiguous axis or over a short outer one (3x faster than (W, S, G)); the public shape is (W, S, G).
# Every function also takes a stack of parameter sets, η (K, S, G, W) and σ (K, S, G) with one λ_PR per
# set (axes are counted from the end): `model` fits a grid's points side by side that way, each set with
# the same operations in the same order as alone, so the numbers are the same bit for bit (tested).


def _lse(x: np.ndarray, axis: int | tuple[int, ...]) -> np.ndarray:
    """log Σ exp along `axis`, keepdims."""
    top = x.max(axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    return top + np.log(np.exp(x - top).sum(axis=axis, keepdims=True))


def _log_joint(eta: np.ndarray, sigma: np.ndarray, m: np.ndarray, log_pg: np.ndarray) -> tuple[np.ndarray, ...]:
    """log pθ(w,s,g) (…,S,G,W) from η (…,S,G,W), σ (…,S,G), m (W,), log p(g) (G,); also log pη(w|s,g)
    (…,S,G,W) and log pσ(s|g) (…,S,G,1)."""
    logits = m + eta
    log_eta = logits - _lse(logits, -1)
    log_sigma = (sigma - _lse(sigma, -2))[..., None]
    return log_eta + log_sigma + log_pg[:, None], log_eta, log_sigma


def _log_posterior(joint: np.ndarray) -> np.ndarray:
    """log pθ(s|w) (…,S,W) from log pθ(w,s,g) (…,S,G,W): marginalise g, normalise over s."""
    h = _lse(joint, -2)[..., 0, :]
    return h - _lse(h, -2)


def sentiment_posterior(
    eta: np.ndarray, p_sigma: np.ndarray, log_prior: np.ndarray, p_gender: np.ndarray
) -> np.ndarray:
    """pθ(s|w) (W, S) from η (W,S,G), pσ(s|g) (S,G), m_w (W,) and p(g) (G,) (module docstring)."""
    with np.errstate(divide="ignore"):
        joint, _, _ = _log_joint(
            np.transpose(eta, (1, 2, 0)), np.log(p_sigma), np.asarray(log_prior, float), np.log(p_gender)
        )
    return np.exp(_log_posterior(joint)).T


def _kl_per_word(data: _Data, log_post: np.ndarray) -> np.ndarray:
    """KL(q(·|w) ‖ pθ(·|w)) per word (…,W), from log pθ(s|w) (…,S,W); 0 for words without a lexicon entry."""
    return data.q_log_q - np.sum(data.q * log_post, axis=-2)


_TINY = 1e-300


def _objective(
    eta: np.ndarray, sigma: np.ndarray, data: _Data, pr: float | np.ndarray, grad: bool = True
) -> tuple[float | np.ndarray, np.ndarray | None, np.ndarray | None]:
    """The smooth part L(θ) + λ_PR Σ_w KL and its gradient (module docstring) w.r.t. η (S,G,W) and σ (S,G).

    For a stack η (K,S,G,W), σ (K,S,G) and λ_PR (K,): the K values (an array) and gradients.
    One exp per entry, the softmax over words: pη(w|s,g), times pσ(s|g) p(g), is the joint pθ(w,s,g) itself,
    whose sums over s, over g and over both are pθ(w,g), pθ(w,s) and pθ(w), and the responsibilities their
    ratios; the gradient is the joint times a bracket built on those margins (KL part per (w,s), cross-entropy
    part per (w,g)). 13 passes over the (K,S,G,W) array for a gradient, 8 for a value; the form that
    exponentiates the joint shifted by each word's largest entry takes about twice as many (a gradient of the
    paper grid's 710-word fits: 138 -> 78 µs a fit, 4 fits a call). That form keeps a word whose total
    pθ(w) is below 1e-100 exact, where this one would underflow: `_objective_logspace` is taken then."""
    given = eta, sigma, data, pr, grad
    stacked = eta.ndim == 4
    if not stacked:
        eta, sigma = eta[None], sigma[None]
    pr = np.broadcast_to(np.asarray(pr, dtype=float), eta.shape[:1])
    shifted = eta + data.m  # the logits, then (in place) pη(w|s,g) up to its factor per (s,g) (K,S,G,W)
    top = shifted.max(axis=-1, keepdims=True)
    np.exp(np.subtract(shifted, top, out=shifted), out=shifted)
    norm = shifted.sum(axis=-1)  # (K,S,G): pη = shifted / norm
    log_sigma = sigma - _lse(sigma, -2)
    e = shifted * (np.exp(log_sigma + data.log_pg) / norm)[..., None]  # pθ(w,s,g)
    margins = _margins(e)
    if margins[2].min() < _SMALL_WORD:
        return _objective_logspace(*given)
    return _from_joint(e, margins, None, (shifted, norm), log_sigma, data, pr, grad, stacked)


_SMALL_WORD = 1e-100


def _objective_logspace(
    eta: np.ndarray, sigma: np.ndarray, data: _Data, pr: float | np.ndarray, grad: bool = True
) -> tuple[float | np.ndarray, np.ndarray | None, np.ndarray | None]:
    """`_objective` for joints whose words' totals may underflow: the joint exponentiated shifted by each
    word's largest entry, E = exp(J − max_{s,g} J), whose sums are pθ(w,g), pθ(w,s) and pθ(w) up to the
    word's factor e^max, which cancels in every ratio and is added back in the logs (`_from_joint`)."""
    stacked = eta.ndim == 4
    if not stacked:
        eta, sigma = eta[None], sigma[None]
    pr = np.broadcast_to(np.asarray(pr, dtype=float), eta.shape[:1])
    logits = data.m + eta
    log_norm = _lse(logits, -1)
    log_sigma = sigma - _lse(sigma, -2)
    joint = logits + (log_sigma - log_norm[..., 0] + data.log_pg)[..., None]  # J = log pθ(w,s,g) (K,S,G,W)
    top = joint.max(axis=(-3, -2), keepdims=True)  # (K,1,1,W)
    e = np.exp(joint - top)
    p_eta = (np.exp(logits - log_norm), np.ones(log_norm.shape[:-1]))
    return _from_joint(e, _margins(e), top, p_eta, log_sigma, data, pr, grad, stacked)


def _margins(e: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """E's sums over s (K,1,G,W), over g (K,S,1,W) and over both (K,1,1,W). A margin far below its word's
    total underflows to 0: floored, so that its log is finite and 0/0 cannot occur."""
    e_ws = np.maximum(e.sum(axis=-2, keepdims=True), _TINY)
    return np.maximum(e.sum(axis=-3, keepdims=True), _TINY), e_ws, e_ws.sum(axis=-3, keepdims=True)


def _from_joint(e, margins, offset, p_eta, log_sigma, data, pr, grad, stacked):
    """The value and gradient from E = pθ(w,s,g) · e^−offset (offset None: E is the joint itself; else
    the word's shift (K,1,1,W)), its `_margins`, pη(w|s,g) as (an array, its per-(s,g) divisor) and
    log pσ(s|g). E is overwritten with the gradient's ∂O/∂J."""
    e_wg, e_ws, e_w = margins
    log_wg = np.log(e_wg[:, 0]) if offset is None else (np.log(e_wg) + offset)[:, 0]
    cross_entropy = -(data.p_wg * log_wg).sum(axis=(-2, -1))
    omega = pr[:, None] * data.in_lexicon  # (K,W)
    log_posterior = (np.log(e_ws) - np.log(e_w))[:, :, 0, :]  # log pθ(s|w) (K,S,W)
    value = cross_entropy + _row_dot(omega, _kl_per_word(data, log_posterior))
    if not grad:
        return (value if stacked else float(value[0])), None, None
    # ∂O/∂J = pθ(w,s,g) · (−p̃(w,g)/pθ(w,g) + ω_w (1/pθ(w) − q(s|w)/pθ(w,s))), the word's factor cancelling
    bracket = omega[:, None, None, :] * (data.in_lexicon / e_w - data.q[:, None, :] / e_ws) - data.p_wg / e_wg
    d = np.multiply(e, bracket, out=e)
    col = d.sum(axis=-1)  # (K,S,G)
    shifted, norm = p_eta
    d -= np.multiply(shifted, (col / norm)[..., None], out=shifted)
    d_sigma = col - np.exp(log_sigma) * col.sum(axis=-2, keepdims=True)
    if not stacked:
        return float(value[0]), d[0], d_sigma[0]
    return value, d, d_sigma


def _prepare(counts: np.ndarray, q: np.ndarray) -> _Data:
    counts = np.asarray(counts, dtype=float)
    q = np.asarray(q, dtype=float)
    if counts.ndim != 2 or counts.shape[1] < 1 or (counts < 0).any() or not np.isfinite(counts).all():
        raise ValueError(f"counts must be a finite non-negative (n_words, n_genders) table, got shape {counts.shape}")
    if q.ndim != 2 or q.shape[0] != counts.shape[0]:
        raise ValueError(f"q must be (n_words={counts.shape[0]}, n_sentiments), got shape {q.shape}")
    if (counts.sum(axis=1) == 0).any():
        raise ValueError("every word needs at least one sample (m_w = log p̃(w) is −inf otherwise)")
    if (counts.sum(axis=0) == 0).any():
        raise ValueError("every gender needs at least one sample (p(g) = p̃(g) is 0 otherwise)")
    in_lexicon = ~np.isnan(q).any(axis=1)
    q = np.where(in_lexicon[:, None], q, 0.0)
    if (q < 0).any() or not np.allclose(q[in_lexicon].sum(axis=1), 1.0, atol=1e-6):
        raise ValueError("every row of q must be a distribution over the sentiments (or all NaN: not in the lexicon)")
    q = q / np.where(in_lexicon, q.sum(axis=1), 1.0)[:, None]
    p_wg = counts / counts.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        q_log_q = np.sum(np.where(q > 0, q * np.log(q), 0.0), axis=1)
    return _Data(
        p_wg=np.ascontiguousarray(p_wg.T),
        m=np.log(p_wg.sum(axis=1)),
        log_pg=np.log(p_wg.sum(axis=0)),
        q=np.ascontiguousarray(q.T),
        in_lexicon=in_lexicon.astype(float),
        q_log_q=q_log_q,
    )


# ---------------------------------------------------------------- fitting
