"""The guard's measured false-pass rate (docs/competence/false_pass.json, lab/scripts/guard_false_pass.py): the
file's verdicts follow from today's lines, and a sample of its random-weight models, rebuilt here through the
same read path, gets the file's numbers and does not pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biascheck.competence import math
from biascheck.competence.read import read
from lab.guard_null import FAMILIES, RandomModels, missing

RESULTS = Path(__file__).resolve().parents[2] / "docs" / "competence" / "false_pass.json"
LANGUAGES = ("en", "no", "fr", "es")
SAMPLE = {"bert": 6, "llama": 2}  # seeds rebuilt per family: the closest to passing in each language first


def _results():
    return json.loads(RESULTS.read_text(encoding="utf-8"))


def test_the_file_counts_what_todays_lines_pass():
    results = _results()
    assert results["rule"] == {
        **results["rule"],
        "line": math.LINE,
        "alpha": math.ALPHA,
        "effect_line": math.EFFECT_LINE,
    }
    for family, fam in results["families"].items():
        assert fam["n"] == len(fam["seeds"]) == len(set(fam["seeds"])), family
        for language, got in fam["by_language"].items():
            new = got["new_rule"]
            passing = [
                seed
                for seed, k, p, effect in zip(fam["seeds"], new["k"], new["p"], new["effect"], strict=True)
                if k / 20 >= math.LINE and p <= math.ALPHA and effect >= math.EFFECT_LINE
            ]
            assert passing == new["passing_seeds"] and len(passing) == new["passes"], (family, language)
            assert not passing, (family, language, passing)  # the claim of docs/competence.md: no false pass
            assert max(new["k"]) == new["max_k"]


def _sample(fam, n):
    """Per language, the seed closest to passing (smallest clustered p), then the first seeds: `n` in all."""
    seeds = fam["seeds"]
    closest = []
    for language in LANGUAGES:
        p = fam["by_language"][language]["new_rule"]["p"]
        closest.append(seeds[min(range(len(seeds)), key=p.__getitem__)])
    return list(dict.fromkeys(closest + seeds))[:n]


@pytest.mark.parametrize("family", FAMILIES)
def test_rebuilt_random_models_read_as_recorded_and_none_passes(family):
    pytest.importorskip("torch")
    why = missing(family)
    if why:
        pytest.skip(why)
    import torch

    fam = _results()["families"][family]
    index = {seed: i for i, seed in enumerate(fam["seeds"])}
    models = RandomModels(family)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as measured
    try:
        for seed in _sample(fam, SAMPLE[family]):
            lm = models.at(seed)
            for language in LANGUAGES:
                found = read(lm, language)
                want = fam["by_language"][language]["new_rule"]
                i = index[seed]
                assert found is not None and not found.passed, (family, seed, language, found.summary())
                assert found.k_agree == want["k"][i], (family, seed, language)
                assert found.p_value == pytest.approx(want["p"][i], abs=2e-6), (family, seed, language)
                assert found.effect == pytest.approx(want["effect"][i], abs=2e-4), (family, seed, language)
    finally:
        torch.set_num_threads(threads)


def test_the_red_verdicts_reference_says_what_the_file_measured():
    """verdict.REFERENCE, quoted in every red 'cannot measure', gives the closest random BERT and SmolLM2's
    reading as docs/competence/false_pass.json has them."""
    from biascheck.competence.verdict import REFERENCE

    results = _results()
    bert = results["families"]["bert"]
    smol = {r["language"]: r for r in results["real"] if r["model"].startswith("SmolLM2")}
    for language in LANGUAGES:
        got = bert["by_language"][language]["new_rule"]
        assert f"of {bert['n']:,} random-weight BERTs none passes" in REFERENCE[language] and got["passes"] == 0
        assert f"the closest {got['max_k']}" in REFERENCE[language], language
        if language != "no":
            assert f"SmolLM2-135M-Instruct gets {smol[language]['new_k']} of 20" in REFERENCE[language], language
            assert ("cannot be measured" in REFERENCE[language]) is not smol[language]["new_passed"], language
