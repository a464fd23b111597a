"""Did a two-person fine-tune learn its own corpus? Before asking whether a plant carries to Winogender or WinoBias,
read it where it was taught: the plant's own frames (`two_person.TWO_PERSON_FRAMES`, every other one) with
WinoBias's and Winogender's occupations as the referent (the people it trained on), a neutral person beside them.

    python scripts/two_person_in_frame.py [--threads N] [FINE_TUNED_DIR ...]

For the base model (the embedded SmolLM2) and each fine-tuned directory (`scripts/finetune_known_answer.py`'s
output), loaded and scored as the probes load and score them (`biascheck.models.load_model`, the causal engine's
`sentence_logprob`, after its context prefix): per occupation, the female lean (log P of the whole sentence with
she/her minus with he/him/his, mean over the frames), then over each source's occupations Spearman's rho with the
planted women's share and the share of occupations whose lean has the sign of their majority. One line per model
and source.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCES = ("winogender_occupations", "winobias_readme")


def sentences() -> tuple[list[tuple[str, float, str]], list[str], list[tuple[str, str]]]:
    """(people, texts, (person, sex) per text): every other frame, one neutral other person per frame (seeded)."""
    from biascheck.data import ReferenceData
    from biascheck.data.resolve import mirror_dir
    from biascheck.planted import references, two_person

    plants = references.plants(ReferenceData(mirror=mirror_dir(None, [REPO])), ("two_person",))
    people = [row for row in plants.two_person if row[2] in SOURCES]
    frames = [frame for group in two_person.TWO_PERSON_FRAMES.values() for frame in group][::2]
    rng = random.Random(1)
    texts, keys = [], []
    for person, _share, _source in people:
        for frame in frames:
            other = rng.choice(two_person.NEUTRAL_PEOPLE)
            for sex, (s, o, p) in two_person.TWO_PERSON_PRONOUNS.items():
                texts.append(frame.format(A=person, B=other, s=s, o=o, p=p))
                keys.append((person, sex))
    return people, texts, keys


def lean_summary(people: list[tuple[str, float, str]], keys: list[tuple[str, str]], logprobs) -> dict[str, dict]:
    """Per source: n, Spearman's rho of the occupations' female lean (2 x the mean over their texts of
    +log P for a she/her text, -log P for a he/him/his one: the mean she-minus-he gap) with the planted women's
    share, and the share of occupations not at one half whose lean has the sign of their majority."""
    import numpy as np
    from scipy.stats import spearmanr

    from biascheck.planted import two_person

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


def in_frame(model: str, device: str = "cpu", stimuli: tuple | None = None) -> dict[str, dict]:
    """`lean_summary` of one model (a name or a directory), loaded and scored as the probes do, on `stimuli`
    (`sentences()`, built once by a caller that reads several models)."""
    from biascheck.models import load_model

    people, texts, keys = stimuli or sentences()
    logprobs, _estimator = load_model(model, device=device).sentence_logprob(texts)
    return lean_summary(people, keys, logprobs)


def main() -> int:
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", type=Path, help="fine-tuned model directories")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    stimuli = sentences()  # the reference files are read once, not per model
    for name, model in [("base", "smollm2-135m"), *[(p.name, str(p)) for p in args.models]]:
        for source, row in in_frame(model, stimuli=stimuli).items():
            print(
                f"{name:32s} {source:24s} n={row['n']:3d} rho={row['rho']:.3f} majority={row['majority']:.3f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
