"""models/head.py: the in-place log-normaliser equals torch.logsumexp, and the reused-buffer projection equals
the head called as it is (bit for bit on the same CPU), bias and all; a head that is not a plain float32
projection is called as it is."""

from __future__ import annotations

import pytest
import torch

from biascheck.models.head import HeadRunner, log_normaliser_


@pytest.mark.parametrize("rows,vocab,scale", [(1, 7, 1.0), (5, 1000, 30.0), (64, 49152, 8.0)])
def test_the_in_place_log_normaliser_is_torchs_logsumexp(rows, vocab, scale):
    logits = torch.randn(rows, vocab, generator=torch.Generator().manual_seed(rows)) * scale
    want = torch.logsumexp(logits, dim=-1)
    got = log_normaliser_(logits.clone())
    assert torch.equal(got, want)


def test_rows_with_infinite_logits_read_as_torch_reads_them():
    logits = torch.tensor([[0.0, -float("inf"), 1.0], [-float("inf")] * 3, [float("inf"), 0.0, 1.0]])
    want = torch.logsumexp(logits, dim=-1)
    got = log_normaliser_(logits.clone())
    assert got[0] == want[0] and got[1] == want[1] == -float("inf")
    assert not torch.isfinite(got[2])  # +inf: not a number either way; check_finite turns it into an error


@pytest.mark.parametrize("bias", [False, True])
def test_the_reused_buffer_gives_the_heads_own_logits(bias):
    torch.manual_seed(0)
    head = torch.nn.Linear(16, 300, bias=bias)
    runner = HeadRunner(head)
    with torch.inference_mode():
        for rows in (40, 7, 40, 41):  # shrinking and growing chunks reuse or regrow the buffer
            hidden = torch.randn(rows, 16)
            assert torch.equal(runner(hidden), head(hidden))


def test_a_head_that_is_not_a_plain_projection_is_called_as_it_is():
    torch.manual_seed(0)
    head = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.GELU(), torch.nn.Linear(8, 50))
    runner = HeadRunner(head)
    hidden = torch.randn(3, 8)
    with torch.inference_mode():
        assert torch.equal(runner(hidden), head(hidden))
        half = torch.nn.Linear(8, 50).to(torch.bfloat16)
        assert HeadRunner(half)(hidden.to(torch.bfloat16)).dtype == torch.float32
