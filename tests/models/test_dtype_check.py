"""`--dtype auto` is float32 everywhere; on a CUDA card float32 weights do not fit, it runs the body in half
precision, checked against a float32 copy on the CPU, and the run stops where they disagree
(biascheck/models/placement.py, biascheck/models/dtype_check.py). No card here: these tests make the float32 move
run out of memory as a small card would (`placement._move`), on the CPU."""

import numpy as np
import pytest

from biascheck.errors import ConfigError, NumericalError
from biascheck.models import load_model, resolve_dtype
from biascheck.models import placement as placement_module
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


def test_auto_is_float32_on_every_device():
    assert {resolve_dtype("auto", device) for device in ("cpu", "cuda", "cuda:1", "mps")} == {"float32"}


@pytest.fixture
def small_card(monkeypatch):
    """The device has no room for float32 weights (or for `no_room`'s dtypes): the move runs out of memory."""
    import torch

    def use(no_room=("float32",)):
        moved = placement_module._move

        def move(model, device):
            if str(next(model.parameters()).dtype).removeprefix("torch.") in no_room:
                raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
            return moved(model, device)

        monkeypatch.setattr(placement_module, "_move", move)

    return use


def test_auto_runs_half_precision_where_float32_does_not_fit_and_checks_it_against_float32(saved_gpt2, small_card):
    exact = load_model(str(saved_gpt2), device="cpu", dtype="float32")
    small_card()
    with pytest.warns(RuntimeWarning, match="float32 did not fit in cpu's memory: the body runs in bfloat16"):
        lm = load_model(str(saved_gpt2), device="cpu", dtype="auto")
    assert lm.info.dtype == "bfloat16" and str(lm.model.dtype) == "torch.bfloat16"
    assert lm.info.extra["dtype_check"].startswith(
        "float32 did not fit in cpu's memory: the body runs in bfloat16; kept: bfloat16 vs float32 over "
    )
    got, want = lm.sentence_logprob(["He is a pilot."])[0], exact.sentence_logprob(["He is a pilot."])[0]
    assert np.allclose(got, want, rtol=0.02)


def test_a_half_precision_body_that_disagrees_with_float32_stops_the_run(tmp_path, saved_gpt2, small_card, monkeypatch):
    """Activations past float16's range (65,504), as Gemma 3's reach 1e5: NaN in float16, finite in float32.
    The weights stay within range (6e4 each), their sum does not. float32 does not fit, so nothing to fall back
    to: the run stops and says what was measured."""
    import torch
    import transformers

    model = transformers.AutoModelForCausalLM.from_pretrained(saved_gpt2)
    with torch.no_grad():
        model.transformer.wpe.weight.mul_(0).add_(6e4)  # a position's vector plus a token's: 1.2e5, inf in float16
        model.transformer.wte.weight.add_(6e4)
    broken = tmp_path / "broken"
    model.save_pretrained(broken)
    transformers.AutoTokenizer.from_pretrained(saved_gpt2).save_pretrained(broken)
    monkeypatch.setattr(placement_module, "half_dtype", lambda device: "float16")  # a card without bfloat16
    small_card()
    stops = pytest.raises(NumericalError, match="float16 gave NaN or infinite .* --device cpu")
    with pytest.warns(RuntimeWarning), stops:
        load_model(str(broken), device="cpu", dtype="auto")


def test_an_explicit_dtype_is_taken_as_asked(saved_gpt2):
    lm = load_model(str(saved_gpt2), device="cpu", dtype="bfloat16")
    assert lm.info.dtype == "bfloat16" and "dtype_check" not in lm.info.extra
    assert "dtype_check" not in load_model(str(saved_gpt2), device="cpu", dtype="auto").info.extra  # float32 fits


@pytest.mark.parametrize(("dtype", "no_room", "says"), [
    ("float32", ("float32",), "in float32 do not fit .* --dtype bfloat16"),  # asked for: no fallback
    ("auto", ("float32", "bfloat16"), "neither in float32 nor in bfloat16"),
])  # fmt: skip
def test_weights_that_do_not_fit_are_an_error_that_says_what_to_do(saved_gpt2, small_card, dtype, no_room, says):
    small_card(no_room)
    with pytest.raises(ConfigError, match=says):
        load_model(str(saved_gpt2), device="cpu", dtype=dtype)
