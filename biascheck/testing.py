"""Helpers to test probes (as pytest-regressions' ``testing.py`` does for its fixtures).

1. `FakeLM`: a deterministic stand-in for a masked or causal model (no torch): every score is a
   fixed function of its text, so a probe runs in seconds and gives the same numbers every time.
   Use it to test a probe's plumbing, not its findings.
2. `run_probes`: runs probe modules through the real plugin in a separate pytest process, in a
   scratch directory, on the fake models (``fake_models=True``, via a conftest that overrides ``lm``) or
   on any model the loader knows (a tiny real checkpoint directory), and collects each test's
   outcome and the run's ``results.json``.
3. `check_contract`: what every probe in the catalog must do in such a run: one test per task of
   its spec for every model, each either passing or failing only on a threshold (no crash, no
   skip); every task records at least one metric; every recorded metric is one its spec declares,
   with an estimator and the spec's reference, and an interval that holds its value.

biascheck's own tests run every probe of the catalog through these (``tests/plugin/test_probe_contract.py``);
a new probe is held to the contract the moment its folder has a `spec.py` (`biascheck.catalog`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np

from biascheck.models.base import (
    CAUSAL_NEXT,
    CAUSAL_SENTENCE,
    MLM_PLL,
    MLM_SLOT,
    Family,
    LanguageModel,
    ModelInfo,
    SlotScores,
    TokenTerms,
)
from biascheck.spec import BLANK, COMPETENCE, SLOT, ProbeSpec

THRESHOLD_FAILURE = "outside the thresholds of profile"  # the first line of ProbeRecorder.check's message


def _unit(*parts: str) -> float:
    """A number in [0, 1) that depends only on `parts` (crc32: stable across runs and platforms)."""
    return zlib.crc32("\x1f".join(parts).encode("utf-8")) / 2**32


def definitional_logprob(template: str, candidate: str) -> float | None:
    """What a model that reads gender gives `candidate` in one of the competence guard's templates
    (`biascheck.competence.items`): log 0.6 for the pronoun that matches the noun, log 0.1 for the other;
    None for any other template or candidate. Fakes use it so that their probes get past the guard."""
    from biascheck.competence.items import BY_LANGUAGE

    if not _DEFINITIONAL:
        for items in BY_LANGUAGE.values():
            for frame in items.frames:
                for pair in items.pairs:
                    for noun, pronoun in zip(pair, items.pronouns, strict=True):
                        _DEFINITIONAL[frame.format(n=noun)] = (pronoun, items.pronouns)
    found = _DEFINITIONAL.get(template)
    if found is None or candidate not in found[1]:
        return None
    return float(np.log(0.6 if candidate == found[0] else 0.1))


_DEFINITIONAL: dict[str, tuple[str, tuple[str, str]]] = {}


class FakeLM(LanguageModel):
    """Deterministic scores from the text alone. family 'masked' or 'causal' picks the estimators
    a real model of that family would report; every log-probability lies in [-12, -0.5), except in the
    competence guard's templates, which it reads as a model that knows gender does
    (`definitional_logprob`; ``competent=False``: as any other text, so the guard finds it cannot read)."""

    def __init__(
        self, name: str, family: Family = "masked", languages: tuple[str, ...] = (), *, competent: bool = True
    ) -> None:
        self.competent = competent
        self.info = ModelInfo(
            name=name,
            source="fake",
            revision="0",
            family=family,
            architecture="FakeLM",
            device="cpu",
            dtype="float32",
            languages=languages,
        )

    def _logprob(self, *parts: str) -> float:
        return -0.5 - 11.5 * _unit(self.info.family, *parts)

    def _slot_logprob(self, template: str, candidate: str) -> float:
        known = definitional_logprob(template, candidate) if self.competent else None
        return self._logprob(template, candidate) if known is None else known

    def fill_slot(self, templates: Sequence[str], candidates: Sequence[str]) -> SlotScores:
        for template in templates:
            if template.count(SLOT) != 1:
                raise ValueError(f"a template needs exactly one {SLOT}: {template!r}")
        logprob = np.array([[self._slot_logprob(t, c) for c in candidates] for t in templates], dtype=float)
        pieces = np.array([[1 + len(c) // 8 for c in candidates] for _ in templates], dtype=int)
        estimator = MLM_SLOT if self.family == "masked" else CAUSAL_SENTENCE
        return SlotScores(logprob.reshape(len(templates), len(candidates)), pieces.reshape(logprob.shape), estimator)

    def next_token(self, prompts: Sequence[str], candidates: Sequence[str]) -> SlotScores:
        scores = self.fill_slot([f"{p} {SLOT}".strip() for p in prompts], candidates)
        return SlotScores(scores.logprob, scores.n_pieces, MLM_SLOT if self.family == "masked" else CAUSAL_NEXT)

    def slot_vocab(self, templates: Sequence[str], candidates: Sequence[str]) -> SlotScores:
        """One hash per template and per candidate, combined (a probe reads thousands of candidates per
        template here); candidates of more than 9 characters are 'several pieces' (-inf)."""
        for template in templates:
            if template.count(SLOT) != 1:
                raise ValueError(f"a template needs exactly one {SLOT}: {template!r}")
        t = np.array([_unit(self.info.family, "vocab", x) for x in templates])
        c = np.array([_unit(self.info.family, "vocab", x) for x in candidates])
        logprob = -0.5 - 11.5 * np.mod(t[:, None] * 7.919 + c[None, :], 1.0)
        pieces = np.broadcast_to(np.array([1 + len(x) // 10 for x in candidates], dtype=int), logprob.shape).copy()
        logprob[pieces > 1] = -np.inf
        return SlotScores(logprob, pieces, MLM_SLOT if self.family == "masked" else CAUSAL_NEXT)

    def top_next(self, prompts: Sequence[str], k: int) -> tuple[np.ndarray, list[list[str]]]:
        logprob = np.sort(np.array([[self._logprob(p, "top", str(j)) for j in range(k)] for p in prompts]), axis=1)
        return logprob[:, ::-1].copy(), [[f" w{j}" for j in range(k)] for _ in prompts]

    def sentence_logprob(self, sentences: Sequence[str]) -> tuple[np.ndarray, str]:
        values = [sum(w[3] for w in words) for words in self.word_logprobs(sentences)]
        return np.array(values, dtype=float), MLM_PLL if self.family == "masked" else CAUSAL_SENTENCE

    def word_logprobs(self, sentences: Sequence[str]) -> list[list[tuple[str, int, int, float]]]:
        out = []
        for sentence in sentences:
            if BLANK in sentence or SLOT in sentence:
                raise ValueError(f"sentences are plain text: {sentence!r}")
            words, start = [], 0
            for word in sentence.split():
                begin = sentence.index(word, start)
                start = begin + len(word)
                words.append((word, begin, start, self._logprob(sentence, word, str(begin))))
            out.append(words)
        return out

    def token_logprobs(self, sentences: Sequence[str]) -> list[TokenTerms]:
        """Words are the tokens (id: a hash of the word); a masked fake adds [CLS] (0) and [SEP] (1),
        unscored, as a real masked LM's ids have them."""
        out = []
        for words in self.word_logprobs(sentences):
            ids = [zlib.crc32(w[0].encode()) + 2 for w in words]
            terms = [w[3] for w in words]
            if self.family == "masked":
                ids, terms = [0, *ids, 1], [np.nan, *terms, np.nan]
            out.append(TokenTerms(tuple(ids), np.array(terms, dtype=float)))
        return out


