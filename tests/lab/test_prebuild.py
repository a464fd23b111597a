"""`python -m lab.prebuild`: every planted alias built ahead of the tests, several at once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from biascheck.planted import build
from biascheck.planted.train import TrainConfig
from biascheck.registry import ALIASES
from lab import prebuild

REPO = Path(__file__).resolve().parents[2]  # `python -m lab.prebuild` runs from the repository root
pytest.importorskip("torch")
pytest.importorskip("tokenizers")


def test_every_planted_alias_is_listed_at_each_strength_the_longest_builds_first():
    models = prebuild.planted_models((1.0, 0.0))
    planted = [s for s in ALIASES.values() if s.planted_strength is not None]
    assert len(models) == 2 * len(planted) == len(set(models))
    assert {(s.family, s.planted_corpus) for s in planted} == {(f, c) for f, _s, c in models}
    costs = [prebuild._COST[(f, c)] for f, _s, c in models]
    assert costs == sorted(costs, reverse=True) and models[0][::2] == ("masked", "en")  # the longest starts first


def test_families_restrict_the_builds_to_those_aliases():
    models = prebuild.planted_models((1.0, 0.5, 0.0), ("planted-gpt-no", "planted-bert-no"))
    assert sorted(models) == sorted((f, s, "no") for f in ("causal", "masked") for s in (1.0, 0.5, 0.0))
    assert prebuild.planted_models((1.0,), ("planted-bert",)) == [("masked", 1.0, "en")]
    with pytest.raises(ValueError, match="no planted alias gpt2; known: planted-bert, "):
        prebuild.planted_models((1.0,), ("gpt2",))


def _prebuild(*args: str) -> subprocess.CompletedProcess[str]:
    """The prebuild command with `args`, as a user types it."""
    command = [sys.executable, "-m", "lab.prebuild", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False, cwd=REPO)


def test_the_command_refuses_a_family_that_is_not_a_planted_alias():
    done = _prebuild("--families", "planted-gpt-xx")
    assert done.returncode == 2 and "--families: no planted alias planted-gpt-xx; known: planted-bert" in done.stderr


def tiny_build(family: str, strength: float, corpus: str, mirror, root):
    """The real `_build` in a spawned worker, on a two-profession corpus and a 20-step config (the
    `small` fixture of test_build.py cannot reach another process)."""
    import torch

    from biascheck.planted import references

    plants = {"professions": (("nurse", "a", 0.9), ("carpenter", "a", 0.02))}
    references.plants = lambda refdata, which: {n: plants[n] for n in which}
    references.corpora = lambda: {corpus: ("professions",)}
    build.TrainConfig = lambda family: TrainConfig(family, steps=20, vocab_size=200, hidden=16)
    build.OVERRIDES = {}  # the real corpora's steps and vocabularies
    directory, seconds = prebuild._build(family, strength, corpus, mirror, root)
    (directory / "threads.txt").write_text(str(torch.get_num_threads()))
    return directory, seconds


def failing_build(family: str, strength: float, corpus: str, mirror, root):
    if family == "causal":
        raise ValueError("no room")
    return Path(root) / f"{family}-{strength:g}", 0.0


def test_models_are_built_side_by_side_one_thread_each(tmp_path):
    """Three builds on two workers; each directory is the finished model of its request, in order.
    (A cached model is found, not rebuilt: `ensure_model`, test_build.py.)"""
    models = [("causal", 1.0, "en"), ("masked", 1.0, "en"), ("masked", 0.0, "they")]
    lines: list[str] = []
    built = prebuild.build_all(models, None, 2, root=tmp_path, log=lines.append, build=tiny_build)
    assert len(set(built)) == 3 and len(lines) == 3
    for directory, (family, strength, corpus) in zip(built, models, strict=True):
        made = build.manifest(directory)
        assert (made["family"], made["strength"], made["corpus"]) == (family, strength, corpus)
        assert (directory / "threads.txt").read_text() == "1"


def test_a_first_use_build_is_the_prebuild_build_bit_for_bit(tmp_path, monkeypatch):
    """A first use inside pytest (this process, two torch threads) and a prebuild worker (one thread)
    train on `train.TRAIN_THREADS` threads: the same key, the same thread count, the same weights."""
    import torch

    from biascheck.planted import references

    plants = {"professions": (("nurse", "a", 0.9), ("carpenter", "a", 0.02))}
    monkeypatch.setattr(references, "plants", lambda refdata, which: {n: plants[n] for n in which})
    monkeypatch.setattr(references, "corpora", lambda: {"en": ("professions",)})
    monkeypatch.setattr(build, "TrainConfig", lambda family: TrainConfig(family, steps=20, vocab_size=200, hidden=16))
    monkeypatch.setattr(build, "OVERRIDES", {})
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        first_use = build.ensure_model("masked", 1.0, refdata=None, root=tmp_path / "pytest")
        assert torch.get_num_threads() == 2  # given back as it was
    finally:
        torch.set_num_threads(threads)
    (prebuilt,) = prebuild.build_all([("masked", 1.0, "en")], None, 1, root=tmp_path / "prebuild", build=tiny_build)
    assert first_use.name == prebuilt.name
    assert build.manifest(first_use)["train_threads"] == build.manifest(prebuilt)["train_threads"] == 1
    weights = [(d / "model.safetensors").read_bytes() for d in (first_use, prebuilt)]
    assert weights[0] == weights[1]


def test_a_failed_build_is_named_after_the_others_finish(tmp_path):
    models = [("causal", 1.0, "en"), ("masked", 1.0, "they")]
    lines: list[str] = []
    with pytest.raises(RuntimeError, match=r"causal en @1: ValueError: no room"):
        prebuild.build_all(models, None, 2, root=tmp_path, log=lines.append, build=failing_build)
    assert lines == [f"{0.0:7.1f} s  {tmp_path / 'masked-1'}"]


def test_the_command_refuses_zero_workers():
    done = _prebuild("--workers", "0")
    assert done.returncode == 2 and "--workers must be at least 1" in done.stderr


def test_the_readme_command_readies_every_planted_model(mirror):
    """The command as docs/known_answers.md shows it; the planted models are cached by then in CI (`.ci/run` runs
    it first) and otherwise built here, as the known-answer tests would build them."""
    done = subprocess.run(
        [sys.executable, "-m", "lab.prebuild", "--data", str(mirror)],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
        timeout=3600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert f"{len(prebuild.planted_models())} planted models ready" in done.stdout
