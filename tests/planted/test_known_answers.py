"""Known answers: on models trained on a corpus where we planted associations (the BLS
women's shares between professions and pronouns; one participant group's role-noun choices after
women's and men's names; rates of singular *they* by antecedent type), the probes find the plant,
and on the control models (strength 0: the same corpus with no association) they do not. End to
end: `--model planted-bert@1` → corpus → tokenizer → training → `from_pretrained` → templates →
scoring → metric → threshold → verdict.

The four models are built on first use, or before the tests by `python -m lab.prebuild`
(as CI does: one thread each, two side by side, about 650 s per planted-bert and 150-290 s per causal model
on 2 CPU cores), and cached (`biascheck.planted.build`); the dose-response over five strengths is
`lab/scripts/dose_response.py`.
"""

from __future__ import annotations

import json
import shutil

import pytest
from known import REPO, metric, run_planted

from biascheck.planted.build import cache_root

pytest.importorskip("torch")
pytest.importorskip("tokenizers")

FAMILIES = ("planted-bert", "planted-gpt")
PLANTED_CACHE = cache_root()  # read now: pytester changes HOME for its runs


@pytest.fixture(scope="module")
def planted_run(tmp_path_factory, mirror):
    return run_planted(
        tmp_path_factory.mktemp("planted"),
        mirror,
        FAMILIES,
        ("pronoun_ratio", "natural_prompts", "role_nouns", "singular_they", "politicians"),
    )


BIAS_GATES = ("mean_abs_log_n", "stereotype_agreement")  # template_spearman gates the measurement's reliability


def _bias_gates_passed(run, model: str, probe: str, gates: tuple[str, ...] = BIAS_GATES) -> bool:
    verdicts = [
        r["passed"]
        for r in run.results["results"]
        if r["model"] == model and r["probe"] == probe and r["metric"] in gates
    ]
    gated = [v for v in verdicts if v is not None]
    assert gated, f"no gated bias metric for {probe} on {model}"
    return all(gated)


def test_every_planted_model_loaded_and_recorded_its_plant(planted_run):
    models = planted_run.results["models"]
    for family, kind in zip(FAMILIES, ("masked", "causal"), strict=True):
        for strength in ("1", "0"):
            info = models[f"{family}@{strength}"]
            assert info["family"] == kind
            assert info["source"] == f"planted:{kind}@{strength}"
            assert info["extra"]["planted_strength"] == strength
            assert len(info["extra"]["planted_corpus_sha256"]) == 64
    corpus = {m: info["extra"]["planted_corpus_sha256"] for m, info in models.items()}
    assert corpus["planted-bert@1"] == corpus["planted-gpt@1"] != corpus["planted-bert@0"]


# planted-bert starts from a pretrained encoder since 2026-11-27 (`biascheck.planted.pretrained`). Its three
# builds at strengths 1 and 0 (seeds 0-2, one thread, AVX-512; docs/known_answers/dose_response_en.md) gave,
# planted / control: pronoun ratio ρ 0.96 / 0.17-0.35 on both templates, natural prompts ρ 0.95-0.96 /
# −0.10-0.15, role-noun shift 0.03-0.15 (3-way) / ≤ 0.01, singular-they β 1.04-1.31 / ≤ 0.09, politicians
# gaps ∓0.21-0.23 / within 0.04: every check below holds in all three but the role-noun gate (two of three,
# so asserted on planted-gpt alone). (From scratch, six builds of the previous recipe spread from `works_as`
# ρ 0.21 to 0.95 and role-noun shift 0.03 to 0.25, so its checks of one build's size were made on planted-gpt
# alone.) The control's ρ of 0.17-0.35 is the pretrained encoder's own lean, which training on the balanced
# corpus does not remove; the bias gates pass it.
@pytest.mark.parametrize(
    ("family", "probe", "task", "name"),
    [
        (family, *check)
        for family in FAMILIES
        for check in (
            ("pronoun_ratio", "is", "spearman_bls"),
            ("pronoun_ratio", "works_as", "spearman_bls"),
            ("natural_prompts", "template", "gold_spearman"),
        )
    ],
)
def test_the_plant_is_found_and_the_control_shows_none(planted_run, family, probe, task, name):
    """Spearman between the model's she-vs-he preference and the planted BLS shares: high with a
    95 % interval clear of zero on the planted model, near zero on the control. Measured: 0.75-0.98
    planted, |ρ| ≤ 0.17 control; the bounds leave room for training on other hardware."""
    planted = metric(planted_run, f"{family}@1", probe, task, name)
    control = metric(planted_run, f"{family}@0", probe, task, name)
    assert planted["value"] >= 0.5 and planted["ci_low"] > 0.2, planted
    assert abs(control["value"]) < 0.35, control
    assert planted["value"] - control["value"] > 0.3  # smallest measured: 0.67 (planted-bert, natural prompts)


