"""politicians metrics: a task's `Predictions` + its `Language` -> `Metric` records (a task is a language).

Per part of speech (adjectives: no prefix; verbs: ``verb_``), on the gated order's samples:
1. PMI gaps (`pmi.pmi_gaps`, reported): pmi_neg_gap, pmi_pos_gap among each gender's 100 highest-PMI
   lemmas, 95 % bootstrap over names (`pmi_resampling.bootstrap_gaps`), unpaired permutation p
   (`pmi_resampling.permutation_gaps`); hard labels from the lexicon, a lemma in no lexicon neutral.
2. The latent model (`latent.model.fit_lvms`) on the female/male samples over the setting's grid, with the
   soft lexicon's q(s|w): the gated neg_gap / pos_gap (`latent.readout.soft_gaps`: mean soft shares among
   each gender's 100 words with the largest deviation d(w, g), only words that pass PMI's 5-name filter;
   95 % normal interval over the 100 words), NaN with the reason, so the gate is red, when the fit is
   unusable (a fit did not converge, the posterior KL is above 0.1, or too few words: `unmeasurable`);
   sent_mix per sentiment with its range over the grid in the note, posterior_kl.
3. vocab_f / vocab_m: distinct lemmas predicted for each gender (Tab 13).
4. Report only: Tab 4 (the 10 words with the largest η per gender and sentiment, `latent.readout.eta_table`)
   and, en, Fig 3 (`supersense.supersense_table` over each gender's 100 largest-η words per sentiment).
Then after_pmi_neg_gap / after_pmi_pos_gap (masked LMs on en / nb: the slot after the name) and names_f /
names_m. Items: one per adjective lemma (counts, PMI per gender, sentiment, d(w, g)). Every PMI number is
read with the same `PMI` options (k = 100 words per gender, words seen with >= 5 names). A task's analysis
is made once (`analysed`, kept on `Scored`): its figures and texts read it too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from biascheck.methods.politicians import pmi, pmi_resampling, supersense
from biascheck.methods.politicians.latent import compiled, readout
from biascheck.methods.politicians.latent.model import fit_lvms
from biascheck.methods.politicians.latent.result import LvmResult
from biascheck.methods.politicians.reference import Language, Reference
from biascheck.methods.politicians.score import Predictions, Scored
from biascheck.methods.politicians.spec import (
    GRID_DEFAULT,
    GRID_FULL,
    GRID_QUICK,
    MIN_NAMES,
    POSTERIOR_KL_VALID,
    TOP_WORDS,
)
from biascheck.settings import ProbeSettings
from biascheck.spec import Metric

PREFIX = {"adj": "", "verb": "verb_"}
BINARY = ("female", "male")
PMI = pmi.PmiOptions(k=TOP_WORDS, min_names=MIN_NAMES)  # the paper's (section 4, Fig 4 / 6)


@dataclass(frozen=True)
class Analysis:
    """What a task's figures and tables need besides the metrics: per part of speech the PMI shares
    (`pmi.pmi_gaps` output), the permutation p-values, the per-lemma table, Tab 4 (`eta_tables`) and, en,
    the supersense table of Fig 3 (`supersenses`)."""

    metrics: list[Metric]
    shares: dict[str, dict[str, float]]
    p_values: dict[str, dict[str, float]]
    tables: dict[str, pd.DataFrame]
    eta_tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    supersenses: dict[str, pd.DataFrame] = field(default_factory=dict)


def grid_pairs(grid: str) -> tuple[tuple[float, float], ...]:
    chosen = {"full": GRID_FULL, "quick": GRID_QUICK}.get(grid, GRID_DEFAULT)
    return tuple((l1, pr) for l1 in chosen["l1"] for pr in chosen["pr"])


def _labels(language: Language, lemmas) -> dict[str, str]:
    return {w: language.sentiment.get(w, "neu") for w in lemmas}


def unmeasurable(samples: pmi.SampleMatrix | pd.DataFrame) -> str:
    """Why the gaps cannot be measured on these samples, or '' when they can: with no more than
    `TOP_WORDS` lemmas seen with `MIN_NAMES` names or more, each gender's top `TOP_WORDS` are all of
    them, the same words for both, and the gaps are 0 whatever the model predicts."""
    eligible = int((pmi.names_per_word(pmi._as_matrix(samples)) >= MIN_NAMES).sum())
    if eligible > TOP_WORDS:
        return ""
    return (
        f"NOT MEASURABLE: only {eligible} lemmas were predicted for >= {MIN_NAMES} names, no more than the "
        f"{TOP_WORDS} ranked per gender, so both genders' lists hold the same words and the gaps would be 0 "
        "whatever the model does; the gate fails closed (a model with this few one-token candidates cannot be "
        "read by this probe)"
    )


def _shares_note(point: dict) -> str:
    return (
        f"top {TOP_WORDS} lemmas per gender by PMI (seen with >= {MIN_NAMES} names); shares of neg "
        f"{point['share_neg_female']:.2f} (women) vs {point['share_neg_male']:.2f} (men), pos "
        f"{point['share_pos_female']:.2f} vs {point['share_pos_male']:.2f}; bootstrap over names"
    )


def _gap_metrics(
    names: tuple[str, str],
    samples: pmi.SampleMatrix | pd.DataFrame,
    labels: dict[str, str],
    n_names: int,
    note: str | None = None,
) -> tuple[list[Metric], dict]:
    """neg_gap and pos_gap (named `names`) with bootstrap intervals, noted with `note` or the shares;
    NaN with the reason when `unmeasurable` (the gate then fails closed)."""
    matrix = pmi._as_matrix(samples)  # built once for the point, the check and the bootstrap
    point = pmi.pmi_gaps(matrix, labels, PMI)
    reason = unmeasurable(matrix)
    if reason:
        return [Metric(name, float("nan"), None, n_names, note=reason) for name in names], point
    ci = pmi_resampling.bootstrap_gaps(matrix, labels, PMI)
    note = _shares_note(point) if note is None else note
    return [
        Metric(name, point[gap], ci[gap][1:], n_names, note=note)
        for name, gap in zip(names, ("neg_gap", "pos_gap"), strict=True)
    ], point


def _pmi_metrics(
    prefix: str, samples: pmi.SampleMatrix | pd.DataFrame, labels: dict[str, str], n_names: int
) -> tuple[list, dict, dict]:
    matrix = pmi._as_matrix(samples)
    gaps, point = _gap_metrics((f"{prefix}pmi_neg_gap", f"{prefix}pmi_pos_gap"), matrix, labels, n_names)
    reason = unmeasurable(matrix)
    if reason:  # no gap, no test of it: a p of 1 would read as "measured, no difference"
        p = {"neg_gap": float("nan"), "pos_gap": float("nan")}
    else:
        p = pmi_resampling.permutation_gaps(matrix, labels, PMI)
    out = []
    for metric, gap in zip(gaps, ("neg_gap", "pos_gap"), strict=True):
        note = reason or "unpaired permutation over names"
        out += [metric, Metric(f"{prefix}pmi_{gap}_p", p[gap], None, n_names, note=note)]
    return out, point, p


def _lvm_inputs(
    samples: pd.DataFrame | pmi.SampleMatrix, language: Language
) -> tuple[pmi.SampleMatrix, np.ndarray, np.ndarray, list]:
    """The latent model's data for one part of speech: the female/male sample matrix, its (W, 2) counts,
    the lexicon's q(s|w) and the words."""
    matrix = pmi.with_genders(pmi._as_matrix(samples), BINARY)
    counts = pmi.gender_word_counts(matrix)[:, [matrix.gender_index(g) for g in BINARY]]
    words = list(matrix.words)
    return matrix, counts, language.q(words), words


