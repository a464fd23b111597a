"""`--dtype auto` in half precision is checked against float32 at load (biascheck/models/dtype_check.py): kept
when the same weights score a few sentences alike, float32 (with a warning that says why) when they do not.
On a CPU `auto` is float32, so these tests make `auto` choose half precision as a card would."""

import numpy as np
import pytest

from biascheck.models import load_model
from biascheck.models import loading as loading_module
from biascheck.models.dtype_check import MAX_TOLERANCE, MEDIAN_TOLERANCE, compare
from biascheck.scoring import TokenTerms


def _terms(*values):
    return TokenTerms(tuple(range(len(values))), np.array(values, dtype=np.float64))


def test_compare_measures_per_token_differences_where_float32_scored():
    reference = [_terms(np.nan, -1.0, -2.0), _terms(-3.0)]
    found = compare("bfloat16", [_terms(np.nan, -1.02, -2.0), _terms(-3.1)], reference)
    assert found.tokens == 3 and found.finite  # the unscored first term (NaN in float32) is not compared
    assert found.median == pytest.approx(0.02) and found.largest == pytest.approx(0.1)
    assert found.agrees
    assert not compare("float16", [_terms(np.nan, -1.0, np.nan), _terms(-3.0)], reference).agrees  # NaN: never
    assert not compare("float16", None, reference).agrees  # the half-precision run raised on a NaN
    far = compare("bfloat16", [_terms(np.nan, -1.0, -2.0 - 2 * MAX_TOLERANCE), _terms(-3.0)], reference)
    assert far.median < MEDIAN_TOLERANCE and not far.agrees  # one token far off is enough


@pytest.fixture
def auto_is(monkeypatch):
    def choose(dtype):
        monkeypatch.setattr(loading_module, "resolve_dtype", lambda asked, device: dtype if asked == "auto" else asked)

    return choose


def test_auto_keeps_bfloat16_when_it_scores_as_float32(saved_gpt2, auto_is):
    auto_is("bfloat16")
    lm = load_model(str(saved_gpt2), device="cpu", dtype="auto")
    assert lm.info.dtype == "bfloat16" and str(lm.model.dtype) == "torch.bfloat16"
    assert lm.info.extra["dtype_check"].startswith("kept: bfloat16 vs float32 over ")
    exact = load_model(str(saved_gpt2), device="cpu", dtype="float32")
    got, want = lm.sentence_logprob(["He is a pilot."])[0], exact.sentence_logprob(["He is a pilot."])[0]
    assert np.allclose(got, want, rtol=0.02)  # the body went back to bfloat16 after the check, weights unharmed


def test_auto_falls_back_to_float32_when_half_precision_breaks_the_body(tmp_path, saved_gpt2, auto_is):
    """Activations past float16's range (65,504), as Gemma 3's reach 1e5: NaN in float16, finite in float32.
    The weights stay within range (6e4 each), their sum does not, so float32 reads the same weights finely."""
    import torch
    import transformers

    model = transformers.AutoModelForCausalLM.from_pretrained(saved_gpt2)
    with torch.no_grad():
        model.transformer.wpe.weight.mul_(0).add_(6e4)  # a position's vector plus a token's: 1.2e5, inf in float16
        model.transformer.wte.weight.add_(6e4)
    broken = tmp_path / "broken"
    model.save_pretrained(broken)
    transformers.AutoTokenizer.from_pretrained(saved_gpt2).save_pretrained(broken)
    auto_is("float16")
    with pytest.warns(RuntimeWarning, match="--dtype auto chose float16 .* runs in float32 instead"):
        lm = load_model(str(broken), device="cpu", dtype="auto")
    assert lm.info.dtype == "float32" and str(lm.model.dtype) == "torch.float32"
    assert lm.info.extra["dtype_check"] == (
        "float32 kept instead of float16: float16 gave NaN or infinite log-probabilities where float32 did not"
    )
    assert np.isfinite(lm.sentence_logprob(["He is a pilot."])[0]).all()


def test_an_explicit_dtype_is_taken_as_asked(saved_gpt2):
    lm = load_model(str(saved_gpt2), device="cpu", dtype="bfloat16")
    assert lm.info.dtype == "bfloat16" and "dtype_check" not in lm.info.extra


def test_weights_that_do_not_fit_the_chosen_dtype_are_an_error_that_says_so(tmp_path, saved_gpt2, auto_is):
    """A weight past float16's range is inf once loaded in it; cast back to float32 it stays inf: no run."""
    import torch
    import transformers

    from biascheck.errors import NumericalError

    model = transformers.AutoModelForCausalLM.from_pretrained(saved_gpt2)
    with torch.no_grad():
        model.transformer.wpe.weight.mul_(0).add_(1e5)
    broken = tmp_path / "too-big"
    model.save_pretrained(broken)
    transformers.AutoTokenizer.from_pretrained(saved_gpt2).save_pretrained(broken)
    auto_is("float16")
    with pytest.raises(NumericalError, match="its weights do not fit float16.*Run with --dtype float32"):
        load_model(str(broken), device="cpu", dtype="auto")
