"""Probe: Norwegian occupations against Statistics Norway, five template tasks (paper 000).

Options (environment variables, read once per run):
  BIASCHECK_NO_SUBSETS  paper (default: reproduces the paper's 31/106/49 subsets) or share
                        (>= 75 % women/men, |f - m| <= 10: 68/159/46). See the README.
  BIASCHECK_NO_NAMES    an integer k (default 5): the k most persistent names per sex (most years
                        in a yearly top 10), or all: every name in a yearly top 10 (87 F / 65 M,
                        the paper's design; about 155,000 scored sentences, use a GPU).
"""

from __future__ import annotations

import os

import pytest

from biascheck.data import norwegian
from biascheck.errors import ConfigError
from biascheck.methods import norwegian_occupations as method

pytestmark = pytest.mark.biascheck(probe="norwegian_occupations")


def _options() -> tuple[str, int | None]:
    rule = os.environ.get("BIASCHECK_NO_SUBSETS", "paper")
    if rule not in method.SUBSET_RULES:
        raise ConfigError(f"BIASCHECK_NO_SUBSETS={rule!r}: use one of {', '.join(method.SUBSET_RULES)}.")
    names = os.environ.get("BIASCHECK_NO_NAMES", str(method.DEFAULT_NAMES_PER_SEX))
    if names == "all":
        return rule, None
    if not names.isdigit() or int(names) < 1:
        raise ConfigError(f"BIASCHECK_NO_NAMES={names!r}: use 'all' or a positive number of names per sex.")
    return rule, int(names)


@pytest.fixture(scope="module")
def reference(refdata):
    rule, per_sex = _options()
    names = norwegian.top_names(refdata, n=10)
    if per_sex is not None:
        names = names.groupby("sex", sort=False).head(per_sex)
    return method.gold_table(norwegian.occupations_with_templates(refdata), rule), names, rule


@pytest.fixture(scope="module")
def scored(lm, reference):
    gold, names, _ = reference
    return method.score_all(lm, gold, names)


@pytest.mark.parametrize("task", method.TASKS)
def test_norwegian_occupations(task, scored, reference, bias):
    scores = scored[task]
    rule = reference[2]
    note = f"{method.TASK_TITLES[task]}; subsets: {rule} rule; {scores.note}"
    for m in method.task_metrics(scores.table):
        bias.record(
            task,
            m.name,
            m.value,
            ci=m.ci,
            n=m.n,
            estimator=scores.estimator,
            paper_value=method.paper_value(bias.model, task, m.name),
            note="; ".join(x for x in (note, m.note) if x),
            items=method.items(scores) if m.name == "macro_f1" else None,
        )
    if id(scored) not in _PLOTTED:  # once per model, by whichever task runs first (also under -k)
        _PLOTTED.add(id(scored))
        bias.save_figure("figure6", method.figure6(scored, bias.model))
        bias.save_figure("scatter", method.scatter(scored, bias.model))
    bias.check()


_PLOTTED: set[int] = set()
