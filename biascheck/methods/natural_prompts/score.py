"""natural_prompts scoring: the only module of the probe that calls the model (`next_token`, `top_next`,
`fill_slot`). Steps 1, 2 and 6 of `biascheck.methods.natural_prompts.math`: it builds both prompt sets under
every perturbation, scores them and the bare start of text, and returns a `Scored` container.

Masked LMs run too: `lm.next_token` puts a masked slot right after the prompt (estimator mlm-slot).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from biascheck.methods.natural_prompts.math import Scored, SetScores
from biascheck.methods.natural_prompts.reference import Reference
from biascheck.methods.natural_prompts.spec import (
    DEFAULT_PROMPT,
    INITIAL_TEMPLATE,
    OPENERS,
    PERTURBATIONS,
    PRONOUNS,
    REPLACEMENT,
    TEMPLATES,
)
from biascheck.scoring import LanguageModel
from biascheck.settings import ProbeSettings

# ---------------------------------------------------------------------------------------------
# 1. prompts


def fill(template: str, word: str) -> str:
    """A template with `word` in ``{}`` (see `biascheck.data.natural_prompts.fill_prompt`)."""
    from biascheck.data.natural_prompts import fill_prompt

    return fill_prompt(template, word)


def perturb(template: str, perturbation: str, profession: str) -> str:
    """One prompt under one perturbation of paper 002's Table 4.

    orig -> the profession filled in; replace -> "person" filled in; delete -> the slot removed as the
    authors' code removes it (`biascheck.data.natural_prompts.delete_slot`: "The  said that", the doubled
    space kept).
    """
    from biascheck.data.natural_prompts import delete_slot

    if perturbation == "orig":
        return fill(template, profession)
    if perturbation == "replace":
        return fill(template, REPLACEMENT)
    if perturbation == "delete":
        return delete_slot(template)
    raise ValueError(f"unknown perturbation {perturbation!r}; known: {', '.join(PERTURBATIONS)}")


def build_prompts(
    ns_templates: Sequence[str], fills: Sequence[str], templates: Sequence[str] = TEMPLATES
) -> dict[str, dict[str, list[list[str]]]]:
    """Prompts of both sets under every perturbation.

    1. NS: row i is ``[ns_templates[i] filled]`` (one prompt per profession).
    2. Template: row i is ``[t filled with fills[i] for t in templates]``; under replace/delete the rows
       do not depend on the profession, so there is a single row (rows = 1).
    Returns {"ns"|"template": {perturbation: rows of prompts}}.
    """
    if len(ns_templates) != len(fills):
        raise ValueError("ns_templates and fills must have the same length")
    out: dict[str, dict[str, list[list[str]]]] = {"ns": {}, "template": {}}
    for pert in PERTURBATIONS:
        out["ns"][pert] = [[perturb(t, pert, w)] for t, w in zip(ns_templates, fills, strict=True)]
        if pert == "orig":
            out["template"][pert] = [[perturb(t, pert, w) for t in templates] for w in fills]
        else:
            out["template"][pert] = [[perturb(t, pert, "") for t in templates]]
    return out


# ---------------------------------------------------------------------------------------------
# 2 and 6. scores


def _score(
    lm: LanguageModel, rows_by_pert: dict[str, list[list[str]]]
) -> tuple[dict[str, np.ndarray], np.ndarray, str, set[str]]:
    unique = sorted({p for rows in rows_by_pert.values() for row in rows for p in row})
    scores = lm.next_token(unique, list(PRONOUNS))
    index = {p: i for i, p in enumerate(unique)}
    probs = np.exp(np.asarray(scores.logprob, float))
    pieces = np.asarray(scores.n_pieces)
    multi = {PRONOUNS[j] for j in range(len(PRONOUNS)) if (pieces[:, j] > 1).any()}
    out = {}
    for pert, rows in rows_by_pert.items():
        out[pert] = np.stack([np.stack([probs[index[p]] for p in row]) for row in rows])
    orig_unique = sorted({p for row in rows_by_pert["orig"] for p in row})
    logp, _tokens = lm.top_next(orig_unique, 2)
    tindex = {p: i for i, p in enumerate(orig_unique)}
    top_all = np.exp(np.asarray(logp, float))
    top = np.stack([np.stack([top_all[tindex[p]] for p in row]) for row in rows_by_pert["orig"]])
    return out, top, scores.estimator, multi


def score(lm: LanguageModel, reference: Reference, settings: ProbeSettings) -> Scored:
    """Score both prompt sets of the reference's professions (already the `limit` sample) and the bare start
    token with `lm` (steps 1, 2 and 6 of the method). `lm`: a `biascheck.models.base.LanguageModel` (methods
    do not import the model layer)."""
    items, templates, gold = list(reference.prompts), reference.templates, reference.gold
    built = build_prompts([p.template for p in items], [p.fill for p in items], templates)
    ns_probs, ns_top, estimator, multi_ns = _score(lm, built["ns"])
    tp_probs, tp_top, _, multi_tp = _score(lm, built["template"])
    default_scores = lm.next_token([DEFAULT_PROMPT], list(PRONOUNS))
    default = {w: float(np.exp(default_scores.logprob[0, j])) for j, w in enumerate(PRONOUNS)}
    initial_scores = lm.fill_slot([INITIAL_TEMPLATE], [w.capitalize() for w in PRONOUNS])
    default_initial = {w: float(np.exp(initial_scores.logprob[0, j])) for j, w in enumerate(PRONOUNS)}
    opener_scores = np.exp(np.asarray(lm.next_token(list(OPENERS), list(PRONOUNS)).logprob, float))
    openers = {o: {w: float(opener_scores[i, j]) for j, w in enumerate(PRONOUNS)} for i, o in enumerate(OPENERS)}
    keys = [p.key for p in items]
    names = [p.profession for p in items]
    info = getattr(lm, "info", None)
    return Scored(
        estimator=estimator,
        family=getattr(info, "family", "unknown"),
        model=getattr(info, "name", "unknown"),
        ns=SetScores("ns", keys, names, ["ns"], ns_probs, ns_top, built["ns"]),
        template=SetScores("template", keys, names, list(templates), tp_probs, tp_top, built["template"]),
        default=default,
        default_estimator=default_scores.estimator,
        default_initial=default_initial,
        default_initial_estimator=initial_scores.estimator,
        openers=openers,
        gold=gold,
        repairs=dict(reference.repairs),
        multi_piece=sorted(multi_ns | multi_tp),
    )
