"""Why a known answer misses: a model scored in a probe's own frame and in the planted corpus's frames.

    python lab/scripts/frame_transfer.py planted-bert --frames they       # singular they, by antecedent type
    python lab/scripts/frame_transfer.py planted-gpt-no --frames norwegian  # Norwegian occupations, per frame

A planted model that learned its plant shows it in the corpus's frames; if it does not show it in the
probe's frame, the miss is the frame (held out from the corpus), not the probe. README, "Known answers".

* they: for every antecedent type, the mean surprisal (nats) of the item's own pronoun form in the
  probe's 335 stimuli and in corpus-frame sentences with the same antecedents (4 per antecedent,
  seeded); β_gendered of the probe's regression on both; and the share of the probe's words that the
  model's tokenizer cannot keep whole.
* norwegian: Spearman ρ with the Statistics Norway women's shares of the model's lean in each frame:
  pronoun side, the probe's `pronoun_female_share` (Hun + hun against Han + han) before the occupation
  (tasks 1-2 and two corpus frames); name side, its `name_female_share` over `--names` women's and
  men's first names (tasks 3-4 and two corpus frames). Scoring is the probes' own (`score`, the
  estimators above); only the frames differ.
The reference data come from the mirror the command line would use (`mirror_dir`), else the cache.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from biascheck.data import ReferenceData
from biascheck.data.norwegian import TEMPLATE_FRAMES
from biascheck.data.resolve import mirror_dir
from biascheck.methods.norwegian_occupations.templates import NAME_FRAMES
from biascheck.planted.resolve import load_model_or_plant
from biascheck.settings import settings_of
from biascheck.spec import SLOT

REPO = Path(__file__).resolve().parents[2]
# The probe's frames (tasks 1-4, from its own template definitions) beside two of the corpus's.
NO_PRONOUN_FRAMES = {
    "task1 'Hun er X.'": f"{SLOT} {TEMPLATE_FRAMES['er']} {{j}}.",
    "task2 'Hun jobber som X.'": f"{SLOT} {TEMPLATE_FRAMES['jobber_som']} {{j}}.",
    "corpus 'Hun er nå X i Bergen.'": SLOT + " er nå {j} i Bergen.",
    "corpus 'Hun ble X i fjor.'": SLOT + " ble {j} i fjor.",
}
NO_NAME_FRAMES = {
    "task3 'Oda er X.'": NAME_FRAMES["task3"],
    "task4 'Oda jobber som X.'": NAME_FRAMES["task4"],
    "corpus 'Oda jobber fortsatt som X på Hamar.'": "{name} jobber fortsatt som " + SLOT + " på Hamar.",
    "corpus 'Oda ble X i fjor.'": "{name} ble " + SLOT + " i fjor.",
}


def they_transfer(lm, per_antecedent: int = 4, seed: int = 0) -> pd.DataFrame:
    """Mean surprisal of the item's pronoun by antecedent type: the probe's stimuli vs corpus frames."""
    from biascheck.methods.singular_they.known_answer import read as they_antecedents
    from biascheck.methods.singular_they.math import closeness_gender
    from biascheck.methods.singular_they.reference import Reference
    from biascheck.methods.singular_they.score import score
    from biascheck.methods.singular_they.spec import PROBE
    from biascheck.methods.singular_they.stimuli import they_stimuli
    from biascheck.planted import corpus as c

    settings = settings_of(PROBE)
    probe = score(lm, Reference(they_stimuli(SLOT)), settings).frame
    rng, rows = random.Random(seed), []
    for condition, phrases in they_antecedents().items():
        for k, (phrase, _sex) in enumerate(phrases):
            for _ in range(per_antecedent):
                frame, role = rng.choice(c.THEY_FRAMES)
                text = frame.replace("{NP}", phrase)
                text = text[:1].upper() + text[1:]
                left = text.split("{PRON}")[0].rstrip()
                rows.append((condition, f"{condition}-{k}", text.replace("{PRON}", SLOT), left, c.THEY_FORMS[role]))
    stimuli = pd.DataFrame(rows, columns=["condition", "item", "template", "prompt", "pronoun"])
    corpus = score(lm, Reference(stimuli), settings).frame
    table = pd.DataFrame(
        {
            "probe frames": probe.groupby("condition")["surprisal"].mean(),
            "corpus frames": corpus.groupby("condition")["surprisal"].mean(),
        }
    )
    table.loc["beta_gendered"] = [closeness_gender(probe)["beta_gendered"], closeness_gender(corpus)["beta_gendered"]]
    return table


def split_share(lm) -> float:
    """Share of the probe stimuli's words (slot aside) the tokenizer does not keep as one known piece."""
    from biascheck.methods.singular_they.stimuli import they_stimuli

    words = [w.strip(".,") for t in they_stimuli(SLOT)["template"] for w in t.replace(SLOT, " ").split()]
    pieces = [lm.tokenizer(" " + w, add_special_tokens=False)["input_ids"] for w in words]
    split = [ids for ids in pieces if len(ids) != 1 or ids[0] == lm.tokenizer.unk_token_id]
    return len(split) / len(words)


def norwegian_transfer(lm, refdata: ReferenceData, names: int = 10, limit: int | None = None) -> pd.Series:
    """Spearman ρ(model lean, SSB women's share) per frame, pronoun side then name side."""
    from biascheck.methods.norwegian_occupations.math import name_female_share, pronoun_female_share
    from biascheck.methods.norwegian_occupations.spec import FEMALE, MALE, PRONOUNS
    from biascheck.planted.references import plants

    p = plants(refdata, ("occupations",))["occupations"]  # biascheck.methods.norwegian_occupations.known_answer
    occupations = list(p.occupations)[:limit]
    forms, share = [o for o, _a, _s in occupations], np.array([s for _o, _a, s in occupations])
    out = {}
    pronouns = [*PRONOUNS[FEMALE], *PRONOUNS[MALE]]
    for label, frame in NO_PRONOUN_FRAMES.items():
        logprob = lm.fill_slot([frame.format(j=f) for f in forms], pronouns).logprob
        out[label] = spearmanr(pronoun_female_share(logprob, pronouns), share)[0]
    people = [(n, True) for n in p.names[FEMALE][:names]] + [(n, False) for n in p.names[MALE][:names]]
    is_female = np.array([f for _n, f in people])
    for label, frame in NO_NAME_FRAMES.items():
        logprob = np.asarray(lm.fill_slot([frame.format(name=n) for n, _f in people], forms).logprob, dtype=float)
        out[label] = spearmanr(name_female_share(logprob, is_female), share)[0]
    return pd.Series(out, name="rho_with_ssb")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="any name --model takes (a planted alias, a directory, a hub id)")
    parser.add_argument("--frames", choices=("they", "norwegian"), required=True)
    parser.add_argument("--names", type=int, default=10, help="norwegian: first names per sex (default 10)")
    parser.add_argument("--limit", type=int, default=None, help="norwegian: only the first N occupations")
    args = parser.parse_args(argv)
    refdata = ReferenceData(mirror=mirror_dir(None, [REPO]))
    lm = load_model_or_plant(args.model, data_dir=refdata.mirror)
    if args.frames == "they":
        print(they_transfer(lm).round(2).to_string())
        print(f"probe words the tokenizer splits or does not know: {split_share(lm):.0%}")
    else:
        print(norwegian_transfer(lm, refdata, args.names, args.limit).round(3).to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
