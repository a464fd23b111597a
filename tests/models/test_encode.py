"""`EngineModel._encode`: the Rust tokenizer's encode_batch read directly gives exactly what
transformers' tokenizer call gives (ids, offsets, special-token mask, token strings), on every
tokenizer kind the engine tests use; where the two disagree the wrapper is used."""

from __future__ import annotations

import re
from dataclasses import replace
from types import MethodType, SimpleNamespace

import pytest

from biascheck.errors import TokenizationError
from biascheck.models.common import EngineModel
from biascheck.models.text import covering_pieces

TEXTS = [
    "He is a nurse.",
    "She is an engineer.",
    "  two  spaces  ",
    "Sykepleieren sa at hun var sliten på Hamar.",
    "L'unité s'épanouit à Paris, dit-elle.",
    "naïve café Ölig",
    "[MASK] is a doctor.",
    "<mask> works.",
    "<|endoftext|>He",
    "They’re here — “quoted” …",
    "emoji 🙂 and 日本語",
    "phlebologist",
    "Ada Lovelace former",
    "\ttab\nnewline",
    "ALL CAPS WORDS",
]


def _as_engine(tok, wrapper=None, digest=None):
    """An object on which EngineModel's tokenizing methods run: the tokenizer alone, no model (`digest`: the
    tokenizer's, as a loaded model's info carries it)."""
    info = SimpleNamespace(extra={} if digest is None else {"tokenizer_sha256": digest})
    fake = SimpleNamespace(tokenizer=tok, info=info, _check_lengths=lambda texts, lengths: None)
    for name in ("_encode", "_encode_backend", "_backend_encodings", "_slot_pieces"):
        setattr(fake, name, MethodType(getattr(EngineModel, name), fake))
    fake._encode_wrapper = wrapper or MethodType(EngineModel._encode_wrapper, fake)
    return fake


def _both(tok, special):
    fake = _as_engine(tok)
    unique = sorted(set(TEXTS))
    return EngineModel._encode_backend(fake, unique, special), EngineModel._encode_wrapper(fake, unique, special)


@pytest.mark.parametrize(
    "fixture", ["bert_tokenizer", "roberta_tokenizer", "xlmr_tokenizer", "gpt2_tokenizer", "llama_tokenizer"]
)
@pytest.mark.parametrize("special", [True, False])
def test_the_backend_path_equals_the_tokenizer_call(fixture, special, request):
    backend, wrapper = _both(request.getfixturevalue(fixture), special)
    assert backend is not None, "the backend path should be taken for a fast tokenizer"
    assert backend == wrapper


def test_a_disagreement_on_the_first_text_falls_back_to_the_wrapper(bert_tokenizer):
    fake = _as_engine(bert_tokenizer)
    real = fake._encode_wrapper
    fake._encode_wrapper = lambda unique, special: {
        t: replace(e, tokens=("x",)) for t, e in real(unique, special).items()
    }
    assert EngineModel._encode_backend(fake, sorted(TEXTS), True) is None


def test_a_tokenizer_without_a_backend_uses_the_wrapper():
    assert EngineModel._encode_backend(_as_engine(object()), ["a"], True) is None


def _text_by_text(fake, text, span, special):
    """`covering_pieces` on the wrapper's encoding: (token id or -1, pieces) or the error's message."""
    e_ = EngineModel._encode_wrapper(fake, [text], special)[text]
    try:
        got = covering_pieces(text, e_.offsets, e_.special, *span, what=f"word {span}", tokens=e_.tokens)
    except TokenizationError as exc:
        return str(exc)
    return (e_.ids[got[0]] if len(got) == 1 else -1, len(got))