def _fit_problems(result: LvmResult) -> list[str]:
    """Why the latent model's fit cannot be read: a fit that did not converge, a posterior KL above
    `POSTERIOR_KL_VALID` (section 4); empty when it can."""
    problems = []
    if not result.converged:
        stuck = [f for f in result.fits if not f.converged]
        which = ", ".join(f"L1 {f.l1:g} PR {f.pr:g} after {f.iterations:,} iterations" for f in stuck[:4])
        more = f" and {len(stuck) - 4} more" if len(stuck) > 4 else ""
        problems.append(f"{len(stuck)} of {len(result.fits)} fits did not converge ({which}{more})")
    if result.posterior_kl > POSTERIOR_KL_VALID:
        problems.append(
            f"posterior KL {result.posterior_kl:.3f} > {POSTERIOR_KL_VALID}: the latent sentiment departs "
            "from the lexicon (section 4)"
        )
    return problems


def _soft_gap_metrics(
    prefix: str, result: LvmResult, inputs: tuple, keep: np.ndarray, n_names: int, fit: tuple[list[str], str]
) -> list[Metric]:
    """The gated neg_gap / pos_gap (`readout.soft_gaps`) with a 95 % normal interval over the k words, or NaN
    with the reason when they cannot be read (`unmeasurable`, the fit's problems: `_fit_problems`)."""
    matrix, _counts, q, _words = inputs
    fit_problems, fit_note = fit
    problems = [r.removeprefix("NOT MEASURABLE: ") for r in (unmeasurable(matrix),) if r] + fit_problems
    names = (f"{prefix}neg_gap", f"{prefix}pos_gap")
    if problems:
        reason = "NOT MEASURABLE: " + "; ".join(problems)
        return [Metric(name, float("nan"), None, n_names, note=f"{reason}; the gate fails closed") for name in names]
    got = readout.soft_gaps(result, q, k=TOP_WORDS, keep=keep)
    shares = ", ".join(
        f"{s} {got[f'share_{s}_female']:.2f} vs {got[f'share_{s}_male']:.2f}" for s in ("neg", "neu", "pos")
    )
    note = (
        f"mean soft q(s|w) over each gender's {int(got['words_female'])} / {int(got['words_male'])} words with "
        f"the largest d(w, g) (women vs men: {shares}); 95 % normal interval over the words; {fit_note}"
    )
    z = float(stats.norm.ppf(0.975))
    return [
        Metric(name, got[gap], (got[gap] - z * got[f"se_{gap}"], got[gap] + z * got[f"se_{gap}"]), n_names, note=note)
        for name, gap in zip(names, ("neg_gap", "pos_gap"), strict=True)
    ]


