"""Baseline comparison: hand examples for the noise, the direction and the pairing of models."""

import math

import pytest

from biascheck.gate import baseline as bl
from biascheck.gate import comparability
from biascheck.report import regression


def res(model, metric, value, ci=None, hib=False, task="t", passed=None):
    return {
        "model": model,
        "probe": "p",
        "task": task,
        "metric": metric,
        "value": value,
        "ci_low": None if ci is None or value is None else value - ci,
        "ci_high": None if ci is None or value is None else value + ci,
        "higher_is_better": hib,
        "passed": passed,
    }


def run(*results):
    return {"results": list(results)}


def test_interval_noise_adds_half_widths_in_quadrature():
    def saved(*args, **kw):
        return bl.saved_result(res(*args, **kw))

    assert bl.interval_noise(saved("a", "x", 1.0, ci=0.3), saved("b", "x", 2.0, ci=0.4)) == pytest.approx(0.5)
    assert bl.interval_noise(None, saved("b", "x", 2.0, ci=0.4)) == pytest.approx(0.4)
    assert bl.interval_noise(saved("a", "x", 1.0), saved("b", "x", 2.0)) is None


def test_fluctuation_band_is_z_times_sample_sd():
    assert bl.fluctuation_band([1.0, 2.0, 3.0]) == pytest.approx(1.96 * 1.0)
    assert bl.fluctuation_band([1.0, None]) is None


@pytest.mark.parametrize(
    ("base", "new", "noise", "better", "target", "status"),
    [
        (1.0, 1.6, 0.5, "lower", None, bl.REGRESSED),
        (1.0, 0.4, 0.5, "lower", None, bl.IMPROVED),
        (1.0, 0.4, 0.5, "higher", None, bl.REGRESSED),
        (1.0, 1.6, 0.5, "higher", None, bl.IMPROVED),
        (1.0, 1.4, 0.5, "lower", None, bl.WITHIN),
        (1.0, 1.6, 0.5, "none", None, bl.CHANGED),
        (1.0, 1.6, None, "lower", None, bl.UNKNOWN_NOISE),
        (None, 1.6, 0.5, "lower", None, bl.NOT_A_NUMBER),
        # a signed lean: -0.8 -> -2.0 moves away from 0: worse, although the value went down
        (-0.8, -2.0, 0.5, "zero", None, bl.REGRESSED),
        (-2.0, -0.8, 0.5, "zero", None, bl.IMPROVED),
        (-0.8, 0.8, 0.5, "zero", None, bl.CHANGED),  # as far from 0, on the other side
        (0.30, 0.95, 0.1, "target", 0.5, bl.REGRESSED),  # 0.2 below the target -> 0.45 above it
        (0.95, 0.55, 0.1, "target", 0.5, bl.IMPROVED),
        (0.30, 0.95, 0.1, "target", None, bl.CHANGED),  # no target known: no direction
    ],
)
def test_judge(base, new, noise, better, target, status):
    assert bl.judge(base, new, noise, better, target) == status


def test_old_runs_without_better_are_read_from_higher_is_better():
    assert bl.better_of({"higher_is_better": True}) == "higher"
    assert bl.better_of({"higher_is_better": False}) == "lower"
    assert bl.better_of({"higher_is_better": None}) == "none"
    assert bl.better_of({"better": "zero", "higher_is_better": None}) == "zero"


def test_a_saved_record_reads_back_as_the_result_it_was_saved_from():
    """The comparison reads a saved run's records once, as `Result`s: a result's own `to_json` comes back
    whole (its null value as nan), and what a saved record adds (its `regression`) is left out."""
    from biascheck.results import Result
    from biascheck.thresholds import Threshold

    result = Result(
        "m",
        "p",
        "t",
        "x",
        float("nan"),
        0.1,
        0.3,
        40,
        "mlm-slot",
        "model",
        False,
        Threshold(None, 1.0, "why", "default.toml"),
        False,
        note="n",
        items=[{"profession": "nurse"}],
        better="lower",
        tier="quick",
        power={"se": 0.05, "detectable": 0.04, "same_verdict": 0.9},
    )
    read = bl.saved_result({**result.to_json(), "regression": {"status": bl.WITHIN}})
    assert read.to_json() == result.to_json() and math.isnan(read.value)
    assert bl.saved_result(res("m", "x", 1.0, hib=True)).better == "higher"  # saved before `better`


