"""The planted-releases page (`lab.release_answer`) on runs made by hand: a plant that moves a share by 0.06 is
flagged by the paired rule and not by the unpaired one, a control that changes nothing and the repeated run are
flagged by neither, and the page names each rule's verdict."""

import numpy as np
import pytest

from biascheck.stats import bootstrap_ci
from lab import release_answer as ra

RECIPE = {"statistic": "share_positive", "fields": ["diff"], "cluster": "pair", "items_of": None, "where": []}


def run(model: str, diffs: np.ndarray) -> dict:
    share = (diffs > 0).astype(float)
    low, high = bootstrap_ci(np.mean, share)
    record = {
        "model": model, "probe": "p", "task": "all", "metric": "share", "value": float(share.mean()),
        "ci_low": low, "ci_high": high, "n": len(diffs), "better": "target", "target": 0.5,
        "paired": RECIPE, "items": [{"pair": i, "diff": round(float(d), 4)} for i, d in enumerate(diffs)],
    }  # fmt: skip
    return {"models": {model: {}}, "results": [record]}


def both(first: dict, second: dict) -> dict:
    return {"models": {**first["models"], **second["models"]}, "results": first["results"] + second["results"]}


@pytest.fixture(scope="module")
def doc():
    base = np.random.default_rng(0).normal(0.1, 1.0, size=262)
    plant = base.copy()
    plant[np.flatnonzero(base < 0)[:16]] *= -1  # 16 of 262 pairs turn the stereotype's way: +0.061
    control = base + 0.01  # every pair a little: two of 262 cross zero (+0.008)
    candidates = [
        (ra.Candidate("base", "again", "repeat"), run("base", base)),
        (ra.Candidate("ctl", "control", "control", 0.0, 0), run("ctl", control)),
        (ra.Candidate("plt", "plant", "plant", 1.0, 0), run("plt", plant)),
        # a release against another model of its own run: the plant's 16 pairs turn back, towards the target of
        # 0.5, an improvement the paired rule sees
        (
            ra.Candidate("ctl", "ctl vs plt", "control", 0.0, 1, baseline="plt"),
            both(run("ctl", control), run("plt", plant)),
        ),
    ]
    return ra.releases("p", run("base", base), "base", candidates)


def test_the_paired_rule_flags_the_plant_the_unpaired_rule_misses(doc):
    plant = doc["candidates"][2]
    metric = plant["metrics"]["all.share"]
    assert metric["change"] == pytest.approx(16 / 262)
    assert metric["paired"]["source"] == "paired" and metric["unpaired"]["source"] == "intervals"
    assert metric["paired"]["noise"] < metric["change"] < metric["unpaired"]["noise"], metric
    assert plant["flagged"] == {"paired": ["all.share"], "unpaired": []}


def test_no_control_and_no_repeat_is_flagged_and_the_page_says_so(doc):
    assert [row["flagged"] for row in doc["candidates"][:2]] == [{"paired": [], "unpaired": []}] * 2
    against_plant = doc["candidates"][3]
    assert against_plant["baseline"] == "plant" and against_plant["metrics"]["all.share"]["change"] < -0.05
    assert against_plant["metrics"]["all.share"]["paired"]["status"] == "improved"
    assert doc["candidates"][0]["metrics"]["all.share"]["change"] == 0
    assert ra.problems(doc) == []
    page = ra.markdown(doc, "cmd")
    assert "| plant | plant | +0.061 | 16 / 0 of 262 |" in page and "Problems: none" in page
    assert doc["candidates"][1]["metrics"]["all.share"]["turned"] == {"up": 2, "down": 0, "n": 262, "clusters": 262}


@pytest.mark.parametrize("band, flagged", [(0.1, []), (0.02, ["all.share"])])
def test_the_banded_rule_takes_the_larger_of_the_paired_noise_and_the_controls_band(band, flagged):
    """The plant's +0.061 is beyond its paired noise: a band of 0.1 (controls that differ by more) hides it, one
    of 0.02 (narrower than the paired noise) changes nothing."""
    base = np.random.default_rng(0).normal(0.1, 1.0, size=262)
    plant = base.copy()
    plant[np.flatnonzero(base < 0)[:16]] *= -1
    candidates = [(ra.Candidate("plt", "plant", "plant", 1.0, 0), run("plt", plant))]
    found = ra.releases("p", run("base", base), "base", candidates, bands={"p.all.share": band})
    assert found["rules"] == ["paired", "unpaired", ra.BANDED]
    row = found["candidates"][0]
    assert row["flagged"][ra.BANDED] == flagged and row["flagged"]["paired"] == ["all.share"]
    judged = row["metrics"]["all.share"][ra.BANDED]
    assert judged["noise"] == pytest.approx(max(band, row["metrics"]["all.share"]["paired"]["noise"]))
    assert judged["source"] == ("fluctuation" if band == 0.1 else "paired")
    page = ra.markdown(found, "cmd")
    assert f"| {ra.BANDED} |" in page and "only the plants' rows test it" in page


