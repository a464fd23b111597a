"""winobias' known answer: two people, one pronoun (`biascheck.planted.two_person`, rounded to each
occupation's majority side), a plant the tiny models cannot carry into the benchmark's sentences; the lab
fine-tunes a real model on it (`lab/scripts/finetune_known_answer.py`). The dose-response sweep reads these
metrics on the English corpus's models too."""

from __future__ import annotations

from biascheck.planted.plant import KnownAnswer, Moved

# The tiny planted models do not carry this plant into the benchmark's sentences (its own answer is the lab's fine-tune
# of a real model): read by the dose-response sweep, asserted by no test (`found_by=()`).
KNOWN_ANSWER = KnownAnswer(
    moves=(Moved("en", "type1", "pro_share", found_by=()), Moved("en", "type2", "pro_share", found_by=())),
)
