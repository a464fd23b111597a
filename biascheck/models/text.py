"""Template filling and piece finding, shared by the masked and causal engines (no torch here).

The one rule: a candidate is never tokenized on its own. The template is filled with the
candidate, the *filled* text is tokenized with character offsets, and the candidate's pieces are
the non-special pieces whose character spans overlap the candidate's span, plus a whitespace-only
piece directly before it (a split-off ``Ġ``/``▁``: the word's leading space). A piece may reach past
the candidate only over whitespace (``Ġhe`` / ``▁he`` carry the space before the word); a piece
that also covers other characters (``'s``, ``.`` merged into the word, or a word glued to the
previous one) means the candidate cannot be scored on its own, and is a `TokenizationError`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from biascheck.errors import TokenizationError
from biascheck.models.base import BLANK, SLOT, TemplateError, candidate_rows_width


def check_templates(templates: Sequence[str]) -> None:
    if isinstance(templates, str):
        raise TemplateError(
            f"templates must be a list of strings, got the single string {templates!r}; wrap it in [...]."
        )
    for t in templates:
        if not isinstance(t, str):
            raise TemplateError(f"template {t!r} is not a string.")
        n = t.count(SLOT)
        if n != 1:
            raise TemplateError(
                f"template {t!r} has {n} {SLOT} markers; it needs exactly one (the place the candidate goes)."
            )


def check_candidates(candidates: Sequence[str]) -> None:
    if isinstance(candidates, str):
        raise TemplateError(
            f"candidates must be a list of strings, got the single string {candidates!r}; wrap it in [...]."
        )
    for c in candidates:
        if not isinstance(c, str) or not c.strip():
            raise TemplateError(f"candidate {c!r} is empty or not a string; candidates are words such as 'he'.")
        if c != c.strip():
            raise TemplateError(f"candidate {c!r} has surrounding whitespace; pass the bare word ({c.strip()!r}).")
        if SLOT in c or BLANK in c:
            raise TemplateError(f"candidate {c!r} contains a {SLOT}/{BLANK} marker.")


def check_candidate_rows(prompts: Sequence[str], candidates: Sequence[Sequence[str]]) -> int:
    """Candidates of their own for every prompt (`next_token_rows`): the rows' shape
    (`base.candidate_rows_width`) and every row's candidates valid; returns the row width."""
    width = candidate_rows_width(prompts, candidates)
    for row in candidates:
        check_candidates(row)
    return width


def check_texts(texts: Sequence[str], what: str) -> None:
    if isinstance(texts, str):
        raise TemplateError(f"{what} must be a list of strings, got the single string {texts!r}; wrap it in [...].")
    for t in texts:
        if not isinstance(t, str):
            raise TemplateError(f"{what[:-1]} {t!r} is not a string.")
        if SLOT in t:
            raise TemplateError(f"{what[:-1]} {t!r} contains {SLOT}; use fill_slot for templates.")


def fill(template: str, candidate: str, blank: str | None) -> tuple[str, int, int]:
    """Filled text and the candidate's character span.

    blank: the text each BLANK becomes (masked: the mask token), or None to cut the text just
    before the first BLANK and strip the trailing whitespace (causal).
    """
    before, after = template.split(SLOT)
    if blank is None:
        if BLANK in before:
            raise TemplateError(
                f"template {template!r}: a causal LM reads left to right, so {SLOT} cannot come after {BLANK} "
                f"(the text is cut at the first {BLANK})."
            )
        if BLANK in after:
            after = after[: after.index(BLANK)].rstrip()
    else:
        before = before.replace(BLANK, blank)
        after = after.replace(BLANK, blank)
    start = len(before)
    return before + candidate + after, start, start + len(candidate)


def covering_pieces(
    text: str,
    offsets: Sequence[tuple[int, int]],
    special: Sequence[int],
    start: int,
    end: int,
    *,
    what: str,
    tokens: Sequence[str] = (),
) -> list[int]:
    """Indices of the non-special pieces that overlap text[start:end] (contiguous, at least one).

    Raises TokenizationError when a piece also covers non-whitespace text outside the span.
    """
    found: list[int] = []
    for i, ((a, b), sp) in enumerate(zip(offsets, special, strict=False)):
        if sp or a >= b or a >= end or b <= start:
            continue
        if text[a:start].strip() or text[end:b].strip():
            pieces = [tokens[j] if tokens else f"#{j}" for j in range(len(offsets)) if not special[j]]
            raise TokenizationError(
                f"{what}: the word piece {text[a:b]!r} (chars {a}-{b}) covers the candidate {text[start:end]!r} "
                f"together with neighbouring text, so the candidate cannot be scored on its own. Pieces: {pieces}. "
                "Put a space or other separator between the candidate and the surrounding text, or pick a "
                "different candidate."
            )
        found.append(i)
    if not found:
        raise TokenizationError(f"{what}: no word piece covers {text[start:end]!r} in {text!r}.")
    # A space-only piece right before the word (``Ġ``/``▁`` split off, often with zero-width
    # trimmed offsets) is the word's own leading-space piece: it belongs to the candidate.
    ws_start = start
    while ws_start > 0 and text[ws_start - 1].isspace():
        ws_start -= 1
    j = found[0] - 1
    while j >= 0 and not special[j] and ws_start <= offsets[j][0] <= offsets[j][1] <= start:
        found.insert(0, j)
        j -= 1
    if found != list(range(found[0], found[-1] + 1)):
        raise TokenizationError(f"{what}: the pieces of {text[start:end]!r} in {text!r} are not contiguous: {found}.")
    return found


_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Word:
    text: str
    start: int
    end: int


def words_of(text: str) -> list[Word]:
    return [Word(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


_SPACES = re.compile(r"\s*")


def word_of_piece(text: str, a: int, b: int, words: Sequence[Word]) -> int | None:
    """Index of the word a piece belongs to: the word holding its first non-whitespace character;
    a whitespace-only (or zero-width) piece belongs to the word right after it. None: trailing space."""
    spaces = _SPACES.match(text, a)
    assert spaces is not None  # \s* matches everywhere, the empty string included
    pos = spaces.end()
    for w_i, w in enumerate(words):
        if w.start <= pos < w.end:
            return w_i
    return None