def test_compare_one_model_runs_pairs_by_key_even_when_names_differ():
    base = run(res("ckpt-1", "x", 1.0, ci=0.3), res("ckpt-1", "y", 0.5, ci=0.1, hib=True), res("ckpt-1", "gone", 1.0))
    new = run(
        res("ckpt-2", "x", 1.6, ci=0.4, passed=False),
        res("ckpt-2", "y", 0.45, ci=0.1, hib=True),
        res("ckpt-2", "fresh", 2.0),
    )
    out = {c.key: c for c in bl.compare(base, new)}
    x = out["p.t.x"]
    assert (x.base, x.new, x.change, x.noise, x.status, x.profile_verdict) == (
        1.0,
        1.6,
        pytest.approx(0.6),
        pytest.approx(0.5),
        bl.REGRESSED,
        "FAIL",
    )
    assert out["p.t.y"].status == bl.WITHIN and out["p.t.y"].noise == pytest.approx(math.sqrt(0.02))
    assert out["p.t.fresh"].status == bl.NEW and out["p.t.gone"].status == bl.MISSING
    assert [c.key for c in bl.regressions(bl.compare(base, new))] == ["p.t.x"]


def test_same_model_names_pair_with_each_other():
    base = run(res("a", "x", 1.0, ci=0.1), res("b", "x", 5.0, ci=0.1))
    new = run(res("a", "x", 1.05, ci=0.1), res("b", "x", 4.0, ci=0.1))
    by_model = {c.model: c for c in bl.compare(base, new)}
    assert by_model["a"].status == bl.WITHIN and by_model["b"].status == bl.IMPROVED


def test_several_checkpoint_baseline_gives_mean_and_fluctuation_band():
    base = run(res("s0", "x", 1.0, ci=0.01), res("s1", "x", 2.0, ci=0.01), res("s2", "x", 3.0, ci=0.01))
    within = bl.compare(base, run(res("new", "x", 3.5, ci=0.01)))[0]
    assert (
        within.base == pytest.approx(2.0)
        and within.noise == pytest.approx(1.96)
        and within.noise_source == "fluctuation"
    )
    assert within.status == bl.WITHIN
    assert bl.compare(base, run(res("new", "x", 4.5, ci=0.01)))[0].status == bl.REGRESSED


def test_external_band_widens_the_noise_only_when_larger():
    base, new = run(res("a", "x", 1.0, ci=0.1)), run(res("b", "x", 1.5, ci=0.1))
    assert bl.compare(base, new)[0].status == bl.REGRESSED
    assert bl.compare(base, new, bands={"p.t.x": 0.6})[0].status == bl.WITHIN
    assert bl.compare(base, new, bands={"p.t.x": 0.01})[0].noise_source == "intervals"
    sweep = run(res("c0", "x", 1.0), res("c1", "x", 1.2), res("c2", "x", 1.4))
    assert bl.bands_from_run(sweep) == {"p.t.x": pytest.approx(1.96 * 0.2)}


def test_tables_and_markdown_name_the_regression_and_the_fix():
    comps = bl.compare(run(res("a", "x", 1.0, ci=0.1)), run(res("a", "x", 2.0, ci=0.1)))
    text = regression.table(comps)
    assert "REGRESSED" in text and "+1.000" in text
    md = regression.markdown(comps, "v1", regen_command="pytest --bias-save v1 --bias-baseline-regen")
    assert "1 metric(s) regressed" in md and "`p.t.x` (a: regressed)" in md and "--bias-baseline-regen" in md
    assert "|" in md
    assert [
        c.key for c in bl.missing(bl.compare(run(res("a", "x", 1.0), res("a", "y", 1.0)), run(res("a", "x", 1.0))))
    ] == ["p.t.y"]
    assert regression.summary_line(comps, "v1") == "against baseline 'v1': 1 regressed"