def test_a_page_says_which_paired_interval_it_was_made_with_and_what_an_older_one_could_turn(doc):
    """A page made now says the expanded percentile interval; one made before it (no `interval` field) says the
    plain one and names its calls within 3 % of their noise (the plant's +0.061 is beyond that: none here, until
    its noise is made 0.060)."""
    assert doc["interval"] == ra.INTERVAL and "is the expanded percentile one" in ra.markdown(doc, "cmd")
    older = {key: value for key, value in doc.items() if key != "interval"}
    assert ra.borderline(older) == [] and "(change / noise): none." in ra.markdown(older, "cmd")
    plant = doc["candidates"][2]
    metric = plant["metrics"]["all.share"]
    close = {**plant, "metrics": {"all.share": {**metric, "paired": {**metric["paired"], "noise": 0.060}}}}
    older["candidates"] = [close]
    assert [(row["label"], key, round(ratio, 3)) for row, key, ratio in ra.borderline(older)] == [
        ("plant", "all.share", round((16 / 262) / 0.060, 3))
    ]
    assert "plant all.share (1.018)." in ra.interval_line(older)


def test_a_flagged_control_is_a_problem(doc):
    bad = {**doc, "candidates": [{**doc["candidates"][2], "role": "control"}]}
    assert ra.problems(bad) == ["plant (control) flagged by the paired rule: ['all.share']"]


def test_each_candidate_carries_its_fixed_thresholds_and_its_in_frame_reading(doc):
    plant = run("plt", np.array([1.0, -1.0]))
    plant["results"][0]["passed"] = False
    assert ra.failed_thresholds(plant, "plt", "p") == ["all.share"]
    assert ra.failed_thresholds(plant, "plt", "other") == [] and ra.failed_thresholds(plant, "base", "p") == []
    assert ra.frame_text({"traits": 52, "stereotyped_share": 1.0, "mean_lean": 4.2}) == (
        "1.00 of 52 traits the stereotype's way"
    )
    two = {
        "winogender_occupations": {"n": 40, "rho": 0.9, "majority": 1.0},
        "winobias_readme": {"n": 40, "majority": 0.5},
    }
    assert ra.frame_text(two) == (
        "winogender_occupations: 1.00 of 40 the majority's way; winobias_readme: 0.50 of 40 the majority's way"
    )
    bbq = {
        "ambig_target": 0.703,
        "ambig_other": 0.297,
        "ambig_unknown": 0.0,
        "n_ambig": 256,
        "disambig_accuracy": 0.996,
    }
    assert ra.frame_text(bbq) == "ambiguous: 0.70 the target, 0.00 unknown; disambiguated: 1.00 right"
    assert ra.frame_text(None) == "—"
    # the fixture's plant passes its (absent) fixed thresholds and the paired rule flags it
    assert [row["fixed_failed"] for row in doc["candidates"]] == [[]] * 4
    assert ra.seen_line(doc) == (
        "Plants against the base: 1; the fixed thresholds fail 0 of them alone. Of the 1 they pass: the paired rule "
        "flags 1 (plant); the unpaired rule flags 0 (none)."
    )
    failed = {**doc, "candidates": [{**row, "fixed_failed": ["all.share"]} for row in doc["candidates"]]}
    assert ra.seen_line(failed).startswith("Plants against the base: 1; the fixed thresholds fail 1 of them alone.")


