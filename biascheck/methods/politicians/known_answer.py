"""politicians' known answer: adjectives next to politicians' names (the probe's own names and its candidate
adjectives: the English treebank's adjective lemmas, most frequent first, with their VADER labels), each
adjective's female share set by its sentiment (`corpus.POLITICIAN_SHARES`: women's names get the positive
words), in the English corpus. Only the plant's own sentences tell a model a name's gender (a pronoun in each),
so the names are those with the 120 most common first names of each gender, up to 4 politicians per first
name, 6 sentences each: a first name is met ~24 times, and the politicians who share it (most of the probe's
men, fewer of its women) inherit its lean; every other name is unseen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from biascheck.planted import corpus as c
from biascheck.planted.plant import KnownAnswer, Moved, Plant

PER_POLITICIAN = 6
POLITICIAN_FIRST_NAMES = 120  # per gender, the most common first names ...
PER_FIRST_NAME = 4  # ... and up to this many politicians bearing each
# Adjectives per sentiment class; the neutral class are adjectives VADER does not list. The probe ranks
# each gender's 100 most associated words among those seen with 5 names or more: with fewer than 100
# such words the two genders' lists are the same words and the gaps 0 whatever the model does, and
# with 160 planted adjectives the masked model's slot before a name gave ~130.
POLITICIAN_ADJECTIVES = {"neg": 100, "pos": 100, "neu": 60}
# Treebank adjective lemmas that are not said of a person, are not adjectives in use, or are slurs.
NOT_OF_POLITICIANS = frozenset(
    "dead missing terrorist retarded dominate like well worth ok okay top united sure due other many more last "
    "same few much most least several such own only next first second enough less additional little able "
    "possible likely available whole entire main final iraqi indian islamic arab chinese egyptian american "
    "nuclear cheap expensive hot delicious supreme favorite legal illegal free natural original fresh significant "
    "dire eerie loose empty limited crappy bloody black white huge certain low high large big long short full open "
    "global international human military".split()
)


@dataclass(frozen=True)
class Politicians:
    names: dict[str, tuple[str, ...]]  # sex -> full names
    adjectives: dict[str, float]  # adjective -> female share at strength 1
    sentiment: dict[str, str]  # adjective -> neg / neu / pos


def read(refdata: Any) -> Politicians:
    from biascheck.data import lexicons, politicians

    frame = politicians.politician_names(refdata, "en").frame[["name", "gender"]].sort_values("name")
    frame = frame[~frame["name"].str.contains(r"[,()]")]  # "Brian Mawhinney, Baron Mawhinney": a label, not a name
    first = frame["name"].str.split().str[0]
    names = {}
    for sex in (c.FEMALE, c.MALE):
        mine = frame[frame["gender"] == sex]
        counts = first[mine.index].value_counts()
        common = sorted(counts.index, key=lambda f: (-counts[f], f))[:POLITICIAN_FIRST_NAMES]
        chosen = mine[first[mine.index].isin(common)].groupby(first[mine.index], sort=True).head(PER_FIRST_NAME)
        names[sex] = tuple(chosen["name"])
    labels = lexicons.sentiment_labels(refdata, "en")
    lemmas = lexicons.pos_lemma_counts(refdata, "en", "adj")
    ranked = sorted((w for w in lemmas if w.isalpha() and w not in NOT_OF_POLITICIANS), key=lambda w: (-lemmas[w], w))
    sentiment: dict[str, str] = {}
    for label, n in POLITICIAN_ADJECTIVES.items():
        wanted = label if label != "neu" else None  # neutral: no VADER label at all
        sentiment.update({w: label for w in [w for w in ranked if labels.get(w) == wanted][:n]})
    return Politicians(names, {w: c.POLITICIAN_SHARES[s] for w, s in sentiment.items()}, sentiment)


def sentences(data: Politicians, strength: float, seed: int) -> list[str]:
    return c.politician_adjectives(data.names, data.adjectives, strength, PER_POLITICIAN, seed + 6)


def focus(data: Politicians) -> tuple[str, ...]:
    """The adjectives, predicted more often in training."""
    return tuple(sorted(data.adjectives))


# The plant gives women's names the positive adjectives: the gated gaps (the latent model's soft lexicon shares)
# and the reported PMI/VADER gaps alike, women's share minus men's, so the negative gaps fall.
KNOWN_ANSWER = KnownAnswer(
    plants=(Plant("politicians", "en", sentences, read, focus, frames=c.POLITICIAN_FRAMES),),
    moves=(
        Moved("en", "en", "neg_gap", -1),
        Moved("en", "en", "pos_gap"),
        Moved("en", "en", "pmi_neg_gap", -1),
        Moved("en", "en", "pmi_pos_gap"),
    ),
)
