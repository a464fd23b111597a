"""A probe run through the plugin with a fake model: recording, thresholds, summary, report files."""

import json

import pytest
from fake_probe import CONFTEST, PROBE, PROFILE


@pytest.fixture
def project(pytester):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_probe=PROBE)
    (pytester.path / "thresholds").mkdir()
    (pytester.path / "thresholds" / "default.toml").write_text(PROFILE)
    return pytester


def test_threshold_failure_fails_the_test_and_the_summary_says_so(project):
    result = project.runpytest("--model", "a/model")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*pronoun_ratio.is.mean_abs_log_n = 2 (n=10), needs ≤ 1*default.toml*",
            "*biascheck summary*",
            "pronoun_ratio · a/model · tier quick · estimator mlm-slot · 1 FAIL",
            "*is*mean_abs_log_n*model*0.500*[0.400, 0.600]*10*≤ 1*pass*",
            "*is*mean_abs_log_n*model*2.000*FAIL*",
            "*is*median_log_r*report*",
        ]
    )


def test_report_files_and_github_step_summary(project, monkeypatch):
    summary = project.path / "step_summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    project.runpytest("--model", "a/model", "--bias-report", "out")
    data = json.loads((project.path / "out" / "results.json").read_text())
    assert data["profile"]["name"] == "default" and data["profile"]["files"][0].endswith("default.toml")
    assert [r["value"] for r in data["results"] if r["metric"] == "mean_abs_log_n"] == [0.5, 2.0]
    assert data["results"][0]["metric"] == "competence" and data["results"][0]["passed"] is True
    assert data["results"][1]["items"] == [{"profession": "nurse", "log_n": -0.5}]
    assert "| task" in summary.read_text() and (project.path / "out" / "summary.md").is_file()


def test_several_models_run_every_probe_once_each(project):
    result = project.runpytest("--model", "a/one", "--model", "b/two", "--bias-report", "none", "-v")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(["*pronoun_ratio · a/one*", "*pronoun_ratio · b/two*"])


KEPT = """
BUILT = []


@pytest.fixture(scope="module")
def reference(kept):
    return kept("reference", lambda: BUILT.append(1) or len(BUILT))


@pytest.fixture(scope="module")
def scored(lm, reference):
    return (lm.info.name, reference)


def test_kept(scored, lm, bias):
    assert scored == (lm.info.name, 1) and len(BUILT) == 1
"""


def test_kept_work_is_built_once_for_every_model_of_the_run(project):
    """pytest runs every probe of one model before the next and tears a module's fixtures down between models;
    what a probe keeps with `kept` (its reference data) is built once all the same."""
    project.makepyfile(test_probe=PROBE + KEPT, test_second=PROBE)  # a second module: pytest leaves the first
    result = project.runpytest("--model", "a/one", "--model", "b/two", "--model", "c/3", "--bias-report", "none", "-v")
    result.assert_outcomes(passed=9, failed=6)
    assert result.stdout.str().count("test_kept[") == 3 and "AssertionError" not in result.stdout.str()


def test_language_mismatch_skips_with_reason_and_can_be_overridden(project):
    # norbert's registry entry covers Norwegian only: the English probe is skipped there.
    result = project.runpytest("--model", "norbert", "-rs", "--bias-report", "none")
    result.assert_outcomes(skipped=2, failed=1)  # failed: the gate, which measured nothing (next test)
    result.stdout.fnmatch_lines(
        [
            "*'en' probe and norbert covers no, nb, nn (its registry entry); "
            "pass --bias-language en (or --bias-any-language)*"
        ]
    )
    anyway = project.runpytest("--model", "norbert", "--bias-any-language", "--bias-report", "none")
    anyway.assert_outcomes(passed=1, failed=1)
    project.runpytest("--model", "norbert", "--bias-language", "en", "--bias-report", "none").assert_outcomes(
        passed=1, failed=1
    )


