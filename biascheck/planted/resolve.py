"""A planted alias (``planted-bert@0.25``) → its model, built on first use.

Building a planted model trains one (minutes on a CPU) from reference data and a probe's stimuli, so
it happens here, above the model layer: `biascheck.models.load_model` only loads what is on disk and
never trains. Whoever accepts any ``--model`` name (the session, the sweep, scripts, the planted tests)
loads through `load_model_or_plant`: a planted alias is built (or found in the cache,
`biascheck.planted.build`) and its directory handed to the loader with the record of the plant;
any other name goes to the loader as it is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from biascheck.models.base import LanguageModel
from biascheck.models.loading import Provenance, load_model
from biascheck.registry import planted_spec


def planted_provenance(name: str, data_dir: Path | None = None) -> Provenance | None:
    """None when `name` is not a planted alias; else the directory of its built model (trained now when
    the cache has no finished copy, reading reference data from the mirror `data_dir`), the source to
    record (``planted:<model label>@<strength>``, the same on every machine) and the plant's record:
    strength, corpus, language, the corpus's sha256 and the recipe."""
    spec = planted_spec(name)
    if spec is None:
        return None
    from biascheck.data import ReferenceData
    from biascheck.planted.build import ensure_model, manifest, model_label

    family, corpus, strength = str(spec.family), str(spec.planted_corpus), float(spec.planted_strength or 0.0)
    directory = ensure_model(family, strength, ReferenceData(mirror=data_dir), corpus=corpus)
    built = manifest(directory)
    record = {
        "planted_strength": f"{strength:g}",
        "planted_corpus": corpus,
        "planted_language": spec.languages[0],
        "planted_corpus_sha256": built["corpus_sha256"],
        "planted_recipe": built["recipe"],
        "planted_seed": str(built["train_config"]["seed"]),
    }
    return Provenance(directory, f"planted:{model_label(family, corpus)}@{strength:g}", record)


def load_model_or_plant(name: str, *, data_dir: Path | None = None, **options: Any) -> LanguageModel:
    """`biascheck.models.load_model(name, **options)`, for any name ``--model`` takes: a planted alias is
    built first (`planted_provenance`, reading reference data from `data_dir`)."""
    return load_model(name, provenance=planted_provenance(name, data_dir), **options)