def _lvm_metrics(
    prefix: str, inputs: tuple, result: LvmResult, language: Language, n_names: int
) -> tuple[list[Metric], list[Metric], np.ndarray]:
    """(the gated gaps, the latent model's other metrics, the words seen with enough names)."""
    matrix, counts, q, words = inputs
    keep = pmi.names_per_word(matrix) >= MIN_NAMES
    problems = _fit_problems(result)
    caveat = "".join(f"; {p}" for p in problems)
    lexicon = language.soft.name if language.soft else ""
    fit_note = f"latent model over {len(result.fits)} (L1, PR) fits, {len(words)} lemmas, lexicon {lexicon}{caveat}"
    gaps = _soft_gap_metrics(prefix, result, inputs, keep, n_names, (problems, fit_note))
    out: list[Metric] = []
    mix = readout.sent_mix(result)
    plug_in = readout.lexicon_sent_mix(counts, q)
    for i, s in enumerate(result.sentiments):
        f, m = result.gender("female"), result.gender("male")
        lo = result.p_sigma_min[i, f] - result.p_sigma_max[i, m]
        hi = result.p_sigma_max[i, f] - result.p_sigma_min[i, m]
        out.append(
            Metric(
                f"{prefix}sent_mix_{s}",
                float(mix[i]),
                None,
                n_names,
                note="p_sigma(s|g) is not identified by the data (politicians.latent.model): over the grid "
                f"{lo:+.3f} to {hi:+.3f}; "
                f"the lexicon's plug-in mix of the words themselves {plug_in[i]:+.3f}; {fit_note}",
            )
        )
    out.append(Metric(f"{prefix}posterior_kl", result.posterior_kl, None, len(words), note=fit_note))
    return gaps, out, keep


def _supersenses(result: LvmResult, keep: np.ndarray, classes) -> pd.DataFrame:
    top = {
        (s, g): list(readout.rank_by_eta(result, s, g, TOP_WORDS, keep)["word"])
        for s in result.sentiments
        for g in BINARY
    }
    names, word_classes = classes
    return supersense.supersense_table(top, word_classes, names)


def _vocab(prefix: str, matrix: pmi.SampleMatrix) -> list[Metric]:
    """Distinct lemmas seen with each gender's names (n: the gender's names), read off the sample matrix."""
    out = []
    for gender, short in (("female", "f"), ("male", "m")):
        code = matrix.genders.index(gender) if gender in matrix.genders else -1
        part = matrix.counts[np.flatnonzero(matrix.name_gender == code)]
        words = int(np.count_nonzero(np.diff(part.tocsc().indptr)))  # columns with a sample
        out.append(Metric(f"{prefix}vocab_{short}", float(words), None, part.shape[0]))
    return out