def test_a_model_on_which_every_test_was_skipped_fails_the_gate(project, monkeypatch):
    """Skipped is not passed: a run that measured nothing on a model (here every probe is in a language the
    model does not cover) ends red with one failing gate testcase that says why, per model; a model that
    was measured beside it is not flagged."""
    result = project.runpytest("--model", "norbert", "--model", "a/model", "--bias-report", "none")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=1, failed=2, skipped=2)  # a/model: 1 pass + 1 threshold failure
    result.stdout.fnmatch_lines(["*biascheck-gate::norbert::nothing-measured*"])
    assert "a/model::nothing-measured" not in result.stdout.str()
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(project.path / "step.md"))
    alone = project.runpytest("--model", "norbert", "--bias-report", "none", "--junitxml", "j.xml")
    assert alone.ret == pytest.ExitCode.TESTS_FAILED
    alone.stdout.fnmatch_lines(
        [
            "*biascheck gate*",
            "nothing was measured on norbert: all 2 selected tests were "
            "skipped, so the gate cannot pass on it. Skipped because: *'en' probe and norbert*",
        ]
    )
    assert 'name="nothing-measured"' in (project.path / "j.xml").read_text()
    step = (project.path / "step.md").read_text()  # a GitHub job summary says why too
    assert "### biascheck gate: failed (exit status 1)" in step and "\n- nothing was measured on norbert" in step
    # A skip inside the test body (after setup) measured nothing either; an expected failure did run.
    project.makepyfile(test_probe=PROBE + "\ndef test_late(lm, bias):\n    pytest.skip('decided late')\n")
    late = project.runpytest("--model", "a/model", "--bias-report", "none", "-k", "late")
    late.stdout.fnmatch_lines(["*a/model: all 1 selected tests were skipped*Skipped because: decided late*"])
    # An expected failure (xfail) measured nothing either: it is not a pass.
    project.makepyfile(
        test_probe=PROBE + "\n@pytest.mark.xfail(reason='known')\ndef test_x(lm, bias):\n    assert False\n"
    )
    xfailed = project.runpytest("--model", "a/model", "--bias-report", "none", "-k", "test_x")
    assert xfailed.ret == pytest.ExitCode.TESTS_FAILED
    xfailed.stdout.fnmatch_lines(["*a/model: all 1 selected tests were skipped*marked xfail: known*"])


def test_a_model_with_a_non_ascii_name_on_which_nothing_was_measured_fails_the_gate(project):
    """pytest escapes non-ASCII in node ids (`bért` is `b\\xe9rt` there), so the gate takes a test's model
    from its parameters: a Norwegian checkpoint folder whose every test was skipped is red, as an ASCII one."""
    (project.path / "språk" / "bért").mkdir(parents=True)
    for name in ("språk/bért", "språk/bertA"):
        if name.endswith("A"):
            (project.path / name).mkdir()
        result = project.runpytest("--model", name, "--bias-language", "no", "--bias-report", "none")
        assert result.ret == pytest.ExitCode.TESTS_FAILED, (name, result.stdout.str()[-1500:])
        result.stdout.fnmatch_lines([f"*nothing was measured on {name}: all 2 selected tests were skipped*"])


def test_the_scheduler_finds_a_non_ascii_model_in_an_escaped_node_id():
    from biascheck.gate_plugin.workers import model_of

    assert model_of("probes/test_x.py::test_a[b\\xe9rt-is]", ("bért", "b")) == "bért"
    assert model_of("probes/test_x.py::test_a[bért-is]", ("bért",)) == "bért"  # escaping switched off
    assert model_of("probes/test_x.py::test_a[other-is]", ("bért",)) is None


