"""Time by stage (`biascheck.timing`): exclusive accounting on a fake clock, the decorator, the table."""

from __future__ import annotations

import pytest

from biascheck import timing


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_nested_stage_counts_to_itself_alone_so_stages_sum_to_the_total():
    fake = FakeClock()
    clock = timing.StageClock(fake)
    with clock.stage("other"):
        fake.now += 1.0
        with clock.stage("forward"):
            fake.now += 2.0
            with clock.stage("lm_head"):
                fake.now += 0.5
        fake.now += 0.25
        with clock.stage("forward"):
            fake.now += 1.0
    assert clock.take() == {"other": 1.25, "forward": 3.0, "lm_head": 0.5}
    assert clock.take() == {}  # taken: a fresh start


def test_an_exception_still_closes_its_stage():
    fake = FakeClock()
    clock = timing.StageClock(fake)
    with pytest.raises(ValueError), clock.stage("outer"):
        with clock.stage("inner"):
            fake.now += 2.0
            raise ValueError
    with clock.stage("after"):
        fake.now += 1.0
    assert clock.take() == {"inner": 2.0, "after": 1.0}  # outer: all its time was inner's


def test_the_decorator_times_every_call_and_keeps_the_function():
    @timing.timed("bootstrap")
    def double(x: int) -> int:
        """Doubles."""
        return 2 * x

    timing.CLOCK.take()
    assert double(3) == 6 and double.__doc__ == "Doubles."
    assert set(timing.CLOCK.take()) <= {"bootstrap"}


def test_the_table_sums_over_models_and_tests_slowest_probe_first():
    rows = [
        {"model": "a", "probe": "p1", "test": "t1", "stage": "forward", "seconds": 1.0},
        {"model": "b", "probe": "p1", "test": "t2", "stage": "forward", "seconds": 2.0},
        {"model": "a", "probe": "p1", "test": "t1", "stage": "other", "seconds": 0.5},
        {"model": "a", "probe": "p2", "test": "t3", "stage": "setup", "seconds": 10.0},
    ]
    headers, body = timing.table(rows)
    assert headers == ["probe", "setup", "forward", "other", "total"]  # pipeline order, only stages seen
    assert body == [
        ["p2", "10.0", "0.0", "0.0", "10.0"],
        ["p1", "0.0", "3.0", "0.5", "3.5"],
        ["all", "10.0", "3.0", "0.5", "13.5"],
    ]


def test_the_engine_marks_its_stages(gpt2_tiny_lm):
    timing.CLOCK.take()
    gpt2_tiny_lm.sentence_logprob(["The nurse said that she was late.", "The nurse said that he was late."])
    seen = timing.CLOCK.take()
    assert {"tokenise", "plan", "batching", "forward", "lm_head"} <= set(seen), seen


@pytest.fixture
def gpt2_tiny_lm():
    torch = pytest.importorskip("torch")
    from transformers import GPT2Config, GPT2LMHeadModel, GPT2TokenizerFast

    from biascheck.models.causal import CausalLM

    vocab = {"<|endoftext|>": 0, **{c: i + 1 for i, c in enumerate("abcdefghijklmnopqrstuvwxyzTĠ.")}}
    tok = GPT2TokenizerFast(vocab=vocab, merges=[], unk_token="<|endoftext|>")
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=len(vocab), n_embd=16, n_layer=1, n_head=2, n_positions=64)
    return CausalLM(GPT2LMHeadModel(config).eval(), tok)
