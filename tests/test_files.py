"""biascheck.files: a file written with its sha256 beside it reads back only when the two agree."""

from biascheck.files import checksum_path, read_checked, write_checked


def test_a_checked_file_reads_back_and_a_damaged_or_unchecked_one_does_not(tmp_path):
    path = tmp_path / "sub" / "value.json"
    write_checked(path, b'{"a": 1}')
    assert read_checked(path) == b'{"a": 1}' and checksum_path(path).name == "value.sha256"
    path.write_bytes(b'{"a": 2}')  # changed after it was written: its checksum no longer matches
    assert read_checked(path) is None
    checksum_path(path).unlink()
    assert read_checked(path) is None and read_checked(tmp_path / "absent") is None
