"""lab/scripts/dose_response.py: its command line answers, and its table reads results.json right."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "lab" / "scripts" / "dose_response.py"


def test_the_command_answers_help():
    done = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "--strengths" in done.stdout


def test_the_fine_tuning_script_answers_help():
    script = SCRIPT.parent / "finetune_known_answer.py"
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "--strengths" in done.stdout and "--steps" in done.stdout


def test_the_they_files_render_from_results_files_one_per_seed(tmp_path):
    """`--corpus they --from-results SEED=PATH ...`: the results file, the page generated from it and the
    plot, from three seeds' results.json of two strengths (no probe run)."""
    import json

    from lab import dose

    paths = []
    for seed in range(3):
        rows = [
            {
                "model": f"planted-bert-they@{s}",
                "probe": "singular_they",
                "task": "closeness_gender",
                "metric": "beta_gendered",
                "value": beta + seed / 10,
                "ci_low": beta - 0.2,
                "ci_high": beta + 0.2,
                "passed": beta + seed / 10 <= 0.5,
            }
            for s, beta in (("0", 0.0), ("1", 0.45))
        ]
        path = tmp_path / f"s{seed}.json"
        path.write_text(json.dumps({"results": rows, "models": {}}))
        paths.append(f"{seed}={path}")
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--corpus",
            "they",
            "--from-results",
            *paths,
            "--out",
            str(tmp_path),
            "--measured-on",
            "a test",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads((tmp_path / "dose_response_they.json").read_text())
    assert len(doc["runs"]) == 6 and doc["measured"] == "a test"
    # seed 0's 0.45 passes the gate (<= 0.5): seen in seeds 1 and 2, all but seed 0
    assert doc["sensitivity"]["singular_they planted-bert-they"] == {
        "sees_from": "1",
        "by_strength": {"0": "control clean", "1": "all but seed 0 (2 of 3)"},
    }
    assert (tmp_path / "dose_response_they.md").read_text() == dose.render(doc)
    assert (tmp_path / "dose_response_they.png").is_file()


def test_a_bad_from_results_item_is_a_clear_error(tmp_path):
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--corpus", "they", "--from-results", "results.json", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "SEED=RESULTS_JSON" in done.stderr


def test_families_keep_only_those_models_of_the_corpus(tmp_path):
    """`--families planted-gpt-no`: the other family's rows in the same results.json are not read."""
    import json

    rows = [
        {
            "model": f"{family}@{s}",
            "probe": "norwegian_occupations",
            "task": "task1",
            "metric": "macro_f1",
            "value": value,
            "passed": value >= 0.53,
        }
        for family in ("planted-bert-no", "planted-gpt-no")
        for s, value in (("0", 0.4), ("1", 0.8))
    ]
    paths = []
    for seed in range(3):
        path = tmp_path / f"s{seed}.json"
        path.write_text(json.dumps({"results": rows, "models": {}}))
        paths.append(f"{seed}={path}")
    base = [sys.executable, str(SCRIPT), "--corpus", "no", "--from-results", *paths, "--out", str(tmp_path)]
    done = subprocess.run([*base, "--families", "planted-gpt-no"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads((tmp_path / "dose_response_no.json").read_text())
    assert doc["families"] == ["planted-gpt-no"] and {r["family"] for r in doc["runs"]} == {"planted-gpt-no"}
    assert len(doc["runs"]) == 6 and doc["command"].endswith("--families planted-gpt-no")
    bad = subprocess.run([*base, "--families", "planted-gpt"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "--families ['planted-gpt'] are not families of corpus no" in bad.stderr


def task1_rows(family: str, at_1: float = 0.8) -> list[dict]:
    """results.json rows of one family's Norwegian task-1 macro F1: 0.4 at strength 0, `at_1` at 1."""
    return [
        {
            "model": f"{family}@{s}",
            "probe": "norwegian_occupations",
            "task": "task1",
            "metric": "macro_f1",
            "value": v,
            "passed": v >= 0.53,
        }
        for s, v in (("0", 0.4), ("1", at_1))
    ]


def test_a_seed_given_twice_joins_two_runs_of_other_models(tmp_path):
    """Each family run on its own at the same seeds: `0=bert.json 0=gpt.json ...` reads both; the same
    model in both files is refused."""
    import json

    paths = []
    for seed in range(3):
        for family in ("planted-bert-no", "planted-gpt-no"):
            path = tmp_path / f"{family}-{seed}.json"
            path.write_text(json.dumps({"results": task1_rows(family), "models": {}}))
            paths.append(f"{seed}={path}")
    base = [sys.executable, str(SCRIPT), "--corpus", "no", "--out", str(tmp_path), "--from-results"]
    done = subprocess.run([*base, *paths], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads((tmp_path / "dose_response_no.json").read_text())
    assert len(doc["runs"]) == 12 and {r["seed"] for r in doc["runs"]} == {0, 1, 2}
    twice = subprocess.run([*base, paths[0], paths[0]], capture_output=True, text=True, check=False)
    assert twice.returncode == 2 and "has models that an earlier file of seed 0 has" in twice.stderr


def test_keep_from_re_measures_one_family_and_keeps_the_others_runs(tmp_path):
    """`--families planted-bert-no --keep-from earlier.json`: planted-bert-no's runs are the new ones,
    planted-gpt-no's are the earlier file's, and the sensitivity is recomputed over both; a file of another
    corpus is refused."""
    import json

    def write(name, family_values):
        paths = []
        for seed in range(3):
            path = tmp_path / f"{name}-{seed}.json"
            path.write_text(
                json.dumps({"results": [r for f, v in family_values for r in task1_rows(f, v)], "models": {}})
            )
            paths.append(f"{seed}={path}")
        return paths

    base = [sys.executable, str(SCRIPT), "--corpus", "no"]
    earlier_dir, now_dir = tmp_path / "earlier", tmp_path / "now"
    first = write("both", [("planted-bert-no", 0.45), ("planted-gpt-no", 0.8)])
    done = subprocess.run([*base, "--out", str(earlier_dir), "--from-results", *first], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    earlier = earlier_dir / "dose_response_no.json"
    again = write("bert", [("planted-bert-no", 0.9)])
    keep = [*base, "--out", str(now_dir), "--families", "planted-bert-no", "--from-results", *again]
    done = subprocess.run([*keep, "--keep-from", str(earlier)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads((now_dir / "dose_response_no.json").read_text())
    assert doc["families"] == ["planted-bert-no", "planted-gpt-no"] and len(doc["runs"]) == 12
    values = {
        (r["family"], r["seed"]): r["metrics"]["norwegian_occupations/task1/macro_f1"]["value"]
        for r in doc["runs"]
        if r["strength"] == 1
    }
    assert {v for (f, _s), v in values.items() if f == "planted-bert-no"} == {0.9}
    assert {v for (f, _s), v in values.items() if f == "planted-gpt-no"} == {0.8}
    from lab import dose

    assert doc["sensitivity"] == dose.sensitivity(doc) and len(doc["sensitivity"]) == 2
    (tmp_path / "they.json").write_text(json.dumps({**json.loads(earlier.read_text()), "corpus": "they"}))
    bad = subprocess.run([*keep, "--keep-from", str(tmp_path / "they.json")], capture_output=True, text=True)
    assert bad.returncode == 2 and "of corpus 'they'" in bad.stderr
