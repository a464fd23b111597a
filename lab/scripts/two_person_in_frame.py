"""Did a two-person fine-tune learn its own corpus? Print, for the base model (the embedded SmolLM2) and each
fine-tuned directory (`lab/scripts/finetune_known_answer.py`'s output), how it leans in the plant's own frames
(`lab.two_person_in_frame`): per source of occupations (Winogender's, WinoBias's), Spearman's rho of
the female lean with the planted women's share and the share of occupations whose lean has their majority's sign.
One line per model and source. `finetune_known_answer.py` records the same numbers for every fine-tune it makes.

    python lab/scripts/two_person_in_frame.py [--threads N] [FINE_TUNED_DIR ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # lab/ is not installed: the checkout's `lab` package, from any directory


def main() -> int:
    import torch

    from lab import two_person_in_frame

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", type=Path, help="fine-tuned model directories")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    built = two_person_in_frame.stimuli()  # the reference files are read once, not per model
    for name, model in [("base", "smollm2-135m"), *[(p.name, str(p)) for p in args.models]]:
        for source, row in two_person_in_frame.in_frame(model, built=built).items():
            print(
                f"{name:32s} {source:24s} n={row['n']:3d} rho={row['rho']:.3f} majority={row['majority']:.3f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
