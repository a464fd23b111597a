"""A causal model's two other forward paths, each built at load and used only if it reproduces the model's padded
forward pass on a small batch (else None, with a warning): rows of prefix trees (`packing`: every distinct prefix once,
each position attending to its ancestors) and a prefix shared by a whole batch run once with its KV cache. Used by
`causal.CausalLM`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple


class PathCheck(NamedTuple):
    """model: the loaded model; fast_head: whether the engine reads hidden states (else logits); ids(): a few token
    ids to check on; device, pad_id: the engine's; body(ids, mask): its padded forward pass, the reference."""

    model: Any
    fast_head: bool
    ids: Callable[[], list[int]]
    device: str
    pad_id: int
    body: Callable[..., Any]


def packed_body(check: PathCheck) -> Callable[..., Any] | None:
    """The packed path: rows of prefix trees, each position attending to its ancestors only (a 4-D
    additive mask) at its depth's position id. Enabled only if it reproduces the padded forward
    pass on a small batch; None (padded batches) otherwise, with a warning."""
    import warnings

    import torch

    from biascheck.models.packing import ancestor_mask, pack_rows

    module = check.model.base_model if check.fast_head else check.model
    dtype = check.model.dtype if check.model.dtype.is_floating_point else torch.float32

    def pack_body(ids, positions, allowed):
        mask = torch.zeros(allowed.shape, dtype=dtype, device=allowed.device)
        mask.masked_fill_(~allowed, torch.finfo(dtype).min)
        out = module(input_ids=ids, attention_mask=mask[:, None], position_ids=positions, use_cache=False)
        return out.last_hidden_state if check.fast_head else out.logits

    try:
        c = check.ids()
        seqs = [tuple(c[:6]), (*c[:3], c[4]), (c[0], c[5], c[1])]
        dev = check.device
        (row,) = pack_rows(seqs, 64)
        with torch.inference_mode():
            got = pack_body(
                torch.tensor(row.tokens, device=dev)[None],
                torch.tensor(row.depths, device=dev)[None],
                torch.from_numpy(ancestor_mask(row, row.size)).to(dev)[None],
            )[0].float()
            padded = torch.tensor([s + (check.pad_id,) * (6 - len(s)) for s in seqs], device=dev)
            mask = torch.tensor([[1] * len(s) + [0] * (6 - len(s)) for s in seqs], device=dev)
            want = check.body(padded, mask).float()
            tol = 1e-4 if check.model.dtype == torch.float32 else 5e-2
            scale = float(want.abs().max()) + 1.0
            err = max(
                float((got[torch.from_numpy(path).to(dev)] - want[i, : len(path)]).abs().max())
                for i, path in zip(row.hosts, row.paths, strict=True)
            )
        if err > tol * scale:
            raise ValueError(f"max difference {err:.3g}")
    except Exception as exc:  # noqa: BLE001 - any failure: padded batches
        warnings.warn(
            f"biascheck: prefix-tree packing disabled for {type(check.model).__name__} ({exc}).",
            RuntimeWarning,
            stacklevel=3,
        )
        return None
    return pack_body


def shared_prefix_body(check: PathCheck) -> Callable[..., Any] | None:
    """The shared-prefix path: run a prefix common to a whole batch once (batch 1, with cache),
    repeat its KV cache over the batch and run only the suffixes. Enabled only if it reproduces
    the plain forward pass on a small padded batch; None otherwise."""
    import warnings

    import torch

    if not check.fast_head:
        return None
    base = check.model.base_model

    def prefix_body(prefix, ids, mask):
        out = base(input_ids=prefix[None], use_cache=True)
        cache = out.past_key_values
        n, p = ids.shape[0], prefix.shape[0]
        cache.batch_repeat_interleave(n)
        full_mask = torch.cat([torch.ones((n, p), dtype=mask.dtype, device=mask.device), mask], dim=1)
        pos = torch.arange(p, p + ids.shape[1], device=ids.device)[None].expand(n, -1)
        hidden = base(
            input_ids=ids, attention_mask=full_mask, past_key_values=cache, position_ids=pos, use_cache=True
        ).last_hidden_state
        return out.last_hidden_state[0], hidden

    try:
        ids = check.ids()
        dev = check.device
        with torch.inference_mode():
            pre = torch.tensor(ids[:3], device=dev)
            suf = torch.tensor([ids[3:6], [ids[4], check.pad_id, check.pad_id]], device=dev)
            m = torch.tensor([[1, 1, 1], [1, 0, 0]], device=dev)
            ph, sh = prefix_body(pre, suf, m)
            full = torch.tensor([ids[:6], ids[:3] + [ids[4], 0, 0]], device=dev)
            fm = torch.tensor([[1] * 6, [1, 1, 1, 1, 0, 0]], device=dev)
            want = check.body(full, fm).float()
            got0 = torch.cat([ph, sh[0]]).float()
            got1 = torch.cat([ph, sh[1, :1]]).float()
            tol = 1e-4 if check.model.dtype == torch.float32 else 5e-2
            scale = float(want.abs().max()) + 1.0
            err = max(float((got0 - want[0]).abs().max()), float((got1 - want[1, :4]).abs().max()))
        if err > tol * scale:
            raise ValueError(f"max difference {err:.3g}")
    except Exception as exc:  # noqa: BLE001 - any failure: run every input in full
        warnings.warn(
            f"biascheck: shared-prefix KV-cache reuse disabled for {type(check.model).__name__} ({exc}).",
            RuntimeWarning,
            stacklevel=3,
        )
        return None
    return prefix_body
