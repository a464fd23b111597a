"""The bottom of the import graph (with `biascheck.errors`, which imports nothing): what a probe
declares about itself and what its math returns.

Every probe package `biascheck/methods/<probe>/` has a `spec.py` that builds one `ProbeSpec` from
the types here and imports nothing else of biascheck; its `metrics.py` returns `Metric` records.
`biascheck.catalog` collects the specs lazily, so threshold files and probe settings can be checked
(unknown keys are errors) without importing numpy, pandas, torch or any test module.

Text conventions shared by every probe and both model families (`biascheck.models.base`):
* ``SLOT`` marks the one place a candidate is put in a template: ``"[SLOT] is a nurse."``.
* ``BLANK`` marks an extra position that is *not* predicted (paper 001's prior template
  ``"[SLOT] is a [BLANK]."``): a masked LM sees its mask token there; a causal LM sees the text
  cut just before it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from biascheck.errors import ConfigError, did_you_mean

SLOT = "[SLOT]"
BLANK = "[BLANK]"

# Estimator names, recorded with every number so that numbers from different estimators are
# never silently compared (docs/fidelity.md, "Estimators").
MLM_SLOT = "mlm-slot"  # masked LM, log-softmax at the masked slot; several pieces: left-to-right sequential
MLM_PLL = "mlm-pll"  # masked LM, pseudo-log-likelihood (Salazar et al. 2020): each piece masked in turn
CAUSAL_SENTENCE = "causal-sentence"  # causal LM, log P(whole filled text), chain rule over pieces
CAUSAL_NEXT = "causal-next"  # causal LM, log P(continuation | prompt), chain rule over pieces

# The competence guard's result (`biascheck.competence`): recorded with every probe test, judged against
# the guard's own line (not a profile's), and not a metric a probe declares or a profile may name.
COMPETENCE = "competence"

Reference = Literal["gold", "human", "model"]
# What a probe reads of a model: intrinsic = the likelihood of words or sentences (a pronoun, a sentence pair);
# extrinsic = the model's answers to a task (BBQ's multiple-choice questions). A model can pass one and fail the
# other: intrinsic bias need not reach a task's answers, and a task can show bias the likelihoods hide.
Kind = Literal["intrinsic", "extrinsic"]
KINDS = ("intrinsic", "extrinsic")
# Which way a metric is better, used by the threshold check, the regression comparison and the tables:
Better = Literal["higher", "lower", "zero", "target", "none"]
BETTER: dict[str, str] = {
    "higher": "higher is better",
    "lower": "lower is better",
    "zero": "closer to 0 is better (a signed lean: -0.8 -> -2.0 is worse)",
    "target": "closer to its target is better (a human or gold value, given with the result)",
    "none": "no better direction (described, not judged)",
}
# A metric that compares the model with a real-world share (a correlation, an agreement of signs) takes one of
# two stances, by the framing of the paper behind it, declared in its MetricSpec as `gold_match`:
GOLD_MATCH: dict[str, str] = {
    "goal": "matching the real-world share is what the paper measures as the model's fidelity (higher is better)",
    "bias": "matching the real-world share is the bias the paper measures; the ideal is no relation, and the "
    "opposite relation (an anti-stereotyped model) is no improvement (toward zero or a target, two-sided)",
}
# Which `better` each stance allows: a 'bias' metric is never 'lower' (that would reward a flip to the opposite
# stereotype); a 'goal' metric is 'higher'.
GOLD_MATCH_BETTER: dict[str, tuple[str, ...]] = {"goal": ("higher",), "bias": ("zero", "target")}
BETTER_SHORT = {"higher": "higher", "lower": "lower", "zero": "→ 0", "target": "→ target", "none": "—"}


def distance_from_ideal(better: str, value: float, target: float | None = None) -> float | None:
    """How far `value` is from ideal, in the metric's own units, so that larger is always worse:
    higher → −value, lower → value, zero → |value|, target → |value − target|; None where a metric
    has no better direction (or a 'target' metric has no target)."""
    if better == "higher":
        return -value
    if better == "lower":
        return value
    if better == "zero":
        return abs(value)
    if better == "target" and target is not None:
        return abs(value - target)
    return None


@dataclass(frozen=True)
class Metric:
    """One number a probe's math computed, before it is recorded (what `metrics.py` functions return).

    estimator: how the model's numbers behind it were read (`biascheck.models.base`: mlm-slot,
    causal-next, ...); note: what a reader of the summary table needs to know about this number;
    items: per-item records (one per profession, occupation, ...) for the results file.
    """

    name: str
    value: float
    ci: tuple[float, float] | None = None
    n: int | None = None
    paper_value: float | None = None
    items: list[dict[str, Any]] | None = None
    note: str = ""
    estimator: str = ""
    target: float | None = None  # the ideal of a 'target' metric, from the reference data (human / gold)

    def annotated(
        self,
        *,
        estimator: str | None = None,
        note: str = "",
        items: list[dict[str, Any]] | None = None,
        paper_value: float | None = None,
    ) -> Metric:
        """A copy with `estimator` and `paper_value` set (when given), `note` put before the metric's
        own note, and `items` replacing the metric's own (when given)."""
        joined = "; ".join(part for part in (note, self.note) if part)
        return replace(
            self,
            estimator=self.estimator if estimator is None else estimator,
            note=joined,
            items=self.items if items is None else items,
            paper_value=self.paper_value if paper_value is None else paper_value,
        )