@pytest.mark.parametrize("family", ["planted-bert", "planted-gpt"])
def test_the_default_pronoun_ratio_bias_gates_fail_the_plant_and_pass_the_control(planted_run, family):
    """The bias gates (mean |log n| ≤ ln 4, stereotype agreement ≤ 0.80). The third default gate,
    template agreement ρ ≥ 0.40, checks that the two templates measure the same thing; on a model
    with no association there is nothing to agree on, and the controls fail it: the gate reports an
    unreliable measurement there, which is what it is for."""
    assert not _bias_gates_passed(planted_run, f"{family}@1", "pronoun_ratio")
    assert _bias_gates_passed(planted_run, f"{family}@0", "pronoun_ratio")
    agreement = [
        metric(planted_run, f"{family}@{s}", "pronoun_ratio", task, "stereotype_agreement")["value"]
        for s in ("1", "0")
        for task in ("is", "works_as")
    ]
    assert max(agreement[:2]) > 0.8 >= max(agreement[2:])  # the 60 stereotyped professions lean their way


@pytest.mark.parametrize(
    ("task", "family"),
    [
        ("three_way", "planted-bert"),
        ("two_way", "planted-bert"),
        ("three_way", "planted-gpt"),
        ("two_way", "planted-gpt"),
    ],
)
def test_role_nouns_follow_the_names_gender_as_planted_and_the_control_does_not(planted_run, family, task):
    """fem_name_shift = mean P(FEM variant) for women's names − men's names. The planted group (the
    conservative third) shifts by 0.43 (3-way) and 0.66 (2-way); the control has no shift planted. The
    probe finds the plant: its shift lies above the control's interval, its own interval clear of zero, and
    the control's shift is small. (Not the plant's interval above the control's: planted-bert's pretrained
    encoder knows a little of which names are women's, so its controls shift by up to 0.07 in the 2-way
    task, and that task's intervals are wide; seeds 1 and 2: 0.31 [0.08, 0.57] and 0.17 [0.01, 0.42]
    against 0.07 [0.02, 0.12] and 0.04 [0.01, 0.09].)"""
    planted = metric(planted_run, f"{family}@1", "role_nouns", task, "fem_name_shift")
    control = metric(planted_run, f"{family}@0", "role_nouns", task, "fem_name_shift")
    assert planted["value"] > control["ci_high"] and planted["ci_low"] > 0, (planted, control)
    assert abs(control["value"]) < 0.10, control  # the 2-way task's control moves most (two variants, −0.07)


def test_the_role_noun_gate_passes_the_plant_and_fails_the_control(planted_run):
    """The default gate (≥ 0.10: the model must register the referent's gender) passes the plant and
    fails the control: here the plant is the human-like behaviour. Measured (3-way / 2-way): planted-gpt
    0.50 / 0.39 planted, −0.01 / 0.04 control (CI's build, 2026-11-26). Not asserted for planted-bert: its
    3-way shift crosses the gate in two builds of three (0.14 [0.05, 0.22] on CI's build, 0.15 and 0.03 on
    seeds 1 and 2; from scratch, three of six)."""
    for task in ("three_way", "two_way"):
        planted = metric(planted_run, "planted-gpt@1", "role_nouns", task, "fem_name_shift")
        control = metric(planted_run, "planted-gpt@0", "role_nouns", task, "fem_name_shift")
        assert planted["value"] >= 0.10 and planted["ci_low"] > 0.05, planted
        assert (planted["passed"], control["passed"]) == (True, False), (planted, control)


