"""A probe's known answer, declared in its own folder: `biascheck/methods/<probe>/known_answer.py` builds one
`KnownAnswer` named `KNOWN_ANSWER` from the types here.

A `Plant` is one planted association: how it is read from the reference data and the sentences that plant
it at a strength in [0, 1] (0: the control, the same sentences with no association). It names the planted
corpus whose models learn it: the three corpora of today's models (`references.FROZEN_CORPORA`) keep their
plants in a fixed order, since their models' bits follow from it; a plant naming any other corpus gets a corpus
of its own (that plant and the definitional sentences of its language), so adding a probe's plant rebuilds no
other probe's model. `Moved` names a metric the plant moves, on which corpus's models, and which way: what the
dose-response sweep (`lab/scripts/dose_response.py`) reads and the known-answer tests assert.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# The settings every known answer is measured at (with each setting's own default, whatever the tier): the
# politicians probe's gated gaps read its latent model, and one fit instead of six saves ~100 s a model.
KNOWN_ANSWER_SETTINGS = ("politicians.grid=quick",)


def _nothing(refdata: Any) -> None:
    return None


def _no_focus(data: Any) -> tuple[str, ...]:
    return ()


@dataclass(frozen=True)
class Plant:
    """One planted association. `sentences(read(refdata), strength, seed)` is a pure function of its inputs
    (seed: the corpus's; a plant adds an offset of its own); `focus(data)` lists words a masked model is asked
    to predict more often in training (`biascheck.planted.train`), beside the pronouns. `frames` are written
    with the corpus's placeholders ({S}/{s} subject, {p} possessive, {a} article, {j} item, {name}, {adj},
    {NP}/{PRON}, {A}/{B}, {n}), so that the lab's frame rule reads every plant's."""

    name: str
    corpus: str | None  # the planted corpus whose models learn it; None: a plant the lab fine-tunes on only
    sentences: Callable[[Any, float, int], list[str]]
    read: Callable[[Any], Any] = _nothing
    focus: Callable[[Any], tuple[str, ...]] = _no_focus
    language: str = "en"
    frames: tuple[str, ...] = ()  # its sentence frames, held apart from every probe's (`lab/frame_distance.py`)


@dataclass(frozen=True)
class Moved:
    """A metric the plant moves on the models of `corpus`: at strength 1 it lies `direction`-wards of the
    control's (+1 higher, -1 lower). The known-answer test (tests/planted/test_known_answers.py) asserts it on
    the families of `found_by` (None: every family of the corpus): the planted model's 95 % interval lies beyond
    the control's value. A move that does not hold in every build (docs/known_answers/dose_response_<corpus>.md,
    three seeds) names the families it holds on, or none: the dose-response sweep still reads it."""

    corpus: str
    task: str
    metric: str
    direction: int = 1
    found_by: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.direction not in (1, -1):
            raise ValueError(f"Moved.direction is +1 or -1, got {self.direction!r}")

    def asserted_on(self, families: tuple[str, ...]) -> tuple[str, ...]:
        """The families of the corpus (`families`) on which the known-answer test asserts the move."""
        return families if self.found_by is None else self.found_by


@dataclass(frozen=True)
class KnownAnswer:
    """What a probe's folder says of its known answer: the plants it owns (a probe may read another probe's
    plant and own none) and the metrics they move."""

    plants: tuple[Plant, ...] = ()
    moves: tuple[Moved, ...] = ()
    gates: tuple[tuple[str, str], ...] = ()  # (task, metric): the gated metrics the plant moves; (): all the gates
    plant_passes: bool = False  # the plant is the behaviour the probe asks for: its gate passes it, fails the control
