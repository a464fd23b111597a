"""Name → loaded `LanguageModel`: alias / local directory / hub id, family detection, device, dtype."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from biascheck.devices import parse_device, parse_dtype
from biascheck.errors import ConfigError, MissingTokenizerError, ModelTypeError, UnknownModelError, did_you_mean
from biascheck.files import offline
from biascheck.models.base import LanguageModel, ModelInfo
from biascheck.models.precision import on_device, weights_dtype
from biascheck.registry import ALIASES, ModelSpec, resolve_model_name

# Pre-training heads that contain the MLM head (their checkpoints load into *ForMaskedLM).
_PRETRAINING_WITH_MLM = {"BertForPreTraining", "AlbertForPreTraining", "MegatronBertForPreTraining"}


WEIGHT_FILES = ("*.safetensors", "*.bin", "*.gguf", "*.pt")
TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "vocab.txt",
    "vocab.json",
    "merges.txt",
    "*.model",
    "special_tokens_map.json",
)


# A real tokenizer has at least an alphabet and the special tokens, and spells these words with known
# pieces (the test tokenizers, trained on a dozen sentences, have 94 tokens and more); the empty one
# transformers builds from config.json alone (no tokenizer files) has 5 and makes every word [UNK].
MIN_VOCAB = 30
ORDINARY_WORDS = ("he", "she", "the")


def tokenizer_problems(tokenizer: Any) -> list[str]:
    """Why `tokenizer` is not a real one ([] when it is): a tiny vocabulary, an ordinary word that is the
    unknown token (or no token at all), 'he' and 'she' the same tokens."""
    problems = []
    if len(tokenizer) < MIN_VOCAB:
        problems.append(f"its vocabulary has {len(tokenizer)} tokens")
    ids = {word: list(tokenizer(word, add_special_tokens=False)["input_ids"]) for word in ORDINARY_WORDS}
    unk = tokenizer.unk_token_id
    unknown = [w for w, i in ids.items() if not i or (unk is not None and unk in i)]
    if unknown:
        words = [repr(w) for w in unknown]
        listed = ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]
        problems.append(f"{listed} {'is' if len(words) == 1 else 'are'} the unknown token {tokenizer.unk_token!r}")
    elif ids["he"] == ids["she"]:
        problems.append("'he' and 'she' are the same tokens")
    return problems


def _tokenizer_error(name: str, spec: ModelSpec, directory: Path | None, problems: list[str]) -> MissingTokenizerError:
    what = "; ".join(problems)
    harm = (
        "every word would be the same token, so he and she would score alike and every bias metric would come "
        "out perfect; biascheck refuses such a model."
    )
    if directory is None:
        return MissingTokenizerError(
            f"--model {name!r}: the tokenizer of {spec.hub_id!r} is not a real one ({what}): {harm} Use a "
            "revision or repository that has the model's tokenizer, or a local directory with the model and its "
            "tokenizer saved beside it (tokenizer.save_pretrained(dir))."
        )
    present = [p.name for p in _files(directory, TOKENIZER_FILES)]
    found = (
        f"its tokenizer files ({', '.join(present)}) do not make a real tokenizer"
        if present
        else "it has no tokenizer files (no tokenizer.json, no vocabulary file such as vocab.txt, vocab.json + "
        "merges.txt or *.model, no tokenizer_config.json), so transformers built an empty tokenizer"
    )
    return MissingTokenizerError(
        f"--model {name!r}: the model directory {directory} holds a model but {found} ({what}): {harm} Save the "
        f"model's tokenizer beside it (tokenizer.save_pretrained('{directory}')), or point --model at a "
        "directory that has one."
    )


def _files(directory: Path, patterns: tuple[str, ...]) -> list[Path]:
    return sorted({p for pattern in patterns for p in directory.glob(pattern) if p.is_file()})


def files_digest(paths: list[Path]) -> str:
    """sha256 over the files' names and contents, in name order ('' when there are none): two loads of
    the same files give the same digest, whatever the directory is called."""
    import hashlib

    if not paths:
        return ""
    digest = hashlib.sha256()
    for path in sorted(paths, key=lambda p: p.name):
        digest.update(path.name.encode() + b"\0")
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def resolve_device(device: str) -> str:
    """ "auto" → "cuda" if available, else "mps" if available, else "cpu"; validates cpu/cuda/cuda:N/mps."""
    dev = parse_device(device)
    import torch

    if dev == "auto":
        if torch.cuda.is_available():
            return "cuda"
        mps = getattr(torch.backends, "mps", None)
        if mps is not None and mps.is_available():
            return "mps"
        return "cpu"
    if dev.startswith("cuda"):
        if not torch.cuda.is_available():
            raise ConfigError(f"device {device!r} was asked for but CUDA is not available here; use 'cpu' or 'auto'.")
        if ":" in dev and int(dev.split(":")[1]) >= torch.cuda.device_count():
            raise ConfigError(
                f"device {device!r}: only {torch.cuda.device_count()} CUDA device(s) are visible (cuda:0..)."
            )
    if dev == "mps":
        mps = getattr(torch.backends, "mps", None)
        if mps is None or not mps.is_available():
            raise ConfigError("device 'mps' was asked for but Apple MPS is not available here; use 'cpu' or 'auto'.")
    return dev


def resolve_dtype(dtype: str, device: str) -> str:
    """ "auto" → float32 on every device (half precision only where float32 does not fit a card:
    `biascheck.models.placement`); "tf32" → float32 but on a CUDA card (`precision`). Returns a canonical name."""
    canon = parse_dtype(dtype)
    return "float32" if canon == "auto" else on_device(canon, device)


def _family_from_config(config: Any) -> str:
    """masked / causal from the config's architectures, else from transformers' auto mappings.

    A config that names architectures, none of them with an LM head (e.g. only
    ``BertForSequenceClassification``), is rejected: its checkpoint has no trained LM head.
    """
    archs = list(getattr(config, "architectures", None) or [])
    for a in archs:
        if "ForMaskedLM" in a or a in _PRETRAINING_WITH_MLM:
            return "masked"
    for a in archs:
        if "ForCausalLM" in a or "LMHeadModel" in a:
            return "causal"
    if not archs:
        from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING, MODEL_FOR_MASKED_LM_MAPPING

        if type(config) in MODEL_FOR_MASKED_LM_MAPPING:
            return "masked"
        if type(config) in MODEL_FOR_CAUSAL_LM_MAPPING:
            return "causal"
    raise ModelTypeError(
        f"the model's architecture {archs or [type(config).__name__]} "
        f"(model_type {getattr(config, 'model_type', '?')!r}) "
        "has no masked-LM or causal-LM head; biascheck needs a masked LM (e.g. BertForMaskedLM) or a causal LM "
        "(e.g. GPT2LMHeadModel, LlamaForCausalLM). Choose such a checkpoint."
    )


def _merge_adapter(model: Any, adapter: str, name: str) -> Any:
    """A PEFT adapter merged into the weights (the peft package is optional)."""
    try:
        from peft import PeftModel
    except ImportError as exc:
        raise ConfigError(
            f"--model {name!r} --model-arg adapter={adapter}: loading an adapter needs the peft package "
            "(pip install peft)."
        ) from exc
    try:
        return PeftModel.from_pretrained(model, adapter).merge_and_unload()
    except Exception as exc:  # noqa: BLE001
        raise UnknownModelError(f"--model-arg adapter={adapter}: the adapter did not load ({exc}).") from exc


def _unknown(name: str, spec: ModelSpec, exc: BaseException) -> UnknownModelError:
    where = "local directory" if spec.is_local_dir else "hub id"
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if spec.is_local_dir:  # no hub, no network: the directory's content is the question
        hint = (
            "Check that it holds a saved model: config.json (with model_type), the weights and the tokenizer "
            "files, as save_pretrained writes them; or, for a GGUF file, pass the file itself (--model "
            "DIR/FILE.gguf) or --model-arg gguf_file=FILE."
        )
    elif name in ALIASES:  # the name is right: the weights are what could not be had
        hint = (
            f"{name!r} is biascheck's alias for that hub id. Check the network (or set HF_HUB_OFFLINE=1 with a "
            "filled cache), or pass a local directory holding the model."
        )
    else:
        hint = (
            "Check the name, the network (or set HF_HUB_OFFLINE=1 with a filled cache), or pass a local "
            f"directory.{did_you_mean(name, ALIASES)}"
        )
    if offline() and not spec.is_local_dir:
        hint += " BIASCHECK_OFFLINE is set, so the hub was not asked: only a model already in the cache loads."
    return UnknownModelError(
        f"--model {name!r}: could not load {where} {spec.hub_id!r} ({type(exc).__name__}: {reason}). {hint}"
    )


@dataclass(frozen=True)
class Provenance:
    """What a model handed to `load_model` as a directory really is, when the directory is only where a
    cache put it: `biascheck.planted.resolve` builds a planted model into its cache and passes this, so
    the results record the plant (the same on every machine), not a path, and the loader never trains.

    directory: the saved model (config, weights, tokenizer); source: recorded as the model's source;
    record: added to the model's `ModelInfo.extra`.
    """

    directory: Path
    source: str
    record: Mapping[str, str] = field(default_factory=dict)


def load_model(
    name: str,
    *,
    device: str = "auto",
    dtype: str = "auto",
    batch_size: int | None = None,
    model_args: dict[str, str | bool] | None = None,
    provenance: Provenance | None = None,
) -> LanguageModel:
    """Load `name` (alias, local directory or hub id) as a ready-to-score `LanguageModel`.

    device: "auto" (cuda, else mps, else cpu), "cpu", "cuda", "cuda:N", "mps".
    dtype: "auto" (float32; bfloat16 on a card float32 does not fit), "float32", "tf32", "float16", "bfloat16".
    batch_size: sequences per forward pass; None = adaptive (a token budget, halved on CUDA OOM).
    model_args: `biascheck.model_args` (revision, trust_remote_code, gguf_file, subfolder, adapter).
    provenance: load `provenance.directory` in place of what `name` names, and record its source. A planted
    alias needs one: `biascheck.planted.resolve.load_model_or_plant` builds the model and passes it.
    Errors: UnknownModelError (bad name / not loadable, with did-you-mean), ModelTypeError (no LM
    head), ConfigError (bad device/dtype/batch size/model args), TokenizationError (no fast tokenizer),
    MissingTokenizerError (no tokenizer files, or one that is not a real tokenizer: `tokenizer_problems`).
    """
    spec = resolve_model_name(name)
    if provenance is not None:
        spec = replace(spec, hub_id=str(provenance.directory))
    elif spec.planted_strength is not None:
        raise ConfigError(
            f"--model {name!r} is a planted model, built on first use: load it through "
            "biascheck.planted.resolve.load_model_or_plant (as pytest and the biascheck command do), which builds "
            "it (or finds it in its cache) and hands its directory to load_model."
        )
    args = dict(model_args or {})
    adapter = args.pop("adapter", None)
    load_kwargs = {"trust_remote_code": bool(args.pop("trust_remote_code", False)), **args}
    if offline():  # BIASCHECK_OFFLINE=1: a name that is not on this machine is an error at once, not a hub lookup
        load_kwargs["local_files_only"] = True
    dev = resolve_device(device)
    dt = resolve_dtype(dtype, dev)
    if batch_size is not None and (not isinstance(batch_size, int) or batch_size < 1):
        raise ConfigError(f"batch_size must be a positive integer or None (adaptive), got {batch_size!r}.")

    import torch
    import transformers
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer

    torch_dtype = getattr(torch, weights_dtype(dt))  # tf32: float32 weights, TF32 products (`precision`)
    extra: dict[str, str] = {}
    from biascheck.models.converted import gguf_dir, local_gguf

    gdir = gguf_dir(name, spec) if not model_args else None  # model args load the named checkpoint as given

    own = local_gguf(name, spec, args)
    if gdir is None and own is not None:  # a GGUF of one's own: converted once per machine, as the built-in is
        gdir, spec = own[0], replace(spec, gguf_file=own[1])
        for key in ("gguf_file", "trust_remote_code"):
            load_kwargs.pop(key, None)
    if gdir is not None:
        family = spec.family or "causal"
        try:
            from biascheck.models.converted import load_embedded

            tokenizer, model = load_embedded(gdir, str(spec.gguf_file), weights_dtype(dt))  # converted once per machine
        except Exception as exc:  # noqa: BLE001
            fix = (
                f"Reinstall the package {spec.embedded_package!r} or pass a hub id."
                if spec.embedded_package
                else "Check that it is a whole GGUF file of a causal LM that transformers reads (pip install gguf)."
            )
            kind = "embedded GGUF" if spec.embedded_package else "GGUF file"
            raise UnknownModelError(
                f"--model {name!r}: the {kind} {gdir / str(spec.gguf_file)} did not load ({type(exc).__name__}: "
                f"{exc}). {fix}"
            ) from exc
        source = f"gguf:{spec.embedded_package}/{spec.gguf_file}" if spec.embedded_package else f"gguf:{gdir}"
        try:
            revision = importlib.metadata.version(str(spec.embedded_package).replace("_", "-"))
        except (importlib.metadata.PackageNotFoundError, ValueError):
            revision = "unknown"
        from biascheck.models.identity import quantisation as gguf_type

        extra["weights"] = (
            f"{gguf_type(None, str(spec.gguf_file))} dequantised to {weights_dtype(dt)}"  # by alias or by path
        )
        if spec.embedded_package:
            extra["hub_id"] = spec.hub_id
    else:
        source = spec.hub_id
        try:
            config = AutoConfig.from_pretrained(spec.hub_id, **load_kwargs)
        except Exception as exc:  # noqa: BLE001
            raise _unknown(name, spec, exc) from exc
        family = spec.family or _family_from_config(config)
        auto = AutoModelForMaskedLM if family == "masked" else AutoModelForCausalLM
        try:
            tokenizer = AutoTokenizer.from_pretrained(spec.hub_id, **load_kwargs)
        except Exception as exc:  # noqa: BLE001
            raise _unknown(name, spec, exc) from exc
        problems = tokenizer_problems(tokenizer)
        if problems:  # before the weights load: a model without its tokenizer measures nothing
            directory = Path(spec.hub_id) / str(load_kwargs.get("subfolder", ""))
            raise _tokenizer_error(name, spec, directory if directory.is_dir() else None, problems)
        try:
            model = auto.from_pretrained(spec.hub_id, dtype=torch_dtype, **load_kwargs)
        except ValueError as exc:
            if "Unrecognized configuration class" in str(exc):
                raise ModelTypeError(
                    f"--model {name!r}: {getattr(config, 'architectures', None)} cannot be loaded as a {family} LM "
                    f"({exc}). biascheck needs a masked or causal LM head."
                ) from exc
            raise _unknown(name, spec, exc) from exc
        except Exception as exc:  # noqa: BLE001
            raise _unknown(name, spec, exc) from exc
        revision = getattr(config, "_commit_hash", None) or getattr(model.config, "_commit_hash", None) or "unknown"
        if "gguf_file" in load_kwargs:
            extra["weights"] = f"GGUF {load_kwargs['gguf_file']} dequantised to {weights_dtype(dt)}"
        if adapter is not None:
            model = _merge_adapter(model, str(adapter), name)
            extra["adapter"] = str(adapter)
    if provenance is not None:  # a plant is the same source on every machine, wherever its cache is
        source = provenance.source
        extra.update(provenance.record)
    if model_args:
        extra["model_args"] = ", ".join(f"{k}={v}" for k, v in sorted(model_args.items()))
    from biascheck.models.placement import place

    placed = place(model, dev, dt, auto=parse_dtype(dtype) == "auto")
    model, dt = placed.model, placed.dtype
    extra["transformers"] = transformers.__version__
    local = gdir if gdir is not None else (Path(spec.hub_id) if Path(spec.hub_id).is_dir() else None)
    if local is not None:  # what exactly was loaded: hashes of the files (a hub id has its commit as revision)
        if gdir is not None:
            weights = [local / str(spec.gguf_file)]
        elif "gguf_file" in load_kwargs:
            weights = [local / str(load_kwargs.get("subfolder", "")) / str(load_kwargs["gguf_file"])]
        else:
            weights = _files(local / str(load_kwargs.get("subfolder", "")), WEIGHT_FILES)
        extra["weights_sha256"] = files_digest(weights)
    from biascheck.models.identity import quantisation, tokenizer_digest

    gguf = spec.gguf_file if gdir is not None else load_kwargs.get("gguf_file")
    extra["quantisation"] = quantisation(model, None if gguf is None else str(gguf))
    extra["tokenizer_sha256"] = tokenizer_digest(tokenizer)  # the tokenizer loaded, not its files' bytes
    context_prefix = None
    if family == "causal":
        from biascheck.models.causal import default_context_prefix

        context_prefix = spec.context_prefix if spec.context_prefix is not None else default_context_prefix(tokenizer)
        extra["context_prefix"] = context_prefix
    info = ModelInfo(
        name=name,
        source=source,
        revision=str(revision),
        family=family,  # type: ignore[arg-type]
        architecture=type(model).__name__,
        device=dev,
        dtype=dt,
        languages=tuple(spec.languages),
        extra=extra,
    )

    def build(module: Any, built: ModelInfo) -> LanguageModel:
        if family == "masked":
            from biascheck.models.masked import MaskedLM

            return MaskedLM(module, tokenizer, info=built, batch_size=batch_size)
        from biascheck.models.causal import CausalLM

        return CausalLM(module, tokenizer, info=built, batch_size=batch_size, context_prefix=context_prefix)

    if placed.reference is None:
        return build(model, info)
    from biascheck.models.dtype_check import checked  # auto fell back to half precision: checked against float32

    reference = build(placed.reference, replace(info, device="cpu", dtype="float32", extra={}))
    return checked(build(model, info), reference, placed.note)