def tiny_bert_config(vocab_size: int) -> Any:
    """A 2-layer, 32-wide BertConfig: a real masked LM that runs every probe in seconds on a CPU (128 positions:
    BBQ's longest masked prompt has 88 tokens)."""
    import transformers

    return transformers.BertConfig(
        vocab_size=vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
    )


def save_tiny_bert(directory: Path, tokenizer_dir: Path, seed: int = 0) -> Path:
    """Save a randomly initialised (seeded) tiny BertForMaskedLM with the tokenizer of `tokenizer_dir`
    into `directory`: a checkpoint any ``--model DIR`` run loads through the real loader and engine."""
    import torch
    import transformers

    tokenizer = transformers.AutoTokenizer.from_pretrained(tokenizer_dir)
    torch.manual_seed(seed)
    transformers.BertForMaskedLM(tiny_bert_config(tokenizer.vocab_size)).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


FAKE_CONFTEST = """
import pytest

from biascheck.testing import FakeLM


@pytest.fixture(scope="session")
def lm(request):
    family = "causal" if "causal" in request.param else "masked"
    return FakeLM(request.param, family, competent="clueless" not in request.param)
"""


# Plumbing runs only (`run_probes(guard=False)`): the competence guard answers "measurable" for every model,
# so that a random-weight checkpoint carries each probe through the real tokenizer and engine. Such a run's
# numbers measure nothing and it is never a gate; the guard itself is tested with guard=True.
UNGUARDED_CONFTEST = """
from biascheck.session import BiasSession

BiasSession.guard = lambda self, *args: ""
"""
UNGUARDED_PLUGIN = "biascheck_unguarded"