def _identity(**model):
    return {
        "models": {
            "m": {
                "family": "causal",
                "dtype": "float32",
                "device": "cpu",
                "extra": {"context_prefix": "<|endoftext|>", "weights": "GGUF Q4_1 dequantised to float32"},
                **model,
            }
        },
        "biascheck_version": "0.1.0",
        "batch_size": "auto",
        "profile": {"name": "default"},
        "data": [{"name": "bls2015", "sha256": "aaaa"}],
        "settings": {"role_nouns": {"states": {"value": 5}}},
        "results": [{"probe": "role_nouns"}],
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"dtype": "bfloat16"}, "m dtype: 'float32' vs 'bfloat16'"),
        ({"device": "cuda:0"}, "m device_class: 'cpu' vs 'cuda'"),
        (
            {"extra": {"context_prefix": "<|im_start|>", "weights": "GGUF Q4_1 dequantised to float32"}},
            "m context_prefix: '<|endoftext|>' vs '<|im_start|>'",
        ),
    ],
)
def test_runs_that_differ_in_what_moves_numbers_are_not_comparable(change, message):
    assert comparability.mismatches(_identity(), _identity()) == []
    assert comparability.mismatches(_identity(), _identity(**change)) == [message]


def test_version_data_settings_and_batch_policy_mismatches():
    new = _identity()
    new.update(
        biascheck_version="0.2.0",
        batch_size=8,
        data=[{"name": "bls2015", "sha256": "bbbb"}],
        settings={"role_nouns": {"states": {"value": None}}},
    )
    assert comparability.mismatches(_identity(), new) == [
        "biascheck version: 0.1.0 vs 0.2.0",
        "batch size: auto vs 8",
        "reference data bls2015: sha256 aaaa… vs bbbb…",
        "setting role_nouns.states: 5 vs None",
    ]
    # an older run that records none of it: nothing to refuse
    assert comparability.mismatches({"results": []}, new) == []


@pytest.mark.parametrize(
    ("model", "base", "expected"),
    [
        ("ckpt-2", ["ckpt-2", "ckpt-1"], "ckpt-2"),  # same name wins
        ("ckpt-3", ["ckpt-1"], "ckpt-1"),  # a one-model baseline stands for any new model
        ("ckpt-3", ["ckpt-1", "ckpt-2"], None),  # several others: no single partner
    ],
)
def test_one_pairing_rule_for_compare_mismatches_and_item_diffs(model, base, expected):
    from biascheck.gate.baseline import baseline_model

    assert baseline_model(model, base) == expected


def test_a_model_dropped_from_a_several_model_baseline_is_missing():
    """Metrics are missing per model, not per key: b's x is not stood for by a's x."""
    base = run(res("a", "x", 1.0, ci=0.1), res("b", "x", 1.0, ci=0.1))
    out = bl.compare(base, run(res("a", "x", 1.0, ci=0.1)))
    assert [(c.model, c.key) for c in bl.missing(out)] == [("b", "p.t.x")]


def test_a_metric_the_partner_model_lacks_is_not_in_baseline_and_never_judged_against_another_model():
    """Model a's y is not compared with b's y; it is not covered by the baseline."""
    base = run(res("a", "x", 1.0, ci=0.1), res("b", "y", 1.0, ci=0.1))
    out = {(c.model, c.key): c for c in bl.compare(base, run(res("a", "x", 1.0, ci=0.1), res("a", "y", 5.0, ci=0.1)))}
    assert out[("a", "p.t.y")].status == bl.NEW == "not in baseline" and out[("a", "p.t.y")].base is None
    assert [c.key for c in bl.uncovered(list(out.values()))] == ["p.t.y"]
    assert [(c.model, c.key) for c in bl.missing(list(out.values()))] == [("b", "p.t.y")]


def _models(**models):
    return {
        "models": {name: {"family": "causal", "dtype": dtype, "device": "cpu"} for name, dtype in models.items()},
        "results": [],
    }


def test_a_new_name_is_checked_against_every_model_of_a_several_model_baseline():
    """The identity checks ran only for a one-model baseline."""
    differences = comparability.mismatches(_models(s0="float32", s1="float32"), _models(new="bfloat16"))
    assert differences == [
        "new dtype: 'float32' vs 'bfloat16' (vs baseline model s0)",
        "new dtype: 'float32' vs 'bfloat16' (vs baseline model s1)",
    ]
    assert comparability.mismatches(_models(s0="float32", s1="float32"), _models(s0="float32")) == []


