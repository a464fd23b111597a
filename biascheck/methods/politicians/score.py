"""politicians scoring: the only module of the probe that calls the model (`slot_vocab`). Steps 1-3 of
`biascheck.methods.politicians.math`: for every name, the model's one-token distribution in the slot
next to it, read at every candidate adjective and verb form (both casings), folded into the top k
lemmas per part of speech. A task is one language, read and scored when the task asks
(`Scored.predictions`, called by `metrics.analysed`); a language of which no adjective or no verb form is
one token of the model is not applicable to it (`NotApplicable`: the task is skipped).

Orders (S2 Tab 11): ``before`` = ``"[SLOT] <name>"`` (adjective before the noun: en, nb), ``after`` =
``"<name> [SLOT]"`` (fr, es; and every causal LM, which cannot see a name on its right). A masked LM
on en/nb reads both: the paper's order, and ``after`` to compare like with like.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from biascheck import __version__
from biascheck.data import parsed_cache
from biascheck.errors import NotApplicable
from biascheck.files import default_cache_dir
from biascheck.methods.politicians.math import (
    casing_layout,
    distinct_tokens,
    folded,
    lemma_codes,
    samples_frame,
    top_lemmas,
)
from biascheck.methods.politicians.pmi import SampleMatrix, coded_matrix
from biascheck.methods.politicians.reference import Candidates, Language, Reference
from biascheck.methods.politicians.spec import ADJ_BEFORE_NOUN, POS, TOP_K
from biascheck.scoring import LanguageModel
from biascheck.settings import ProbeSettings
from biascheck.spec import SLOT

CHUNK = 256  # names per slot_vocab call: bounds the (names x candidates) float64 block in memory


@dataclass(frozen=True)
class Predictions:
    """What the model said next to the names, per order.

    samples[order][pos]: one row per (name, lemma) (`math.samples_frame`); matrices[order][pos]: the same
    samples as `pmi.sample_matrix` counts them (`pmi.coded_matrix`); names: the scored names (name, gender);
    orders: the orders read, the gated one first; candidates[pos]: forms that are one token in the model's
    vocabulary / all candidate forms; estimator: `slot_vocab`'s.
    """

    samples: dict[str, dict[str, pd.DataFrame]]
    matrices: dict[str, dict[str, SampleMatrix]]
    names: pd.DataFrame
    orders: tuple[str, ...]
    candidates: dict[str, tuple[int, int]]
    estimator: str


@dataclass(frozen=True)
class Scored:
    """The model, for each task's language to be scored when the task asks (`predictions`): a language whose
    task does not run is neither read nor scored. `analyses`: each task's `metrics.Analysis`, kept by
    `metrics.analysed` for the task's metrics and figures, which both read it (typed there: scoring does not
    import the metrics)."""

    lm: LanguageModel
    analyses: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def predictions(self, language: Language) -> Predictions:
        """What the model says next to the language's names (`score_language`); `NotApplicable` when no
        adjective or no verb form of the language is one token of the model."""
        predicted = score_language(self.lm, language)
        missing = [pos for pos, (one, _total) in predicted.candidates.items() if one == 0]
        if missing:
            raise NotApplicable(
                f"politicians[{language.language}]: no {' or '.join(missing)} form is a single token of "
                f"{self.lm.info.name}"
            )
        return predicted


def score(lm: LanguageModel, reference: Reference, settings: ProbeSettings) -> Scored:
    """Nothing is scored here: each task's language when the task asks (`Scored.predictions`), so a task
    that does not run reads no reference data. `lm`: a `biascheck.models.base.LanguageModel` (methods do not
    import the model layer)."""
    return Scored(lm)


def orders_for(family: str, language: str) -> tuple[str, ...]:
    """The orders to read, the gated one first: causal -> after; masked -> the language's order, and
    after as well when that is not the language's order."""
    if family == "causal":
        return ("after",)
    return ("before", "after") if ADJ_BEFORE_NOUN[language] else ("after",)


