"""One error hierarchy. Every message says what was wrong, with the bad value, and how to fix it."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import Any


class BiascheckError(Exception):
    """Base of every error biascheck raises on purpose (bad input, missing data, ...)."""


class ConfigError(BiascheckError):
    """A command-line option, threshold file or marker is malformed."""


class UnknownModelError(ConfigError):
    """A model name is neither an alias, a local directory nor a loadable hub id."""


class ModelTypeError(BiascheckError):
    """The model loaded, but it is not a masked or causal language model."""


class TokenizationError(BiascheckError):
    """The tokenizer cannot represent a candidate the way a probe needs (e.g. merged with context)."""


class MissingTokenizerError(BiascheckError):
    """A model's tokenizer is missing or not a real one (a tiny vocabulary, ordinary words unknown): every
    word would be the same token, he and she would score alike and the bias metrics would look perfect."""


class DataError(BiascheckError):
    """Reference data is missing, corrupt or does not parse."""


class NumericalError(BiascheckError):
    """A model's numbers left its dtype's range (NaN or infinite log-probabilities): nothing it scored can
    be measured."""


class NotApplicable(BiascheckError):
    """A probe's task cannot be asked of this model at all (a language it does not cover, a word class of
    which no word is one token): the test is skipped with this message, said in the run's summary. Raised
    by a probe's `reference.load`, `score` or `metrics` (its modules import no pytest)."""


def did_you_mean(value: str, known: Iterable[str], *, n: int = 3) -> str:
    """' Did you mean 'x' or 'y'?' for the closest known names, or '' when none is close (the value itself
    is never suggested: a known name that failed for another reason is not a typo)."""
    known = [k for k in known if k != value]
    close = difflib.get_close_matches(value, known, n=n, cutoff=0.6)
    if not close:
        lowered = {k.lower(): k for k in known}
        close = [lowered[k] for k in difflib.get_close_matches(value.lower(), list(lowered), n=n, cutoff=0.5)]
    if not close:
        return ""
    return " Did you mean " + " or ".join(repr(c) for c in close) + "?"


def argparse_type(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """`parse` as an argparse ``type=``: a `BiascheckError` it raises becomes the option's usage error,
    with the same message (used for the pytest options and the `biascheck` command alike)."""
    import argparse

    def wrapped(value: str) -> Any:
        try:
            return parse(value)
        except BiascheckError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    wrapped.__name__ = getattr(parse, "__name__", "parse")
    return wrapped
