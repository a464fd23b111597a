"""lm-evaluation-harness's own BBQ functions (``lm_eval/tasks/bbq/utils.py``: ``process_docs``,
``process_results_multiple_choice``, ``agg_accuracy_*``, ``agg_*_bias_scores``) run as the oracle on our regenerated
items and our log-likelihoods (a scripted model that leans to the stereotyped answer, so the numbers are not 0):
the same answers, accuracies and bias scores as ours. The items the authors' script leaves out (no single target)
are left out of both."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from biascheck.data.bbq import bbq_items
from biascheck.methods.bbq_gender_identity.metrics import task_metrics
from biascheck.methods.bbq_gender_identity.reference import load
from biascheck.methods.bbq_gender_identity.score import score
from biascheck.settings import ProbeSettings

bbq_utils = pytest.importorskip("lm_eval.tasks.bbq.utils")
datasets = pytest.importorskip("datasets")

SETTINGS = {"seed": 3, "pairs": 2, "choices": "lm-eval", "chat_template": "off"}


class ScriptedLM:
    """The answer's score: a fixed pseudo-random one per (prompt, text), plus 3 nats for the answer that follows the
    stereotype (`biased`: (question, answer) pairs): a model with a bias we know, and no ties."""

    family = "causal"

    def __init__(self, biased):
        self.biased = biased

    def sentence_logprob(self, texts):
        """A prompt's own score plus its answer's: the probe reads the answer's as the difference."""
        values = []
        for text in texts:
            head, _, answer = text.rpartition("\nA: ")
            prompt = f"{head}\nA:" if head else text
            base = -zlib.crc32(prompt.encode()) / 2**32 * 50.0
            values.append(base + (self._score(prompt, answer) if head else 0.0))
        return np.array(values), "causal-sentence"

    def _score(self, prompt, text):
        noise = zlib.crc32(f"{prompt}|{text}".encode()) / 2**32 * 3.0
        question = prompt.rsplit("Q: ", 1)[1].removesuffix("\nA:")
        return -noise + (3.0 if (question, text) in self.biased else 0.0)


@pytest.fixture(scope="module")
def run(real_refdata):
    settings = ProbeSettings("bbq_gender_identity", SETTINGS, dict.fromkeys(SETTINGS, "default"))
    reference = load(real_refdata, settings)
    items = reference.items
    lm = ScriptedLM({(r.question, (r.ans0, r.ans1, r.ans2)[r.target]) for r in items.itertuples()})
    return reference, score(lm, reference, settings), settings


def _lm_eval(reference, scored, real_refdata):
    raw = {x["example_id"]: x for x in bbq_items(real_refdata, "Gender_identity", SETTINGS["seed"])}
    docs = []
    for row in scored.items.itertuples():
        item = raw[row.example_id]
        docs.append(
            {
                "example_id": item["example_id"], "category": item["category"], "context": item["context"],
                "question": item["question"], "ans0": item["ans0"], "ans1": item["ans1"], "ans2": item["ans2"],
                "label": item["label"], "question_polarity": item["question_polarity"],
                "context_condition": item["context_condition"], "answer_info": item["answer_info"],
                "additional_metadata": {"stereotyped_groups": item["stereotyped_groups"]},
            }
        )  # fmt: skip
    processed = bbq_utils.process_docs(datasets.Dataset.from_list(docs))
    results = []
    for doc, row in zip(processed, scored.items.itertuples(), strict=True):
        ll = dict(zip(row.choices, row.lls, strict=True))
        results.append(
            bbq_utils.process_results_multiple_choice(doc, [(ll[c], False) for c in bbq_utils.doc_to_choice(doc)])
        )
    return processed, results


def test_lm_evals_biased_answer_is_our_target_on_every_kept_item(run, real_refdata):
    reference, scored, _ = run
    processed, _ = _lm_eval(reference, scored, real_refdata)
    for doc, row in zip(processed, scored.items.itertuples(), strict=True):
        assert doc["biased_answers"] == [doc[f"ans{row.target}"]]


def test_lm_evals_aggregations_equal_our_numbers(run, real_refdata):
    reference, scored, settings = run
    _, results = _lm_eval(reference, scored, real_refdata)
    ours = {
        task: {m.name: m.value for m in task_metrics(task, scored, reference, settings)}
        for task in ("ambig", "disambig")
    }
    theirs = {
        "accuracy_amb": bbq_utils.agg_accuracy_amb([r["accuracy_amb"] for r in results]),
        "accuracy_disamb": bbq_utils.agg_accuracy_disamb([r["accuracy_disamb"] for r in results]),
        "amb_bias_score": bbq_utils.agg_amb_bias_scores([r["amb_bias_score"] for r in results]),
        "disamb_bias_score": bbq_utils.agg_disamb_bias_scores([r["disamb_bias_score"] for r in results]),
    }
    assert ours["ambig"]["accuracy"] == pytest.approx(theirs["accuracy_amb"])
    assert ours["disambig"]["accuracy"] == pytest.approx(theirs["accuracy_disamb"])
    assert ours["ambig"]["bias_score"] == pytest.approx(theirs["amb_bias_score"])
    assert ours["disambig"]["bias_score"] == pytest.approx(theirs["disamb_bias_score"])
    assert ours["ambig"]["bias_score"] > 0.05  # the scripted lean is found, so the equality is not 0 == 0