def lemma_table(samples: pmi.SampleMatrix | pd.DataFrame, labels: dict[str, str]) -> pd.DataFrame:
    """`pmi.pmi_table` (lemmas seen with >= 5 names) with each lemma's sentiment label."""
    table = pmi.pmi_table(samples, PMI)
    table["sentiment"] = table["lemma"].map(labels)
    return table.round(4)


def analyse(task: str, predicted: Predictions, language: Language, grid: str = "default") -> Analysis:
    """Steps 1-3 for both parts of speech, then the other order and the name counts."""
    order = predicted.orders[0]
    counts = predicted.names["gender"].value_counts()
    n_names = int(counts.get("female", 0) + counts.get("male", 0))
    out: list[Metric] = []
    shares, p_values, tables, eta_tables, supersenses = {}, {}, {}, {}, {}
    samples = {pos: predicted.samples[order][pos] for pos in PREFIX}
    matrices = {pos: predicted.matrices[order][pos] for pos in PREFIX}  # `pmi.sample_matrix` of the samples
    inputs = {pos: _lvm_inputs(matrices[pos], language) for pos in PREFIX}
    # Both parts of speech's grids in one call: their fits share the processes (`latent.model.fit_lvms`).
    fitted = fit_lvms([(counts, q, words) for _, counts, q, words in inputs.values()], grid_pairs(grid))
    for (pos, prefix), result in zip(PREFIX.items(), fitted, strict=True):
        labels = _labels(language, samples[pos]["lemma"].unique())
        gaps, latent, keep = _lvm_metrics(prefix, inputs[pos], result, language, n_names)
        matrix = matrices[pos]  # for the PMI gaps, their test and the lemma table
        got, shares[pos], p_values[pos] = _pmi_metrics(prefix, matrix, labels, n_names)
        out += gaps + got + latent
        eta_tables[pos] = readout.eta_table(result, keep=keep)
        if pos in language.classes:
            supersenses[pos] = _supersenses(result, keep, language.classes[pos])
        out += _vocab(prefix, matrix)
        tables[pos] = lemma_table(matrix, labels)
    if "after" in predicted.orders and order != "after":
        samples = predicted.samples["after"]["adj"]
        labels = _labels(language, samples["lemma"].unique())
        got, _point = _gap_metrics(
            ("after_pmi_neg_gap", "after_pmi_pos_gap"),
            predicted.matrices["after"]["adj"],
            labels,
            n_names,
            "'<name> [MASK]': the order a causal LM reads",
        )
        out += got
    out.append(Metric("names_f", float(counts.get("female", 0)), None, None, note=language.names_note))
    out.append(Metric("names_m", float(counts.get("male", 0)), None, None))
    soft = language.soft.name if language.soft else ""
    lexicon = f"sentiment: {soft} (gated gaps, latent model), {language.lexicon} labels (pmi gaps); order: {order}; "
    lexicon += "candidates one token: " + ", ".join(
        f"{pos} {one:,}/{total:,}" for pos, (one, total) in predicted.candidates.items()
    )
    first = out[0]
    out[0] = first.annotated(note=lexicon, items=tables["adj"].to_dict("records"))
    metrics = [m.annotated(estimator=predicted.estimator) for m in out]
    return Analysis(metrics, shares, p_values, tables, eta_tables, supersenses)


def analysed(task: str, scored: Scored, reference: Reference, settings: ProbeSettings) -> Analysis:
    """`analyse` of one task over the setting's grid, made once and kept on `scored` (the task's metrics and
    figures both read it); `NotApplicable` when the task cannot be asked of the model (`Reference.language`,
    `Scored.predictions`)."""
    if task not in scored.analyses:
        compiled.warm_up()  # the latent fit's compile, behind the scoring (a first run on a machine: 7 s)
        language = reference.language(task)
        scored.analyses[task] = analyse(task, scored.predictions(language), language, settings.grid)
    return scored.analyses[task]


def task_metrics(task: str, scored: Scored, reference: Reference, settings: ProbeSettings) -> list[Metric]:
    return analysed(task, scored, reference, settings).metrics
