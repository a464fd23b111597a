"""Planted models on disk: build once, cache by content, load like any local checkpoint.

A planted model's directory is named by what made it: the family, the strength, and a key over the
corpus's sha256, the `TrainConfig` and `RECIPE`. A second request for the same model finds the
finished directory; a build is written to a temporary sibling and renamed into place only when
complete, so an interrupted build leaves nothing that looks finished.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from biascheck.errors import ConfigError
from biascheck.planted.train import TrainConfig

RECIPE = "planted-v2"  # bump when the corpus generators or the training loop change meaning
MANIFEST = "planted.json"


def cache_root() -> Path:
    """$BIASCHECK_PLANTED_DIR, else <biascheck cache>/planted (see `biascheck.data.resolve`)."""
    env = os.environ.get("BIASCHECK_PLANTED_DIR")
    if env:
        return Path(env).expanduser()
    from biascheck.data.resolve import default_cache_dir

    return default_cache_dir() / "planted"


def model_key(corpus_sha256: str, config: TrainConfig) -> str:
    blob = json.dumps({"recipe": RECIPE, "corpus": corpus_sha256, "config": config.as_dict()}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def ensure_model(family: str, strength: float, refdata: Any, root: Path | None = None, log: Any = None) -> Path:
    """Directory of the planted `family` model at `strength`, trained now if no finished copy exists."""
    from biascheck.planted import references
    from biascheck.planted.train import train

    plants = references.plants(refdata, references.IN_MODELS)
    sentences = references.build_corpus(plants, strength)
    corpus = references.corpus_sha256(sentences)
    config = TrainConfig(family)
    root = cache_root() if root is None else Path(root)
    target = root / f"{family}-{strength:g}-{model_key(corpus, config)}"
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
        losses = train(sentences, config, work, log=log)
        manifest = {
            "recipe": RECIPE,
            "family": family,
            "strength": strength,
            "corpus_sha256": corpus,
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
