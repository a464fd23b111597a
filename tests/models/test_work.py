"""biascheck/models/work.py: what the engine counts it computed (by hand on a padded batch), what reaches
results.json, and the wait that keeps a card's forward time in the forward stage."""

from __future__ import annotations

import json

import torch

from biascheck.models.batching import ForwardEngine
from biascheck.models.work import EngineWork, matmul_flops, note_work, settle
from biascheck.timing import CLOCK


def _engine(**kw):
    head = torch.nn.Linear(4, 11, bias=False)

    def body(ids, mask):
        return torch.nn.functional.one_hot(ids % 4, 4).float()

    return ForwardEngine(body, head, device="cpu", pad_id=0, causal=False, vocab_size=11, **kw)


def test_a_padded_batch_counts_its_padding_as_positions_and_its_reads_as_head_rows():
    """Inputs of 3, 5 and 2 tokens in one batch: 10 tokens, 3 x 5 = 15 positions computed; 4 distinct read
    positions (one read twice) project 4 rows; one forward pass of 3 sequences."""
    eng = _engine(batch_size=8)
    a, b, c = (1, 2, 3), (4, 5, 6, 7, 8), (9, 10)
    eng.run([(a, 0, 1), (a, 0, 1), (a, 2, 5), (b, 4, 3), (c, 1, 2)])
    assert eng.work == EngineWork(forward_calls=1, sequences=3, tokens=10, positions=15, head_rows=4, host_copies=1)


def test_batches_of_one_compute_no_padding():
    eng = _engine(batch_size=1)
    eng.run([((1, 2, 3), 0, 1), ((4, 5, 6, 7, 8), 4, 3), ((9, 10), 1, 2)])
    assert eng.work == EngineWork(forward_calls=3, sequences=3, tokens=10, positions=10, head_rows=3, host_copies=3)


def test_a_batch_whose_reads_span_several_head_chunks_reaches_the_host_in_one_copy():
    """One row a head chunk: the batch's target and top reads span 6 chunks and reach the host in one copy, with
    the same numbers, bit for bit, as with the whole batch in one chunk; top-k and gathered reads alike."""
    targets = [((1, 2, 3), 0, 1), ((1, 2, 3), 2, 5), ((4, 5, 6, 7, 8), 4, 3), ((9, 10), 1, 2)]
    tops = [((1, 2, 3), 1), ((4, 5, 6, 7, 8), 0), ((9, 10), 1)]
    whole = _engine(batch_size=8)
    chunked = ForwardEngine(whole.body, whole.head, device="cpu", pad_id=0, causal=False, vocab_size=11, batch_size=8)
    chunked.head_rows = 1
    for gather in (None, [3, 7, 1]):
        expected = whole.run(targets, tops, k=3, gather=gather)
        before = chunked.work.host_copies
        got = chunked.run(targets, tops, k=3, gather=gather)
        assert chunked.work.host_copies - before == 1
        for a, b in zip(got, expected, strict=True):
            assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    assert chunked.work.head_rows == whole.work.head_rows == 12  # 6 read positions a run: 6 chunks of one row


def test_the_record_adds_the_flops_of_the_counted_work(gpt2_tiny):
    model, _tok = gpt2_tiny
    work = EngineWork(forward_calls=2, sequences=5, tokens=40, positions=48, head_rows=7)
    record = work.record(model)
    assert record["positions"] == 48 and record["head_rows"] == 7
    assert record["matmul_gflop"] == round(matmul_flops(model, 48, 7) / 1e9, 1)
    assert "matmul_gflop" not in work.record()  # no model: counts only


def test_a_models_record_in_results_json_carries_what_its_engine_computed(gpt2_tiny):
    from biascheck.models import CausalLM

    model, tok = gpt2_tiny
    lm = CausalLM(model, tok, pack=False)
    lm.fill_slot(["[SLOT] is a nurse.", "[SLOT] is a pilot."], ["He", "She"])
    note_work(lm)
    saved = json.loads(json.dumps(lm.info.extra["engine_work"]))
    assert saved["forward_calls"] >= 1 and saved["tokens"] == lm.engine.work.tokens > 0
    assert saved["positions"] >= saved["tokens"] and saved["head_rows"] == lm.engine.work.head_rows > 0
    note_work(object())  # a model without an engine (a fake): nothing to record, no error


def test_settle_waits_for_a_cuda_device_only(monkeypatch):
    waited = []
    monkeypatch.setattr(torch.cuda, "synchronize", lambda device=None: waited.append(device))
    settle("cpu")
    settle("mps")
    assert waited == []
    settle("cuda:1")
    assert waited == ["cuda:1"]


def test_the_forward_stage_ends_with_the_wait(monkeypatch):
    """On a card the wait runs inside the forward stage, so that its seconds are the forward pass's: a wait
    of 0.2 s shows in `forward`, not in `lm_head`."""
    import time

    import biascheck.models.batching as batching

    monkeypatch.setattr(batching, "settle", lambda device: time.sleep(0.2))
    eng = _engine(batch_size=8)
    CLOCK.take()
    eng.run([((1, 2, 3), 0, 1), ((4, 5), 1, 2)])
    seconds = CLOCK.take()
    assert seconds["forward"] >= 0.2 and seconds.get("lm_head", 0.0) < 0.2 and eng.work.forward_calls == 1


def test_matmul_rate_counts_the_products_it_timed():
    """2 n³ FLOPs a product over the clock's seconds. A clock that reads 0, 1, 2, 3: the loop starts at 0, runs
    one product (1 < 1.5), stops at 2, and the rate is taken at 3, so 2 · 1024³ / 3 s (the warm-up not counted)."""
    from biascheck.models.work import matmul_rate

    ticks = iter(range(100))
    assert matmul_rate("cpu", seconds=1.5, clock=lambda: float(next(ticks))) == 2 * 1024**3 / 3 / 1e9
    assert matmul_rate("cpu", seconds=0.05) > 0  # the wall clock, by default
    assert matmul_rate("cpu", "tf32", seconds=0.05) > 0  # float32 matrices: a CPU has no TF32 products