@pytest.mark.parametrize(
    "fixture", ["bert_tokenizer", "roberta_tokenizer", "xlmr_tokenizer", "gpt2_tokenizer", "llama_tokenizer"]
)
@pytest.mark.parametrize("special", [True, False])
def test_slot_pieces_equal_covering_pieces_text_by_text(fixture, special, request):
    """Every word of every text as the span: the same id and piece count in one batch, and where a piece also
    covers neighbouring text, the same TokenizationError (with the token strings) for that text."""
    fake = _as_engine(request.getfixturevalue(fixture))
    cases = [(text, m.span()) for text in TEXTS for m in re.finditer(r"\w+", text)]
    expected = [_text_by_text(fake, text, span, special) for text, span in cases]
    clean = [n for n, e in enumerate(expected) if not isinstance(e, str)]
    ids, pieces = fake._slot_pieces(
        [cases[n][0] for n in clean], [cases[n][1] for n in clean], add_special_tokens=special, what=str
    )
    assert list(zip(ids.tolist(), pieces.tolist(), strict=True)) == [expected[n] for n in clean]
    for n, message in ((n, e) for n, e in enumerate(expected) if isinstance(e, str)):
        text, span = cases[n]
        with pytest.raises(TokenizationError) as raised:
            fake._slot_pieces([text], [span], add_special_tokens=special, what=lambda j, s=span: f"word {s}")
        assert str(raised.value) == message and raised.value.__context__ is None  # one error, not two chained


def test_slot_pieces_without_the_backend_path_are_the_same(bert_tokenizer):
    real = _as_engine(bert_tokenizer)
    disagreeing = _as_engine(bert_tokenizer)
    disagreeing._encode_wrapper = lambda unique, special: {
        t: replace(e, tokens=("x",)) for t, e in EngineModel._encode_wrapper(disagreeing, unique, special).items()
    }
    texts = ["He is a nurse.", "She is an engineer.", "phlebologist"]
    spans = [(0, 2), (10, 18), (0, 12)]
    assert disagreeing._backend_encodings(texts, True) is None
    got = disagreeing._slot_pieces(texts, spans, add_special_tokens=True, what=str)
    want = real._slot_pieces(texts, spans, add_special_tokens=True, what=str)
    assert all((a == b).all() for a, b in zip(got, want, strict=True)) and want[1].tolist() == [1, 1, 4]


def test_a_second_model_with_the_same_tokenizer_reads_the_first_ones_encodings(bert_tokenizer, gpt2_tokenizer):
    """Encodings are kept for the process by the tokenizer's digest: the next checkpoint of a sweep tokenises only
    the texts the first did not; a model with another tokenizer starts afresh (and drops the first's)."""
    from biascheck.models import memo

    memo.clear()
    calls: list[list[str]] = []

    def counting(tok, digest):
        fake = _as_engine(tok, digest=digest)
        real = fake._encode_backend

        def backend(texts, special):
            calls.append(list(texts))
            return real(texts, special)

        fake._encode_backend = backend
        return fake

    first = counting(bert_tokenizer, "bert")._encode(TEXTS[:10], add_special_tokens=True)
    second = counting(bert_tokenizer, "bert")._encode(TEXTS, add_special_tokens=True)
    assert calls == [sorted(set(TEXTS[:10])), sorted(set(TEXTS) - set(TEXTS[:10]))]
    assert {t: second[t] for t in first} == first
    assert second == _as_engine(bert_tokenizer)._encode(TEXTS, add_special_tokens=True)  # no memo: the same
    counting(bert_tokenizer, "bert")._encode(TEXTS, add_special_tokens=False)  # another key: tokenised again
    assert calls[-1] == sorted(set(TEXTS))
    other = counting(gpt2_tokenizer, "gpt2")._encode(TEXTS[:3], add_special_tokens=False)
    assert calls[-1] == sorted(set(TEXTS[:3])) and set(memo._ENCODINGS) == {("gpt2", False)}
    assert other == _as_engine(gpt2_tokenizer)._encode(TEXTS[:3], add_special_tokens=False)
    memo.clear()


def test_token_names_are_looked_up_when_read_and_equal_their_tuple():
    """`TokenNames` defers the id -> string lookup to the first read (an error message), and is then the
    tuple convert_ids_to_tokens would give: equal to it, hashed, shown and indexed like it."""
    from biascheck.models.common import TokenNames

    looked: list[int] = []
    names = TokenNames((5, 7, 5), lambda i: looked.append(i) or f"t{i}")
    assert len(names) == 3 and looked == []
    assert names == ("t5", "t7", "t5") and ("t5", "t7", "t5") == names and looked == [5, 7, 5]
    assert names[1] == "t7" and list(names) == ["t5", "t7", "t5"] and repr(names) == "('t5', 't7', 't5')"
    assert hash(names) == hash(("t5", "t7", "t5")) and looked == [5, 7, 5]  # looked up once
    assert names != ("t5",) and names != "t5t7t5"
