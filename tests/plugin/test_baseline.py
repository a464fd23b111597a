"""Regression tracking through the plugin with a fake model: save, compare, regen, model lists, xdist."""

import json
import re
import sqlite3

import pytest
from fake_probe import CONFTEST

from biascheck.gate.store import ResultStore

# The metric value is read from the model name ("org/v-1.5" records 1.5), so a "new release" is a new name.
PROBE = """
import pytest
from biascheck.spec import Metric
pytestmark = pytest.mark.biascheck(probe="pronoun_ratio")

@pytest.mark.parametrize("task", ["is", "works_as"])
def test_probe(lm, bias, task):
    value = float(lm.info.name.rsplit("-", 1)[1])
    bias.record(task, Metric("mean_abs_log_n", value, ci=(value - 0.1, value + 0.1), n=10, estimator="mlm-slot",
                             items=[{"profession": "nurse", "log_n": -value}]))
    bias.record(task, Metric("median_log_r", 1.0, n=10, estimator="mlm-slot"))
    bias.check()
"""


@pytest.fixture
def project(pytester):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_probe=PROBE)
    (pytester.path / "thresholds").mkdir()
    (pytester.path / "thresholds" / "default.toml").write_text(  # a profile must gate something
        '[pronoun_ratio.mean_abs_log_n]\nmax = 10\nwhy = "above every value here: these tests judge by the baseline"\n'
    )
    return pytester


def saved(project, name="v1"):
    from biascheck.gate.store import ResultStore

    return ResultStore(project.path / "store.sqlite").load_run(name)


def test_save_compare_flag_regression_and_regenerate(project, monkeypatch):
    store = ["--bias-store", "store.sqlite", "--bias-report", "out"]
    first = project.runpytest("--model", "org/v-1.0", "--bias-save", "v1", *store)
    assert first.ret == 0
    first.stdout.fnmatch_lines(["*saved this run as 'v1' in store.sqlite*"])
    payload = saved(project)
    metrics = [r for r in payload["results"] if r["metric"] != "competence"]
    assert payload["profile"]["name"] == "default" and len(metrics) == 4
    assert metrics[0]["items"] == [{"profession": "nurse", "log_n": -1.0}]
    assert [r["task"] for r in payload["results"] if r["metric"] == "competence"] == ["is", "works_as"]

    same = project.runpytest("--model", "org/v-1.05", "--bias-baseline", "v1", *store)
    assert same.ret == 0
    same.stdout.fnmatch_lines(
        ["*biascheck baseline*", "*is.mean_abs_log_n*lower*1.000*1.050*+0.050*0.141*intervals*within noise*"]
    )

    summary = project.path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    worse = project.runpytest("--model", "org/v-2.0", "--bias-baseline", "v1", *store, "--junitxml", "junit.xml")
    assert worse.ret == pytest.ExitCode.TESTS_FAILED  # every probe test passed: the gate alone fails the run
    worse.assert_outcomes(passed=2, failed=2)  # one failing gate testcase per regressed metric
    worse.stdout.fnmatch_lines(
        [
            "*is.mean_abs_log_n*lower*1.000*2.000*+1.000*0.141*intervals*REGRESSED*",
            "*is.mean_abs_log_n (org/v-2.0) regressed beyond the noise against baseline 'v1': 1 → 2, noise ±0.141*",
            "If the change is intended, regenerate the baseline:",
            "  pytest --model org/v-2.0 --bias-store store.sqlite --bias-report out --junitxml junit.xml *"
            " --bias-baseline v1 --bias-baseline-regen",
        ]
    )
    md = summary.read_text()
    assert "## biascheck regression check against `v1`" in md and "2 metric(s) regressed" in md
    assert md.count("## biascheck regression check") == 1  # the job summary is summary.md: one verdict, one table
    # summary.md (what the action comments on a pull request) carries the verdict and every regression too
    comment = (project.path / "out" / "summary.md").read_text()
    assert "### biascheck gate: failed (exit status 1)" in comment
    assert "- pronoun_ratio.is.mean_abs_log_n (org/v-2.0) regressed beyond the noise against baseline 'v1'" in comment
    assert re.search(
        r"\| org/v-2.0 \| pronoun_ratio.is.mean_abs_log_n +\| lower +\| 1.000 +\| 2.000 +\| \+1.000 .*"
        r"\| REGRESSED",
        comment,
    )
    assert "--bias-baseline v1 --bias-baseline-regen`" in comment
    # the verdict is visible to tools that read only the files
    results = json.loads((project.path / "out" / "results.json").read_text())
    assert results["exit_status"] == 1 and results["schema_version"] == 3 and results["baseline"]["failed"]
    assert {c["status"] for c in results["baseline"]["comparisons"]} == {"regressed", "no noise estimate"}
    by_metric = {(r["task"], r["metric"]): r["regression"] for r in results["results"]}  # and on each result
    assert by_metric[("is", "mean_abs_log_n")] == {
        "status": "regressed",
        "baseline": 1.0,
        "change": 1.0,
        "noise": pytest.approx(0.141, abs=1e-3),
        "noise_source": "intervals",  # the rule that gave the noise: paired, intervals or fluctuation
    }
    junit = (project.path / "junit.xml").read_text()
    assert 'failures="2"' in junit and "pronoun_ratio.is.mean_abs_log_n" in junit
    assert "regressed beyond the noise" in junit
    assert "| org/v-2.0 " in md and (project.path / "out" / "baseline.md").read_text().startswith(
        "## biascheck regression"
    )

    regen = project.runpytest("--model", "org/v-2.0", "--bias-baseline", "v1", "--bias-baseline-regen", *store)
    assert regen.ret == 0
    regen.stdout.fnmatch_lines(["*baseline 'v1' replaced by this run*"])
    assert [r["value"] for r in saved(project)["results"] if r["metric"] == "mean_abs_log_n"][0] == 2.0
    assert project.runpytest("--model", "org/v-2.0", "--bias-baseline", "v1", *store).ret == 0


