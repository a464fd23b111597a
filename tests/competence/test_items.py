"""The guard's items: well formed, and held out from every probe's templates and every planted corpus."""

import pytest

from biascheck.competence.items import BY_LANGUAGE, items_for
from biascheck.planted import definitional
from biascheck.spec import SLOT


@pytest.mark.parametrize("language", list(BY_LANGUAGE))
def test_items_are_well_formed(language):
    items = BY_LANGUAGE[language]
    assert len(items.pairs) == 20 and len({n for p in items.pairs for n in p}) == 40
    assert set(items.pronouns) <= set(items.token_words)
    for frame in items.frames:
        assert frame.count(SLOT) == 1 and frame.count("{n}") == 1 and frame.index("{n}") < frame.index(SLOT)
    assert len(items.templates()) == len(items.frames) * 40
    assert len(items.cues) == len(items.pairs)
    clusters = items.clusters()
    assert all(clusters.count(c) > 1 for c in set(clusters) if items.cues[clusters.index(c)])  # a cue is shared


@pytest.mark.parametrize("language", list(BY_LANGUAGE))
def test_the_nouns_of_a_pair_differ_in_the_noun_alone(language):
    """No gendered article or determiner: its token would move every pair's gap the same way in a model
    that reads nothing (issue 54: a random Llama read the la/le French pairs 20 of 20). A pair's nouns
    share every word but the last."""
    for female, male in BY_LANGUAGE[language].pairs:
        assert female.split()[:-1] == male.split()[:-1] and female.split()[-1] != male.split()[-1], (female, male)


def test_every_probe_language_has_items():
    from biascheck.catalog import PROBES

    languages = {PROBES[p].language_of(t) for p in PROBES for t in (None, *PROBES[p].tasks)}
    assert all(items_for(language) is not None for language in languages), languages


def _words(text):
    return [w.strip(".,;").lower() for w in text.replace(SLOT, " ").replace("{n}", " ").replace("{s}", " ").split()]


@pytest.mark.parametrize("language", ["en", "no"])
def test_the_planted_corpora_teach_in_other_frames(language):
    """A planted model passes the guard by generalising to new frames, not by recall: no corpus frame shares
    four or more words in a row with a guard frame."""

    def grams(text):
        words = _words(text)
        return {tuple(words[i : i + 4]) for i in range(len(words) - 3)}

    guard = set().union(*(grams(f) for f in items_for(language).frames))
    for frame in definitional.FRAMES[language]:
        assert not grams(frame) & guard, frame