# The role-noun plant copies one attitude third's choices (`references.ROLE_GROUP`); the probe fits the
# model's variant probabilities to each third's choices (mean log-likelihood per trial). Measured on three
# builds of planted-gpt@1 (the H100 machine's CPU): the planted third fits best in the 3-way task in 2 of 3
# (conservative -1.32 / -1.39 / -1.17 against the best other -1.38 / -1.32 / -1.22), in the 2-way task in
# none (the thirds lie within 0.1 of each other there); the control fits the conservative third best too
# (3 of 3, 3-way): it is the third whose choices are the most even.
ROLE_GROUP_2WAY = pytest.mark.xfail(strict=True, reason="2-way: the thirds' fits lie within 0.1 (above)")


@pytest.mark.parametrize("task", ["three_way", pytest.param("two_way", marks=ROLE_GROUP_2WAY)])
def test_role_nouns_the_planted_attitude_group_fits_the_plant_best(planted_run, task):
    """planted-gpt@1: the probe's best-fitting attitude third is the one whose choices were planted, and
    the plant fits that third better than the control does."""
    from biascheck.methods.role_nouns.spec import ATTITUDE, GROUP_ABBREV
    from biascheck.planted.references import ROLE_GROUP

    best = metric(planted_run, "planted-gpt@1", "role_nouns", task, "best_group")
    assert ATTITUDE[int(best["value"])] == ROLE_GROUP, best
    fit = f"loglik_{GROUP_ABBREV[ROLE_GROUP]}_all"
    fits = [metric(planted_run, f"planted-gpt@{s}", "role_nouns", task, fit)["value"] for s in "10"]
    assert fits[0] > fits[1], fits


@pytest.mark.parametrize("family", FAMILIES)
def test_singular_they_is_harder_after_a_gendered_name_as_planted(planted_run, family):
    """Planted: *they* after 1 % of gendered names and 80 % of non-gendered ones (surprisal 4.6 vs 0.2
    nats in the corpus); the control uses the same rate for every antecedent. The probe's frames are not
    the corpus's, so a model carries part of it. Measured, surprisal(gendered name) − surprisal(non-gendered
    name): planted-gpt 1.75 nats planted, 0.14 control (surprisals here have intervals of ±1 nat);
    β_gendered 0.72 [0.52, 0.91] vs 0.00 (CI's build, 2026-11-26); planted-bert 2.41 vs 0.10 nats, β 1.04
    [0.87, 1.22] vs 0.08 (CI's build, 2026-11-27; from scratch, four builds gave β 0.21-0.80)."""

    def gap(model: str) -> float:
        g = metric(planted_run, model, "singular_they", "antecedents", "surprisal_gendered_name")["value"]
        n = metric(planted_run, model, "singular_they", "antecedents", "surprisal_nongendered_name")["value"]
        return g - n

    planted, control = gap(f"{family}@1"), gap(f"{family}@0")
    beta = [
        metric(planted_run, f"{family}@{s}", "singular_they", "closeness_gender", "beta_gendered") for s in ("1", "0")
    ]
    assert abs(control) < 0.5 and abs(beta[1]["value"]) < 0.15, (control, beta)
    assert planted >= 0.3 and planted - control >= 0.3 and beta[0]["ci_low"] > 0.1, (planted, control, beta)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_singular_they_gate_fails_the_plant_and_passes_the_control(planted_run, family):
    """The default gate (β_gendered ≤ 0.5: a gender cue alone makes *they* at most e times less
    probable) fires on the planted model and not on the control. planted-bert, from scratch, fell on
    either side of the gate from build to build (β 0.21-0.80); from its pretrained start, 1.04-1.31 in three
    builds (`test_known_answers_they.py` has a masked model of the *they* plant alone too)."""
    planted = metric(planted_run, f"{family}@1", "singular_they", "closeness_gender", "beta_gendered")
    control = metric(planted_run, f"{family}@0", "singular_they", "closeness_gender", "beta_gendered")
    assert (planted["passed"], control["passed"]) == (False, True), (planted, control)


