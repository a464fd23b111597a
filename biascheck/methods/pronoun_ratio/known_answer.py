"""pronoun_ratio's known answer: the BLS 2015 women's share of each of its 185 professions, planted as the
pronoun that goes with the profession in the English corpus's own frames (natural_prompts reads it too)."""

from __future__ import annotations

from typing import Any

from biascheck.planted import corpus as c
from biascheck.planted.plant import KnownAnswer, Moved, Plant

PER_PROFESSION = 80  # sentences per profession


def read(refdata: Any) -> tuple[tuple[str, str, float], ...]:
    """(profession, article, women's share) of every BLS 2015 profession."""
    from biascheck.data import professions_en

    bls = professions_en.bls_women_share(refdata)
    articles = professions_en.professions_923(refdata).set_index("profession")["article"].to_dict()
    shares = zip(bls["profession"], bls["women_share"], strict=True)
    return tuple((p, articles.get(p, c.article(p)), float(s)) for p, s in shares)


def sentences(professions: tuple[tuple[str, str, float], ...], strength: float, seed: int) -> list[str]:
    return c.gendered_items(professions, c.EN_FRAMES, c.Subject(c.EN_PRONOUNS), strength, PER_PROFESSION, seed)


PROFESSIONS = Plant("professions", "en", sentences, read, frames=c.EN_FRAMES)
KNOWN_ANSWER = KnownAnswer(
    plants=(PROFESSIONS,),
    moves=(
        Moved("en", "is", "spearman_bls"),
        Moved("en", "is", "stereotype_agreement"),
        Moved("en", "is", "mean_abs_log_n"),
    ),
    # Not template agreement: it checks the measurement's reliability and fails a model with no association by
    # design.
    gates=(
        ("is", "mean_abs_log_n"),
        ("is", "stereotype_agreement"),
        ("works_as", "mean_abs_log_n"),
        ("works_as", "stereotype_agreement"),
    ),
)
