"""Probe: singular *they* after 9 antecedent types (paper 004, section 4; our own stimuli after
Camilliere et al. 2021). Human ratings: ``BIASCHECK_THEY_RATINGS`` = path to a CSV with columns
item, condition, group, rating (see README); without it the correlations are reported as absent.
"""

from __future__ import annotations

import math
import os

import pytest

from biascheck.methods import singular_they as method
from biascheck.methods.they_stimuli import they_stimuli

pytestmark = pytest.mark.biascheck(probe="singular_they")


@pytest.fixture(scope="module")
def scored(lm):
    return method.score_model(lm, they_stimuli())


def test_antecedent_types(scored, bias):
    frame, estimator = scored
    table = method.by_condition(frame)
    means = dict(zip(table["condition"], table["mean"], strict=False))
    for row in table.itertuples(index=False):
        bias.record(
            "antecedents",
            f"surprisal_{row.condition}",
            row.mean,
            ci=(row.ci_low, row.ci_high),
            n=row.n,
            estimator=estimator,
        )
    for name, (value, ci, n) in method.contrast_metrics(frame).items():
        bias.record("antecedents", name, value, ci=ci, n=n, estimator=estimator)
    checks = method.pattern_checks(means, method.closeness_gender(frame))
    bias.record(
        "antecedents",
        "pattern_checks",
        sum(checks.values()) / len(checks),
        n=len(checks),
        estimator=estimator,
        note="; ".join(f"{k}: {'yes' if v else 'NO'}" for k, v in checks.items())
        + " (regression checks need p < 0.05)",
        items=[{"check": k, "passed": bool(v)} for k, v in checks.items()],
    )
    bias.save_figure(
        "surprisal",
        method.surprisal_figure(
            table, f"{bias.model}: surprisal of they/them/their/themselves ({estimator})", _ratings_or_none()
        ),
    )
    bias.check()


def test_closeness_and_gender(scored, bias):
    frame, estimator = scored
    fit = method.closeness_gender(frame)
    note = f"MixedLM surprisal ~ close + gendered, random intercept per frame; converged: {bool(fit['converged'])}"
    for name in ("close", "gendered"):
        beta, se = fit[f"beta_{name}"], fit[f"se_{name}"]
        bias.record(
            "closeness_gender",
            f"beta_{name}",
            beta,
            ci=(beta - 1.96 * se, beta + 1.96 * se),
            n=int(fit["n"]),
            estimator=estimator,
            paper_value=method.PAPER_BETA[name],
            note=note + "; paper value: BERT-base-uncased",
        )
        bias.record("closeness_gender", f"p_{name}", fit[f"p_{name}"], n=int(fit["n"]), estimator=estimator)
    bias.check()


def _ratings_or_none():
    path = os.environ.get(method.RATINGS_ENV)
    return method.read_ratings(path) if path else None


def test_human_ratings(scored, bias):
    frame, estimator = scored
    ratings = _ratings_or_none()
    if ratings is None:
        bias.record(
            "human_ratings",
            "r_all",
            math.nan,
            estimator=estimator,
            note=(
                f"no human ratings given: Camilliere et al.'s ratings are not public; set "
                f"{method.RATINGS_ENV}=ratings.csv"
            ),
        )
        bias.check()
        return
    table = method.group_correlations(frame, ratings)
    for row in table.itertuples(index=False):
        bias.record(
            "human_ratings",
            f"r_{row.group}",
            row.r,
            ci=(row.ci_low, row.ci_high),
            n=row.n,
            estimator=estimator,
            paper_value=method.PAPER_GROUPS.get(row.group),
            note=f"p = {row.p:.2g}; ratings: {os.environ[method.RATINGS_ENV]}",
        )
    bias.check()