def test_missing_baseline_says_how_to_create_it(project):
    result = project.runpytest(
        "--model", "org/v-1.0", "--bias-baseline", "release-1", "--bias-store", "store.sqlite", "--bias-report", "none"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR  # fails closed, and before any model loads
    assert "test session starts" not in result.stdout.str()  # nothing ran
    result.stderr.fnmatch_lines(
        [
            "*baseline 'release-1' is not in the store store.sqlite: the run would compare nothing, so it stops "
            "before any model loads. Saved runs: none. Create it from this run with:",
            "  pytest --model org/v-1.0 --bias-store store.sqlite --bias-report none *"
            " --bias-baseline release-1 --bias-baseline-regen",
        ]
    )
    project.runpytest(
        "--model",
        "org/v-1.0",
        "--bias-baseline",
        "release-1",
        "--bias-baseline-regen",
        "--bias-store",
        "store.sqlite",
        "--bias-report",
        "none",
    )
    assert saved(project, "release-1")["results"][0]["value"] == 1.0


def test_saving_over_an_existing_name_is_refused_before_the_run(project):
    args = ["--model", "org/v-1.0", "--bias-save", "v1", "--bias-store", "store.sqlite", "--bias-report", "none"]
    assert project.runpytest(*args).ret == 0
    again = project.runpytest(*args)
    assert again.ret == pytest.ExitCode.USAGE_ERROR
    again.stderr.fnmatch_lines(
        ["*--bias-save v1: a run with that name is already in store.sqlite*--bias-baseline-regen*"]
    )
    alone = project.runpytest("--model", "org/v-1.0", "--bias-baseline-regen", "--bias-report", "none")
    assert alone.ret == pytest.ExitCode.USAGE_ERROR
    alone.stderr.fnmatch_lines(["*--bias-baseline-regen needs --bias-baseline NAME*"])


def test_a_gate_option_in_a_run_where_no_probe_recorded_a_result_fails_it(project):
    """-k that matches only a user's own tests kept beside the probes: each gate option was ignored (exit 0,
    nothing compared, nothing saved). Now the run fails with which option, what the selection matched and
    how to fix it; a noise band without a baseline to judge is a usage error at the start."""
    project.makepyfile(test_mine="def test_mine():\n    pass\n")
    store = ["--bias-store", "store.sqlite", "--bias-report", "none"]
    assert project.runpytest("--model", "org/v-1.0", "--bias-save", "v1", *store, "-k", "probe").ret == 0
    for options in (
        ["--bias-baseline", "v1"],
        ["--bias-save", "v2"],
        ["--bias-baseline", "v1", "--bias-noise", "v1"],
        ["--bias-baseline", "v1", "--bias-baseline-regen"],
    ):
        got = project.runpytest("--model", "org/v-1.0", *options, *store, "-k", "mine", "--junitxml", "j.xml")
        assert got.ret == pytest.ExitCode.TESTS_FAILED, options
        got.assert_outcomes(passed=1, failed=1)
        assert 'name="no-results"' in (project.path / "j.xml").read_text()
    got.stdout.fnmatch_lines(
        [
            "--bias-baseline v1 --bias-baseline-regen: no probe test recorded a result, so nothing was compared with"
            " a baseline or saved, and the gate cannot pass. The selection matched 1 test(s), none of them a probe"
            " test (-k 'mine'; 2 deselected). Select at least one probe test *or leave out --bias-baseline,"
            " --bias-baseline-regen in a run that measures nothing."
        ]
    )
    assert not ResultStore(project.path / "store.sqlite").has_run("v2")
    noise = project.runpytest("--model", "org/v-1.0", "--bias-noise", "v1", *store)
    assert noise.ret == pytest.ExitCode.USAGE_ERROR
    noise.stderr.fnmatch_lines(["*--bias-noise v1 needs --bias-baseline NAME*"])


def test_a_run_that_records_nothing_replaces_the_previous_report(project):
    """A red run that recorded no result used to leave the previous run's green results.json (exit_status 0),
    summary.md, report.html and baseline.md in the report directory. Now it writes its own report (no
    results, the verdict and why); a green run of other tests alone, with no gate option, is no biascheck
    run and leaves the report alone, and a red one replaces it (never an older green report beside it)."""
    project.makepyfile(test_mine="def test_mine():\n    pass\n")
    store = ["--bias-store", "store.sqlite", "--bias-report", "out"]
    out = project.path / "out"

    def report():
        return json.loads((out / "results.json").read_text())

    assert project.runpytest("--model", "org/v-1.0", "--bias-save", "v1", *store, "-k", "probe").ret == 0
    green = ["--model", "org/v-1.0", "--bias-baseline", "v1", *store, "-k", "probe"]
    assert project.runpytest(*green).ret == 0 and (out / "baseline.md").is_file()
    assert project.runpytest("--model", "org/v-1.0", *store, "-k", "mine").ret == 0
    assert report()["exit_status"] == 0 and report()["results"]  # untouched
    red = project.runpytest("--model", "org/v-1.0", "--bias-baseline", "v1", *store, "-k", "mine")
    assert red.ret == pytest.ExitCode.TESTS_FAILED
    assert report()["exit_status"] == 1 and report()["results"] == []
    assert "no probe test recorded a result" in report()["baseline"]["failures"][0]
    summary = (out / "summary.md").read_text()
    assert "### biascheck gate: failed (exit status 1)" in summary and "This run recorded no result" in summary
    assert "--bias-baseline v1: no probe test recorded a result" in summary
    assert '<span class="badge fail">' in (out / "report.html").read_text()
    assert not (out / "baseline.md").exists() and not (out / "plots").exists()
    assert project.runpytest(*green).ret == 0 and report()["exit_status"] == 0
    project.makepyfile(test_mine="def test_mine():\n    assert False\n")
    assert project.runpytest("--model", "org/v-1.0", *store, "-k", "mine").ret == pytest.ExitCode.TESTS_FAILED
    assert report()["exit_status"] == 1 and report()["results"] == []
    assert "a test failed or errored" in (out / "summary.md").read_text()


def test_model_list_sweep_is_saved_with_steps_and_seeds_and_gives_a_noise_band(project):
    (project.path / "sweep.csv").write_text("model,step,seed\norg/a-1.0,100,0\norg/b-1.4,200,0\norg/c-1.2,100,1\n")
    store = ["--bias-store", "store.sqlite", "--bias-report", "none"]
    sweep = project.runpytest("--model-list", "sweep.csv", "--bias-save", "sweep", *store, "-v")
    assert sweep.ret == 0
    sweep.stdout.fnmatch_lines(["*test_probe[[]org/a-1.0-is[]]*", "*test_probe[[]org/c-1.2-works_as[]]*"])
    payload = saved(project, "sweep")
    assert payload["checkpoints"] == [
        {"model": "org/a-1.0", "step": 100, "seed": "0"},
        {"model": "org/b-1.4", "step": 200, "seed": "0"},
        {"model": "org/c-1.2", "step": 100, "seed": "1"},
    ]
    # against the sweep, a new checkpoint is judged by the sweep's mean (1.2) and spread (1.96 * SD = 0.392)
    new = project.runpytest("--model", "org/new-1.55", "--bias-baseline", "sweep", *store)
    assert new.ret == 0
    new.stdout.fnmatch_lines(["*is.mean_abs_log_n*1.200*1.550*+0.350*0.392*fluctuation*within noise*"])
    project.runpytest("--model", "org/v-1.0", "--bias-save", "v1", *store)
    banded = project.runpytest("--model", "org/w-1.3", "--bias-baseline", "v1", "--bias-noise", "sweep", *store)
    assert banded.ret == 0
    banded.stdout.fnmatch_lines(["*is.mean_abs_log_n*1.000*1.300*0.392*fluctuation*within noise*"])
    assert (
        project.runpytest("--model", "org/w-1.3", "--bias-baseline", "v1", *store).ret == pytest.ExitCode.TESTS_FAILED
    )


def test_xdist_workers_results_reach_the_controller_and_the_store(project):
    pytest.importorskip("xdist")
    result = project.runpytest_subprocess(
        "-n",
        "2",
        "--dist",
        "loadgroup",
        "-v",
        "-p",
        "no:cacheprovider",
        "--model",
        "org/a-1.0",
        "--model",
        "org/b-2.0",
        "--bias-save",
        "par",
        "--bias-store",
        "store.sqlite",
        "--bias-report",
        "out",
    )
    assert result.ret == 0
    workers = {}  # model -> the workers that ran its tests: one each (xdist_group per model)
    for worker, model in re.findall(r"\[(gw\d)\] .*PASSED.*test_probe\[(org/.-[0-9.]+)-", result.stdout.str()):
        workers.setdefault(model, set()).add(worker)
    assert sorted(workers) == ["org/a-1.0", "org/b-2.0"] and all(len(w) == 1 for w in workers.values())
    result.stdout.fnmatch_lines(["*biascheck summary*", "*saved this run as 'par'*"])
    assert result.stdout.str().count("pronoun_ratio · org/") == 2
    data = json.loads((project.path / "out" / "results.json").read_text())
    assert sorted({(r["model"], r["task"]) for r in data["results"]}) == [
        ("org/a-1.0", "is"),
        ("org/a-1.0", "works_as"),
        ("org/b-2.0", "is"),
        ("org/b-2.0", "works_as"),
    ]
    assert len(data["results"]) == 8 + 4 and data["profile"]["files"]  # 2 competence results per model
    assert {(t["model"], t["stage"]) for t in data["timings"]} >= {(m, "other") for m in ("org/a-1.0", "org/b-2.0")}
    assert len(saved(project, "par")["results"]) == 8 + 4
    with sqlite3.connect(project.path / "store.sqlite") as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_mistyped_baseline_fails_and_names_the_close_match(project):
    store = ["--bias-store", "store.sqlite", "--bias-report", "none"]
    assert project.runpytest("--model", "org/v-1.0", "--bias-save", "release-1", *store).ret == 0
    typo = project.runpytest("--model", "org/v-1.0", "--bias-baseline", "relase-1", *store)
    assert typo.ret == pytest.ExitCode.USAGE_ERROR
    typo.stderr.fnmatch_lines(["*baseline 'relase-1' is not in the store store.sqlite: Did you mean 'release-1'?*"])


def test_a_failed_run_is_never_a_baseline(project):
    store = ["--bias-store", "store.sqlite", "--bias-report", "none"]
    (project.path / "thresholds" / "default.toml").write_text(
        '[pronoun_ratio.mean_abs_log_n]\nmax = 1.5\nwhy = "test"\n'
    )
    failing = project.runpytest("--model", "org/v-2.0", "--bias-save", "bad", *store)
    assert failing.ret == pytest.ExitCode.TESTS_FAILED and saved(project, "bad")["exit_status"] == 1
    against = project.runpytest("--model", "org/v-1.0", "--bias-baseline", "bad", *store)
    assert against.ret == pytest.ExitCode.USAGE_ERROR  # before any model loads
    against.stderr.fnmatch_lines(["*baseline 'bad' was saved from a run that failed (exit status 1)*"])
    assert project.runpytest("--model", "org/v-1.0", "--bias-save", "good", *store).ret == 0
    regen = project.runpytest("--model", "org/v-2.0", "--bias-baseline", "good", "--bias-baseline-regen", *store)
    assert regen.ret == pytest.ExitCode.TESTS_FAILED
    regen.stdout.fnmatch_lines(["*this run failed (exit status 1), so it does not replace baseline 'good'*"])
    assert saved(project, "good")["results"][0]["value"] == 1.0  # untouched


def test_a_metric_missing_from_the_new_run_fails_the_gate(project):
    store = ["--bias-store", "store.sqlite", "--bias-report", "none"]
    assert project.runpytest("--model", "org/v-1.0", "--bias-save", "v1", *store).ret == 0
    fewer = project.runpytest("--model", "org/v-1.0", "--bias-baseline", "v1", "-k", "is", *store)
    assert fewer.ret == pytest.ExitCode.TESTS_FAILED
    fewer.stdout.fnmatch_lines(
        ["*pronoun_ratio.works_as.mean_abs_log_n (org/v-1.0) is in baseline 'v1' but this run did not measure it*"]
    )


def test_a_baseline_that_is_not_comparable_is_refused_unless_allowed(project):
    store = ["--bias-store", "store.sqlite", "--bias-report", "out"]
    assert project.runpytest("--model", "org/v-1.0", "--bias-save", "v1", *store).ret == 0
    other = project.runpytest("--model", "org/v-1.0", "--bias-baseline", "v1", "--batch-size", "8", *store)
    assert other.ret == pytest.ExitCode.TESTS_FAILED
    other.stdout.fnmatch_lines(
        ["*this run is not comparable with baseline 'v1': batch size: auto vs 8. *--bias-allow-mismatch*"]
    )
    allowed = project.runpytest(
        "--model", "org/v-1.0", "--bias-baseline", "v1", "--batch-size", "8", "--bias-allow-mismatch", *store
    )
    assert allowed.ret == 0
    allowed.stdout.fnmatch_lines(
        ["*compared despite these differences (--bias-allow-mismatch): batch size: auto vs 8*"]
    )
    results = json.loads((project.path / "out" / "results.json").read_text())
    assert results["baseline"]["mismatches_allowed"] == ["batch size: auto vs 8"]


def test_a_partial_run_becomes_a_baseline_only_when_asked_and_covers_only_what_it_measured(project):
    """A -k run was accepted as the baseline, and every metric it lacked was 'new', never judged."""
    store = ["--bias-store", "store.sqlite", "--bias-report", "out"]
    assert project.runpytest("--model", "org/v-1.0", "--bias-save", "v1", *store).ret == 0
    partial = ["--model", "org/v-1.0", "-k", "is", "--bias-baseline", "v1", "--bias-baseline-regen", *store]
    refused = project.runpytest(*partial)
    assert refused.ret == pytest.ExitCode.TESTS_FAILED
    refused.stdout.fnmatch_lines(
        ["*this run is partial (-k 'is'), so it does not become baseline 'v1' without --bias-accept-partial*"]
    )
    assert len(saved(project)["results"]) == 4 + 2  # untouched (4 metrics, 2 competence results)
    accepted = project.runpytest(*partial, "--bias-accept-partial")
    assert accepted.ret == 0
    accepted.stdout.fnmatch_lines(
        [
            "*baseline 'v1' replaced by this run in store.sqlite; it covers 1 task(s) of "
            "probes pronoun_ratio*; selection: -k 'is'; paths . (PARTIAL: -k 'is')*"
        ]
    )
    assert saved(project)["coverage"]["selection"]["-k"] == "is"
    # works_as regressed (1.0 -> 2.0) but the partial baseline does not cover it: red, not "new"
    full = project.runpytest("--model", "org/v-2.0", "--bias-baseline", "v1", "-k", "works_as", *store)
    assert full.ret == pytest.ExitCode.TESTS_FAILED
    full.stdout.fnmatch_lines(
        [
            "*2 metric(s) that this run measured on org/v-2.0 are not in baseline 'v1' "
            "(pronoun_ratio.works_as.*): the baseline does not cover them*"
        ]
    )


def test_the_noise_band_comes_only_from_a_sweep_of_one_model(project):
    """A run of two unrelated models gave a band that hid a regression."""
    store = ["--bias-store", "store.sqlite", "--bias-report", "none"]
    assert project.runpytest("--model", "org/v-1.0", "--bias-save", "v1", *store).ret == 0
    assert project.runpytest("--model", "org/a-1.0", "--model", "org/b-1.4", "--bias-save", "two", *store).ret == 0
    hidden = project.runpytest("--model", "org/w-1.3", "--bias-baseline", "v1", "--bias-noise", "two", *store)
    assert hidden.ret == pytest.ExitCode.TESTS_FAILED
    hidden.stdout.fnmatch_lines(
        ["*noise run 'two' is not a sweep: its models (org/a-1.0, org/b-1.4) were not run from a --model-list*"]
    )


def test_a_model_dropped_from_a_several_model_baseline_fails_the_gate(project):
    """Metrics were keyed by probe.task.metric only, so b's were 'measured' by a."""
    store = ["--bias-store", "store.sqlite", "--bias-report", "none"]
    assert project.runpytest("--model", "org/a-1.0", "--model", "org/b-1.0", "--bias-save", "v1", *store).ret == 0
    dropped = project.runpytest("--model", "org/a-1.0", "--bias-baseline", "v1", *store)
    assert dropped.ret == pytest.ExitCode.TESTS_FAILED
    dropped.stdout.fnmatch_lines(
        ["*pronoun_ratio.is.mean_abs_log_n (org/b-1.0) is in baseline 'v1' but this run did not measure it*"]
    )


def test_a_baseline_of_another_schema_or_other_resolved_thresholds_is_refused(project):
    """The schema_version was never checked; the profile was compared by its name."""
    from biascheck.gate.store import ResultStore

    store = ["--bias-store", "store.sqlite", "--bias-report", "none"]
    assert project.runpytest("--model", "org/v-1.0", "--bias-save", "v1", *store).ret == 0
    ResultStore(project.path / "store.sqlite").save_run("old", {**saved(project), "schema_version": 2})
    old = project.runpytest("--model", "org/v-1.0", "--bias-baseline", "old", *store)
    assert old.ret == pytest.ExitCode.USAGE_ERROR
    old.stderr.fnmatch_lines(
        ["*baseline 'old' was saved with results schema 2 (biascheck *); this biascheck reads schema 3*"]
    )
    (project.path / "thresholds" / "default.toml").write_text('[pronoun_ratio.mean_abs_log_n]\nmax = 5\nwhy = "t"\n')
    edited = project.runpytest("--model", "org/v-1.0", "--bias-baseline", "v1", *store)
    assert edited.ret == pytest.ExitCode.TESTS_FAILED
    edited.stdout.fnmatch_lines(
        [
            "*not comparable with baseline 'v1': threshold profile: default (thresholds sha256 "
            "*) vs default (*): the resolved thresholds differ*"
        ]
    )


def _suggested(result, after):
    """The command printed on the line after the one that matches `after`, as pytest arguments."""
    import shlex

    lines = result.stdout.lines
    at = next(i for i, line in enumerate(lines) if re.search(after, line))
    command = shlex.split(lines[at + 1])
    assert command[0] == "pytest"
    return command[1:]


def test_saving_a_failed_run_says_at_once_it_cannot_be_a_baseline_and_what_makes_one(project):
    """A failed run was saved under the baseline name without a word; the next run was refused and suggested a
    regeneration that the same failure refused again."""
    store = ["--bias-store", "store.sqlite", "--bias-report", "out"]
    (project.path / "thresholds" / "default.toml").write_text('[pronoun_ratio.mean_abs_log_n]\nmax = 1.5\nwhy = "t"\n')
    failing = project.runpytest("--model", "org/v-2.0", "--bias-save", "baseline", *store)
    assert failing.ret == pytest.ExitCode.TESTS_FAILED
    failing.stdout.fnmatch_lines(
        [
            "*WARNING: run 'baseline' was saved, but it failed (exit status 1), so it cannot be a baseline or a noise "
            "run*It failed (2 result(s) outside their thresholds: pronoun_ratio.is.mean_abs_log_n (org/v-2.0) = 2, "
            "pronoun_ratio.works_as.mean_abs_log_n (org/v-2.0) = 2)*"
            "fix those failures first*",
        ]
    )
    summary = (project.path / "out" / "summary.md").read_text()
    assert "- **warning:** run 'baseline' was saved, but it failed (exit status 1)" in summary
    command = _suggested(failing, "this makes it the baseline:$")
    assert command[-3:] == ["--bias-baseline", "baseline", "--bias-baseline-regen"] and "--bias-save" not in command

    again = project.runpytest("--model", "org/v-2.0", "--bias-baseline", "baseline", *store)
    assert again.ret == pytest.ExitCode.USAGE_ERROR
    again.stderr.fnmatch_lines(["*baseline 'baseline' was saved from a run that failed*fix those failures first*"])
    assert project.runpytest(*command).ret == pytest.ExitCode.TESTS_FAILED  # unfixed: still refused, as it said
    (project.path / "thresholds" / "default.toml").write_text('[pronoun_ratio.mean_abs_log_n]\nmax = 10\nwhy = "t"\n')
    fixed = project.runpytest(*command)  # the failure fixed (here: the threshold), the command it gave is accepted
    assert fixed.ret == 0
    assert saved(project, "baseline")["exit_status"] == 0


def test_a_partial_run_is_told_so_when_saved_and_its_suggested_regeneration_is_accepted(project):
    store = ["--bias-store", "store.sqlite", "--bias-report", "none"]
    part = project.runpytest("--model", "org/v-1.0", "-k", "is", "--bias-save", "part", *store)
    assert part.ret == 0
    part.stdout.fnmatch_lines(["*WARNING: run 'part' was saved, but it is partial (-k 'is')*"])
    command = _suggested(part, "to keep this one as it is:$")
    assert command[-1] == "--bias-accept-partial"
    assert project.runpytest(*command).ret == 0  # accepted: the partial run replaces 'part' on purpose
    # a partial run that regresses suggests a regeneration the gate accepts (with --bias-accept-partial)
    worse = project.runpytest("--model", "org/v-2.0", "-k", "is", "--bias-baseline", "part", *store)
    assert worse.ret == pytest.ExitCode.TESTS_FAILED
    command = _suggested(worse, "If the change is intended, regenerate the baseline:$")
    assert "--bias-accept-partial" in command
    assert project.runpytest(*command).ret == 0
    assert [r["value"] for r in saved(project, "part")["results"] if r["metric"] == "mean_abs_log_n"] == [2.0]


REAL_LM_PROBE = """
import pytest
pytestmark = pytest.mark.biascheck(probe="pronoun_ratio")

def test_probe(lm, bias):
    raise AssertionError("not reached: the random model cannot be measured")
"""


def test_a_baseline_of_another_model_is_refused_before_any_probe_runs(pytester, tiny_bert, mirror):
    """A run of one model against a baseline of another was refused only after every probe had run (7.7 min
    for SmolLM2 against a BERT baseline), without saying that the two are different models."""
    from biascheck.models import load_model
    from biascheck.results import SCHEMA_VERSION
    from biascheck.session import model_record

    pytester.makepyfile(test_probe=REAL_LM_PROBE)
    record = model_record(load_model(str(tiny_bert), device="cpu").info)
    other = {**record, "architecture": "LlamaForCausalLM", "family": "causal"}
    other["extra"] = {**record["extra"], "tokenizer_sha256": "0" * 64}
    for name, model in (("same", record), ("other", other)):
        run = {"schema_version": SCHEMA_VERSION, "exit_status": 0, "models": {"base": model}, "results": []}
        ResultStore(pytester.path / "store.sqlite").save_run(name, run)
    args = ["--model", str(tiny_bert), "--bias-store", "store.sqlite", "--bias-data", str(mirror), "--device", "cpu"]
    refused = pytester.runpytest(*args, "--bias-baseline", "other", "-p", "no:cacheprovider")
    assert refused.ret == pytest.ExitCode.USAGE_ERROR, refused.stdout.str()[-2000:]
    refused.stderr.fnmatch_lines(
        [
            "*not comparable with baseline 'other', found before any probe ran: * family: 'causal' vs 'masked'*"
            "These are different models (* is BertForMaskedLM, baseline model base is LlamaForCausalLM, with "
            "another tokenizer)*--bias-allow-mismatch*"
        ]
    )
    assert "no-results" not in refused.stdout.str() and not (pytester.path / "bias-report").exists()
    same = pytester.runpytest(*args, "--bias-baseline", "same", "-p", "no:cacheprovider")
    assert same.ret == pytest.ExitCode.TESTS_FAILED  # the same model: its tests ran (the random one is red)
    assert "found before any probe ran" not in same.stderr.str() + same.stdout.str()
    same.stdout.fnmatch_lines(["*ERROR at setup of test_probe*", "cannot measure: *"])
