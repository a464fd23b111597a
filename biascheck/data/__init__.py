"""Reference data: declared sources, verified resolution, parsers to DataFrames.

Probes receive a `ReferenceData` (pytest fixture `refdata`) and call the parser modules with it,
e.g. ``professions_en.professions_923(refdata)``. It remembers every file it resolved, with its
checksum, so the results file can say exactly which data produced the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from biascheck.data.resolve import default_cache_dir, resolve
from biascheck.data.sources import SOURCES, Source
from biascheck.errors import DataError, did_you_mean


@dataclass
class ReferenceData:
    mirror: Path | None = None
    cache: Path = field(default_factory=default_cache_dir)
    used: dict[str, Source] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # A str from a caller (a notebook, a script) is as good as a Path.
        self.mirror = None if self.mirror is None else Path(self.mirror).expanduser()
        self.cache = Path(self.cache).expanduser()

    def path(self, name: str) -> Path:
        """Verified local path of the declared source `name` (see `biascheck.data.sources`)."""
        if name not in SOURCES:
            raise DataError(f"No reference source named {name!r}.{did_you_mean(name, SOURCES)}")
        source = SOURCES[name]
        found = resolve(source, self.mirror, self.cache)
        self.used[name] = source
        return found

    def provenance(self) -> list[dict[str, str]]:
        """One entry per file used this session: name, url, sha256, licence, citation."""
        return [
            {"name": s.name, "url": s.url, "sha256": s.sha256, "licence": s.licence, "citation": s.citation}
            for s in sorted(self.used.values(), key=lambda s: s.name)
        ]


__all__ = ["ReferenceData", "SOURCES", "Source", "resolve"]
