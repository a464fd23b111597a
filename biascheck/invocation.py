"""A pytest command line that pytest itself misreads, caught before any test is collected.

pytest settles its rootdir and config file before plugins' options are known, so in
``pytest --model /path/to/checkpoint`` it reads the directory as a test path: the rootdir becomes the
checkpoint, the project's ``[tool.pytest.ini_options]`` is not read, and the wrong tests are
collected. ``--model=/path`` (one word) is read right. Once biascheck's options are known (its plugin
loads right after), the command line is read again; if pytest's setup would differ with option values
read as values, the run stops with a `UsageError` that says how to write it, instead of running the
wrong thing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any


def without_options(args: Sequence[str], with_value: Sequence[str], flags: Sequence[str] = ()) -> list[str]:
    """`args` less every option named in `with_value` (as ``--name=VALUE`` or ``--name VALUE``) and every
    flag named in `flags`: a run's command line with the options another command must not repeat."""
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in with_value:
            skip = "=" not in arg
            continue
        if arg in flags:
            continue
        kept.append(arg)
    return kept


def _harmful(early_config: Any, rootpath: Path, inipath: Path | None, file_or_dir: list[str]) -> bool:
    """The misreading matters when it lost the config file, or made pytest's rootdir an option's value
    (a checkpoint directory would hold .pytest_cache and be searched for thresholds/). A rootdir that
    only moved to a common ancestor of the paths given, with the same config file, is harmless."""
    if inipath != early_config.inipath:
        return True
    here = Path(early_config.invocation_params.dir)
    values = [
        arg
        for arg in early_config.invocation_params.args
        if isinstance(arg, str) and not arg.startswith("-") and arg not in file_or_dir
    ]
    chosen = Path(early_config.rootpath).resolve()
    return (
        any(
            chosen == (here / value).resolve() or (here / value).resolve() in chosen.parents
            for value in values
            if (here / value).exists()
        )
        and chosen != rootpath.resolve()
    )


def misread_option_values(early_config: Any) -> str | None:
    """None when pytest's rootdir and config file are those the command line means; else the reason."""
    try:
        from _pytest.config.findpaths import determine_setup

        ns = early_config.known_args_namespace  # re-parsed with biascheck's options: values are values
        rootpath, inipath, *_ = determine_setup(
            inifile=ns.inifilename,
            override_ini=ns.override_ini,
            args=list(ns.file_or_dir),
            rootdir_cmd_arg=ns.rootdir or None,
            invocation_dir=early_config.invocation_params.dir,
        )
    except (ImportError, TypeError, AttributeError):  # another pytest's internals: nothing to compare
        return None
    if not _harmful(early_config, Path(rootpath), inipath and Path(inipath), ns.file_or_dir):
        return None
    return (
        f"pytest took {early_config.rootpath} as its rootdir (config file: {early_config.inipath or 'none'}) "
        f"because it reads a path given after an option with a space (e.g. '--model /path/to/checkpoint') as a "
        f"test path: it settles its rootdir before biascheck's options are known. Read as the option's value, "
        f"the rootdir is {rootpath} (config file: {inipath or 'none'}). Write the option and its value as one "
        f"word ('--model=/path/to/checkpoint'), or name the tests first ('pytest probes --model /path/...')."
    )
