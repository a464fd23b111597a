"""How far a planted corpus's frames stand from the probes' frames: the rule that makes a known answer a
generalisation, not recall. Pure Python.

Frames are compared with their items abstracted: every person (pronoun, first name, full name, antecedent
noun phrase) is ``{WHO}``, every profession, occupation, role noun or definitional noun ``{WHAT}``,
every adjective a plant or a probe puts in a slot ``{ADJ}``, every place ``{PLACE}``; *an* is *a*;
words are lower-cased and punctuation dropped; ``^`` marks the start of the text. Two rules:

* **reading context**: no corpus frame contains a probe frame whole, start of text included (the
  politicians probe reads ``^ {ADJ} {WHO}`` and ``^ {WHO} {ADJ}``: a corpus frame that opens with an
  adjective next to the name trains exactly the probability the probe reads);
* **shared words**: no corpus frame shares `MIN_SHARED` or more words in a row, one of them a placeholder
  (the slot or an item), with a probe frame ("... told me that {WHO} could not find the ..." is the
  probe's sentence with other words at its ends).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

PLACEHOLDERS = ("{WHO}", "{WHAT}", "{ADJ}", "{PLACE}")
START = "^"
MIN_SHARED = 5
# The planted generators' slot names -> the common placeholders (`biascheck.planted.corpus` and its siblings).
CORPUS_SLOTS = {
    **dict.fromkeys(("S", "s", "p", "o", "name", "NP", "PRON"), "{WHO}"),
    **dict.fromkeys(("j", "v", "n", "A", "B"), "{WHAT}"),
    "adj": "{ADJ}",
    "a": "a",
}
_TOKEN = re.compile(r"\{(?:WHO|WHAT|ADJ|PLACE)\}|[^\W\d_]+(?:'[^\W\d_]+)?")


def abstract_corpus_frame(frame: str) -> str:
    """A planted generator's frame ('{S} has been {a} {j}.') with the common placeholders."""

    def swap(match: re.Match[str]) -> str:
        slot = match.group(1)
        if slot not in CORPUS_SLOTS:
            raise ValueError(f"unknown slot {{{slot}}} in corpus frame {frame!r}; known: {', '.join(CORPUS_SLOTS)}")
        return CORPUS_SLOTS[slot]

    return re.sub(r"\{(\w+)\}", swap, frame)


def words(frame: str) -> tuple[str, ...]:
    """`START`, then the frame's words lower-cased (placeholders kept, *an* as *a*, punctuation dropped)."""
    out = [START]
    for token in _TOKEN.findall(frame):
        word = token if token in PLACEHOLDERS else token.lower()
        out.append("a" if word == "an" else word)
    return tuple(out)


def contains(outer: Sequence[str], inner: Sequence[str]) -> bool:
    """`inner` occurs in `outer` as a contiguous run."""
    n = len(inner)
    return any(tuple(outer[i : i + n]) == tuple(inner) for i in range(len(outer) - n + 1))


def shared_run(a: Sequence[str], b: Sequence[str], size: int = MIN_SHARED) -> tuple[str, ...] | None:
    """The first run of `size` words (`START` excluded) found in both, with a placeholder in it; None if none."""

    def runs(seq: Sequence[str]) -> set[tuple[str, ...]]:
        body = [w for w in seq if w != START]
        grams = (tuple(body[i : i + size]) for i in range(len(body) - size + 1))
        return {g for g in grams if any(w in PLACEHOLDERS for w in g)}

    common = runs(a) & runs(b)
    return min(common) if common else None


def violations(corpus: Mapping[str, Iterable[str]], probes: Mapping[str, Iterable[str]]) -> list[str]:
    """One line per (corpus frame, probe frame) pair that breaks a rule (module docstring). `corpus`:
    corpus name -> frames with the common placeholders; `probes`: probe name -> frames likewise."""
    probe_words = {name: sorted({words(f) for f in frames}) for name, frames in probes.items()}
    out = []
    for corpus_name, frames in corpus.items():
        for frame in dict.fromkeys(frames):
            mine = words(frame)
            for probe, theirs in probe_words.items():
                for other in theirs:
                    if contains(mine, other):
                        out.append(f"{corpus_name}: {frame!r} contains {probe}'s reading context {' '.join(other)!r}")
                    elif (run := shared_run(mine, other)) is not None:
                        out.append(
                            f"{corpus_name}: {frame!r} shares {' '.join(run)!r} with {probe}'s {' '.join(other)!r}"
                        )
    return out


def plant_frames(plant: str) -> tuple[str, ...]:
    """The frames of one plant (each plant declares its own: `biascheck.planted.plant.Plant.frames`; the lab's
    fine-tune plants are named here), with the common placeholders."""
    from biascheck.planted.references import all_plants
    from lab import stereotype_statements, stereotype_traits

    raw: dict[str, Sequence[str]] = {
        **{name: declared.frames for name, declared in all_plants().items()},
        "stereotype_statements": stereotype_statements.frames(),
        "stereotype_traits": stereotype_traits.frames(),
        "stereotype_traits_filled": stereotype_traits.filled_frames(),  # every trait written in: the stricter reading
    }
    if not raw.get(plant):
        raise ValueError(f"no frames known for plant {plant!r}; known: {', '.join(n for n, f in raw.items() if f)}")
    return tuple(abstract_corpus_frame(f) for f in raw[plant])
