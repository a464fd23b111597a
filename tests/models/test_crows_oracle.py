"""crows_pairs_gender on masked LMs equals the authors' own scoring: the repository's ``metric.py`` (declared
source ``crows_pairs_metric``, sha256-checked), its functions run as written on the same model, tokenizer
and pairs, gives the same two scores per pair (the PLL of the tokens both sentences share)."""

from __future__ import annotations

import numpy as np
import pytest

from biascheck.data.crows_pairs import crows_pairs
from biascheck.methods.crows_pairs_gender.reference import Reference
from biascheck.methods.crows_pairs_gender.score import MLM_UNMODIFIED, score
from biascheck.methods.crows_pairs_gender.spec import PROBE
from biascheck.models.masked import MaskedLM
from biascheck.settings import settings_of


@pytest.fixture(scope="module")
def authors_metric(real_refdata):
    """metric.py's functions; the file ends by parsing the command line and evaluating, which is cut off."""
    path = real_refdata.path("crows_pairs_metric")
    source = path.read_text()
    namespace: dict = {}
    exec(compile(source[: source.index("parser = argparse.ArgumentParser()")], str(path), "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def gender_pairs(real_refdata):
    pairs = crows_pairs(real_refdata, "gender")
    return pairs.iloc[np.linspace(0, len(pairs) - 1, 24).round().astype(int)]  # stereo and antistereo rows


@pytest.mark.parametrize(("fixture", "uncased"), [("bert_real", True), ("bert_tiny", True), ("roberta_tiny", False)])
def test_masked_scores_equal_the_authors_metric(fixture, uncased, request, authors_metric, gender_pairs):
    import torch

    model, tok = request.getfixturevalue(fixture)
    lm = {
        "model": model,
        "tokenizer": tok,
        "mask_token": tok.mask_token,
        "log_softmax": torch.nn.LogSoftmax(dim=0),
        "uncased": uncased,
    }
    ours = score(MaskedLM(model, tok), Reference(gender_pairs), settings_of(PROBE))
    assert ours.estimator == MLM_UNMODIFIED and set(ours.pairs["stereo_antistereo"]) == {"stereo", "antistereo"}
    with torch.inference_mode():
        for r in ours.pairs.itertuples():
            theirs = authors_metric["mask_unigram"]({"sent1": r.sent_more, "sent2": r.sent_less}, lm)
            assert r.score_more == pytest.approx(theirs["sent1_score"], abs=2e-4, rel=1e-5), r.row
            assert r.score_less == pytest.approx(theirs["sent2_score"], abs=2e-4, rel=1e-5), r.row


@pytest.mark.parametrize("fixture", ["bert_tiny", "gpt2_tiny"])
def test_token_logprobs_sum_to_the_sentence_score(fixture, request):
    from biascheck.models.causal import CausalLM

    model, tok = request.getfixturevalue(fixture)
    lm = MaskedLM(model, tok) if fixture.startswith("bert") else CausalLM(model, tok)
    sentences = ["The nurse said that she would come.", "He is an engineer."]
    terms = lm.token_logprobs(sentences)
    whole, _ = lm.sentence_logprob(sentences)
    for t, s, expected in zip(terms, sentences, whole, strict=True):
        assert len(t.ids) == len(t.logprob)
        assert float(np.nansum(t.logprob)) == pytest.approx(expected, rel=1e-6)
        if fixture.startswith("bert"):  # [CLS] ... [SEP], unscored
            assert t.ids[0] == tok.cls_token_id and t.ids[-1] == tok.sep_token_id
            assert np.isnan(t.logprob[[0, -1]]).all() and not np.isnan(t.logprob[1:-1]).any()
        else:
            assert list(t.ids) == tok(s, add_special_tokens=False)["input_ids"]
