"""Probe: natural-sentence vs template prompts for pronoun continuations (paper 002, Alnegheimish et al. 2022).

Masked LMs run too: `lm.next_token` puts a masked slot right after the prompt (estimator mlm-slot),
recorded with every number; see the README section "natural_prompts (paper 002)".
"""

from __future__ import annotations

import os

import pytest

from biascheck.data import natural_prompts as data
from biascheck.data import professions_en
from biascheck.methods import natural_prompts as method

pytestmark = pytest.mark.biascheck(probe="natural_prompts")

# BIASCHECK_NATURAL_PROMPTS_LIMIT=N scores only the first N professions (a quick look; CI uses all 893).
LIMIT = int(os.environ.get("BIASCHECK_NATURAL_PROMPTS_LIMIT", "0")) or None


@pytest.fixture(scope="module")
def scored(lm, refdata):
    prompts = data.load_prompts(refdata)
    gold = professions_en.bls_women_share(refdata)
    return method.score_all(lm, prompts, gold=gold, limit=LIMIT)


@pytest.fixture(scope="module")
def metrics(scored):
    return {task: method.metrics_for(task, scored) for task in method.TASKS}


def _note(scored, m):
    notes = [m.note] if m.note else []
    if scored.estimator != "causal-next":
        notes.append(
            f"{scored.estimator}: pronoun in a masked slot right after the prompt, not a next-token probability"
        )
    if LIMIT:
        notes.append(f"first {LIMIT} professions only (BIASCHECK_NATURAL_PROMPTS_LIMIT)")
    return "; ".join(notes)


@pytest.mark.parametrize("task", method.TASKS)
def test_natural_prompts(task, scored, metrics, bias):
    estimator = scored.default_estimator if task == "default" else scored.estimator
    for m in metrics[task]:
        note = _note(scored, m)
        if m.name == "template_bias_sd" and m.items:
            note += "; Table 8 bias: " + ", ".join(
                f"{r['template'].replace('The {} ', '')} {r['bias']:.3f}" for r in m.items
            )
        if m.name == "default_log_he_she" and m.items:
            note += "; Figure 1: " + ", ".join(f"{r['pronoun']} {r['p']:.1e}" for r in m.items)
        bias.record(
            task,
            m.name,
            m.value,
            ci=m.ci,
            n=m.n,
            estimator=estimator,
            paper_value=m.paper_value,
            note=note,
            items=m.items,
        )
    if task == "ns":
        bias.save_figure("histograms", method.figure_histograms(scored))
    if task == "default":
        bias.save_figure("default-pronouns", method.figure_default(scored))
        text = method.format_tables(scored, metrics)
        print(text)
        if bias.figure_dir is not None:
            bias.figure_dir.mkdir(parents=True, exist_ok=True)
            safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in bias.model)
            (bias.figure_dir / f"natural_prompts-tables-{safe}.txt").write_text(text + "\n", encoding="utf-8")
    bias.check()