@pytest.mark.parametrize(
    ("base_extra", "new_extra", "message"),
    [
        ({"quantisation": "GGUF Q4_1"}, {"quantisation": "none"}, "m quantisation: 'GGUF Q4_1' vs 'none'"),
        ({"quantisation": "none"}, {}, "m quantisation: 'none' vs not recorded"),
        ({"tokenizer_sha256": "aa"}, {"tokenizer_sha256": "bb"}, "m tokenizer_sha256: 'aa' vs 'bb'"),
    ],
)
def test_quantisation_and_tokenizer_are_compared_and_one_sided_records_differ(base_extra, new_extra, message):
    """A 4-bit run and a full-precision one, or two tokenizers, are not comparable."""
    base, new = _identity(), _identity()
    base["models"]["m"]["extra"] = {**base["models"]["m"]["extra"], **base_extra}
    new["models"]["m"]["extra"] = {**new["models"]["m"]["extra"], **new_extra}
    assert comparability.mismatches(base, new) == [message]


def test_the_profile_is_compared_by_its_resolved_thresholds_not_its_name():
    """The same name with other thresholds differs; another name with the same ones does not."""
    from biascheck.thresholds import Threshold, ThresholdSet

    def profile(name, high):
        table = ThresholdSet(name, by_key={("p", None, "x"): Threshold(None, high, "why", f"{name}.toml")})
        return {**_identity(), "profile": {"name": name, "thresholds_sha256": table.digest()}}

    assert comparability.mismatches(profile("default", 1.0), profile("renamed", 1.0)) == []
    (difference,) = comparability.mismatches(profile("default", 1.0), profile("default", 2.0))
    assert difference.startswith("threshold profile: default (thresholds sha256 ")
    assert difference.endswith("the resolved thresholds differ")


def test_the_competence_guard_is_judged_by_its_line_not_by_regression():
    """A competence of 1.0 in the baseline and 0.95 now (20 and 19 of 20 pairs, both at or above the guard's 18)
    is no regression: the guard's own line judges it in every run; only the probes' metrics are compared."""
    from biascheck.gate.baseline import compare

    def run(value):
        rows = [
            {
                "model": "m",
                "probe": "pronoun_ratio",
                "task": "is",
                "metric": metric,
                "value": v,
                "ci_low": v - 0.01,
                "ci_high": v + 0.01,
                "better": better,
                "passed": True,
            }
            for metric, v, better in (("competence", value, "higher"), ("mean_abs_log_n", 0.5, "lower"))
        ]
        return {"results": rows, "models": {"m": {}}}

    comparisons = compare(run(1.0), run(0.95))
    assert [c.key for c in comparisons] == ["pronoun_ratio.is.mean_abs_log_n"]


def test_a_metric_that_is_not_a_number_is_not_measured_and_fails_where_a_number_was_expected():
    """NaN (null in a saved run) in one run and a number in the other, or NaN in a gated metric, fails the gate
    (it was 'n/a' and passed); a report-only metric that neither run could measure is shown, not judged."""
    base = run(res("a", "x", None), res("a", "y", 1.0, ci=0.1), res("a", "z", None), res("a", "g", None))
    new = run(
        res("a", "x", 1.0, ci=0.1), res("a", "y", float("nan")), res("a", "z", None), res("a", "g", None, passed=False)
    )
    out = {c.key: c for c in bl.compare(base, new)}
    assert {k: c.status for k, c in out.items()} == {k: bl.NOT_A_NUMBER for k in ("p.t.x", "p.t.y", "p.t.z", "p.t.g")}
    assert [c.key for c in bl.unmeasured(list(out.values()))] == ["p.t.x", "p.t.y", "p.t.g"]
    assert bl.failing(list(out.values())) == bl.unmeasured(list(out.values()))
    found = regression.markdown(list(out.values()), "v1")
    assert "3 metric(s) regressed beyond the noise, missing or not measured" in found


def test_compare_exits_1_when_the_baseline_holds_a_metric_that_is_not_a_number(tmp_path):
    import subprocess
    import sys

    from biascheck.gate.store import ResultStore

    def saved(value):
        return {"schema_version": 3, "exit_status": 0, "models": {"a": {}}, "results": [res("a", "x", value, ci=0.1)]}

    store = tmp_path / "s.sqlite"
    ResultStore(store).save_run("v1", saved(None))
    ResultStore(store).save_run("v2", saved(1.0))
    done = subprocess.run(
        [sys.executable, "-m", "biascheck.cli", "compare", "v1", "v2", "--store", str(store)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "n/a" in done.stdout
