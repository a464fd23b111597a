"""Every probe of the catalog, through the real plugin, keeps the probe contract (`biascheck.testing`):
on deterministic fake models of both families (which read the competence guard's items as a model that
knows gender does); on a tiny real masked LM: test_probe_contract_tiny.py (a module of its own, so that the two
runs go to two pytest-xdist workers under `--dist loadfile`). Settings keep the runs small; the full designs run
in `probes/`."""

import json
import math
import os
from pathlib import Path

import pytest
from browser import render

from biascheck.catalog import PROBES
from biascheck.testing import FakeLM, check_contract, probe_env, run_probes

REPO = Path(__file__).resolve().parents[2]
# Small designs: 20 of 893 professions, 1 of 50 states, 1 name per sex, 40 politicians per gender and one fit.
QUICK = (
    "natural_prompts.limit=20",
    "role_nouns.states=1",
    "norwegian_occupations.names=1",
    "politicians.limit=40",
    "politicians.grid=quick",
)
FAKES = ("fake/masked", "fake/causal")


@pytest.fixture(scope="module")
def fake_run(tmp_path_factory, mirror):
    return run_probes(
        tmp_path_factory.mktemp("fake"),
        REPO,
        FAKES,
        data_dir=mirror,
        settings=QUICK,
        fake_models=True,
        extra_args=["--bias-tier", "quick"],  # the same design on any machine (auto would be full on a GPU)
    )


@pytest.mark.parametrize("probe", list(PROBES))
def test_probe_keeps_the_contract_on_fake_models(probe, fake_run):
    assert check_contract(PROBES[probe], fake_run) == [], fake_run.output[-3000:]


def test_report_html_shows_every_probe_and_its_plots_in_a_browser(fake_run, tmp_path):
    """The run's report.html in headless Chromium: no console message, every plot decoded, a section for
    every probe of the catalog holding a table for each model."""
    assert fake_run.report_dir is not None and (fake_run.report_dir / "report.html").is_file(), fake_run.output[-3000:]
    shown = render(fake_run.report_dir / "report.html", tmp_path / "report.png")
    assert shown.console == [] and 'data-images="ok"' in shown.dom
    for probe in PROBES:
        section = shown.dom.split(f'data-probe="{probe}"', 1)[-1].split("</section>", 1)[0]
        assert section.count("<table>") == len(FAKES), probe
    plots = sorted(p.name for p in (fake_run.report_dir / "plots").glob("*.png"))
    assert plots and all(f"plots/{name}" in shown.dom for name in plots)


PINNED = Path(__file__).parent / "pinned" / "fake_run_results.json"


def _pinnable(results):
    """model/probe/task/metric -> [value, ci_low, ci_high, n] (None for a missing number)."""
    return {
        f"{r['model']}/{r['probe']}.{r['task']}.{r['metric']}": [r["value"], r["ci_low"], r["ci_high"], r["n"]]
        for r in results["results"]
    }


# The politicians probe's sent_mix reads pσ(s|g), which the data do not identify (`latent.model` docstring):
# where FISTA stops along its flat valley moves with the last bits of every step's rounding, which differ
# between CPUs: numba compiles the fit for the host. Between an Intel Xeon with AVX-512 and one with AVX2 it
# moved 2.7e-4 at most; on an AMD EPYC (2026-11-30, the same code) by up to 0.050 (es sent_mix_neu 0.0537 ->
# 0.0032), as much as between the compiled and the numpy solver (0.045); every other number stayed within
# 1e-6. So sent_mix is held to 0.1 on any machine: a change of grid or objective shows in the identified
# numbers pinned beside it (the gaps, PMI, the posterior KL), not in this one.
NOT_IDENTIFIED = ("sent_mix_",)
NOT_IDENTIFIED_TOLERANCE = 0.1


def _same(a, b, key=""):
    if a is None or b is None:
        return a is b
    if any(part in key for part in NOT_IDENTIFIED):
        return math.isclose(a, b, rel_tol=0.0, abs_tol=NOT_IDENTIFIED_TOLERANCE)
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)  # float rounding of another CPU's BLAS, not a change


def test_every_number_of_the_fake_run_is_pinned(fake_run):
    """Every metric of every probe on the deterministic fake models (values, intervals, n) equals the pinned
    file, so an optimisation of scoring, metrics or bootstraps cannot move a number unnoticed. A change
    that is meant to move numbers re-pins: BIASCHECK_REPIN=1 pytest tests/plugin/test_probe_contract.py -k pinned
    (and says why in its commit)."""
    now = _pinnable(fake_run.results)
    if os.environ.get("BIASCHECK_REPIN"):
        PINNED.parent.mkdir(exist_ok=True)
        lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(now.items())]
        PINNED.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    pinned = json.loads(PINNED.read_text())
    missing, added = sorted(set(pinned) - set(now)), sorted(set(now) - set(pinned))
    moved = [
        f"{k}: {pinned[k]} -> {now[k]}"
        for k in sorted(set(now) & set(pinned))
        if not all(_same(a, b, k) for a, b in zip(pinned[k], now[k], strict=True))
    ]
    assert not (missing or added or moved), _unpinned(len(pinned), moved, missing, added)


REPIN = "BIASCHECK_REPIN=1 pytest tests/plugin/test_probe_contract.py -k pinned"


