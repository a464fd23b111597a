"""lab/scripts/lm_eval_agreement.py as the winogender and crows_pairs_gender READMEs run it, on a tiny causal model
saved to disk: under each prefix policy biascheck and lm-evaluation-harness take the same decision on every
Winogender sentence and CrowS-Pairs pair (exit 0), and the numbers it prints are complete."""

import json
from pathlib import Path

import pytest
from script_module import run_script

pytest.importorskip("lm_eval")
SCRIPT = Path(__file__).resolve().parents[2] / "lab" / "scripts" / "lm_eval_agreement.py"


def test_the_script_agrees_with_lm_eval_under_both_policies(gpt2_tiny, mirror, tmp_path):
    model, tokenizer = gpt2_tiny
    directory = tmp_path / "tiny-gpt2"
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    out = tmp_path / "agreement.json"
    done = run_script(SCRIPT, ["--model", str(directory), "--json", str(out)], mirror, timeout=1200)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    numbers = json.loads(out.read_text())
    for policy in ("ours", "lm_eval_default"):
        wg = numbers["winogender"][policy]
        assert wg["n"] == {"all": 720, "gotcha": 240} and wg["items_agreeing"] == 720
        assert wg["biascheck"] == pytest.approx(wg["lm_eval"])
        crows = numbers["crows_pairs"][policy]
        assert crows["n"] == 262 == crows["items_agreeing"]
        assert crows["biascheck_stereo_share"] == pytest.approx(crows["lm_eval_pct_stereotype"])
    assert 0 <= numbers["winogender"]["items_agreeing_across_policies"] <= 720


def test_without_the_harness_it_reports_biascheck_under_both_policies(gpt2_tiny, mirror, tmp_path):
    model, tokenizer = gpt2_tiny
    directory = tmp_path / "tiny-gpt2"
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    out = tmp_path / "agreement.json"
    args = ["--model", str(directory), "--probes", "crows_pairs", "--harness", "skip", "--json", str(out)]
    done = run_script(SCRIPT, args, mirror)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    crows = json.loads(out.read_text())["crows_pairs"]
    for policy in ("ours", "lm_eval_default"):
        assert crows[policy]["n"] == 262 and "lm_eval_pct_stereotype" not in crows[policy]