def test_a_hub_id_or_path_is_taken_for_english_unless_told_otherwise(project, monkeypatch):
    """No registry entry and no model card: English is assumed and said; --bias-language overrides."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    project.runpytest("--model", "a/model", "--bias-report", "none").assert_outcomes(passed=1, failed=1)
    result = project.runpytest("--model", "a/model", "--bias-language", "no", "-rs", "--bias-report", "none")
    result.assert_outcomes(skipped=2, failed=1)  # failed: the gate, which measured nothing
    result.stdout.fnmatch_lines(["*'en' probe and a/model covers no (--bias-language); pass --bias-language en*"])
    bad = project.runpytest("--model", "a/model", "--bias-language", "english")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR


def test_malformed_profile_stops_the_run_before_any_model_loads(project):
    (project.path / "thresholds" / "default.toml").write_text("[pronoun_ratio.mean_abs]\nmax = 1\nwhy = 'x'\n")
    result = project.runpytest("--model", "a/model")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*default.toml: pronoun_ratio.mean_abs: neither a metric nor a task*"])


def test_a_profile_that_gates_none_of_the_selected_probes_stops_the_run_before_any_model_loads(project):
    """Green means judged: a profile that leaves no threshold for the probes a run selects (every one
    switched off, or only other probes gated, -k deselection counted) would pass every result unjudged.
    A baseline comparison is a gate of its own, so a regression-only profile runs with --bias-baseline."""
    profile = project.path / "thresholds" / "default.toml"
    profile.write_text(PROFILE + "off = true\n")  # the one threshold, switched off
    off = project.runpytest("--model", "a/model", "--bias-report", "none")
    assert off.ret == pytest.ExitCode.USAGE_ERROR
    off.stderr.fnmatch_lines(
        [
            f"*{profile}: profile 'default' gates nothing in this run: none of the metrics of the "
            "selected probes (pronoun_ratio) has a threshold*--bias-baseline NAME*"
        ]
    )
    assert "passed" not in off.stdout.str()
    regen = ["--bias-baseline", "b", "--bias-baseline-regen", "--bias-store", "s.sqlite", "--bias-report", "none"]
    assert project.runpytest("--model", "a/model", *regen).ret == pytest.ExitCode.OK
    profile.write_text(PROFILE)
    project.makepyfile(
        test_wino="import pytest\npytestmark = pytest.mark.biascheck(probe='winobias')\n"
        "def test_wino(lm, bias):\n    pass\n"
    )
    other = project.runpytest("--model", "a/model", "--bias-report", "none", "-k", "wino")
    assert other.ret == pytest.ExitCode.USAGE_ERROR
    other.stderr.fnmatch_lines(["*gates nothing in this run: none of the metrics of the selected probes (winobias)*"])


def test_unknown_probe_in_marker_is_a_usage_error(project):
    project.makepyfile(test_probe=PROBE.replace('probe="pronoun_ratio"', 'probe="pronoun"'))
    result = project.runpytest("--model", "a/model")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*names unknown probe 'pronoun'*"])


def test_interrupted_run_writes_no_report(project):
    project.makepyfile(test_probe=PROBE + "\ndef test_stop(lm, bias):\n    raise KeyboardInterrupt\n")
    # In a subprocess: an in-process run would pass the interrupt on to this test session.
    result = project.runpytest_subprocess("--model", "a/model", "--bias-report", "out", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert not (project.path / "out").exists()


def test_plots_are_this_runs_only_and_an_interrupted_run_leaves_the_previous_ones(project):
    """Figures go to a staging folder while the run goes and become `plots/` when it writes its report: an
    interrupted run leaves the previous run's plots as they were (with its results.json), and a finished
    run's plots/ holds its own figures, none of an earlier run's (report.html embeds every file there)."""
    figure = "\ndef test_figure(lm, bias):\n    bias.save_text('note', 'run {n} ' + lm.info.name)\n"
    stop = "\ndef test_stop(lm, bias):\n    raise KeyboardInterrupt\n"
    out = project.path / "out"
    project.makepyfile(test_probe=PROBE + figure.format(n=1))
    project.runpytest_subprocess("--model", "a/model", "--bias-report", "out", "-p", "no:cacheprovider")
    assert [p.name for p in (out / "plots").iterdir()] == ["pronoun_ratio-note-a_model.txt"]
    project.makepyfile(test_probe=PROBE + figure.format(n=2) + stop)
    result = project.runpytest_subprocess("--model", "b/model", "--bias-report", "out", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert sorted(p.name for p in out.iterdir()) == ["plots", "report.html", "results.json", "summary.md"]
    assert (out / "plots" / "pronoun_ratio-note-a_model.txt").read_text() == "run 1 a/model\n"
    assert len(list((out / "plots").iterdir())) == 1
    project.makepyfile(test_probe=PROBE + figure.format(n=3))
    project.runpytest_subprocess("--model", "b/model", "--bias-report", "out", "-p", "no:cacheprovider")
    assert [p.name for p in (out / "plots").iterdir()] == ["pronoun_ratio-note-b_model.txt"]
    assert not (out / ".plots-partial").exists()


@pytest.mark.parametrize(
    ("args", "tier", "why"),
    [
        ([], "quick", "auto: no CUDA GPU"),  # a fake model is not in the session: torch is asked
        (["--bias-tier", "full"], "full", "asked for (--bias-tier or $BIASCHECK_TIER)"),
    ],
)
def test_the_tier_is_recorded_in_the_run_and_on_every_result(project, args, tier, why):
    project.runpytest("--model", "a/model", "--bias-report", "out", *args)
    data = json.loads((project.path / "out" / "results.json").read_text())
    assert data["tier"] == {"name": tier, "why": why}
    assert {r["tier"] for r in data["results"]} == {tier}
    assert data["settings"]["role_nouns"]["states"]["source"] == f"tier {tier}"


def test_results_json_records_the_time_by_stage_and_bias_timings_prints_it(project):
    result = project.runpytest("--model", "a/model", "--bias-report", "out", "--bias-timings")
    result.stdout.fnmatch_lines(
        ["*biascheck time by probe and stage*", "probe*setup*other*total*", "pronoun_ratio*", "all*"]
    )
    timings = json.loads((project.path / "out" / "results.json").read_text())["timings"]
    assert {(t["model"], t["probe"]) for t in timings} == {("a/model", "pronoun_ratio")}
    assert {t["stage"] for t in timings} >= {"setup", "other"} and all(t["seconds"] >= 0 for t in timings)
    assert len({t["test"] for t in timings}) == 2  # both tests of the fake probe
    quiet = project.runpytest("--model", "a/model", "--bias-report", "none")
    assert "time by probe and stage" not in quiet.stdout.str()


def test_a_test_skipped_in_setup_keeps_its_own_setup_time(pytester):
    """A model loaded by a test that then skips (a probe for the other family) is that test's setup
    time, not the next test's."""
    pytester.makeconftest(
        CONFTEST.replace(
            "    return FakeLM(request.param)", "    import time\n    time.sleep(0.3)\n    return FakeLM(request.param)"
        )
    )
    pytester.makepyfile(
        test_a_skips="""
import pytest
pytestmark = pytest.mark.biascheck(probe="pronoun_ratio")

@pytest.fixture
def wrong_family(lm):
    pytest.skip("not for this family")

def test_skipped(lm, wrong_family):
    pass
""",
        test_b_runs="""
import pytest
from biascheck.spec import Metric
pytestmark = pytest.mark.biascheck(probe="role_nouns")

def test_runs(lm, bias):
    bias.record("three_way", Metric("fem_name_shift", 0.2))
""",
    )
    result = pytester.runpytest("--model", "a/model", "--bias-report", "out", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, skipped=1)
    setup = {
        t["probe"]: t["seconds"]
        for t in json.loads((pytester.path / "out" / "results.json").read_text())["timings"]
        if t["stage"] == "setup"
    }
    assert setup["pronoun_ratio"] >= 0.3 and setup.get("role_nouns", 0.0) < 0.3, setup