def _unpinned(pinned: int, moved: list[str], missing: list[str], added: list[str]) -> str:
    """What differs from the pinned file; when numbers were only added (a new probe, task or metric, nothing
    moved or gone), the command that pins them too."""
    lines = [*moved[:20], *(f"missing {k}" for k in missing[:10]), *(f"new {k}" for k in added[:10])]
    counts = f"{len(moved)} moved, {len(missing)} missing, {len(added)} new (of {pinned} pinned)"
    if added and not (moved or missing):
        return (
            f"{counts}: only new numbers, every pinned one is unchanged. Pin them with: {REPIN} "
            "(and say in the commit what they are).\n" + "\n".join(lines)
        )
    return f"{counts}:\n" + "\n".join(lines)


def test_only_new_numbers_say_how_to_pin_them():
    only_new = _unpinned(3, [], [], ["fake/masked/new_probe.all.lean"])
    assert only_new.startswith("0 moved, 0 missing, 1 new (of 3 pinned): only new numbers") and REPIN in only_new
    moved = _unpinned(3, ["fake/masked/winobias.type1.pro_share: [0.5] -> [0.6]"], [], ["fake/masked/x.all.y"])
    assert REPIN not in moved and "pro_share" in moved  # a moved number is a question, not a re-pin


def test_the_runs_record_their_settings(fake_run):
    settings = fake_run.results["settings"]
    assert settings["natural_prompts"]["limit"] == {"value": 20, "source": "--bias-set"}
    assert settings["role_nouns"]["states"] == {"value": 1, "source": "--bias-set"}


def test_contract_catches_a_crash_a_missing_task_an_undeclared_metric_and_a_stray_interval(tmp_path, mirror):
    (tmp_path / "repo" / "probes").mkdir(parents=True)
    (tmp_path / "repo" / "thresholds").mkdir()
    (tmp_path / "repo" / "probes" / "test_pronoun_ratio.py").write_text(
        "import pytest\n"
        "from biascheck.spec import Metric\n"
        "pytestmark = pytest.mark.biascheck(probe='pronoun_ratio')\n"
        "@pytest.mark.parametrize('task', ['is', 'works_as'])\n"
        "def test_pronoun_ratio(task, lm, bias):\n"
        "    if task == 'works_as':\n"
        "        raise RuntimeError('boom')\n"
        "    bias.record(task, Metric('median_log_r', 0.1))\n"
        "    bias.record(task, Metric('spearman_bls', 0.5, ci=(0.6, 0.7), estimator='e'))\n"
    )
    run = run_probes(tmp_path / "run", tmp_path / "repo", ["fake/masked"], data_dir=mirror, fake_models=True)
    problems = "\n".join(check_contract(PROBES["pronoun_ratio"], run))
    assert "test_pronoun_ratio[fake/masked-works_as]: failed: RuntimeError: boom" in problems
    assert "task 'sensitivity' recorded no metric" in problems
    assert "pronoun_ratio.is.median_log_r on fake/masked: no estimator recorded" in problems
    assert "interval [0.6, 0.7] does not hold its value 0.5" in problems


def test_the_probe_run_keeps_where_files_are_but_not_the_callers_settings():
    """A known-answer run must find the planted models prebuilt into $BIASCHECK_PLANTED_DIR (it used to
    build them again in ~/.cache), and must not pick up a setting such as the role-noun states."""
    env = probe_env(
        {
            "PATH": "/bin",
            "BIASCHECK_PLANTED_DIR": "/p",
            "BIASCHECK_CACHE_DIR": "/c",
            "BIASCHECK_OFFLINE": "1",
            "BIASCHECK_MEMO_STORE": "off",
            "BIASCHECK_ROLE_NOUN_STATES": "3",
            "BIASCHECK_TIER": "full",
            "PYTEST_ADDOPTS": "-x",
        }
    )
    assert env == {
        "PATH": "/bin",
        "BIASCHECK_PLANTED_DIR": "/p",
        "BIASCHECK_CACHE_DIR": "/c",
        "BIASCHECK_OFFLINE": "1",
        "BIASCHECK_MEMO_STORE": "off",
    }


def test_fake_lm_is_deterministic_and_family_shaped():
    masked, causal = FakeLM("m", "masked"), FakeLM("c", "causal")
    a = masked.fill_slot(["[SLOT] is a nurse.", "[SLOT] works as a [BLANK]."], ["He", "She"])
    assert a.logprob.shape == (2, 2) and (a.logprob < 0).all() and a.estimator == "mlm-slot"
    assert (masked.fill_slot(["[SLOT] is a nurse."], ["He"]).logprob == a.logprob[0, 0]).all()
    assert causal.next_token(["The nurse said that"], ["he"]).estimator == "causal-next"
    values, tokens = causal.top_next(["x", "y"], 3)
    assert values.shape == (2, 3) and (values[:, :-1] >= values[:, 1:]).all() and len(tokens[0]) == 3
    words = masked.word_logprobs(["He is a nurse."])[0]
    assert [w[:3] for w in words] == [("He", 0, 2), ("is", 3, 5), ("a", 6, 7), ("nurse.", 8, 14)]
    assert masked.sentence_logprob(["He is a nurse."])[0][0] == pytest.approx(sum(w[3] for w in words))


def test_every_gated_result_with_an_interval_records_its_power(fake_run):
    """results.json's `power` is the gate's power at the result's n (`Result.gate_power`), and only gated
    results with an interval have one."""
    from biascheck.results import Result

    with_power = 0
    for data in fake_run.results["results"]:
        expected = Result.from_json(data).gate_power()
        assert data["power"] == (None if expected is None else expected.to_json()), data["metric"]
        with_power += data["power"] is not None
    assert with_power > 0
