"""singular_they's known answer: *they* after its own stimuli's antecedents at a rate per antecedent type
(`corpus.THEY_RATES`: 1 % of gendered names, 80 % of non-gendered ones, ...), planted twice: in the English
corpus over `corpus.THEY_FRAMES`, and as a corpus of its own over the everyday frames of
`biascheck.planted.they_everyday` (planted-bert-they). The probe's own sentence frames are not used."""

from __future__ import annotations

from typing import Any

from biascheck.planted import corpus as c
from biascheck.planted.plant import KnownAnswer, Moved, Plant

PER_ANTECEDENT = 12  # sentences per antecedent in the English corpus
PER_ANTECEDENT_OWN = 30  # ... in the dedicated they corpus: 7,560 sentences, a model's whole diet
Antecedents = dict[str, tuple[tuple[str, str | None], ...]]  # type -> (noun phrase, sex or None)


def read(refdata: Any = None) -> Antecedents:
    """The probe's antecedents by type, with their sex where they have one (no reference file: the
    stimuli are the probe's)."""
    from biascheck.methods.singular_they import stimuli as s

    kin_female = {
        "my aunt",
        "my daughter",
        "my girlfriend",
        "my grandmother",
        "my mom",
        "my mother",
        "my niece",
        "my sister",
        "my stepmother",
        "my wife",
    }
    female_names = set(s.GENDERED_NAMES) & set(_FEMALE_NAMES)
    out: dict[str, list[tuple[str, str | None]]] = {k: [] for k in c.THEY_RATES}
    out["plural"] = []
    out["gendered_name"] = [(n, c.FEMALE if n in female_names else c.MALE) for n in s.GENDERED_NAMES]
    out["nongendered_name"] = [(n, None) for n in s.NONGENDERED_NAMES]
    for _template, _pron, close_g, distant_g, close_ng, noun, plural in s.FRAMES:
        out["close_gendered"].append((close_g, c.FEMALE if close_g in kin_female else c.MALE))
        out["distant_gendered"].append((distant_g, c.FEMALE if _feminine_noun(distant_g) else c.MALE))
        out["close_nongendered"].append((close_ng, None))
        out["distant_nongendered"].append((f"the {noun}", None))
        out["quantified"].append((f"every {noun}", None))
        out["plural"].append((f"the {plural}", None))
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


def _feminine_noun(phrase: str) -> bool:
    word = phrase.split()[-1]
    return word.endswith(("ess", "woman", "maid", "lady", "queen", "nun"))


_FEMALE_NAMES = (
    "Adeline Alice Amanda Amelia Annabella Bella Bridget Charlotte Elena Elizabeth Ella Emily Emma Gianna "
    "Haley Lily Maria Mary Molly Penelope Scarlett Vivian Zoey"
).split()


def shared_frames(antecedents: Antecedents, strength: float, seed: int) -> list[str]:
    return c.they_choices(antecedents, strength, PER_ANTECEDENT, seed + 3)


def everyday_frames(antecedents: Antecedents, strength: float, seed: int) -> list[str]:
    from biascheck.planted.they_everyday import frames_by_role

    return c.they_choices(antecedents, strength, PER_ANTECEDENT_OWN, seed + 3, frames_by_role())


def _everyday() -> tuple[str, ...]:
    from biascheck.planted.they_everyday import frames_by_role

    return tuple(frame for frames in frames_by_role().values() for frame in frames)


KNOWN_ANSWER = KnownAnswer(
    plants=(
        Plant("singular_they", "en", shared_frames, read, frames=tuple(frame for frame, _role in c.THEY_FRAMES)),
        Plant("singular_they_everyday", "they", everyday_frames, read, frames=_everyday()),
    ),
    moves=(
        Moved("en", "closeness_gender", "beta_gendered"),
        Moved("they", "closeness_gender", "beta_gendered"),
        # Not asserted: the closeness slope and the names' surprisals move the planted way in some builds only
        # (their intervals reach the control's value in one build of three or more; docs/known_answers/
        # dose_response_en.md and dose_response_they.md). tests/methods/singular_they/test_known_answer.py says more.
        Moved("en", "closeness_gender", "beta_close", found_by=()),
        Moved("they", "closeness_gender", "beta_close", found_by=()),
        Moved("they", "antecedents", "surprisal_gendered_name", found_by=()),
        Moved("they", "antecedents", "surprisal_nongendered_name", found_by=()),
    ),
)
