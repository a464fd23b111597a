"""Each option's validation, through a real pytest run (pytester), as a user would see it."""

import pytest


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model", "nb-bert-larg"], "Did you mean 'nb-bert-large'"),
        (["--device", "gpu"], "'gpu' is not a device"),
        (["--device", "cuda:x"], "Use auto, cpu, cuda, cuda:N or mps"),
        (["--dtype", "fp16"], "'fp16' is not a dtype"),
        (["--batch-size", "0"], "use 'auto' or a positive integer"),
        (["--bias-data", "/no/such/dir"], "is not a directory"),
        (["--bias-tier", "quik"], "'quik' is not a tier. Did you mean 'quick'?"),
    ],
)
def test_bad_option_values_are_usage_errors(pytester, args, message):
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{message}*"])


def test_a_report_directory_that_cannot_be_written_stops_the_run_before_it_starts(pytester):
    """Found out at the start, not after every probe has run (the report is written last)."""
    pytester.makepyfile(test_x="def test_x():\n    pass\n")
    (pytester.path / "afile").write_text("x")
    result = pytester.runpytest("--bias-report", "afile")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--bias-report afile: that is a file; name a directory*"])
    (pytester.path / "ro").mkdir()
    unwritable = pytester.path / "ro" / "fileparent"
    unwritable.write_text("x")
    result = pytester.runpytest("--bias-report", str(unwritable / "out"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--bias-report *fileparent/out: the report cannot be written there*"])
    fresh = pytester.runpytest("--bias-report", "new/dir")
    assert fresh.ret == pytest.ExitCode.OK and not (pytester.path / "new").exists()  # made when a report is written


def test_help_lists_every_option(pytester):
    result = pytester.runpytest("--help")
    for option in (
        "--model",
        "--device",
        "--dtype",
        "--batch-size",
        "--bias-profile",
        "--bias-report",
        "--bias-data",
        "--bias-any-language",
    ):
        result.stdout.fnmatch_lines([f"*{option}*"])


def test_importing_the_plugin_does_not_import_torch(pytester):
    """Nor scipy.stats through what the end of every run reads (the report, the gate's comparison, the CLI):
    a run or a command that computes no interval does not pay for it (`biascheck.stats` docstring)."""
    pytester.makepyfile(
        test_x="""
import sys
def test_no_torch():
    import biascheck.plugin, biascheck.catalog, biascheck.session
    assert "torch" not in sys.modules and "transformers" not in sys.modules
    import biascheck.report.summary, biascheck.gate.baseline, biascheck.gate.paired, biascheck.cli
    assert "scipy.stats" not in sys.modules
"""
    )
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model-arg", "revison=main"], "unknown key 'revison'. Did you mean 'revision'?"),
        (["--model-arg", "trust_remote_code=maybe"], "use trust_remote_code=true or false"),
        (["--model-arg", "revision"], "use KEY=VALUE"),
        (["--model-arg", "revision=a", "--model-arg", "revision=b"], "revision given twice"),
    ],
)
def test_bad_model_args_are_usage_errors(pytester, args, message):
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{message}*"])


def test_a_path_after_model_with_a_space_is_not_taken_for_the_rootdir(pytester, tmp_path_factory):
    """pytest settles its rootdir before biascheck's options are known, so `--model /ckpt` (no test
    path) would make /ckpt the rootdir and skip the project's config; the run stops and says to write
    `--model=/ckpt`, which is read right."""
    pytester.makefile(".toml", pyproject="[tool.pytest.ini_options]\nmarkers = []\n")
    pytester.makepyfile(test_x="def test_x():\n    pass\n")
    checkpoint = tmp_path_factory.mktemp("checkpoint")
    spaced = pytester.runpytest_subprocess("--model", str(checkpoint), "--collect-only")
    assert spaced.ret == pytest.ExitCode.USAGE_ERROR
    spaced.stderr.fnmatch_lines(
        [f"*as its rootdir (config file: none)*the rootdir is {pytester.path} **--model=/path/to/checkpoint*"]
    )
    joined = pytester.runpytest_subprocess(f"--model={checkpoint}", "--collect-only")
    assert joined.ret == pytest.ExitCode.OK
    joined.stdout.fnmatch_lines([f"rootdir: {pytester.path}*", "*1 test collected*"])
    named = pytester.runpytest_subprocess("test_x.py", "--model", str(checkpoint), "--collect-only")
    assert named.ret == pytest.ExitCode.OK


def test_a_model_list_naming_a_missing_directory_is_a_usage_error(pytester):
    """It was an INTERNALERROR traceback (exit 3) once the probes were collected; now the list's entry is
    checked as --model is, and the message names the file, the entry and where it was looked for."""
    probe = "import pytest\npytestmark = pytest.mark.biascheck(probe='pronoun_ratio')\n\ndef test_x(lm):\n    pass\n"
    pytester.makepyfile(test_probe=probe)
    (pytester.path / "list.csv").write_text("model,step,seed\n./gone,100,0\n")
    result = pytester.runpytest_subprocess("--model-list", "list.csv", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*--model-list list.csv: entry 1 names './gone', which is not a model directory*"
            f"beside the list ({pytester.path})*Fix the entry*"
        ]
    )
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


def test_a_bad_threshold_profile_under_xdist_is_the_same_usage_error(pytester):
    """Under -n N the controller collects nothing; the profile was checked on the workers only, whose usage
    error crashed them (INTERNALERROR, exit 3) and never showed the profile's message."""
    pytest.importorskip("xdist")
    probe = "import pytest\npytestmark = pytest.mark.biascheck(probe='pronoun_ratio')\n\ndef test_x(lm):\n    pass\n"
    pytester.makepyfile(test_probe=probe)
    (pytester.path / "bad.toml").write_text("[pronoun_ratio.nope]\nmax = 1\n")
    for workers in ([], ["-n", "2"]):
        result = pytester.runpytest_subprocess("--bias-profile", "bad.toml", "-p", "no:cacheprovider", *workers)
        assert result.ret == pytest.ExitCode.USAGE_ERROR, workers
        result.stderr.fnmatch_lines(["*bad.toml: pronoun_ratio.nope: neither a metric nor a task of probe*"])
        assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


@pytest.mark.parametrize("use", [["--bias-save", "v1"], ["--bias-baseline", "v1"]])
def test_a_store_that_cannot_be_created_stops_the_run_before_it_starts(pytester, use):
    """--bias-store /dev/null/x.sqlite was a FileExistsError traceback: at the start with --bias-save (exit
    3), after every probe had run with --bias-baseline. A store that is not used is not checked."""
    pytester.makepyfile(test_x="def test_x():\n    pass\n")
    (pytester.path / "afile").write_text("x")
    for store in ("/dev/null/x.sqlite", "afile/x.sqlite"):
        result = pytester.runpytest_subprocess("--bias-store", store, *use, "-p", "no:cacheprovider")
        assert result.ret == pytest.ExitCode.USAGE_ERROR, store
        result.stderr.fnmatch_lines([f"*--bias-store {store}: the results store cannot be created there (*"])
        assert "Traceback" not in result.stdout.str() + result.stderr.str()
    result = pytester.runpytest_subprocess("--bias-store", ".", *use, "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--bias-store .: that is a directory; name the SQLite file*"])
    assert pytester.runpytest_subprocess("--bias-store", "/dev/null/x.sqlite", "-p", "no:cacheprovider").ret == 0
