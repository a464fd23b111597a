"""Did a two-person fine-tune learn its own corpus? Before asking whether a plant carries to Winogender's or
WinoBias's sentences, read it where it was taught: the plant's own frames (`two_person.TWO_PERSON_FRAMES`, every
other one) with WinoBias's and Winogender's occupations as the referent (the people it trained on), a neutral
person beside them, once with she/her and once with he/him/his.

Per occupation, the female lean is the mean over its frames of log P(she/her sentence) - log P(he/him/his sentence)
(whole sentences, scored as the probes score them); over each source's occupations, Spearman's rho of the lean with
the women's share the plant read, and the share of occupations off one half whose lean has their majority's sign.
`lab/scripts/finetune_known_answer.py` records it for every fine-tune (its `finetune.json`, then the results file);
`lab/scripts/two_person_in_frame.py` prints it for any model.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from biascheck.planted import two_person

SOURCES = ("winogender_occupations", "winobias_readme")
People = list[tuple[str, float, str]]  # (occupation, women's share, source of the share)
Keys = list[tuple[str, str]]  # (occupation, sex of the pronoun) per text


def texts(people: Sequence[tuple[str, float, str]]) -> tuple[People, list[str], Keys]:
    """(the people of `SOURCES`, texts, (person, sex) per text): every other frame, one neutral other person per
    frame (seeded), each frame with each sex's pronouns. `people`: the plant's two-person rows."""
    chosen: People = [(person, share, source) for person, share, source in people if source in SOURCES]
    frames = two_person.FRAMES[::2]
    rng = random.Random(1)
    found, keys = [], []
    for person, _share, _source in chosen:
        for frame in frames:
            other = rng.choice(two_person.NEUTRAL_PEOPLE)
            for sex, (s, o, p) in two_person.TWO_PERSON_PRONOUNS.items():
                found.append(frame.format(A=person, B=other, s=s, o=o, p=p))
                keys.append((person, sex))
    return chosen, found, keys


def stimuli(mirror: Path | None = None) -> tuple[People, list[str], Keys]:
    """`texts` of the plant's people as the fine-tunes read them (the reference data from `mirror`, or as the
    probes find it)."""
    from biascheck.data import ReferenceData
    from biascheck.data.resolve import mirror_dir
    from biascheck.planted import references

    repo = Path(__file__).resolve().parents[2]
    plants = references.plants(ReferenceData(mirror=mirror or mirror_dir(None, [repo])), ("two_person",))
    return texts(plants["two_person"])


def lean_summary(people: People, keys: Keys, logprobs: Iterable[float]) -> dict[str, dict[str, Any]]:
    """Per source: n, Spearman's rho of the occupations' female lean (2 x the mean over their texts of +log P for a
    she/her text, -log P for a he/him/his one: the mean she-minus-he gap) with the planted women's share, and the
    share of occupations not at one half whose lean has the sign of their majority."""
    import numpy as np
    from scipy.stats import spearmanr

    lean: dict[str, list[float]] = {}
    for (person, sex), lp in zip(keys, logprobs, strict=True):
        lean.setdefault(person, []).append(float(lp) if sex == two_person.FEMALE else -float(lp))
    found = {}
    for source in SOURCES:
        rows = [(person, share) for person, share, src in people if src == source]
        leans = np.array([2 * np.mean(lean[person]) for person, _ in rows])
        shares = np.array([share for _, share in rows])
        decided = shares != 0.5
        found[source] = {
            "n": len(rows),
            "rho": round(float(spearmanr(leans, shares).statistic), 4),
            "majority": round(float(np.mean((leans[decided] > 0) == (shares[decided] > 0.5))), 4),
        }
    return found


def in_frame(
    model: str, device: str = "cpu", built: tuple[People, list[str], Keys] | None = None
) -> dict[str, dict[str, Any]]:
    """`lean_summary` of one model (a name or a directory), loaded and scored as the probes do (`load_model`, the
    causal engine's `sentence_logprob`, after its context prefix), on `built` (`stimuli()`, built once by a caller
    that reads several models)."""
    from biascheck.models import load_model

    people, sentences, keys = built or stimuli()
    logprobs, _estimator = load_model(model, device=device).sentence_logprob(sentences)
    return lean_summary(people, keys, logprobs)