NAN_ITEMS = """
import pytest
from biascheck.spec import Metric
pytestmark = pytest.mark.biascheck(probe="pronoun_ratio")

def test_probe(lm, bias):
    bias.record("is", Metric("mean_abs_log_n", 0.5, ci=(0.4, 0.6), n=2, estimator="mlm-slot",
                             items=[{"profession": "nurse", "log_n": float("nan")}, {"profession": "x", "log_n": 1.0}]))
    bias.check()
"""


def test_a_nan_in_per_item_records_is_saved_as_null_not_a_crash(project):
    """A NaN among a result's per-item scores crashed the end of the run (the store refuses NaN), after the
    tests had passed, and left the previous report in place. It is null in the store and in results.json."""
    project.makepyfile(test_probe=NAN_ITEMS)
    result = project.runpytest("--model", "a/model", "--bias-save", "v1", "--bias-store", "s.sqlite")
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()[-2000:]
    items = [r for r in json.loads((project.path / "bias-report" / "results.json").read_text())["results"]][-1]
    assert items["items"] == [{"profession": "nurse", "log_n": None}, {"profession": "x", "log_n": 1.0}]
    from biascheck.gate.store import ResultStore

    saved = ResultStore(project.path / "s.sqlite").load_run("v1")
    assert saved["results"][-1]["items"][0]["log_n"] is None