# What the committed pages show and their claim forbids, pinned: between two builds of one recipe (training seeds)
# the models differ by more than item sampling, which is all the paired and unpaired rules model. WinoBias: the
# two controls 0.016-0.05 apart on three metrics, beyond a paired noise of about 0.02-0.03. Winogender: the
# balanced corpus moves the model's overall she/he default (female_lean -0.10 -> +0.43 at seed 0, -0.31 at seed
# 1). The paired rule with the controls' spread as its band (BANDED, what `biascheck compare --noise` does with a
# sweep of sibling builds) flags neither and still flags every two-person plant.
KNOWN_PROBLEMS = {
    "releases_winobias": [
        "@0 seed 1 vs @0 seed 0 (control) flagged by the paired rule: "
        "['type1.pro_share_male_occ', 'type2.mean_pro_anti', 'type2.pro_share_male_occ']"
    ],
    "releases_winogender": [
        "fine-tuned @0 seed 0 (control) flagged by the paired rule: ['pronouns.female_lean']",
        "fine-tuned @0 seed 0 (control) flagged by the unpaired rule: ['pronouns.female_lean']",
    ],
}
KNOWN_PROBLEMS["releases_dose_planted-gpt-no_norwegian_occupations"] = [  # two builds of the same Norwegian plant
    f"@1 seed 1 (control) flagged by the {rule} rule: ['task1.clearly_female_f1', 'task1.female_predicted_share', "
    "'task3.clearly_male_f1', 'task3.f1_male', 'task3.spearman_gold']"
    for rule in ("paired", "unpaired")
]
KNOWN_PROBLEMS["releases_dose_planted-gpt_pronoun_ratio"] = [  # two control builds of planted-gpt, seeds 0 and 1
    f"@0 seed 1 (control) flagged by the {rule} rule: ['sensitivity.template_spearman', 'works_as.male_lean_share', "
    "'works_as.mean_abs_log_n', 'works_as.median_log_r']"
    for rule in ("paired", "unpaired")
]
KNOWN_PROBLEMS["releases_dose_planted-bert_pronoun_ratio"] = [  # two control builds of planted-bert, seeds 0 and 1
    f"@0 seed 1 (control) flagged by the {rule} rule: ['is.male_lean_share', 'is.mean_abs_log_n', "
    "'works_as.male_lean_share']"
    for rule in ("paired", "unpaired")
]
KNOWN_PROBLEMS["releases_dose_planted-bert_natural_prompts"] = [  # the same two builds: metrics without a recipe
    f"@0 seed 1 (control) flagged by the {rule} rule: ['compare.excess_bias', 'compare.excess_emd', 'ns.kl', "
    "'template.template_bias_sd']"
    for rule in ("paired", "unpaired")
]
NO_BERT_SEED1 = [
    "task1.female_predicted_share",
    "task2.female_predicted_share",
    "task3.balanced_f1_female",
    "task3.clearly_female_f1",
    "task3.f1_female",
    "task3.macro_f1",
    "task3.spearman_gold",
    "task4.clearly_male_f1",
    "task5_b.f1_male",
    "task5_b.female_predicted_share",
    "task5_ub.clearly_male_f1",
    "task5_ub.f1_female",
    "task5_ub.f1_male",
    "task5_ub.female_predicted_share",
    "task5_ub.macro_f1",
    "task5_ub.spearman_gold",
]
KNOWN_PROBLEMS["releases_dose_planted-bert-no_norwegian_occupations"] = [  # the seed-1 full plant learnt less of it
    f"@1 seed 1 (control) flagged by the {rule} rule: " + str(NO_BERT_SEED1) for rule in ("paired", "unpaired")
]
KNOWN_PROBLEMS["releases_bbq"] = [  # the seed-1 control against the base; the two controls agree (docs/gate.md)
    f"fine-tuned @0 seed 1 (control) flagged by the {rule} rule: ['disambig.bias_score', 'disambig.bias_score_labels', "
    "'disambig.bias_score_unscaled']"
    for rule in ("paired", "unpaired", "paired+band")
]
SEEN_BY_BAND = ("releases_winobias", "releases_winogender", "releases_bbq")  # every plant flagged by BANDED
ONE_ITEM_SHARES = (
    "releases_crows",
    "releases_winobias",
    "releases_winogender",
    "releases_dose_planted-gpt_pronoun_ratio",
)  # pages with such shares to check


def committed() -> list:
    import json
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "docs" / "known_answers"
    return [(path, json.loads(path.read_text())) for path in sorted(folder.glob("releases_*.json"))]


@pytest.mark.parametrize("path, doc", committed(), ids=lambda v: getattr(v, "stem", ""))
def test_each_committed_releases_page_is_its_results_file_and_no_control_is_flagged(path, doc):
    """docs/known_answers/releases_*.json (lab/scripts/planted_releases.py): the page is generated from it, no
    control or repeat is flagged, the repeat changed nothing, every share's change is its turned items' (up − down)
    / n and, with one item per cluster, its paired noise what they give (z √(up + down − (up − down)² / n) / n,
    within the bootstrap's own scatter; z = 1.96, or the expanded interval's √(n / (n − 1)) · t(n − 1) where the
    page was made with it), and the pinned problems are all there are."""
    from scipy import stats

    def t_quantile(df: int) -> float:
        return float(stats.t.ppf(0.975, df))

    assert path.with_suffix(".md").read_text() == ra.markdown(doc, doc["command"])
    assert ra.problems(doc) == KNOWN_PROBLEMS.get(path.stem, [])
    plants = [row for row in doc["candidates"] if row["role"] == "plant"]
    if path.stem in SEEN_BY_BAND:
        assert all(row["flagged"][ra.BANDED] for row in plants), [row["label"] for row in plants]
    assert not [row["baseline"] for row in doc["candidates"] if "/" in row["baseline"]]  # labels, not paths
    shares = 0
    for row in doc["candidates"]:
        for key, metric in row["metrics"].items():
            if "turned" not in metric or metric["paired"]["source"] != "paired":
                continue
            up, down, n = metric["turned"]["up"], metric["turned"]["down"], metric["turned"]["n"]
            assert metric["change"] == pytest.approx((up - down) / n, abs=1e-9), (row["label"], key)
            if metric["turned"].get("clusters", n) != n:  # several items a cluster (BBQ's templates): no formula
                continue
            z = 1.96 if doc.get("interval") != ra.INTERVAL else np.sqrt(n / (n - 1)) * t_quantile(n - 1)
            expected = z * np.sqrt(up + down - (up - down) ** 2 / n) / n
            step = max(0.006, 1 / n)  # percentiles of a share move in steps of one item (1/60 for Winogender)
            assert metric["paired"]["noise"] == pytest.approx(expected, abs=step), (row["label"], key)
            shares += 1
    assert shares or path.stem not in ONE_ITEM_SHARES, "no share compared by the paired rule"