def template(name: str, order: str) -> str:
    return f"{SLOT} {name}" if order == "before" else f"{name} {SLOT}"


def _slot_logprob(
    lm, templates: list[str], strings: list[str], ids: np.ndarray | None, estimator: str
) -> tuple[np.ndarray, str]:
    """(n_templates, n_strings) log-probabilities of one-token strings in each template's slot: by
    token id (`slot_ids`) where the model has it, else through `slot_vocab`."""
    if ids is not None:
        try:
            return lm.slot_ids(templates, ids), estimator
        except NotImplementedError:
            pass
    got = lm.slot_vocab(templates, strings)
    return got.logprob, got.estimator


# Which candidate strings are one token (and their ids) depends on the tokenizer, the context prefix and the
# first template, not on the weights: kept for the process by those and the strings, so that the next
# checkpoint of a sweep with the same tokenizer does not tokenise the language's 10^4-10^5 candidates again
# (the politicians probe's tokenising, 20 s of a tiny checkpoint's 65 s of host work). A model without a
# tokenizer digest (a test's fake) is never cached.
# They are kept on disk too, in the parsed-data cache (`parsed_cache.cached_json_in`, keyed by the same and by
# biascheck's version), so that the next run on the machine with that tokenizer (a release's, a sweep's next
# process) does not tokenise them either: 10-13 s of a tiny SmolLM2's first full tier on 2 cores.
_ONE_TOKEN: OrderedDict[tuple, tuple[np.ndarray, np.ndarray | None, str]] = OrderedDict()
_ONE_TOKEN_KEEP = 16  # (language x order) entries: every language of a run in both orders
ONE_TOKEN_VERSION = 1  # bump when what `one_token_candidates` finds changes for the same inputs


def one_token_candidates(
    lm: LanguageModel, first: str, candidates: Candidates
) -> tuple[np.ndarray, np.ndarray | None, str]:
    """(indices into `candidates.strings` of the one-token candidates, `math.distinct_tokens`; their token ids or
    None; the estimator) from `lm.slot_vocab([first], candidates.strings)`, or from an earlier call with the same
    tokenizer."""
    strings, owner = candidates.strings, candidates.owner
    digest = (lm.info.extra or {}).get("tokenizer_sha256")
    key = None
    if digest:
        key = (digest, (lm.info.extra or {}).get("context_prefix"), lm.family, first, candidates.digest)
        if key in _ONE_TOKEN:
            _ONE_TOKEN.move_to_end(key)
            return _ONE_TOKEN[key]

    def build() -> dict[str, Any]:
        probe = lm.slot_vocab([first], strings)
        one = distinct_tokens(probe.n_pieces[0], probe.token_ids, owner)
        ids = None if probe.token_ids is None else [int(i) for i in probe.token_ids[one]]
        return {"one": [int(i) for i in one], "ids": ids, "estimator": probe.estimator}

    if key is None:
        got = build()
    else:
        keys = [hashlib.sha256(repr(key).encode("utf-8")).hexdigest(), f"biascheck {__version__}"]
        got = parsed_cache.cached_json_in(default_cache_dir(), "politicians-one-token", keys, ONE_TOKEN_VERSION, build)
    one = np.asarray(got["one"], dtype=np.int64)
    ids = None if got["ids"] is None else np.asarray(got["ids"], dtype=np.int64)
    for array in (one, ids):
        if array is not None:
            array.setflags(write=False)
    found = (one, ids, str(got["estimator"]))
    if key is not None:
        _ONE_TOKEN[key] = found
        while len(_ONE_TOKEN) > _ONE_TOKEN_KEEP:
            _ONE_TOKEN.popitem(last=False)
    return found