NOT_MEASURED = """
import pytest
from biascheck.spec import Metric
pytestmark = pytest.mark.biascheck(probe="pronoun_ratio")

def test_probe(lm, bias):
    why = "NOT MEASURABLE: 2 of 40 fits did not converge"
    bias.record("is", Metric("mean_abs_log_n", float("nan"), None, 923, note=why))
    bias.record("works_as", Metric("mean_abs_log_n", float("nan"), None, 923))
    bias.check()
"""


def test_a_metric_that_could_not_be_measured_fails_with_its_reason(project):
    """A gated metric with no number (Gemma's politicians gaps in the full tier: 2 of 40 latent fits did not
    converge) failed with `= nan` alone, its reason only in the report's note; the failure now says why, and
    says that nothing says why where the probe left no note."""
    project.makepyfile(test_probe=NOT_MEASURED)
    result = project.runpytest("--model", "a/model", "--bias-report", "none")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines([
        "  pronoun_ratio.is.mean_abs_log_n = nan (n=923), needs *",
        "    why no number: NOT MEASURABLE: 2 of 40 fits did not converge",
        "  pronoun_ratio.works_as.mean_abs_log_n = nan (n=923), needs *",
        "    why no number: the probe gave none (no note says why)",
    ])  # fmt: skip


CRASH_AT_THE_END = """
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    raise RuntimeError("the end of the run crashed")
"""


def test_a_run_that_crashes_before_its_report_leaves_no_earlier_green_verdict(project):
    """A green run's report, then a run that dies at its end (here a hook raises, as the NaN crash did):
    results.json is gone and summary.md says the run has no verdict; the green report waits in
    previous-run/. The next run that finishes writes its own report and drops previous-run/; a run that
    ends green without a report of its own (no probe selected) or is interrupted puts the previous back."""
    out = project.path / "bias-report"
    assert project.runpytest("--model", "a/model", "-k", "0.5").ret == pytest.ExitCode.OK
    green = (out / "results.json").read_text()
    assert json.loads(green)["exit_status"] == 0
    project.makeconftest(CONFTEST + CRASH_AT_THE_END)
    crashed = project.runpytest_subprocess("--model", "a/model", "-k", "0.5")
    assert crashed.ret != pytest.ExitCode.OK
    assert not (out / "results.json").exists() and not (out / "report.html").exists()
    assert (out / "summary.md").read_text().startswith("### biascheck gate: no verdict (run unfinished)")
    assert (out / "previous-run" / "results.json").read_text() == green
    project.makeconftest(CONFTEST)
    project.makepyfile(test_mine="def test_mine():\n    pass\n")
    assert project.runpytest("-k", "mine").ret == pytest.ExitCode.OK  # no probe selected: not a biascheck run
    assert (out / "summary.md").read_text().startswith("### biascheck gate: no verdict")  # still no verdict
    assert project.runpytest("--model", "a/model", "-k", "2.0").ret == pytest.ExitCode.TESTS_FAILED
    assert json.loads((out / "results.json").read_text())["exit_status"] == 1
    assert "gate: failed" in (out / "summary.md").read_text() and not (out / "previous-run").exists()


XFAIL_EVERY_PROBE = """
import pytest

def pytest_collection_modifyitems(items):
    for item in items:
        item.add_marker(pytest.mark.xfail(reason="known issue"))
"""


