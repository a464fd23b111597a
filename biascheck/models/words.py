"""Word log-probabilities from piece log-probabilities: which word of its sentence each piece belongs to (the
layout, depending on the texts and the tokenizer only, so a sweep keeps it for the next checkpoint), and the
sums a model's piece terms give. Used by both engines' `word_logprobs`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from biascheck.models.planning import ragged_index
from biascheck.models.text import word_of_piece, words_of

Word = tuple[str, int, int]  # the word, its start and end in its sentence


@dataclass(frozen=True)
class WordLayout:
    """words: per sentence, its words (`text.words_of`); piece_word: per piece of the sentences laid end to end,
    the index of its word among all the sentences' words laid end to end, -1 for a piece that belongs to none
    (a special token where those are skipped, trailing whitespace); n_words: how many words in all."""

    words: tuple[tuple[Word, ...], ...]
    piece_word: np.ndarray
    n_words: int
    word_sentence: np.ndarray  # per word laid end to end: its sentence, start and end (`WordColumns`)
    word_start: np.ndarray
    word_end: np.ndarray
    word_text: tuple[str, ...]  # per word laid end to end: its text (`word_sums`' tuples)
    sentence_ends: tuple[int, ...]  # per sentence: where its words end among all the words


@dataclass(frozen=True)
class WordColumns:
    """`word_sums`' numbers as arrays over all the sentences' words laid end to end: each word's sentence (index
    into the texts), start, end and sum of its pieces' terms."""

    sentence: np.ndarray
    start: np.ndarray
    end: np.ndarray
    logprob: np.ndarray


class WordScores(list):
    """`word_sums`' per-sentence lists of (word, start, end, sum), with the same numbers as `columns`: a caller that
    sums them per sentence (role nouns' 64,800 sentences a model) reads arrays, not a tuple per word."""

    columns: WordColumns


def word_layout(
    texts: Sequence[str], offsets: Sequence[Sequence[tuple[int, int]]], special: Sequence[Sequence[int]] | None
) -> WordLayout:
    """The layout of `texts`, given each text's pieces' character offsets; `special`: per text, which pieces are
    special tokens (they belong to no word), or None to place every piece (`text.word_of_piece`)."""
    words: list[tuple[Word, ...]] = []
    piece_word: list[int] = []
    base = 0
    for i, (text, spans) in enumerate(zip(texts, offsets, strict=True)):
        found = words_of(text)
        skip = special[i] if special is not None else (0,) * len(spans)
        for (a, b), sp in zip(spans, skip, strict=False):
            w = None if sp else word_of_piece(text, a, b, found)
            piece_word.append(-1 if w is None else base + w)
        piece_word.extend([-1] * (len(spans) - len(skip)))  # pieces past the special flags: none given
        words.append(tuple((w.text, w.start, w.end) for w in found))
        base += len(found)
    index = np.asarray(piece_word, dtype=np.int64)
    counts = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    sentence = np.repeat(np.arange(len(words), dtype=np.int64), counts)
    bounds = np.array([(a, b) for sentence_words in words for _, a, b in sentence_words], dtype=np.int64).reshape(-1, 2)
    start, end = np.ascontiguousarray(bounds[:, 0]), np.ascontiguousarray(bounds[:, 1])
    for array in (index, sentence, start, end):
        array.flags.writeable = False  # shared with the next model: read, never changed
    word_text = tuple(word for sentence_words in words for word, _, _ in sentence_words)
    ends = tuple(np.cumsum(counts).tolist())
    return WordLayout(tuple(words), index, base, sentence, start, end, word_text, ends)


def word_sums(layout: WordLayout, terms: np.ndarray) -> WordScores:
    """Per sentence, (word, start, end, the sum of its pieces' terms in piece order); NaN for a word none of whose
    pieces was placed in it, and a NaN term (an unscored piece) makes its word's sum NaN. `terms`: per piece,
    laid end to end as in the layout. The same numbers as arrays: the result's `columns`."""
    if len(terms) != len(layout.piece_word):
        raise ValueError(f"{len(terms)} piece terms for a layout of {len(layout.piece_word)} pieces")
    placed = layout.piece_word >= 0
    index = layout.piece_word[placed]
    sums = np.bincount(index, weights=np.asarray(terms, dtype=np.float64)[placed], minlength=layout.n_words)
    seen = np.bincount(index, minlength=layout.n_words) > 0
    logprob = np.where(seen, sums, np.nan)
    # Every word's tuple in one pass, then each sentence's slice of them (role nouns' 64,800 sentences: 267 -> 203 ms
    # a checkpoint against a tuple made word by word in Python).
    starts, ends = layout.word_start.tolist(), layout.word_end.tolist()
    flat = list(zip(layout.word_text, starts, ends, logprob.tolist(), strict=True))
    out = WordScores(flat[a:b] for a, b in zip((0, *layout.sentence_ends), layout.sentence_ends, strict=False))
    out.columns = WordColumns(layout.word_sentence, layout.word_start, layout.word_end, logprob)
    return out


def piece_positions(
    distinct: Sequence[str], starts: np.ndarray, lengths: np.ndarray, texts: Sequence[str]
) -> np.ndarray:
    """Where each piece of `texts` lies among the pieces of `distinct` laid end to end (text n's at
    ``starts[n] : starts[n] + lengths[n]``), in the order of `texts` (a text given twice: its pieces twice): an
    engine's flat terms taken at these are `word_sums`' input. Depends on the texts and the tokenizer alone."""
    at = {t: i for i, t in enumerate(distinct)}
    index = np.fromiter((at[t] for t in texts), dtype=np.int64, count=len(texts))
    size = np.asarray(lengths, dtype=np.int64)[index]
    positions = ragged_index(np.asarray(starts, dtype=np.int64)[index], size)
    positions.flags.writeable = False  # shared with the next model: read, never changed
    return positions
