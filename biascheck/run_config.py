"""The run's options, read once: each value is checked where it enters (`parse_*`, used as argparse
``type=``), so a bad value is reported with its option name before anything is loaded, and `RunConfig`
holds them for the session (`biascheck.session`)."""

from __future__ import annotations

import argparse
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biascheck import devices, tiers
from biascheck import model_args as model_args_module
from biascheck.checkpoints import Checkpoint, read_model_list
from biascheck.data.resolve import PACKAGE_HOME, mirror_dir
from biascheck.errors import ConfigError, UnknownModelError, argparse_type, did_you_mean
from biascheck.languages import parse_languages
from biascheck.registry import ALIASES, DEFAULT_MODEL, resolve_model_name
from biascheck.settings import parse_assignment


def check_data_env(data_dir: Path | None) -> None:
    """The run's mirror directory, when it came from $BIASCHECK_DATA_DIR (--bias-data is checked as it is
    parsed), is a directory: a mistyped mirror path stops the run at its start, not when the first probe
    reads its data (after a model loaded)."""
    import os

    value = os.environ.get("BIASCHECK_DATA_DIR")
    if data_dir is None or not value or Path(value).expanduser() != data_dir or data_dir.is_dir():
        return
    what = "is a file, not a directory" if data_dir.exists() else "does not exist"
    raise ConfigError(
        f"$BIASCHECK_DATA_DIR={value} {what}: it must name the reference-data mirror (a folder with the "
        "sources' files, see docs/reference_data.md). Fix the path, or unset it to use the cache and "
        "downloads (`biascheck data` lists what is found where)."
    )


def check_report_dir(path: Path | None) -> None:
    """--bias-report must name a directory this run can write: found out before any model loads, not when
    the run ends and writes. Nothing is left behind (the directory is made when the report is written)."""
    if path is None:
        return
    if path.exists() and not path.is_dir():
        raise ConfigError(f"--bias-report {path}: that is a file; name a directory (made if missing), or none.")
    problem = _unwritable(path)
    if problem:
        raise ConfigError(
            f"--bias-report {path}: the report cannot be written there ({problem}). "
            "Name a directory this run can write to, or none."
        )


def check_store_path(path: Path) -> None:
    """--bias-store, when this run saves or compares, must be a file or one that can be made: found out
    before any model loads (it was a FileExistsError traceback for /dev/null/x.sqlite). Creates nothing."""
    if path.is_dir():
        raise ConfigError(
            f"--bias-store {path}: that is a directory; name the SQLite file, e.g. {path / 'results.sqlite'}."
        )
    problem = None if path.exists() else _unwritable(path.parent)
    if problem:
        raise ConfigError(
            f"--bias-store {path}: the results store cannot be created there ({problem}). Name a file in a "
            "directory this run can write to, e.g. .biascheck/results.sqlite (the default)."
        )


def _unwritable(path: Path) -> str:
    """Why a directory cannot be made and written at `path` ('' when it can), judged at its nearest existing
    parent by making and removing a temporary directory there (permission bits say nothing under root)."""
    existing = path.absolute()
    while not existing.exists():
        existing = existing.parent
    try:
        shutil.rmtree(tempfile.mkdtemp(prefix=".biascheck-write-test-", dir=existing))
    except OSError as exc:
        return f"{existing}: {'not a directory' if not existing.is_dir() else exc.strerror or exc}"
    return ""


def _known_model(value: str) -> str:
    resolve_model_name(value)  # UnknownModelError with did-you-mean
    return value


parse_model = argparse_type(_known_model)
parse_device = argparse_type(devices.parse_device)
parse_dtype = argparse_type(devices.parse_dtype)
parse_setting = argparse_type(parse_assignment)
parse_language = argparse_type(parse_languages)
parse_model_arg = argparse_type(model_args_module.parse_model_arg)


def _model_list(value: str) -> tuple[Checkpoint, ...]:
    """--model-list FILE, each model checked as --model is: a listed directory that is not there is a usage
    error naming the file and entry (it was an INTERNALERROR traceback when the probes were collected)."""
    checkpoints = tuple(read_model_list(value))
    for i, checkpoint in enumerate(checkpoints, start=1):
        try:
            resolve_model_name(checkpoint.model)
        except UnknownModelError:
            base = Path(value).expanduser().absolute().parent
            raise ConfigError(
                f"--model-list {value}: entry {i} names {checkpoint.model!r}, which is not a model directory, an "
                f"alias or a hub id (owner/name); a relative path is looked up beside the list ({base}), then in "
                f"the working directory ({Path.cwd()}).{did_you_mean(checkpoint.model, ALIASES)} Fix the entry, or "
                "save the checkpoint there first."
            ) from None
    return checkpoints