def test_an_xfail_marker_does_not_turn_a_failed_threshold_green_or_into_a_baseline(project):
    """A conftest marking probe tests xfail (as teams do for a known issue) made a failed threshold exit 0,
    JUnit failures=0, saved with exit status 0 and accepted as a baseline. Now the gate fails with the
    threshold failure named, the saved run is a failed one, and accept refuses it."""
    import subprocess
    import sys

    project.makeconftest(CONFTEST + XFAIL_EVERY_PROBE)
    args = ["--model", "a/model", "--bias-save", "XF", "--bias-store", "s.sqlite", "--junitxml", "j.xml"]
    result = project.runpytest(*args)
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()[-2000:]
    result.stdout.fnmatch_lines(["*1 result(s) outside their thresholds, yet no test failed: pronoun_ratio.is.mean*"])
    assert 'name="outside-thresholds"' in (project.path / "j.xml").read_text()
    assert "gate: failed" in (project.path / "bias-report" / "summary.md").read_text()
    from biascheck.gate.store import ResultStore

    assert ResultStore(project.path / "s.sqlite").load_run("XF")["exit_status"] == 1
    accept = subprocess.run(
        [sys.executable, "-m", "biascheck.cli", "accept", "XF", "--partial", "--why", "x", "--store", "s.sqlite"],
        capture_output=True,
        text=True,
        cwd=project.path,
        check=False,
    )
    assert accept.returncode == 2, accept.stdout + accept.stderr


def test_collect_only_with_a_gate_option_is_a_usage_error_and_writes_no_report(project, monkeypatch):
    """`--collect-only` (here from PYTEST_ADDOPTS) with --bias-save exited 0 and wrote a green summary of
    '0 of 0 results gated'."""
    monkeypatch.setenv("PYTEST_ADDOPTS", "--collect-only")
    result = project.runpytest_subprocess("--model", "a/model", "--bias-save", "v1", "--bias-store", "s.sqlite")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--collect-only with --bias-save v1: a run that only collects*"])
    assert not (project.path / "bias-report").exists() and not (project.path / "s.sqlite").exists()
    monkeypatch.delenv("PYTEST_ADDOPTS")
    assert project.runpytest("--model", "a/model", "--collect-only").ret == pytest.ExitCode.OK  # no gate: fine


def test_a_biascheck_data_dir_that_is_not_a_folder_stops_the_run_before_any_model_loads(project, monkeypatch):
    """$BIASCHECK_DATA_DIR naming a missing folder was found only when the first probe read its data."""
    (project.path / "afile").write_text("x")
    for value, what in (("no/such/mirror", "does not exist"), ("afile", "is a file, not a directory")):
        monkeypatch.setenv("BIASCHECK_DATA_DIR", value)
        result = project.runpytest("--model", "a/model")
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        result.stderr.fnmatch_lines([f"*$BIASCHECK_DATA_DIR={value} {what}: it must name the reference-data mirror*"])
    monkeypatch.setenv("BIASCHECK_DATA_DIR", str(project.path))
    assert project.runpytest("--model", "a/model", "-k", "0.5").ret == pytest.ExitCode.OK


INTERRUPT_WHILE_WRITING = """
import biascheck.report.summary as summary

def _interrupted(*args, **kwargs):
    raise KeyboardInterrupt

summary.write_report = _interrupted
"""


def test_ctrl_c_while_the_report_is_written_is_a_line_and_leaves_no_verdict(project):
    """Ctrl-C while the report was written ended in a traceback; it leaves the 'no verdict' marker, the
    previous report aside, and says so."""
    out = project.path / "bias-report"
    assert project.runpytest("--model", "a/model", "-k", "0.5").ret == pytest.ExitCode.OK
    project.makeconftest(CONFTEST + INTERRUPT_WHILE_WRITING)
    stopped = project.runpytest_subprocess("--model", "a/model", "-k", "0.5")
    assert "Traceback" not in stopped.stdout.str() + stopped.stderr.str()
    stopped.stdout.fnmatch_lines(["*interrupted while the report was written: its summary.md says the run has no*"])
    assert (out / "summary.md").read_text().startswith("### biascheck gate: no verdict")
    assert (out / "previous-run" / "results.json").is_file() and not (out / "results.json").exists()


