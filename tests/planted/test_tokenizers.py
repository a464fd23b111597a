"""The planted models' tokenizers: the same corpus always gives the same tokenizer, and every text
can be spelled (no [UNK]), so a probe word outside the corpus is read in pieces like a rare word."""

from __future__ import annotations

from collections import Counter

import pytest

from biascheck.planted.train import SPECIAL_MASKED, pre_tokenize, train_tokenizer, wordpiece_vocab

pytest.importorskip("tokenizers")

CORPUS = [
    "She has been a nurse for ten years.",
    "He trained hard to become a carpenter.",
    "The nurse told us that she would be late.",
    "Hun har vært sykepleier i ti år.",
] * 3


def test_the_wordpiece_vocabulary_is_specials_letters_then_words_by_frequency():
    vocab = wordpiece_vocab(CORPUS, vocab_size=10_000)
    assert vocab[: len(SPECIAL_MASKED)] == SPECIAL_MASKED
    assert {"a", "##a", "å", "##å", "ø", "##ø", ".", "##."} <= set(vocab)
    chars = [t for t in vocab[len(SPECIAL_MASKED) :] if len(t) == 1]
    words = vocab[len(SPECIAL_MASKED) + 2 * len(chars) :]
    counts = Counter(w for sentence in CORPUS for w in pre_tokenize(sentence))
    assert [(-counts[w], w) for w in words] == sorted((-counts[w], w) for w in words)  # most frequent first
    assert {"nurse", "sykepleier", "år"} <= set(words)
    assert len(vocab) == len(set(vocab))
    capped = wordpiece_vocab(CORPUS, vocab_size=len(vocab) - 5)
    assert len(capped) == len(vocab) - 5 and capped == vocab[:-5]  # the rarest words go first


@pytest.mark.parametrize("family", ["masked", "causal"])
def test_the_same_corpus_gives_the_same_tokenizer(family):
    first = train_tokenizer(family, CORPUS, 300)
    second = train_tokenizer(family, list(CORPUS), 300)
    assert first.backend_tokenizer.to_str() == second.backend_tokenizer.to_str()


def test_a_word_outside_the_corpus_is_spelled_in_pieces_not_unknown():
    tok = train_tokenizer("masked", CORPUS, 10_000)
    assert tok.tokenize("She would be a nurse.") == ["she", "would", "be", "a", "nurse", "."]
    pieces = tok.tokenize("The xylophonist works.")
    assert "[UNK]" not in pieces and pieces[:3] == ["the", "x", "##y"]
    assert pre_tokenize("The nurse's day, ended.") == ["the", "nurse", "'", "s", "day", ",", "ended", "."]
