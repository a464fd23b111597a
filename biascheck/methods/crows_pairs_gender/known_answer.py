"""crows_pairs_gender's known answer: stereotyped statements and traits (`lab/stereotype_statements.py`,
`lab/stereotype_traits.py`), a plant the lab fine-tunes a real model on (`lab/scripts/finetune_crows_known_answer.py`);
the dose-response sweep reads its metric on the English corpus's models too."""

from __future__ import annotations

from biascheck.planted.plant import KnownAnswer, Moved

# The tiny planted models do not carry this plant into the benchmark's sentences (its own answer is the lab's fine-tune
# of a real model): read by the dose-response sweep, asserted by no test (`found_by=()`).
KNOWN_ANSWER = KnownAnswer(moves=(Moved("en", "all", "stereo_share", found_by=()),))
