"""politicians: everything a task reads besides the model, gathered once per language, when its task first
asks (`Reference.language`): a run that does not select a language's task, or skips it on a model that
does not cover the language, never reads its data.

1. Names: the mirrored politicians (`biascheck.data.politicians`) or the user's names file (setting
   ``politicians.names``, its rows of this language); a task with fewer than 200 names of women or of men
   is not applicable (`NotApplicable`: skipped), with the counts in the reason; so is one whose treebank
   has no adjective or verb forms.
2. Candidate forms per part of speech: the treebank's adjective / verb lemmas and their forms
   (`biascheck.data.lexicons`, `math.candidate_forms`), built once per machine (`candidate_forms_of`).
3. Sentiment of the lemmas: hard labels (VADER for English, Chen & Skiena otherwise) for the PMI gaps, and
   the soft lexicon q(s|w) (`biascheck.data.soft_sentiment`: en VADER + General Inquirer, otherwise Chen &
   Skiena, combined as Dirichlet pseudo-counts) for the latent model and the gated gaps.
4. `limit` (a quick look): that many names per gender, evenly spaced (`math.spread_subset`).
5. English only: the supersense classes of adjectives and verbs (`biascheck.data.supersenses`, Fig 3);
   the paper had none for the other languages, nor has the mirror.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path

import numpy as np
import pandas as pd

from biascheck.data import SOURCES, ReferenceData, lexicons, parsed_cache, politicians, soft_sentiment, supersenses
from biascheck.errors import NotApplicable
from biascheck.methods.politicians.math import candidate_forms, casing_variants, spread_subset
from biascheck.methods.politicians.spec import MIN_NAMES_PER_GENDER, POS
from biascheck.settings import ProbeSettings

BINARY = ("female", "male")


@dataclass(frozen=True)
class Candidates:
    """Step 2 for one language, the same for every model: every candidate form (sorted), the strings scored
    (each form's casings, `math.casing_variants`) with the index of their form (`owner`), which forms are of
    each part of speech (`of_pos`), and the strings' sha256 (what `score.one_token_candidates` is kept by)."""

    forms: list[str]
    strings: list[str]
    owner: np.ndarray
    of_pos: dict[str, np.ndarray]
    digest: str


@dataclass(frozen=True)
class Language:
    """One language's names, candidate forms and sentiment lexicon.

    names: columns name, gender (after `limit`); names_note: where they came from and what was skipped;
    forms: pos -> {form: lemma}; sentiment: lemma -> 'neg' / 'neu' / 'pos' (lexicon words only);
    lexicon: the hard lexicon's name; soft: the soft lexicon (when not given: `sentiment`'s labels as one
    lexicon's votes, `soft_sentiment.label_votes`); classes: pos -> (class names, word -> its classes), en
    only (step 5).
    """

    language: str
    names: pd.DataFrame
    names_note: str
    forms: dict[str, dict[str, str]]
    sentiment: dict[str, str]
    lexicon: str
    classes: dict[str, tuple[tuple[str, ...], dict[str, frozenset[str]]]] = field(default_factory=dict)
    soft: soft_sentiment.SoftLexicon | None = None

    @cached_property
    def candidates(self) -> Candidates:
        """`Candidates`, built on first use and kept with the language (across the models of a run: 0.5 s a
        checkpoint on 2 cores for the four languages)."""
        forms = sorted({f for pos in POS for f in self.forms[pos]})
        strings, owner = casing_variants(forms)
        of_pos = {pos: np.fromiter((f in self.forms[pos] for f in forms), dtype=bool, count=len(forms)) for pos in POS}
        for array in (owner, *of_pos.values()):
            array.setflags(write=False)
        digest = hashlib.sha256("\n".join(strings).encode("utf-8")).hexdigest()
        return Candidates(forms, strings, owner, of_pos, digest)

    def __post_init__(self) -> None:
        if self.soft is None:
            votes = soft_sentiment.label_votes(self.sentiment)
            alphas = soft_sentiment.combine([votes])
            soft = soft_sentiment.SoftLexicon(alphas, f"{self.lexicon}, soft", {self.lexicon: len(votes)})
            object.__setattr__(self, "soft", soft)

    def q(self, words) -> np.ndarray:
        """(len(words), 3) q(s|w) over (neg, neu, pos) from the soft lexicon (the Dirichlet means; a word in
        no lexicon 1/3 each, `biascheck.data.soft_sentiment`)."""
        assert self.soft is not None  # set in __post_init__
        return self.soft.q(list(words))


@dataclass(frozen=True)
class Reference:
    """Every task language's `Language`, each read by `loader` the first time its task asks and kept (a task
    is one language: `language(task)`). Why a language cannot be a task is kept as well, and said again."""

    loader: Callable[[str], Language]
    _loaded: dict[str, Language | str] = field(default_factory=dict, init=False, repr=False, compare=False)

    def language(self, task: str) -> Language:
        """The task's language, read on first use; `NotApplicable` with the reason when it cannot be a task
        (too few names of a gender, no forms of a part of speech)."""
        if task not in self._loaded:
            try:
                self._loaded[task] = self.loader(task)
            except NotApplicable as exc:
                self._loaded[task] = str(exc)
        found = self._loaded[task]
        if isinstance(found, str):
            raise NotApplicable(found)
        return found


def load(refdata: ReferenceData, settings: ProbeSettings) -> Reference:
    """Nothing is read here: each language when its task first asks (the names file and limit of the run)."""
    return Reference(partial(load_language, refdata, names_file=settings.names, limit=settings.limit))


def _skip_reason(counts: dict[str, int], language: str) -> str:
    short = {g: counts.get(g, 0) for g in BINARY if counts.get(g, 0) < MIN_NAMES_PER_GENDER}
    if not short:
        return ""
    have = ", ".join(f"{counts.get(g, 0):,} {g}" for g in BINARY)
    return (
        f"politicians[{language}]: {have} names; the sentiment gaps need at least {MIN_NAMES_PER_GENDER} names of "
        "each gender (100 words per gender)"
    )


def load_language(
    refdata: ReferenceData, language: str, names_file: Path | None = None, limit: int | None = None
) -> Language:
    """Steps 1-5 for one task language; `NotApplicable` when it cannot be a task (steps 1-2)."""
    got = (
        politicians.read_user_names(names_file, language)
        if names_file is not None
        else politicians.politician_names(refdata, language)
    )
    frame = got.frame[["name", "gender"]]
    skip = _skip_reason(got.counts(), language)
    if skip:
        raise NotApplicable(skip)
    forms = candidate_forms_of(refdata, language)
    if not all(forms.values()):
        raise NotApplicable(f"politicians[{language}]: no adjective or verb forms in the {language} treebank")
    lexicon = "VADER" if language == "en" else "Chen & Skiena (2014)"
    labels, soft = sentiment_of(refdata, language)
    classes = {}
    if language == "en":
        classes = {
            "adj": (supersenses.ADJ_SUPERSENSES, supersenses.adjective_supersenses(refdata)),
            "verb": (supersenses.VERB_SUPERSENSES, supersenses.verb_supersenses(refdata)),
        }
    return Language(
        language=language,
        names=spread_subset(frame, limit),
        names_note=got.note() + (f"; {limit} per gender scored (limit)" if limit else ""),
        forms=forms,
        sentiment=labels,
        lexicon=lexicon,
        soft=soft,
        classes=classes,
    )


def _mirror_sources(refdata: ReferenceData, names: Sequence[str]) -> list[str]:
    """The sha256 of the mirrored sources `names`, a parsed-data cache key, each verified and recorded as used
    (`ReferenceData.path`) as a build reading it would be."""
    for name in names:
        refdata.path(name)
    return [SOURCES[name].sha256 for name in names]


SENTIMENT_VERSION = 1  # bump when lexicons.sentiment_labels or soft_sentiment.soft_lexicon change what they return


def sentiment_of(refdata: ReferenceData, language: str) -> tuple[dict[str, str], soft_sentiment.SoftLexicon]:
    """Step 3's hard labels (`lexicons.sentiment_labels`) and soft lexicon (`soft_sentiment.soft_lexicon`), built
    once per machine and kept in the parsed-data cache, keyed by the sha256 of what they are read from (the lexicon
    files, and for Norwegian the treebank that names its function words): parsing them and averaging each word's
    votes takes 1.0-1.4 s for the four languages on 2 cores, reading them back 0.08 s."""
    if language == "en":
        sources = [lexicons.VADER_SHA256, lexicons.GI_SHA256]
    else:
        function_words = lexicons.TREEBANK_SOURCES[language] if language in lexicons.CLOSED_TAGS else ()
        sources = _mirror_sources(refdata, [lexicons.CHEN_SKIENA_SOURCE, *function_words])

    def build() -> dict:
        soft = soft_sentiment.soft_lexicon(refdata, language)
        alphas = {word: alpha.tolist() for word, alpha in soft.alphas.items()}
        return {
            "labels": lexicons.sentiment_labels(refdata, language),
            "alphas": alphas,
            "name": soft.name,
            "sizes": dict(soft.sizes),
        }

    got = parsed_cache.cached_json(refdata, f"politicians-sentiment-{language}", sources, SENTIMENT_VERSION, build)
    alphas = {word: np.array(alpha, dtype=float) for word, alpha in got["alphas"].items()}
    return got["labels"], soft_sentiment.SoftLexicon(alphas, got["name"], got["sizes"])


FORMS_VERSION = 1  # bump when candidate_forms, lexicons.lemmatizer or lexicons.pos_lemmas change what they return


def candidate_forms_of(refdata: ReferenceData, language: str) -> dict[str, dict[str, str]]:
    """Step 2 for both parts of speech, {pos: {form: lemma}}: built from the lemmatizer and the POS lemmas
    (2-5 s a language: parsing the treebank or the lemma tables) once per machine and kept in the parsed-data
    cache, keyed by the sha256 of the files they come from (`parsed_cache.cached_json`)."""
    if language in lexicons.TREEBANK_SOURCES:
        sources = _mirror_sources(refdata, lexicons.TREEBANK_SOURCES[language])
    else:
        tables = [f"{language}_lemma_{kind}.json.gz" for kind in ("lookup", "index")]
        sources = [lexicons.SPACY_LOOKUPS_SHA256[table] for table in tables]

    def build() -> dict[str, dict[str, str]]:
        lemmatizer = lexicons.lemmatizer(refdata, language)  # read once for both parts of speech
        return {pos: candidate_forms(lemmatizer, lexicons.pos_lemmas(refdata, language, pos)) for pos in POS}

    forms = parsed_cache.cached_json(refdata, f"politicians-forms-{language}", sources, FORMS_VERSION, build)
    return {pos: forms[pos] for pos in POS}
