"""Find the bytes of a declared `Source` and prove they are the pinned ones.

Order: the mirror directory (``--bias-data`` or ``BIASCHECK_DATA_DIR``, else a ``shared/data`` mirror
beside the checkout: `mirror_dir`), the user cache
(``BIASCHECK_CACHE_DIR``, default ``~/.cache/biascheck``), then a download of the pinned raw URL
into the cache (unless ``BIASCHECK_OFFLINE=1``). The sha256 is checked on every resolution; a
corrupt file is never used, and a download lands in the cache only once verified (written to a
temporary name, then renamed).
"""

from __future__ import annotations

import http.client
import os
import tempfile
import urllib.request
from collections.abc import Iterable
from pathlib import Path

from biascheck.data.sources import Source
from biascheck.errors import DataError
from biascheck.files import default_cache_dir, file_sha256, offline


def _how_to_provide(source: Source) -> str:
    return (
        f"Provide it by pointing --bias-data (or BIASCHECK_DATA_DIR) at a mirror that has "
        f"<mirror>/{source.relpath}, or download {source.url} to that place."
    )


def _download(source: Source, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=".part-")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(handle, "wb") as out, urllib.request.urlopen(source.url, timeout=30) as response:
            for block in iter(lambda: response.read(1 << 20), b""):
                out.write(block)
        actual = file_sha256(tmp)
        if actual != source.sha256:
            raise DataError(
                f"Downloaded {source.url} but its sha256 is {actual}, not the pinned {source.sha256}; "
                "nothing was written to the cache. " + _how_to_provide(source)
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


# The folder that holds this package: a checkout of biascheck when installed from one (pip install -e), so
# a shared/data mirror beside it is found from any working directory; site-packages' parent otherwise.
PACKAGE_HOME = Path(__file__).resolve().parents[2]


def mirror_search(explicit: Path | None, roots: Iterable[Path] = ()) -> tuple[Path | None, str]:
    """The mirror directory, one rule for the plugin and the command line, and how it was found (or every
    place looked): `explicit` (--bias-data / --data), else $BIASCHECK_DATA_DIR, else a ``shared/data``
    mirror (one with a MANIFEST.json) beside one of `roots` (a checkout next to the shared folder, as in
    our CI); None if none."""
    if explicit is not None:
        return Path(explicit).expanduser(), "given with --data / --bias-data"
    env = os.environ.get("BIASCHECK_DATA_DIR")
    if env:
        return Path(env).expanduser(), "from $BIASCHECK_DATA_DIR"
    looked: list[str] = []
    for root in roots:
        sibling = Path(root).resolve().parent / "shared" / "data"
        if (sibling / "MANIFEST.json").is_file():
            return sibling, f"the shared/data beside {Path(root).resolve()}"
        looked.append(str(sibling))
    places = ", ".join(dict.fromkeys(looked)) or "no checkout given"
    return None, (f"none found: no --data, $BIASCHECK_DATA_DIR unset, no shared/data with a MANIFEST.json at {places}")


def mirror_dir(explicit: Path | None, roots: Iterable[Path] = ()) -> Path | None:
    """The mirror directory of `mirror_search`, without the account of how."""
    return mirror_search(explicit, roots)[0]


# What a download can fail with: no network, a refused or reset connection, a timeout, an HTTP error
# status (urllib.error.URLError and HTTPError are OSErrors), a URL http.client refuses or a broken
# response (http.client.HTTPException: InvalidURL, IncompleteRead, ...).
DOWNLOAD_ERRORS = (OSError, http.client.HTTPException)


class MissingDataError(DataError):
    """A declared source in none of the places looked: the mirror, the cache, a download of its URL.
    The message names the file, its URL, every place looked (each said as which: mirror, cache,
    download) and how to provide it; `reason` is the one-line form (`biascheck data` prints it per file)."""

    def __init__(self, source: Source, looked: list[str], download_error: str | None) -> None:
        self.source = source
        self.looked = looked
        self.download_error = download_error
        super().__init__(
            f"Reference file {source.name!r} ({source.path} from {source.owner}/{source.repo}@{source.commit[:7]}, "
            f"{source.url}) was not found. Looked in: {'; '.join(looked)}. " + _how_to_provide(source)
        )

    @property
    def reason(self) -> str:
        if self.download_error is None:
            return "not found (no download: offline)"
        return f"not found; download failed: {self.download_error}"


def resolve(
    source: Source, mirror: Path | None = None, cache: Path | None = None, allow_download: bool | None = None
) -> Path:
    """Path to a verified local copy of `source`; DataError naming file, places and fix otherwise
    (`MissingDataError` when it is in none of them)."""
    cache = cache if cache is not None else default_cache_dir()
    if allow_download is None:
        allow_download = not offline()
    looked = [] if mirror is not None else ["mirror: none given (--bias-data or $BIASCHECK_DATA_DIR)"]
    for place, root in ([("mirror", mirror)] if mirror is not None else []) + [("cache", cache)]:
        candidate = root / source.relpath
        looked.append(f"{place} {candidate}")
        if candidate.is_file():
            try:
                actual = file_sha256(candidate)
            except OSError as exc:
                raise DataError(
                    f"Reference file {source.name!r} at {candidate} cannot be read: {exc}. " + _how_to_provide(source)
                ) from exc
            if actual != source.sha256:
                raise DataError(
                    f"Reference file {source.name!r} at {candidate} is corrupt: sha256 {actual}, "
                    f"expected {source.sha256} ({source.url}). Delete it and restore a good copy. "
                    + _how_to_provide(source)
                )
            return candidate
    if not allow_download:
        looked.append("download: not tried (BIASCHECK_OFFLINE is set)")
        raise MissingDataError(source, looked, None)
    target = cache / source.relpath
    try:
        _download(source, target)
    except DOWNLOAD_ERRORS as exc:
        error = f"{type(exc).__name__}: {exc}"
        looked.append(f"download {source.url} (download failed: {error})")
        raise MissingDataError(source, looked, error) from exc
    return target