def score_language(lm: LanguageModel, reference: Language, top_k: Mapping[str, int] | None = None) -> Predictions:
    """Score every name of the language (`reference.names`: columns name, gender) in each order of
    `orders_for`, over its candidate forms (`reference.forms`: pos -> {form: lemma}, `math.candidate_forms`,
    for pos in ("adj", "verb")); top_k: pos -> k (default: the paper's, `spec.TOP_K[language]`).
    """
    names, forms, language = reference.names, reference.forms, reference.language
    top_k = dict(TOP_K[language] if top_k is None else top_k)
    laid_out = reference.candidates  # the language's forms and casings, kept with it for every model
    all_forms, strings, owner, of_pos = laid_out.forms, laid_out.strings, laid_out.owner, laid_out.of_pos
    orders = orders_for(lm.family, language)
    name_list = names["name"].tolist()
    samples: dict[str, dict[str, pd.DataFrame]] = {}
    matrices: dict[str, dict[str, SampleMatrix]] = {}
    name_of, gender_of = names["name"].to_numpy(dtype=object), names["gender"].to_numpy(dtype=object)
    candidates: dict[str, tuple[int, int]] = {}
    estimator = ""
    for order in orders:
        # Which strings are one token here does not depend on the name: find them once, score only those
        # (by token id where the model reads ids directly: no candidate is tokenised again per chunk).
        one, one_ids, probe_estimator = one_token_candidates(lm, template(name_list[0], order), laid_out)
        one_strings = [strings[i] for i in one]
        # Only forms with a one-token casing can be taken (the others' probability is 0): the blocks hold
        # those columns alone, in form order (which breaks ties), not every candidate form of the language.
        live, live_owner = np.unique(owner[one], return_inverse=True)
        cols = {pos: np.flatnonzero(of_pos[pos][live]) for pos in POS}
        lemmas = {pos: [forms[pos][all_forms[i]] for i in live[cols[pos]]] for pos in POS}
        top: dict[str, list] = {pos: [] for pos in POS}  # (rows, forms, log-probabilities) per chunk
        lemma_of: dict[str, np.ndarray] = {pos: np.asarray(lemmas[pos], dtype=object) for pos in POS}
        codes = {pos: lemma_codes(lemmas[pos]) for pos in POS}
        layout = casing_layout(live_owner.reshape(-1), live.size)  # each live form's one-token strings
        for start in range(0, len(name_list), CHUNK):
            chunk = [template(n, order) for n in name_list[start : start + CHUNK]]
            probs = np.zeros((len(chunk), 0))  # of the one-token strings
            if one_strings:
                logprob, estimator = _slot_logprob(lm, chunk, one_strings, one_ids, probe_estimator)
                probs = np.exp(logprob)
            for pos in POS:  # chunk by chunk: one (names x forms) block in memory at a time
                block = folded(probs, layout, cols[pos])  # the part of speech's forms, casings summed
                at, form_at, logs = top_lemmas(block, lemmas[pos], top_k[pos], codes[pos])
                top[pos].append((at + start, form_at, logs))
        joined = {pos: _joined(top[pos]) for pos in POS}
        samples[order] = {
            pos: samples_frame(names, rows, lemma_of[pos][at], logs) for pos, (rows, at, logs) in joined.items()
        }
        matrices[order] = {
            pos: coded_matrix(name_of, gender_of, rows, lemma_of[pos], at) for pos, (rows, at, _) in joined.items()
        }
        if order == orders[0]:
            single = {all_forms[i] for i in owner[one]}
            candidates = {pos: (sum(1 for f in forms[pos] if f in single), len(forms[pos])) for pos in POS}
    return Predictions(
        samples, matrices, names[["name", "gender"]].reset_index(drop=True), orders, candidates, estimator
    )


def _joined(parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The chunks' (rows, forms, log-probabilities) end to end (none: empty arrays)."""
    if not parts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
    rows, forms, logs = (np.concatenate([part[i] for part in parts]) for i in range(3))
    return rows, forms, logs
