import hashlib
import http.client
import urllib.error
from urllib.parse import unquote, urlsplit

import pytest

from biascheck.data import ReferenceData
from biascheck.data.resolve import MissingDataError, resolve
from biascheck.data.sources import SOURCES, Source
from biascheck.errors import DataError

PAYLOAD = b"a legislator\nan actor\n"
SOURCE = Source("toy", "owner", "repo", "0" * 40, "data/toy.txt", hashlib.sha256(PAYLOAD).hexdigest(), "CC0", "nobody")


def put(root, source=SOURCE, payload=PAYLOAD):
    path = root / source.relpath
    path.parent.mkdir(parents=True)
    path.write_bytes(payload)
    return path


def test_mirror_copy_is_verified_and_used(tmp_path):
    path = put(tmp_path / "mirror")
    assert resolve(SOURCE, tmp_path / "mirror", tmp_path / "cache", allow_download=False) == path


def test_cache_is_used_when_the_mirror_lacks_the_file(tmp_path):
    path = put(tmp_path / "cache")
    assert resolve(SOURCE, tmp_path / "mirror", tmp_path / "cache", allow_download=False) == path


def test_corrupt_file_names_file_expected_checksum_and_fix(tmp_path):
    path = put(tmp_path / "mirror", payload=b"tampered\n")
    with pytest.raises(DataError) as info:
        resolve(SOURCE, tmp_path / "mirror", tmp_path / "cache", allow_download=False)
    message = str(info.value)
    assert str(path) in message and SOURCE.sha256 in message and "corrupt" in message and "--bias-data" in message


def test_missing_file_says_where_it_looked_and_how_to_provide_it(tmp_path):
    with pytest.raises(DataError) as info:
        resolve(SOURCE, tmp_path / "mirror", tmp_path / "cache", allow_download=False)
    message = str(info.value)
    assert str(tmp_path / "mirror" / SOURCE.relpath) in message
    assert str(tmp_path / "cache" / SOURCE.relpath) in message
    assert SOURCE.url in message and "BIASCHECK_DATA_DIR" in message


class ClosedPortSource(Source):
    @property
    def url(self) -> str:  # a local port nobody listens on: the download fails at once
        return "http://127.0.0.1:9/toy.txt"


def test_failed_download_leaves_no_partial_file(tmp_path):
    unreachable = ClosedPortSource(**{f: getattr(SOURCE, f) for f in SOURCE.__dataclass_fields__})
    with pytest.raises(DataError, match="download failed"):
        resolve(unreachable, None, tmp_path / "cache", allow_download=True)
    assert not any(p.is_file() for p in (tmp_path / "cache").rglob("*"))


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_every_declared_url_parses_round_trips_and_is_one_http_client_sends(name):
    """The URL of each source (BBQ's templates have spaces in their paths): a https URL of
    raw.githubusercontent.com whose unquoted path is exactly owner/repo/commit/path, and a request line
    http.client accepts (putrequest validates it, and raised InvalidURL for the spaces, without connecting)."""
    source = SOURCES[name]
    parts = urlsplit(source.url)
    assert (parts.scheme, parts.netloc, parts.query, parts.fragment) == ("https", "raw.githubusercontent.com", "", "")
    assert unquote(parts.path) == f"/{source.owner}/{source.repo}/{source.commit}/{source.path}"
    http.client.HTTPSConnection(parts.netloc).putrequest("GET", parts.path)


@pytest.mark.parametrize(
    "error",
    [
        urllib.error.URLError("[Errno -3] Temporary failure in name resolution"),
        http.client.InvalidURL("URL can't contain control characters"),
        ConnectionRefusedError(111, "Connection refused"),
    ],
    ids=type,
)
def test_a_failed_download_names_the_file_its_url_every_place_looked_and_the_fix(tmp_path, monkeypatch, error):
    def fail(url, timeout):
        raise error

    monkeypatch.setattr("urllib.request.urlopen", fail)
    with pytest.raises(MissingDataError) as info:
        resolve(SOURCE, tmp_path / "mirror", tmp_path / "cache", allow_download=True)
    message = str(info.value)
    for part in (repr(SOURCE.name), SOURCE.url, f"mirror {tmp_path / 'mirror' / SOURCE.relpath}", "--bias-data"):
        assert part in message, (part, message)
    assert f"cache {tmp_path / 'cache' / SOURCE.relpath}" in message and str(error) in message
    assert info.value.reason == f"not found; download failed: {type(error).__name__}: {error}"
    assert not any(p.is_file() for p in (tmp_path / "cache").rglob("*"))


def test_unknown_source_name_suggests_a_close_one(tmp_path):
    with pytest.raises(DataError, match="Did you mean 'professions_923'"):
        ReferenceData(mirror=tmp_path, cache=tmp_path).path("profesions_923")


def test_every_declared_source_is_in_the_mirror_with_its_checksum(real_refdata):
    for name in SOURCES:
        real_refdata.path(name)
    assert {entry["name"] for entry in real_refdata.provenance()} == set(SOURCES)


def test_reference_data_takes_a_string_mirror(mirror, tmp_path):
    from biascheck.data import ReferenceData

    data = ReferenceData(mirror=str(mirror), cache=str(tmp_path))
    assert data.path("professions_923").is_file()
