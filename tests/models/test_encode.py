"""`EngineModel._encode`: the Rust tokenizer's encode_batch read directly gives exactly what
transformers' tokenizer call gives (ids, offsets, special-token mask, token strings), on every
tokenizer kind the engine tests use; where the two disagree the wrapper is used."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from biascheck.models.common import EngineModel

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


def _as_model(tok):
    fake = SimpleNamespace(tokenizer=tok)
    fake._encode_wrapper = lambda unique, special: EngineModel._encode_wrapper(fake, unique, special)
    return fake


def _both(tok, special):
    fake = _as_model(tok)
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
    fake = _as_model(bert_tokenizer)
    real = fake._encode_wrapper
    fake._encode_wrapper = lambda unique, special: {
        t: replace(e, tokens=("x",)) for t, e in real(unique, special).items()
    }
    assert EngineModel._encode_backend(fake, sorted(TEXTS), True) is None


def test_a_tokenizer_without_a_backend_uses_the_wrapper():
    assert EngineModel._encode_backend(SimpleNamespace(tokenizer=object()), ["a"], True) is None
