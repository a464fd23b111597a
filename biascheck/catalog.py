"""Every probe biascheck ships, by name, as a lazy ``module:attribute`` entry (as lm-evaluation-harness's
task registry does). Looking a probe up imports only its ``spec.py`` (which imports only
`biascheck.spec`): listing probes and validating thresholds or settings stays cheap (no numpy,
pandas, torch or data)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from biascheck.spec import ProbeSpec

ENTRIES: dict[str, str] = {
    "pronoun_ratio": "biascheck.methods.pronoun_ratio.spec:PROBE",
    "role_nouns": "biascheck.methods.role_nouns.spec:PROBE",
    "singular_they": "biascheck.methods.singular_they.spec:PROBE",
    "natural_prompts": "biascheck.methods.natural_prompts.spec:PROBE",
    "norwegian_occupations": "biascheck.methods.norwegian_occupations.spec:PROBE",
    "politicians": "biascheck.methods.politicians.spec:PROBE",
    "crows_pairs_gender": "biascheck.methods.crows_pairs_gender.spec:PROBE",
    "winogender": "biascheck.methods.winogender.spec:PROBE",
    "winobias": "biascheck.methods.winobias.spec:PROBE",
}


class Catalog(Mapping[str, ProbeSpec]):
    """A read-only name → `ProbeSpec` mapping that imports a spec module on first access."""

    def __init__(self, entries: Mapping[str, str]) -> None:
        self._entries = dict(entries)
        self._loaded: dict[str, ProbeSpec] = {}

    def __getitem__(self, name: str) -> ProbeSpec:
        if name not in self._loaded:
            module, _, attribute = self._entries[name].partition(":")
            spec = getattr(importlib.import_module(module), attribute)
            if spec.name != name:
                raise RuntimeError(f"catalog entry {name!r} points at the spec of {spec.name!r}")
            self._loaded[name] = spec
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


PROBES = Catalog(ENTRIES)
