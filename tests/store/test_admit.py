"""What a saved run must be to be a baseline, a candidate, a noise run or an accepted baseline."""

from types import SimpleNamespace

from biascheck.gate import admit
from biascheck.results import SCHEMA_VERSION


def sweep(*models, checkpoints=True, exit_status=0, **record):
    return {
        "schema_version": SCHEMA_VERSION,
        "exit_status": exit_status,
        "models": {
            m: {
                "family": "causal",
                "architecture": "GPT2LMHeadModel",
                "dtype": "float32",
                "device": "cpu",
                **record.get(m, {}),
            }
            for m in models
        },
        "checkpoints": [{"model": m, "step": i, "seed": "0"} for i, m in enumerate(models)] if checkpoints else None,
        "results": [],
    }


def test_a_run_of_another_schema_is_refused_with_how_to_fix():
    assert admit.schema_problem({"schema_version": SCHEMA_VERSION}, "v1", "baseline") is None
    old = admit.schema_problem({"schema_version": 2, "biascheck_version": "0.1.0"}, "v1", "baseline")
    assert old.startswith("baseline 'v1' was saved with results schema 2 (biascheck 0.1.0)") and "--bias-save" in old
    assert "Upgrade biascheck" in admit.schema_problem({"schema_version": SCHEMA_VERSION + 1}, "v9", "baseline")


def test_the_noise_band_comes_only_from_a_passing_sweep_of_one_model():
    new = sweep("ckpt-3")
    assert admit.noise_problems(sweep("ckpt-1", "ckpt-2"), new, "sweep") == []
    (unrelated,) = admit.noise_problems(sweep("gpt2", "smollm2", checkpoints=False), new, "two")
    assert unrelated.startswith("noise run 'two' is not a sweep") and "--model-list" in unrelated
    (failed,) = admit.noise_problems(sweep("a", "b", exit_status=1), new, "bad")
    assert "failed (exit status 1)" in failed
    (single,) = admit.noise_problems(sweep("a"), new, "one")
    assert "holds 1 model(s)" in single
    (mixed,) = admit.noise_problems(sweep("a", "b", b={"architecture": "LlamaForCausalLM"}), new, "mix")
    assert "not one model's checkpoints or seeds" in mixed and "GPT2LMHeadModel vs LlamaForCausalLM" in mixed
    (other,) = admit.noise_problems(sweep("a", "b"), sweep("c", c={"dtype": "bfloat16"}), "sweep")
    assert "not comparable with the run it judges" in other and "dtype" in other
    assert admit.noise_problems(sweep("a", "b"), sweep("c", c={"dtype": "bfloat16"}), "sweep", True) == []


def test_coverage_records_the_selection_and_what_makes_a_run_partial():
    record = SimpleNamespace(model="m", probe="pronoun_ratio", task="is")
    option = SimpleNamespace(keyword="is", markexpr="", lf=False, stepwise=False, deselect=None)
    cov = admit.coverage(SimpleNamespace(option=option, args=["/r/probes"], rootpath="/r"), [record], "quick")
    assert cov["partial"] == ["-k 'is'"] and cov["selection"] == {"-k": "is", "paths": ["probes"], "node_ids": []}
    assert (cov["probes"], cov["tasks"], cov["models"], cov["tier"]) == (
        ["pronoun_ratio"],
        ["pronoun_ratio.is"],
        ["m"],
        "quick",
    )
    whole = admit.coverage(
        SimpleNamespace(option=SimpleNamespace(keyword="", lf=False), args=["probes"]), [record], "full"
    )
    assert whole["partial"] == [] and admit.partial_problem({"coverage": whole}, "baseline") is None
    refusal = admit.partial_problem({"coverage": cov}, "baseline", "--bias-accept-partial")
    assert "this run is partial (-k 'is')" in refusal and "--bias-accept-partial" in refusal
    assert "1 task(s) of probes pronoun_ratio on models m, tier quick; selection: -k 'is'" in refusal
    nodes = admit.coverage(SimpleNamespace(option=None, args=["probes/test_a.py::test_x"]), [record], "full")
    assert nodes["partial"] == ["node ids probes/test_a.py::test_x"]
