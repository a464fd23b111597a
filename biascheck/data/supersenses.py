"""Supersenses of the politicians probe (paper 003, Stańczak et al. 2023, §5.1.1, Fig 3, S5 Text Tabs 14-15):
the semantic class of an adjective (13 classes, Tsvetkov et al. 2014) or a verb (the 15 WordNet verb
lexicographer files). A word may have several classes (one per sense), so every map is word -> frozenset.

1. Adjectives, seed: ``data/seed.txt`` of ytsvetko/adjective_supersense_classifier @ 5a7c1d3
   (``tsvetkov_adj_seed``), lines ``word<TAB>CLASS``: 1,294 lines, 1,223 distinct words (all lower-case
   letters), 65 of them on 2 or 3 lines with different classes. All 13 classes occur.
2. Adjectives, crowd labels: ``data/MTurk/adjectives+annotations+MACE.txt`` (``tsvetkov_adj_mturk``), CRLF,
   one blank line. Despite the README's "word", a row is a WordNet 3.0 synset written ``('cheerful.a.01')``
   (486 rows, all ``.a.``), then the workers' labels in one comma-separated column (234 slots, 4-16 filled;
   besides the 13 classes workers could answer ``context``, 82 times), then 14 ``LABEL score`` columns, best first: the
   MACE aggregate the README calls the aggregated label. A synset keeps its best-scoring label among the 13
   classes (the first column in every pinned row; ``context`` never comes first). MACE, which weighs each
   worker by estimated reliability, is preferred to the workers' plurality, as the authors aggregate; the two
   differ for 12 synsets, not always for the better (``passionate.a.01`` FEELING, plurality PERCEPTION; but
   ``cheerful.a.01`` WEATHER, plurality BODY/FEELING tied; ``bad.a.01`` BODY, plurality FEELING).
   The word is the synset name's lemma (``cheerful``; ``_`` would become a space, none has one): WordNet 3.0's
   other lemmas of the synset are not in the mirror, so they stay unlabelled. 486 synsets -> 468 words.
3. `adjective_supersenses`: the union of steps 1-2 (a word keeps every class either gives it), class names
   lower-cased as the data spells them (``miscellaneous``, which Tab 14 abbreviates "Misc."): 1,548 words, 119
   with more than one class. 143 words are in both lists; for 51 of them the two share no class. 69 of Tab
   14's 77 example words carry their row's class; ``cheerful`` is behavior + weather here, ``tame``,
   ``willing``, ``pleasant``, ``taut``, ``smellier``, ``adjacent`` are in neither list, ``compact`` is
   substance. The classifier's predictions (``data/predicted_supersenses/*.predicted``, 7,511 words) are not
   read: the mirror marks them noisy, and a label the probe tests on must be one a person gave.
4. Verbs: Open English WordNet @ d94538a, ``src/yaml/verb.<class>.yaml`` (``oewn_verb_<class>``, the 15
   classes of Tab 15). Each file maps synset ids (``01159300-v:``) to fields; the lemmas are the synset's
   ``members`` list (the ``entries-*.yaml`` files that map lemmas to senses are not mirrored and not needed).
   13,821 synsets, 25,148 memberships (43 capitalised, ``Islamize``; 2 YAML-quoted, ``'true'``, ``'off'``).
   `verb_supersenses`: lower-cased member -> the classes of the files it has a synset in: 11,609 lemmas
   (2,852 multiword, ``take in``), 3,926 with more than one class; ``eat`` is change, consumption and emotion
   (``what's eating you?``). 58 of Tab 15's 59 example verbs carry their row's class (not ``mary``, a typo of
   ``marry``, which is social).

Files are read once per process (cached by resolved path); parsers are pure functions over text, and a line
they cannot read is a DataError naming the file and the line.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from biascheck.data import ReferenceData
from biascheck.data.sources import SOURCES
from biascheck.errors import DataError

ADJ_SUPERSENSES = (
    "behavior", "body", "feeling", "mind", "miscellaneous", "motion", "perception",
    "quantity", "social", "spatial", "substance", "temporal", "weather",
)  # fmt: skip
VERB_SUPERSENSES = (
    "body", "change", "cognition", "communication", "competition", "consumption", "contact", "creation",
    "emotion", "motion", "perception", "possession", "social", "stative", "weather",
)  # fmt: skip
SEED_SOURCE = "tsvetkov_adj_seed"
MTURK_SOURCE = "tsvetkov_adj_mturk"
VERB_SOURCES = {lexclass: f"oewn_verb_{lexclass}" for lexclass in VERB_SUPERSENSES}
NOT_A_CLASS = "context"  # a label workers could give in the MTurk file that is not a supersense (step 2)

_SYNSET = re.compile(r"\('(?P<name>[^'\s]+\.[a-z]\.\d+)'\)")  # ('cheerful.a.01')
_TOP_KEY = re.compile(r"(?P<key>[^\s:#][^\s:]*):\s*")  # a synset id at indentation 0: "01159300-v:"
_FIELD = re.compile(r" {2}(?P<key>[A-Za-z_]+):(?P<rest>.*)")  # "  members:"
_ITEM = re.compile(r" {2}- (?P<item>.*)")  # "  - take in"
Supersenses = dict[str, frozenset[str]]


def _fail(name: str, number: int, line: str, expected: str) -> DataError:
    return DataError(
        f"{name} line {number}: expected {expected}, got {line[:80]!r}. Restore the pinned file "
        "(`biascheck data` checks every declared source)."
    )


def _adj_class(label: str, name: str, number: int, line: str) -> str:
    lexclass = label.strip().lower()
    if lexclass not in ADJ_SUPERSENSES:
        raise _fail(name, number, line, f"one of the 13 adjective supersenses {[c.upper() for c in ADJ_SUPERSENSES]}")
    return lexclass


# --- parsers ------------------------------------------------------------------------------------


def parse_seed(text: str, name: str = SEED_SOURCE) -> list[tuple[str, str]]:
    """``word<TAB>CLASS`` lines -> (word lower-cased, class lower-cased) in file order (step 1); blank lines skipped."""
    pairs = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        columns = line.split("\t")
        if len(columns) != 2 or not columns[0].strip():
            raise _fail(name, number, line, "'adjective<TAB>SUPERSENSE'")
        pairs.append((columns[0].strip().lower(), _adj_class(columns[1], name, number, line)))
    return pairs


def parse_mace(text: str, name: str = MTURK_SOURCE) -> list[tuple[str, str, tuple[str, ...]]]:
    """The MTurk file -> (synset name, MACE label, the workers' labels) per row (step 2), labels lower-cased.

    The MACE label is the best-scoring of the 13 classes among the ``LABEL score`` columns (``context`` is
    not a class and is passed over; a tie goes to the earlier column); the workers' labels keep ``context``.
    """
    rows = []
    known = {*ADJ_SUPERSENSES, NOT_A_CLASS}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        columns = line.split("\t")
        synset = _SYNSET.fullmatch(columns[0].strip())
        if synset is None or len(columns) < 3:
            raise _fail(name, number, line, "\"('lemma.a.NN')<TAB>labels,...<TAB>LABEL score<TAB>...\"")
        workers = tuple(label.strip().lower() for label in columns[1].split(",") if label.strip())
        scores: dict[str, float] = {}
        for column in columns[2:]:
            label, _, score = column.strip().partition(" ")
            try:
                scores[label.lower()] = float(score)
            except ValueError:
                expected = f"'LABEL score' columns after the workers' labels, not {column!r}"
                raise _fail(name, number, line, expected) from None
        if not set(workers) | set(scores) <= known:
            unknown = sorted((set(workers) | set(scores)) - known)
            raise _fail(name, number, line, f"labels among the 13 supersenses and {NOT_A_CLASS!r}, not {unknown}")
        classes = [label for label in scores if label != NOT_A_CLASS]
        if not classes:
            raise _fail(name, number, line, "a score for at least one supersense")
        rows.append((synset["name"], max(classes, key=lambda label: scores[label]), workers))
    return rows


def synset_lemma(synset: str) -> str:
    """The lemma of a WordNet 3.0 synset name, lower-cased: ``'Well_known.a.01'`` -> ``'well known'``."""
    return synset.rsplit(".", 2)[0].replace("_", " ").lower()


def _member(member: str, name: str, number: int, line: str) -> str:
    """A members item: plain, or single-quoted as YAML writes ``'true'`` and ``'off'`` (``''`` is a quote)."""
    if len(member) >= 2 and member[0] == member[-1] == "'" and "'" not in member[1:-1].replace("''", ""):
        return member[1:-1].replace("''", "'")
    if not member or member[0] in "'\"[{&*!|>%@`#":
        raise _fail(name, number, line, "a plain or single-quoted lemma as a member")
    return member


def parse_lexfile(text: str, name: str = "<yaml>") -> dict[str, list[str]]:
    """An Open English WordNet ``src/yaml/<lexfile>.yaml`` -> synset id -> its ``members`` as written (step 4).

    Reads only the block layout the OEWN export writes: a synset id at indentation 0, its fields at 2, list
    items as ``  - item``, wrapped text at 4 or more. Members are plain or single-quoted (``'true'``); a
    double-quoted or flow-style member, a line outside that layout, or a synset without members is a
    DataError, not a guess.
    """
    synsets: dict[str, list[str]] = {}
    current: str | None = None
    field: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        if not line.startswith(" "):
            top = _TOP_KEY.fullmatch(line)
            if top is None:
                raise _fail(name, number, line, "a synset id such as '01159300-v:' at indentation 0")
            if current is not None and not synsets[current]:
                raise DataError(f"{name}: synset {current!r} has no members (before line {number}).")
            current, field = top["key"], None
            if current in synsets:
                raise _fail(name, number, line, f"each synset once; {current!r} is repeated")
            synsets[current] = []
            continue
        if current is None:
            raise _fail(name, number, line, "a synset id before any field")
        if line.startswith("   "):  # wrapped text of a definition or an example
            continue
        if (item := _ITEM.fullmatch(line)) is not None:
            if field is None:
                raise _fail(name, number, line, "a list item under a field")
            if field == "members":
                synsets[current].append(_member(item["item"].strip(), name, number, line))
            continue
        key = _FIELD.fullmatch(line)
        if key is None:
            raise _fail(name, number, line, "'  field:' or '  - item' under a synset")
        field = key["key"]
        if field == "members" and key["rest"].strip():
            raise _fail(name, number, line, "'  members:' followed by '  - lemma' lines (no inline list)")
    if current is not None and not synsets[current]:
        raise DataError(f"{name}: synset {current!r} has no members (at the end of the file).")
    return synsets


def group_classes(pairs: Iterable[tuple[str, str]]) -> Supersenses:
    """(word, class) pairs -> word -> frozenset of its classes, words sorted."""
    classes: dict[str, set[str]] = defaultdict(set)
    for word, lexclass in pairs:
        classes[word].add(lexclass)
    return {word: frozenset(classes[word]) for word in sorted(classes)}


# --- loaders --------------------------------------------------------------------------------------


@lru_cache(maxsize=4)
def _read_adjectives(seed: Path, mturk: Path) -> Supersenses:
    pairs = parse_seed(seed.read_text(encoding="utf-8"), f"{SEED_SOURCE} ({seed})")
    rows = parse_mace(mturk.read_text(encoding="utf-8"), f"{MTURK_SOURCE} ({mturk})")
    return group_classes([*pairs, *((synset_lemma(synset), label) for synset, label, _ in rows)])


@lru_cache(maxsize=4)
def _read_verbs(paths: tuple[tuple[str, Path], ...]) -> Supersenses:
    pairs = []
    for lexclass, path in paths:
        synsets = parse_lexfile(path.read_text(encoding="utf-8"), f"{VERB_SOURCES[lexclass]} ({path})")
        pairs += [(member.lower(), lexclass) for members in synsets.values() for member in members]
    return group_classes(pairs)


def adjective_supersenses(refdata: ReferenceData) -> Supersenses:
    """Lower-cased adjective -> its supersenses among `ADJ_SUPERSENSES` (steps 1-3); a fresh dict each call."""
    return dict(_read_adjectives(refdata.path(SEED_SOURCE).resolve(), refdata.path(MTURK_SOURCE).resolve()))


VERBS_VERSION = 1  # bump when parse_lexfile or group_classes change what verb_supersenses returns


def verb_supersenses(refdata: ReferenceData) -> Supersenses:
    """Lower-cased verb lemma -> the `VERB_SUPERSENSES` it has a synset in (step 4); a fresh dict each call.

    Multiword lemmas keep their space (``take in``). Parsed once per machine (the 15 lexicographer files: 0.7 s on
    2 cores) and kept in the parsed-data cache, keyed by their sha256 (`parsed_cache.cached_json_in`); once per
    process after that.
    """
    paths = tuple((c, refdata.path(VERB_SOURCES[c]).resolve()) for c in VERB_SUPERSENSES)  # verified, recorded
    return dict(_verbs(refdata.cache, paths, tuple(SOURCES[VERB_SOURCES[c]].sha256 for c in VERB_SUPERSENSES)))


@lru_cache(maxsize=4)
def _verbs(cache: Path, paths: tuple[tuple[str, Path], ...], sha256s: tuple[str, ...]) -> Supersenses:
    from biascheck.data import parsed_cache

    def build() -> dict[str, list[str]]:
        return {verb: sorted(classes) for verb, classes in _read_verbs(paths).items()}

    stored = parsed_cache.cached_json_in(cache, "verb-supersenses", sha256s, VERBS_VERSION, build)
    return {verb: frozenset(classes) for verb, classes in stored.items()}