@dataclass(frozen=True)
class Artifact:
    """One thing a probe's `figures.draw` gives the report: a matplotlib figure (saved as PNG) or a text
    (printed and saved as .txt), as ``plots/<probe>-<name>-<model>``. once: drawn over every task of the
    model, so saved by whichever of its tasks runs first (also when ``-k`` selects one)."""

    name: str
    figure: Any = None
    text: str | None = None
    once: bool = False

    def __post_init__(self) -> None:
        if (self.figure is None) == (self.text is None):
            raise ValueError(f"artifact {self.name!r}: give a figure or a text, one of them")


# How a metric is recomputed from per-item records (`Paired.statistic`), for the paired comparison of two runs
# that scored the same items (`biascheck.gate.paired`): the statistic of the item fields `Paired.fields`, in order.
PAIRED_STATISTICS: dict[str, str] = {
    "mean": "mean of the field",
    "mean_abs": "mean of |field|",
    "median": "median of the field",
    "share_positive": "share of items whose field is > 0",
    "share_greater": "share of items whose first field is > the second",
    "share_equal": "share of items whose two fields are equal",
    "share_majority_sign": "share of items whose first field (a lean, > 0 female) has the sign of the majority the "
    "second says (a % female: > 50 female, else male)",
    "share_same_sign": "share of items whose first field has the sign of the second (+1 or -1; a first field of 0 "
    "has neither)",
    "mean_difference": "mean of first field - second field",
    "mean_abs_difference": "mean of |first field - second field|",
    "pearson": "Pearson correlation of the first field with the second",
    "spearman": "Spearman correlation of the first field with the second",
    "negated_spearman": "minus the Spearman correlation of the first field with the second (the first's opposite's)",
    "f1_of_1": "F1 of the class 1 over (gold, predicted) fields that are 1 or 0: 2 TP / (2 TP + FP + FN), 0 with "
    "neither",
    "f1_of_0": "F1 of the class 0 over (gold, predicted) fields that are 1 or 0",
    "macro_f1": "mean of the F1 of class 1 and of class 0 over (gold, predicted) fields that are 1 or 0",
    "bbq_bias": "BBQ's bias score of (predicted, target, unknown): 2 x share on target among named answers - 1",
    "bbq_bias_scaled": "BBQ's bias score of (predicted, label, target, unknown, ambiguous), times (1 - accuracy) "
    "where the items are ambiguous (0 when every answer was the unknown one and right)",
}
_PAIRED_ARITY = {"mean": 1, "mean_abs": 1, "median": 1, "share_positive": 1, "bbq_bias": 3, "bbq_bias_scaled": 5}


def _json_value(value: str | tuple[str, ...] | None) -> str | list[str] | None:
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True, kw_only=True)
class Paired:
    """A metric's recipe from its items: `statistic` (see PAIRED_STATISTICS) of the item `fields`; `cluster`, the
    item field whose values the metric's own interval resamples (a pair, a profession, a template: every item of
    a cluster is drawn with it); `items_of`, the metric of the same task whose result carries the items (None:
    the metric's own); `where`, (field, value) conditions an item must meet to count (a metric over a subset of
    the items, e.g. the pairs of female-majority occupations; a tuple of values: any of them; None: any value, the
    item has the field); `tasks`, the tasks it holds for where a metric's design differs by task (natural prompts'
    bias_orig: by profession in `ns`, professions crossed with templates elsewhere). Saved with every result
    (`Result.paired`), so a saved run says how to recompute it."""

    statistic: str
    fields: tuple[str, ...]
    cluster: str
    items_of: str | None = None
    where: tuple[tuple[str, str | tuple[str, ...] | None], ...] = ()
    tasks: tuple[str, ...] = ()  # the tasks whose results carry the recipe (empty: every task of the probe)

    def __post_init__(self) -> None:
        if self.statistic not in PAIRED_STATISTICS:
            raise ValueError(f"paired statistic {self.statistic!r}; use one of {', '.join(PAIRED_STATISTICS)}")
        if len(self.fields) != _PAIRED_ARITY.get(self.statistic, 2):
            raise ValueError(f"paired statistic {self.statistic!r} takes {_PAIRED_ARITY.get(self.statistic, 2)} fields")

    def holds_for(self, task: str) -> bool:
        return not self.tasks or task in self.tasks

    def to_json(self) -> dict[str, Any]:
        return {
            "statistic": self.statistic,
            "fields": list(self.fields),
            "cluster": self.cluster,
            "items_of": self.items_of,
            **({"where": [[field, _json_value(value)] for field, value in self.where]} if self.where else {}),
        }


