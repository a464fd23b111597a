"""Every probe biascheck can run, found rather than listed, so that a new probe is one folder.

Two places are searched, the first time the catalog is used:

* every folder ``biascheck/methods/<name>/`` that has a ``spec.py`` (its ``PROBE``): the shipped probes;
* the entry-point group ``biascheck.probes``: a probe in a package of one's own is declared in that
  package's ``pyproject.toml`` and found the same way, without a change to biascheck::

      [project.entry-points."biascheck.probes"]
      my_probe = "my_package.spec:PROBE"

Entries stay lazy ``module:attribute`` strings (as in lm-evaluation-harness's task registry): looking a
probe up imports only its ``spec.py``, which imports only `biascheck.spec`, so listing probes and checking
threshold files and settings imports no numpy, pandas, torch or data.

Order, which every listing follows (``biascheck probes``, docs/probes.md's probe lists, the report): the
shipped probes of the seed papers by paper number (000, 001, ...), then the shipped probes beyond the
seeds, each by name, then the installed probes by name. Reading the order imports the shipped specs
(cheap); an installed probe's spec is imported when it is looked up.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from biascheck.errors import ConfigError
from biascheck.spec import ProbeSpec

METHODS = Path(__file__).resolve().parent / "methods"
SHIPPED_PACKAGE = "biascheck.methods"
ENTRY_POINT_GROUP = "biascheck.probes"


def shipped_entries(methods: Path = METHODS) -> dict[str, str]:
    """name → ``biascheck.methods.<name>.spec:PROBE`` for every folder of `methods` with a ``spec.py``."""
    return {
        folder.name: f"{SHIPPED_PACKAGE}.{folder.name}.spec:PROBE"
        for folder in sorted(methods.iterdir())
        if folder.is_dir() and (folder / "spec.py").is_file()
    }


def entry_points(group: str) -> Any:
    """`importlib.metadata.entry_points` of `group`, imported only when the catalog is first used: importing
    it takes longer (about 60 ms) than finding every shipped probe."""
    from importlib.metadata import entry_points as declared

    return declared(group=group)


def installed_entries(shipped: Mapping[str, str]) -> dict[str, str]:
    """name → ``module:attribute`` of every entry point of the group ``biascheck.probes``; a name that a
    shipped probe has, or that two packages both declare, is an error that names both."""
    found: dict[str, str] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        clash = shipped.get(point.name) or found.get(point.name)
        if clash is not None:
            raise ConfigError(
                f"entry point {point.name} = {point.value!r} (group {ENTRY_POINT_GROUP!r}) names a probe that "
                f"{clash!r} already is: every probe needs a name of its own (it names the threshold table "
                "[<name>] and the test marker biascheck(probe=...)). Rename the entry point and its ProbeSpec."
            )
        found[point.name] = point.value
    return found


def _seed_order(spec: ProbeSpec) -> tuple[int, str, str]:
    """Seed papers by number first ('000' < '001'), then the probes beyond the seeds; ties by name."""
    return (0, spec.paper, spec.name) if spec.paper.isdigit() else (1, "", spec.name)


class Catalog(Mapping[str, ProbeSpec]):
    """A read-only name → `ProbeSpec` mapping over the discovered probes; a spec module is imported on
    first access to its probe."""

    def __init__(self, methods: Path = METHODS) -> None:
        self._methods = methods
        self._entries: dict[str, str] | None = None
        self._loaded: dict[str, ProbeSpec] = {}

    @property
    def entries(self) -> dict[str, str]:
        """name → ``module:attribute``, in the catalog's order (found on first use)."""
        if self._entries is None:
            shipped = shipped_entries(self._methods)
            installed = installed_entries(shipped)
            ordered = sorted(shipped, key=lambda name: _seed_order(self._spec(name, shipped[name])))
            self._entries = {**{name: shipped[name] for name in ordered}, **dict(sorted(installed.items()))}
        return self._entries

    def is_shipped(self, name: str) -> bool:
        """True for a probe of ``biascheck/methods/``, False for one an installed package declares."""
        return self.entries[name].startswith(f"{SHIPPED_PACKAGE}.")

    def __getitem__(self, name: str) -> ProbeSpec:
        return self._spec(name, self.entries[name])

    def _spec(self, name: str, entry: str) -> ProbeSpec:
        if name not in self._loaded:
            module, _, attribute = entry.partition(":")
            spec = getattr(importlib.import_module(module), attribute)
            if not isinstance(spec, ProbeSpec) or spec.name != name:
                found = f"the spec of {spec.name!r}" if isinstance(spec, ProbeSpec) else f"a {type(spec).__name__}"
                raise ConfigError(
                    f"probe {name!r}: {entry} is {found}, not the ProbeSpec named {name!r}. A probe's folder (or "
                    "entry-point name) and its ProbeSpec(name=...) must be the same."
                )
            self._loaded[name] = spec
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)


PROBES = Catalog()