parse_model_list = argparse_type(_model_list)
parse_tier = argparse_type(tiers.parse_tier)


def parse_batch_size(value: str) -> int | None:
    if value == "auto":
        return None
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a batch size: use 'auto' or a positive integer.")
    return number


def parse_run_name(value: str) -> str:
    if not value or value != value.strip():
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a run name: use a non-empty name without surrounding spaces."
        )
    return value


def parse_dir(value: str) -> Path:
    path = Path(value).expanduser()
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{value!r} is not a directory.")
    return path


@dataclass(frozen=True)
class RunConfig:
    models: tuple[str, ...]
    device: str
    dtype: str
    batch_size: int | None
    profile: str
    report_dir: Path | None
    data_dir: Path | None
    any_language: bool
    rootdir: Path
    # regression tracking (biascheck.gate_plugin.tracking): the sweep's checkpoints, the results store, the baseline
    checkpoints: tuple[Checkpoint, ...] = ()
    store_path: Path = Path(".biascheck") / "results.sqlite"
    save_name: str | None = None
    baseline: str | None = None
    baseline_regen: bool = False
    noise_run: str | None = None
    settings: tuple[tuple[str, str, str], ...] = ()  # --bias-set (probe, name, value)
    allow_mismatch: bool = False  # --bias-allow-mismatch: compare with a baseline that is not comparable
    accept_partial: bool = False  # --bias-accept-partial: a partial run may become a baseline (biascheck.gate.admit)
    model_args: tuple[tuple[str, Any], ...] = ()  # --model-arg, applied to every --model
    languages: tuple[str, ...] | None = None  # --bias-language: what every model covers
    tier: str = ""  # --bias-tier: quick, full or auto; "" = $BIASCHECK_TIER, else auto (biascheck.tiers)
    plots: str = "auto"  # --bias-plots: all, none, or auto (`draws`)

    @classmethod
    def from_pytest(cls, config: Any) -> RunConfig:
        option = config.option
        data_dir = mirror_dir(option.bias_data, [Path(str(config.rootpath)), PACKAGE_HOME])
        report = option.bias_report
        checkpoints = tuple(getattr(option, "bias_model_list", None) or ())
        listed = [c.model for c in checkpoints]
        return cls(
            models=tuple(dict.fromkeys((option.bias_models or ([] if listed else [DEFAULT_MODEL])) + listed)),
            device=option.bias_device,
            dtype=option.bias_dtype,
            batch_size=option.bias_batch_size,
            profile=option.bias_profile,
            report_dir=None if report in (None, "none", "") else Path(report).expanduser(),
            data_dir=data_dir,
            any_language=option.bias_any_language,
            rootdir=Path(str(config.rootpath)),
            checkpoints=checkpoints,
            store_path=Path(getattr(option, "bias_store", None) or Path(".biascheck") / "results.sqlite").expanduser(),
            save_name=getattr(option, "bias_save", None),
            baseline=getattr(option, "bias_baseline", None),
            baseline_regen=bool(getattr(option, "bias_baseline_regen", False)),
            noise_run=getattr(option, "bias_noise", None),
            settings=tuple(getattr(option, "bias_settings", None) or ()),
            allow_mismatch=bool(getattr(option, "bias_allow_mismatch", False)),
            accept_partial=bool(getattr(option, "bias_accept_partial", False)),
            model_args=tuple(getattr(option, "bias_model_args", None) or ()),
            languages=getattr(option, "bias_language", None),
            tier=getattr(option, "bias_tier", None) or "",
            plots=getattr(option, "bias_plots", None) or "auto",
        )

    @property
    def draws(self) -> bool:
        """Whether the probes draw their figures and texts: --bias-plots all, or auto without a model list (a
        sweep's figures were about 8 s a checkpoint on 2 cores, its numbers all in results.json)."""
        return self.plots == "all" or (self.plots == "auto" and not self.checkpoints)

    def threshold_dirs(self) -> list[Path]:
        """Where profile names are looked up: the run's rootdir (a user's own profiles), then the profiles
        biascheck ships (`biascheck.profiles` in a wheel; thresholds/ in a checkout)."""
        return [self.rootdir / "thresholds", shipped_profiles_dir()]


def shipped_profiles_dir() -> Path:
    """The threshold profiles that ship with biascheck: the installed `biascheck.profiles` package, or
    the checkout's thresholds/ (an editable install maps one onto the other)."""
    try:
        import biascheck.profiles as profiles

        return Path(next(iter(profiles.__path__)))
    except ImportError:
        return Path(__file__).resolve().parent.parent / "thresholds"