def test_a_threshold_failure_reports_its_metrics_not_the_tests_code(project):
    """A threshold failure printed about 25 lines of the test's code and data before its one-line reason."""
    result = project.runpytest("--model", "a/model", "--bias-report", "none")
    lines = result.stdout.str().split("= FAILURES =", 1)[1].splitlines()[2:]
    failure = lines[: next(i for i, line in enumerate(lines) if line.startswith("====="))]
    assert failure[0].startswith("1 bias metric(s) outside the thresholds of profile 'default':"), failure
    assert len(failure) == 4 and not any("bias.record" in line for line in failure), failure
    long = project.runpytest("--model", "a/model", "--bias-report", "none", "--tb=long")
    assert "def test_probe" in long.stdout.str().split("FAILURES", 1)[1]


def test_skipped_probe_tests_are_listed_with_why_in_summary_md_and_report_html(project):
    """Skipped probes were missing from report.html and summary.md: a reader saw only what ran."""
    result = project.runpytest("--model", "norbert", "--model", "a/model")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    summary = (project.path / "bias-report" / "summary.md").read_text()
    assert "### Not measured (2 probe test(s) skipped or expected to fail)" in summary
    listed = summary.split("### Not measured", 1)[1]
    assert "\n- norbert: " in listed and "norbert covers no, nb, nn" in listed and "test_probe[norbert-0.5]" in listed
    page = (project.path / "bias-report" / "report.html").read_text()
    assert 'id="not-measured"' in page and "test_probe[norbert-0.5]" in page
    results = json.loads((project.path / "bias-report" / "results.json").read_text())
    assert {e["model"] for e in results["not_measured"]} == {"norbert"}


def test_a_profile_error_leaves_the_last_report_as_it_was(project):
    """A profile error wiped the last report (a report of nothing replaced it)."""
    out = project.path / "bias-report"
    assert project.runpytest("--model", "a/model", "-k", "0.5").ret == pytest.ExitCode.OK
    before = {name: (out / name).read_text() for name in ("results.json", "summary.md", "report.html")}
    (project.path / "thresholds" / "default.toml").write_text("[pronoun_ratio.mean_abs]\nmax = 1\nwhy = 'x'\n")
    assert project.runpytest("--model", "a/model", "-k", "0.5").ret == pytest.ExitCode.USAGE_ERROR
    assert {name: (out / name).read_text() for name in before} == before and not (out / "previous-run").exists()


def test_a_profile_error_says_why_in_the_job_summary(project, monkeypatch):
    """The job summary of a run stopped by a profile error hid the cause (it said nothing, or 'no result')."""
    step = project.path / "step.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step))
    (project.path / "thresholds" / "default.toml").write_text("[pronoun_ratio.mean_abs]\nmax = 1\nwhy = 'x'\n")
    assert project.runpytest("--model", "a/model").ret == pytest.ExitCode.USAGE_ERROR
    text = step.read_text()
    assert text.startswith("### biascheck: stopped before any test ran (usage error)")
    assert "default.toml: pronoun_ratio.mean_abs: neither a metric nor a task" in text


@pytest.mark.parametrize(
    "args,drawn",
    [
        ([], {"a_one", "b_two"}),  # auto with models named: every figure
        (["--bias-plots", "none"], set()),
        (["--model-list", "list.csv"], set()),  # auto with a model list: none (its numbers are in results.json)
        (["--model-list", "list.csv", "--bias-plots", "all"], {"a_one", "b_two", "c_3"}),
    ],
)
def test_bias_plots_says_which_models_draw(project, args, drawn):
    figure = "\ndef test_figure(lm, bias):\n    if bias.draws:\n        bias.save_text('note', lm.info.name)\n"
    project.makepyfile(test_probe=PROBE + figure)
    (project.path / "list.csv").write_text("model,step,seed\nc/3,1,0\n")
    result = project.runpytest("--model", "a/one", "--model", "b/two", "--bias-report", "out", *args)
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # the fake's 2.0 is over its threshold; the run is whole
    plots = project.path / "out" / "plots"
    got = {p.stem.removeprefix("pronoun_ratio-note-") for p in plots.glob("*.txt")} if plots.is_dir() else set()
    assert got == drawn


def test_bias_plots_refuses_a_value_it_does_not_know(project):
    result = project.runpytest("--model", "a/one", "--bias-plots", "some")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--bias-plots: invalid choice: 'some' (choose from*auto*all*none*"])
