"""What a loaded model records about itself besides its weights, for every load path (`ModelInfo.extra`):
its quantisation and a hash of its tokenizer. Two runs that differ in either are not comparable
(`biascheck.gate.comparability.mismatches`), so both are always recorded, never left out when unknown."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

_GGUF_TYPE = re.compile(r"(?i)(?:^|[.\-_])((?:i?q\d+(?:_[a-z0-9]+)*)|bf16|f16|f32)(?=\.gguf$)")


def quantisation(model: Any, gguf_file: str | None = None) -> str:
    """'none' for full-precision weights; 'GGUF <type>' for a GGUF file (its type from the file name, e.g.
    'model.Q4_1.gguf' → 'GGUF Q4_1'; dequantised on load, but its numbers are the quantised weights'); else
    the method and bits of the model's `quantization_config` (bitsandbytes, GPTQ, AWQ ...), e.g.
    'bitsandbytes 4-bit'."""
    if gguf_file:
        found = _GGUF_TYPE.search(str(gguf_file).rsplit("/", 1)[-1])
        return f"GGUF {found.group(1).upper() if found else 'type unknown'}"
    config = getattr(getattr(model, "config", None), "quantization_config", None)
    if not config:
        return "none"
    fields = config.to_dict() if hasattr(config, "to_dict") else dict(config)
    bits = fields.get("bits") or (4 if fields.get("load_in_4bit") else 8 if fields.get("load_in_8bit") else None)
    return f"{fields.get('quant_method', 'quantised')}{f' {bits}-bit' if bits else ''}"


def tokenizer_digest(tokenizer: Any) -> str:
    """sha256 of the loaded tokenizer itself, on every load path: a fast tokenizer's full serialisation
    (vocabulary, merges, normaliser, added tokens), else its vocabulary, and which token is which special
    token (mask, pad, bos ...). What a tokenizer does, not how its files are written: the same tokenizer
    saved again with `save_pretrained` (other file names and bytes) has the same digest, so a re-saved
    model stays comparable with its own baseline."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is not None:
        text = backend.to_str()
    else:
        text = json.dumps(sorted(tokenizer.get_vocab().items()), ensure_ascii=False)
    roles = getattr(tokenizer, "special_tokens_map", {}) or {}
    text += json.dumps(sorted((k, str(v)) for k, v in roles.items()), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