def unguarded_plugin(folder: Path) -> Path:
    """Write `UNGUARDED_CONFTEST` as the module `UNGUARDED_PLUGIN` into `folder` and return it: a timing script
    puts the folder on PYTHONPATH and passes ``-p UNGUARDED_PLUGIN`` to pytest, leaving the checkout's probes/ as
    they are (random weights fail the guard, and every probe would be skipped untimed)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{UNGUARDED_PLUGIN}.py").write_text(UNGUARDED_CONFTEST, encoding="utf-8")
    return folder


@dataclass
class ProbeRun:
    """What one pytest run of probe modules produced."""

    returncode: int
    outcomes: dict[str, tuple[str, str]]  # node id -> (passed | failed | error | skipped, message)
    results: dict[str, Any]  # results.json ({} when none was written)
    output: str = ""
    models: list[str] = field(default_factory=list)
    report_dir: Path | None = None  # results.json, summary.md, report.html, plots/
    guarded: bool = True  # the competence guard ran (run_probes(guard=False): a plumbing run)

    def metric(self, model: str, probe: str, task: str, name: str) -> dict[str, Any]:
        """The one result of results.json for (model, probe, task, metric); an AssertionError naming it if
        there is none or more than one."""
        found = [
            r
            for r in self.results.get("results", [])
            if (r["model"], r["probe"], r["task"], r["metric"]) == (model, probe, task, name)
        ]
        assert len(found) == 1, f"{len(found)} results for {(model, probe, task, name)}"
        return found[0]


def run_probes(
    directory: Path,
    repo: Path,
    models: Sequence[str],
    *,
    data_dir: Path,
    settings: Sequence[str] = (),
    fake_models: bool = False,
    extra_args: Sequence[str] = (),
    timeout: float = 1800,
    guard: bool = True,
) -> ProbeRun:
    """Copy `repo`'s probes and thresholds into `directory` and run them there in a new pytest process.

    models: values for ``--model``; settings: ``probe.key=value`` strings for ``--bias-set``;
    fake_models: override the ``lm`` fixture with `FakeLM` (family from the model name: 'causal'
    in it gives a causal fake; 'clueless' in it, one that cannot read the competence guard's items);
    guard=False: a plumbing run, the competence guard switched off (`UNGUARDED_CONFTEST`). The report goes
    to ``<directory>/out``. The process gets the caller's
    environment less its BIASCHECK_* settings (`probe_env`).
    """
    directory.mkdir(parents=True, exist_ok=True)
    shutil.copytree(repo / "probes", directory / "probes", dirs_exist_ok=True)
    shutil.copytree(repo / "thresholds", directory / "thresholds", dirs_exist_ok=True)
    conftest = (FAKE_CONFTEST if fake_models else "") + ("" if guard else UNGUARDED_CONFTEST)
    if conftest:
        (directory / "probes" / "conftest.py").write_text(conftest, encoding="utf-8")
    args = [
        sys.executable,
        "-m",
        "pytest",
        "probes",
        "--bias-data",
        str(data_dir),
        "--bias-report",
        "out",
        "--bias-any-language",
        "-p",
        "no:cacheprovider",
        *NO_HYPOTHESIS,
        "--junitxml",
        "junit.xml",
        "-q",
        "--rootdir",
        ".",
    ]
    for model in models:
        args += ["--model", model]
    for setting in settings:
        args += ["--bias-set", setting]
    done = subprocess.run(
        [*args, *extra_args],
        cwd=directory,
        env=probe_env(os.environ),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    results_file = directory / "out" / "results.json"
    results = json.loads(results_file.read_text(encoding="utf-8")) if results_file.is_file() else {}
    junit = directory / "junit.xml"
    outcomes = _junit_outcomes(junit) if junit.is_file() else {}
    return ProbeRun(
        done.returncode, outcomes, results, done.stdout + done.stderr, list(models), directory / "out", guard
    )


# Where files are kept and whether to download, not what a probe measures: passed on to the probe run, so
# a planted model prebuilt into $BIASCHECK_PLANTED_DIR is found there, not built again in the default cache, and
# the memo's on-disk store is where the caller's is (off in biascheck's own tests: tests/conftest.py).
PASSED_ENV = ("BIASCHECK_CACHE_DIR", "BIASCHECK_PLANTED_DIR", "BIASCHECK_OFFLINE", "BIASCHECK_MEMO_STORE")

# The pytest processes a test starts run no hypothesis test, and hypothesis's pytest plugin imports all of
# hypothesis at the end of every session it is loaded in (1.3 s of a 2.8 s trivial run on 2 cores): off there,
# as it is for a user who has not installed hypothesis (it is a test dependency, not one of biascheck's).
NO_HYPOTHESIS = ("-p", "no:hypothesispytest")


def probe_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment of `run_probes`' pytest process: the caller's, without PYTEST_ADDOPTS and the
    BIASCHECK_* settings (the run measures what its `settings` say), keeping `PASSED_ENV`."""
    return {
        k: v
        for k, v in environ.items()
        if k in PASSED_ENV or (not k.startswith("BIASCHECK_") and k != "PYTEST_ADDOPTS")
    }


def _junit_outcomes(path: Path) -> dict[str, tuple[str, str]]:
    out = {}
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        state, message = "passed", ""
        for tag in ("failure", "error", "skipped"):
            node = case.find(tag)
            if node is not None:
                state = {"failure": "failed", "error": "error", "skipped": "skipped"}[tag]
                message = (node.get("message") or "") + "\n" + (node.text or "")
                break
        out[name] = (state, message)
    return out


def check_contract(spec: ProbeSpec, run: ProbeRun) -> list[str]:
    """Every way `spec`'s probe broke the contract in `run` (empty: it kept it). See the module doc."""
    problems: list[str] = []
    module = f"probes.test_{spec.name}"
    tests = {node: outcome for node, outcome in run.outcomes.items() if node.startswith(module + "::")}
    if not tests:
        return [f"{spec.name}: no test of probes/test_{spec.name}.py ran (does the module exist and collect?)"]
    for node, (state, message) in tests.items():
        if state in ("error", "skipped") or (state == "failed" and THRESHOLD_FAILURE not in message):
            problems.append(f"{node}: {state}: {message.strip()[:600]}")
    results = [r for r in run.results.get("results", []) if r["probe"] == spec.name]
    guarded = {(r["model"], r["task"]) for r in results if r["metric"] == COMPETENCE}
    results = [r for r in results if r["metric"] != COMPETENCE]
    metrics = {m.name: m for m in spec.metrics}
    for model in run.models:
        mine = [r for r in results if r["model"] == model]
        for task in spec.tasks:
            if not any(r["task"] == task for r in mine):
                problems.append(f"{spec.name} on {model}: task {task!r} recorded no metric")
            if run.guarded and (model, task) not in guarded:
                problems.append(f"{spec.name} on {model}: task {task!r} recorded no competence result")
        for r in mine:
            where = f"{spec.name}.{r['task']}.{r['metric']} on {model}"
            if r["task"] not in spec.tasks:
                problems.append(f"{where}: task not in the spec ({', '.join(spec.tasks)})")
            if r["metric"] not in metrics:
                problems.append(f"{where}: metric not in the spec")
                continue
            if not r["estimator"]:
                problems.append(f"{where}: no estimator recorded")
            if r["reference"] != metrics[r["metric"]].reference:
                problems.append(f"{where}: reference {r['reference']!r}, spec says {metrics[r['metric']].reference!r}")
            if not _interval_holds(r.get("value"), r.get("ci_low"), r.get("ci_high")):
                interval = f"[{r['ci_low']}, {r['ci_high']}]"
                problems.append(f"{where}: interval {interval} does not hold its value {r['value']}")
    return problems


def _interval_holds(value, low, high) -> bool:
    """A result's interval holds its point estimate (or one of them is missing or NaN: nothing to check)."""
    numbers = (value, low, high)
    if any(x is None or x != x for x in numbers):
        return True
    return low - 1e-12 <= value <= high + 1e-12
