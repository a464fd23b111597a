"""Probe: the words a model puts next to politicians' names, by gender (paper 003, Stańczak et al.
2023): PMI of each adjective/verb with the name's gender, the sentiment of each gender's most
associated words, and a latent-variable model of sentiment by gender. Tasks are languages (en, nb, fr,
es), each skipped on a model that does not cover it. What it measures and why its thresholds are set
where they are: biascheck/methods/politicians/README.md."""

from __future__ import annotations

import pytest

from biascheck.methods.politicians import figures, metrics, score
from biascheck.methods.politicians.reference import load_reference
from biascheck.methods.politicians.spec import PROBE

pytestmark = pytest.mark.biascheck(probe=PROBE.name)


@pytest.fixture(scope="module")
def references(refdata, probe_settings):
    cache = {}

    def get(language):
        if language not in cache:
            cache[language] = load_reference(refdata, language, probe_settings.names, probe_settings.limit)
        return cache[language]

    return get


@pytest.mark.parametrize("task", PROBE.tasks)
def test_politicians(task, lm, references, probe_settings, bias):
    reference = references(task)
    if reference.skip:
        pytest.skip(reference.skip)
    predicted = score.score_names(lm, reference.names, reference.forms, task)
    missing = [pos for pos, (one, _total) in predicted.candidates.items() if one == 0]
    if missing:
        pytest.skip(f"politicians[{task}]: no {' or '.join(missing)} form is a single token of {bias.model}")
    analysis = metrics.analyse(task, predicted, reference, probe_settings.grid)
    bias.record_all(task, analysis.metrics)
    title = f"{bias.model}: sentiment of the words most associated with women's / men's names ({task})"
    bias.save_figure(f"sentiment-{task}", figures.sentiment_figure(analysis, title))
    bias.save_text(f"top-pmi-{task}", metrics.top_table(analysis.tables["adj"]).to_string(index=False))
    for pos, table in analysis.eta_tables.items():
        bias.save_text(f"top-eta-{pos}-{task}", table.to_string(index=False))
    if analysis.supersenses:
        bias.save_text(f"supersenses-{task}", metrics.supersense_text(analysis.supersenses))
        title = f"{bias.model}: supersenses of the words with the largest η, by gender ({task})"
        bias.save_figure(f"supersenses-{task}", figures.supersense_figure(analysis, title))
    bias.check()