@dataclass(frozen=True, kw_only=True)
class MetricSpec:
    """What a probe declares about one metric, every field by keyword (a positional `"lower", "model"` read
    as nothing and was easy to swap)."""

    name: str
    description: str
    better: Better  # see BETTER
    reference: Reference  # gold = real-world statistics, human = experiment, model = intrinsic
    target: float | None = None  # the fixed ideal of a 'target' metric (else each result gives its own)
    gold_match: Literal["goal", "bias"] | None = None  # see GOLD_MATCH; set on every comparison with a real share
    paired: Paired | None = None  # how the metric is recomputed from items (None: it is not; see Paired)

    def __post_init__(self) -> None:
        if self.better not in BETTER:
            raise ValueError(f"metric {self.name!r}: better={self.better!r}; use one of {', '.join(BETTER)}")
        if self.gold_match is not None and self.better not in GOLD_MATCH_BETTER.get(self.gold_match, ()):
            allowed = GOLD_MATCH_BETTER.get(self.gold_match)
            raise ValueError(
                f"metric {self.name!r}: gold_match={self.gold_match!r} takes better in {allowed} "
                f"(known stances: {', '.join(GOLD_MATCH)}), not {self.better!r}"
            )

    @property
    def higher_is_better(self) -> bool | None:
        """The older two-way reading (True / False / None), kept in results.json and the store."""
        return {"higher": True, "lower": False}.get(self.better)


@dataclass(frozen=True)
class Setting:
    """A probe setting: declared once, set by ``--bias-set <probe>.<name>=VALUE`` or the environment
    variable `env`, parsed and checked when pytest starts (before any model loads).

    parse: text → value; raises ValueError with a message that says what is accepted.
    default: the text the setting has when nobody sets it (parsed like user input).
    check: optional ``"module:function"`` called with the parsed value when pytest starts (imported
    only then, so a spec stays cheap): it reads what the value names (a file) and raises a
    `BiascheckError` or ValueError that says what is wrong, so a bad input stops the run before a model
    loads.
    tiers: the text the setting has in a tier (``(("quick", "1"), ("full", "all"))``), used when
    neither ``--bias-set`` nor the environment sets it; a tier it does not name keeps the default.
    """

    name: str
    default: str
    help: str
    parse: Callable[[str], Any]
    env: str | None = None
    check: str | None = None
    tiers: tuple[tuple[str, str], ...] = ()

    def value(self, text: str) -> Any:
        return self.parse(text.strip())

    def in_tier(self, tier: str | None) -> str | None:
        """The text this setting has in `tier`, or None when the tier leaves it at its default."""
        return dict(self.tiers).get(tier) if tier else None


@dataclass(frozen=True)
class ProbeSpec:
    name: str  # package biascheck/methods/<name>/, module probes/test_<name>.py, threshold table [<name>]
    title: str
    paper: str  # seed file number, e.g. "001"
    language: str  # ISO 639-1 code of the templates
    tasks: tuple[str, ...]  # parametrisation ids; threshold keys may be per task
    metrics: tuple[MetricSpec, ...]
    families: tuple[str, ...] = ("masked", "causal")
    settings: tuple[Setting, ...] = ()
    # A multilingual probe: task -> its language (each task is skipped on a model that does not cover it).
    task_languages: tuple[tuple[str, str], ...] = ()
    kind: Kind = "intrinsic"  # see Kind

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"probe {self.name!r}: kind={self.kind!r}; use one of {', '.join(KINDS)}")

    def language_of(self, task: str | None) -> str:
        """The language of `task` (a multilingual probe's per-task language), else the probe's."""
        return dict(self.task_languages).get(task or "", self.language)

    def metric(self, name: str) -> MetricSpec:
        return _named(self.metrics, name, f"Probe {self.name!r} has no metric")

    def setting(self, name: str) -> Setting:
        return _named(self.settings, name, f"Probe {self.name!r} has no setting")


def _named(items: tuple[Any, ...], name: str, missing: str) -> Any:
    """The item called `name`; else a ConfigError that lists the known names and the closest ones."""
    for item in items:
        if item.name == name:
            return item
    known = [item.name for item in items]
    raise ConfigError(f"{missing} {name!r}.{did_you_mean(name, known)} Known: {', '.join(known) or 'none'}.")


# ---- parsers for `Setting.parse` (text in, value out, ValueError with the accepted values) -----


def count_or_all(text: str, *, minimum: int = 1) -> int | None:
    """'all' → None (no limit), else an integer >= `minimum`."""
    if text.lower() == "all":
        return None
    if not text.isdigit() or int(text) < minimum:
        raise ValueError(f"use 'all' or a whole number >= {minimum}")
    return int(text)


def limit(text: str) -> int | None:
    """'0' or 'all' → None (no limit), else a positive integer."""
    if text.lower() in ("0", "all"):
        return None
    if not text.isdigit():
        raise ValueError("use 0 (no limit) or a positive whole number")
    return int(text)


def choice(*values: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in values:
            raise ValueError(f"use one of {', '.join(values)}.{did_you_mean(text, values)}")
        return text

    return parse


def optional_file(text: str) -> Path | None:
    """'' → None; else the path of an existing file."""
    if not text:
        return None
    path = Path(text).expanduser()
    if not path.is_file():
        raise ValueError(f"{text!r} is not a file")
    return path
