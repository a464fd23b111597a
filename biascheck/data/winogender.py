"""Winogender schemas (Rudinger et al. 2018), rudinger/winogender-schemas @ 1c7f8b4: sentences in which one pronoun
refers to an occupation or to another participant, in three genders, and the occupations' women's shares.

1. Templates: ``data/templates.tsv`` (``winogender_templates``), header ``occupation(0)``, ``other-participant(1)``,
   ``answer``, ``sentence``: 120 templates, two per occupation (one with ``answer`` 0, one with 1), 60 occupations.
   ``answer`` is the index in the header: 0 the pronoun refers to the occupation, 1 to the participant (``The
   $OCCUPATION told the $PARTICIPANT that $NOM_PRONOUN could pay with cash.``: 1, the customer pays). Every template
   has ``$OCCUPATION``, ``$PARTICIPANT`` and exactly one pronoun slot: ``$NOM_PRONOUN`` (89), ``$POSS_PRONOUN`` (27)
   or ``$ACC_PRONOUN`` (4). The participant is preceded by ``The``/``the`` (118) or ``a`` (2).
2. Sentences: ``data/all_sentences.tsv`` (``winogender_sentences``), ``sentid<TAB>sentence``, 720 rows, ids
   ``<occupation>.<participant>.<answer>.<gender>.txt``: each template x {male, female, neutral} x {its
   participant, ``someone``} (the README's 120 x 3 x 2). The generating script is not in the repository; the rule,
   checked on every row, is: ``$OCCUPATION`` -> the occupation; ``$PARTICIPANT`` -> the participant, or its
   article and ``$PARTICIPANT`` -> ``someone`` (``Someone`` at the start of the sentence); the pronoun slot ->
   he/she/they (nominative), his/her/their (possessive), him/her/them (accusative); and ``they was`` -> ``they
   were``, the one agreement fix (17 templates have ``$NOM_PRONOUN was``: 34 neutral sentences; no other verb
   after the slot needs one). A sentence that differs from its template instantiated so is a DataError; the
   rebuild is what gives the pronoun's character span. Each sentence has that one pronoun and no other personal
   pronoun (240 per gender: he 178, his 54, him 8; she 178, her 62; they 178, their 54, them 8). Columns:
   `build_sentences`; 96 sentences start with ``Someone`` (32 templates open with ``The $PARTICIPANT``).
3. Occupations: ``data/occupations-stats.tsv`` (``winogender_occupations``): occupation, ``bergsma_pct_female``
   (the share of female pronouns with the occupation in text, Bergsma & Lin 2006, as the paper uses it),
   ``bls_pct_female``, ``bls_year`` (2015 for 51, 2016 for 9): 60 rows, the templates' 60 occupations.
   Percentages as written (0-100).

Files are read once per process (cached by resolved path); parsers are pure functions over text, and a line they
cannot read is a DataError naming the file and the line.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pandas as pd

from biascheck.data import ReferenceData
from biascheck.errors import DataError

TEMPLATES_SOURCE = "winogender_templates"
SENTENCES_SOURCE = "winogender_sentences"
OCCUPATIONS_SOURCE = "winogender_occupations"
GENDERS = ("male", "female", "neutral")
SOMEONE = "someone"
# Pronoun slot -> case -> the pronoun per gender (step 2).
PRONOUNS = {
    "NOM": {"male": "he", "female": "she", "neutral": "they"},
    "POSS": {"male": "his", "female": "her", "neutral": "their"},
    "ACC": {"male": "him", "female": "her", "neutral": "them"},
}
TEMPLATE_HEADER = ("occupation(0)", "other-participant(1)", "answer", "sentence")
SENTENCE_HEADER = ("sentid", "sentence")
OCCUPATION_HEADER = ("occupation", "bergsma_pct_female", "bls_pct_female", "bls_year")
REFERENTS = ("occupation", "participant")  # answer 0, answer 1

_SLOT = re.compile(r"\$(NOM|POSS|ACC)_PRONOUN")
_SOMEONE_SLOT = re.compile(r"(?:\b(?:[Tt]he|an?) )?\$PARTICIPANT")
_SENTID = re.compile(r"(?P<occupation>[^.\s]+)\.(?P<participant>[^.\s]+)\.(?P<answer>[01])\.(?P<gender>[a-z]+)\.txt")
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")


def _fail(name: str, number: int, line: str, expected: str) -> DataError:
    return DataError(
        f"{name} line {number}: expected {expected}, got {line[:80]!r}. Restore the pinned file "
        "(`biascheck data` checks every declared source)."
    )


def _rows(text: str, name: str, header: tuple[str, ...]) -> list[tuple[int, str, list[str]]]:
    """(line number, line, columns) of a TSV whose first line must be `header`; blank lines skipped."""
    lines = text.splitlines()
    if not lines or tuple(lines[0].split("\t")) != header:
        raise _fail(name, 1, lines[0] if lines else "", f"the header {'<TAB>'.join(header)!r}")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        columns = line.split("\t")
        if len(columns) != len(header) or not all(c.strip() for c in columns):
            raise _fail(name, number, line, f"{len(header)} non-empty tab-separated columns")
        rows.append((number, line, [c.strip() for c in columns]))
    return rows


# --- parsers ------------------------------------------------------------------------------------


def parse_templates(text: str, name: str = TEMPLATES_SOURCE) -> list[tuple[str, str, int, str]]:
    """``templates.tsv`` -> (occupation, participant, answer 0/1, template) per row in file order (step 1)."""
    templates = []
    for number, line, (occupation, participant, answer, template) in _rows(text, name, TEMPLATE_HEADER):
        if not _WORD.fullmatch(occupation) or not _WORD.fullmatch(participant) or answer not in ("0", "1"):
            raise _fail(name, number, line, "a lower-case occupation and participant and answer 0 or 1")
        if (
            template.count("$OCCUPATION") != 1
            or template.count("$PARTICIPANT") != 1
            or len(_SLOT.findall(template)) != 1
            or template.count("$") != 3
        ):
            raise _fail(name, number, line, "one $OCCUPATION, one $PARTICIPANT and one $NOM/POSS/ACC_PRONOUN")
        templates.append((occupation, participant, int(answer), template))
    return templates


def parse_sentences(text: str, name: str = SENTENCES_SOURCE) -> list[tuple[int, str, dict[str, str], str]]:
    """``all_sentences.tsv`` -> (line number, sentid, its fields, sentence) per row (step 2).

    The fields are the id's occupation, participant (``someone`` or the template's), answer and gender.
    """
    sentences = []
    for number, line, (sentid, sentence) in _rows(text, name, SENTENCE_HEADER):
        match = _SENTID.fullmatch(sentid)
        if match is None or match["gender"] not in GENDERS:
            raise _fail(name, number, line, "a sentid '<occupation>.<participant>.<0|1>.<male|female|neutral>.txt'")
        sentences.append((number, sentid, match.groupdict(), sentence))
    return sentences


def instantiate(template: str, occupation: str, participant: str, gender: str) -> tuple[str, str, str, int, int]:
    """A template filled as the upstream sentences are (step 2) -> (sentence, pronoun, case, start, end).

    `participant` ``someone`` replaces the participant with its article; ``they was`` becomes ``they were``;
    [start, end) is the pronoun's span.
    """
    if participant == SOMEONE:
        slot = _SOMEONE_SLOT.search(template)
        assert slot is not None  # parse_templates checked there is one $PARTICIPANT
        word = "Someone" if slot.start() == 0 else SOMEONE
        template = template[: slot.start()] + word + template[slot.end() :]
    else:
        template = template.replace("$PARTICIPANT", participant)
    template = template.replace("$OCCUPATION", occupation)
    slot = _SLOT.search(template)
    assert slot is not None
    case = slot[1]
    pronoun = PRONOUNS[case][gender]
    start = slot.start()
    rest = template[slot.end() :]
    if pronoun == "they" and rest.startswith(" was "):
        rest = " were" + rest.removeprefix(" was")
    return template[:start] + pronoun + rest, pronoun, case.lower(), start, start + len(pronoun)


def parse_occupations(text: str, name: str = OCCUPATIONS_SOURCE) -> pd.DataFrame:
    """``occupations-stats.tsv`` -> occupation, bls_pct_female, bergsma_pct_female (0-100), bls_year (step 3)."""
    rows = []
    for number, line, (occupation, bergsma, bls, year) in _rows(text, name, OCCUPATION_HEADER):
        try:
            values = float(bls), float(bergsma), int(year)
        except ValueError:
            raise _fail(name, number, line, "numeric percentages and a year") from None
        if not _WORD.fullmatch(occupation) or not all(0.0 <= v <= 100.0 for v in values[:2]):
            raise _fail(name, number, line, "a lower-case occupation and percentages in 0-100")
        rows.append((occupation, *values))
    return pd.DataFrame(rows, columns=["occupation", "bls_pct_female", "bergsma_pct_female", "bls_year"])


def build_sentences(
    templates: list[tuple[str, str, int, str]],
    sentences: list[tuple[int, str, dict[str, str], str]],
    name: str = SENTENCES_SOURCE,
) -> pd.DataFrame:
    """Join each sentence to its template and check it is that template instantiated (step 2); one row each.

    Columns: sentid, template_id (0-based row of templates.tsv), occupation, participant (``someone`` or the
    template's), someone, answer (0 occupation, 1 participant), referent, gender, pronoun, case (nom/poss/acc),
    pronoun_start, pronoun_end (the pronoun's character span in the sentence), sentence.
    """
    by_key = {(occupation, answer): i for i, (occupation, _, answer, _) in enumerate(templates)}
    if len(by_key) != len(templates):
        raise DataError(f"{TEMPLATES_SOURCE}: an (occupation, answer) pair is repeated; each must name one template.")
    rows, seen = [], set()
    for number, sentid, fields, sentence in sentences:
        key = (fields["occupation"], int(fields["answer"]))
        if key not in by_key:
            raise _fail(name, number, sentid, f"an occupation and answer of a template in {TEMPLATES_SOURCE}")
        template_id = by_key[key]
        occupation, participant, answer, template = templates[template_id]
        if fields["participant"] not in (participant, SOMEONE):
            raise _fail(name, number, sentid, f"participant {participant!r} or {SOMEONE!r} for this template")
        built, pronoun, case, start, end = instantiate(template, occupation, fields["participant"], fields["gender"])
        if built != sentence:
            raise _fail(name, number, sentence, f"template {template_id + 1} instantiated: {built!r}")
        if sentid in seen:
            raise _fail(name, number, sentid, "each sentid once")
        seen.add(sentid)
        rows.append((
            sentid, template_id, occupation, fields["participant"], fields["participant"] == SOMEONE, answer,
            REFERENTS[answer], fields["gender"], pronoun, case, start, end, sentence,
        ))  # fmt: skip
    missing = len(templates) * len(GENDERS) * 2 - len(rows)
    if missing:
        raise DataError(f"{name}: {missing} of the template x gender x participant/someone sentences are missing.")
    columns = [
        "sentid", "template_id", "occupation", "participant", "someone", "answer", "referent", "gender", "pronoun",
        "case", "pronoun_start", "pronoun_end", "sentence",
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


# --- loaders --------------------------------------------------------------------------------------


@lru_cache(maxsize=4)
def _read_sentences(templates_path: Path, sentences_path: Path) -> pd.DataFrame:
    templates = parse_templates(templates_path.read_text(encoding="utf-8"), f"{TEMPLATES_SOURCE} ({templates_path})")
    name = f"{SENTENCES_SOURCE} ({sentences_path})"
    return build_sentences(templates, parse_sentences(sentences_path.read_text(encoding="utf-8"), name), name)


@lru_cache(maxsize=4)
def _read_occupations(path: Path) -> pd.DataFrame:
    return parse_occupations(path.read_text(encoding="utf-8"), f"{OCCUPATIONS_SOURCE} ({path})")


def winogender_sentences(refdata: ReferenceData) -> pd.DataFrame:
    """The 720 Winogender sentences, one row each in file order (steps 1-2; columns: `build_sentences`); a copy."""
    return _read_sentences(refdata.path(TEMPLATES_SOURCE).resolve(), refdata.path(SENTENCES_SOURCE).resolve()).copy()


def winogender_occupations(refdata: ReferenceData) -> pd.DataFrame:
    """The 60 occupations with bls_pct_female, bergsma_pct_female (0-100) and bls_year (step 3); a copy."""
    return _read_occupations(refdata.path(OCCUPATIONS_SOURCE).resolve()).copy()