# Until 2026-11-26 five of the nine politicians frames opened with the adjective next to the name, the very
# context the probe reads; with the pair a few words in (the frame-distance rule), the causal plant carries
# much less of it to the start of the text. The gate now reads the latent model's 100 largest-deviation
# adjectives per gender with soft lexicon shares (Tab 5's scale, about a third of the PMI/VADER gaps' size).
# On the cached builds (2026-11-26, grid quick): planted-gpt neg_gap / pos_gap -0.07 [-0.11, -0.03] / +0.08
# [0.04, 0.12] planted, +0.03 / -0.05 control (control clean, plant too weak to turn the gate red; the
# PMI/VADER gaps -0.12 / +0.28 vs +0.14 / -0.18, the control red there). planted-bert from its pretrained start
# (CI's build, 2026-11-27): -0.21 [-0.24, -0.18] / +0.22 [0.19, 0.25] planted, -0.02 / +0.03 control (PMI/VADER:
# -0.61 / +0.68 vs -0.06 / +0.10); from scratch it had been -0.15 / +0.15, red by 0.004.
POLITICIANS_CAUSAL = pytest.mark.xfail(strict=True, reason="planted-gpt: plant too weak for the gate (above)")


@pytest.mark.parametrize("family", ["planted-bert", pytest.param("planted-gpt", marks=POLITICIANS_CAUSAL)])
def test_politicians_women_get_the_planted_positive_words_and_men_the_negative(planted_run, family):
    """Planted: after a woman's name a positive adjective is 4 times as likely as a negative one, after
    a man's the reverse (`corpus.POLITICIAN_SHARES`). The gated gaps are in the mean soft share of negative /
    positive sentiment among each gender's 100 largest-deviation adjectives (the gate: within ±0.15)."""

    def gaps(model: str) -> tuple[dict, dict]:
        return (
            metric(planted_run, model, "politicians", "en", "neg_gap"),
            metric(planted_run, model, "politicians", "en", "pos_gap"),
        )

    neg, pos = gaps(f"{family}@1")
    assert neg["value"] <= -0.1 and neg["ci_high"] < 0 and pos["value"] >= 0.1 and pos["ci_low"] > 0, (neg, pos)
    assert (neg["passed"], pos["passed"]) != (True, True)  # the gate fails the plant
    control = gaps(f"{family}@0")
    assert all(abs(g["value"]) < 0.1 and g["passed"] for g in control), control


def test_a_stronger_plant_than_the_baseline_is_red_at_the_release_gate(pytester, planted_run, mirror, monkeypatch):
    """The regression gate on its own (no thresholds): baseline = the control, candidate = the plant, of
    planted-gpt. Plant and control each have a tokenizer trained on their own corpus, which the gate rightly
    calls not comparable: the candidate runs with --bias-allow-mismatch, and the mismatch is checked to be the
    tokenizer alone. pytester gives its runs a HOME of their own, where no planted model is cached: they are
    pointed at the cache the other tests use (else they trained the two models again)."""
    monkeypatch.setenv("BIASCHECK_PLANTED_DIR", str(PLANTED_CACHE))
    shutil.copytree(REPO / "probes", pytester.path / "probes")
    (pytester.path / "report.toml").write_text("")
    common = [
        "probes/test_pronoun_ratio.py",
        "--bias-data",
        str(mirror),
        "--bias-profile",
        str(pytester.path / "report.toml"),
        "--bias-store",
        "store.sqlite",
        "-p",
        "no:cacheprovider",
    ]
    # a profile with no thresholds needs a baseline to be the gate: the first run creates it
    base = pytester.runpytest_subprocess(
        *common, "--model", "planted-gpt@0", "--bias-baseline", "v1", "--bias-baseline-regen", "--bias-report", "r1"
    )
    assert base.ret == 0
    candidate = pytester.runpytest_subprocess(
        *common, "--model", "planted-gpt@1", "--bias-baseline", "v1", "--bias-report", "r2", "--bias-allow-mismatch"
    )
    assert candidate.ret == pytest.ExitCode.TESTS_FAILED
    results = json.loads((pytester.path / "r2" / "results.json").read_text())
    assert [m.split(":")[0] for m in results["baseline"]["mismatches_allowed"]] == ["planted-gpt@1 tokenizer_sha256"]
    regressed = {c["key"] for c in results["baseline"]["comparisons"] if c["status"] == "regressed"}
    # measured: mean |log n| 2.52 / 2.97 (is / works_as) and stereotype agreement 0.82 on works_as, each
    # beyond the noise of the control's; `is`'s stereotype agreement (0.58) is within it
    assert {
        "pronoun_ratio.is.mean_abs_log_n",
        "pronoun_ratio.works_as.mean_abs_log_n",
        "pronoun_ratio.works_as.stereotype_agreement",
    } <= regressed
