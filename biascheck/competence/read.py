"""The guard's one call into the model layer: read a model's competence in one language (`math` decides)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from biascheck.competence import math
from biascheck.competence.items import Items, items_for
from biascheck.spec import SLOT

if TYPE_CHECKING:
    from biascheck.scoring import LanguageModel


def read(lm: LanguageModel, language: str, items: Items | None = None) -> math.Competence | None:
    """The model's `Competence` in `language`, or None when the guard has no items for it.

    Tokens: the language's gendered words in the slot that ends the first frame's text before its
    slot (`slot_vocab`: one token id each, or -1), against the tokenizer's unknown token. Definitional
    reading: both pronouns in every template (`fill_slot`: masked slot or causal sentence), one call.
    Clusters of the sign test: the items' cues, joined by the nouns' lengths in the model's tokens.
    `items`: other items than the language's (lab/scripts/guard_false_pass.py reads the previous ones)."""
    items = items_for(language) if items is None else items
    if items is None:
        return None
    probe_text = items.frames[0].split(SLOT)[0].format(n=items.pairs[0][1]) + SLOT
    tokens = lm.slot_vocab([probe_text], list(items.token_words))
    problems = math.token_problems(items.token_words, _ids(tokens.token_ids), lm.unknown_token_id)
    scores = lm.fill_slot(items.templates(), list(items.pronouns))
    lean = scores.logprob[:, 0] - scores.logprob[:, 1]
    clusters = math.clusters(items.cues or ("",) * len(items.pairs), noun_lengths(lm, items))
    return math.competence(items.language, items.pairs, lean, len(items.frames), scores.estimator, problems, clusters)


def noun_lengths(lm: LanguageModel, items: Items) -> list[tuple[int, int]] | None:
    """Per pair, (female, male) noun length in the model's tokens: the first frame's text with the noun and
    the female pronoun, counted by the model's tokenizer (None for a model without one, as a fake)."""
    tokenizer = getattr(lm, "tokenizer", None)
    if tokenizer is None:
        return None
    frame = items.frames[0].replace(SLOT, items.pronouns[0])
    texts = [frame.format(n=noun) for pair in items.pairs for noun in pair]
    counts = [len(ids) for ids in tokenizer(texts, add_special_tokens=False)["input_ids"]]
    return list(zip(counts[0::2], counts[1::2], strict=True))


def _ids(token_ids: np.ndarray | None) -> list[int] | None:
    return None if token_ids is None else [int(t) for t in token_ids]
