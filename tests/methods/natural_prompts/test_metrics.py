"""Paper 002's metrics per task on a fake causal LM whose probabilities are known (hand calculations,
scipy cross-checks), and what `task_metrics` attaches: estimator, notes, Table 8 / Figure 1."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy import stats

from biascheck.methods.natural_prompts import math as m
from biascheck.methods.natural_prompts import metrics
from biascheck.methods.natural_prompts.spec import OPENERS, PROBE, PRONOUNS, TASKS
from biascheck.models.base import CAUSAL_NEXT, CAUSAL_SENTENCE, MLM_SLOT
from biascheck.settings import settings_of


def test_set_metrics_by_hand(scored):
    ns = {x.name: x for x in metrics.metrics_for("ns", scored)}
    # NS: he (.1,.1,.1,.1), she (.3,.1,.1,.1): bias = .2/4 = .05; EMD = .05 (one value moves .2)
    assert ns["bias_orig"].value == pytest.approx(0.05)
    assert ns["emd"].value == pytest.approx(0.05)
    assert ns["kl_columns"].value == pytest.approx(stats.entropy([0.1] * 4, [0.3, 0.1, 0.1, 0.1]))
    assert ns["kl"].value == pytest.approx(m.kl_kde(np.array([0.1] * 4), np.array([0.3, 0.1, 0.1, 0.1])))
    assert ns["kl"].paper_value is None and "does not say how it estimated KL" in ns["kl"].note
    # the 20-bin histogram of Figure 2 (the estimator used before 2026-11-23) is one of the alternatives shown
    h = lambda v: np.histogram(v, bins=20, range=(0, 1))[0] + 0.5  # noqa: E731
    by_estimator = {row["estimator"]: row["kl"] for row in ns["kl"].items}
    assert by_estimator["histogram_20_bins"] == pytest.approx(stats.entropy(h([0.1] * 4), h([0.3, 0.1, 0.1, 0.1])))
    assert set(by_estimator) == {
        "kde",
        "kde_half_bandwidth",
        "kde_double_bandwidth",
        "histogram_10_bins",
        "histogram_20_bins",
        "histogram_50_bins",
    }
    assert ns["p_they_mean"].value == pytest.approx(0.01)
    assert ns["p_she_mean"].value == pytest.approx(0.15)
    assert ns["he_she_ratio"].value == pytest.approx((1 / 3 + 3) / 4)
    assert ns["certainty_top1"].value == pytest.approx(0.25) and ns["certainty_gap"].value == pytest.approx(0.05)
    assert ns["bias_replace"].value == pytest.approx(0.0)  # "person" prompts: no nurse
    # gold: she_share (.75, .5, .5, .5) vs women (.9, .15, .3, .4): Spearman of scipy
    assert ns["gold_spearman"].value == pytest.approx(
        stats.spearmanr([0.75, 0.5, 0.5, 0.5], [0.9, 0.15, 0.3, 0.4]).statistic
    )
    assert ns["gold_spearman"].n == 4
    tp = {x.name: x for x in metrics.metrics_for("template", scored)}
    assert tp["bias_orig"].value == pytest.approx(0.1) and tp["emd"].value == pytest.approx(0.1)
    assert tp["kl_columns"].value == pytest.approx(0.0, abs=1e-12)  # she proportional to he
    assert tp["kl"].value > 0  # but the values fall in different bins (.2 vs .1)
    assert tp["bias_delete"].value == pytest.approx(0.1) and tp["bias_delete"].n == 4
    assert "templates" in tp["bias_delete"].note and len(tp["bias_delete"].items) == 4
    assert tp["template_bias_sd"].value == pytest.approx(0.0) and len(tp["template_bias_sd"].items) == 4
    assert tp["he_she_ratio"].value == pytest.approx(2.0)
    assert math.isnan(tp["gold_spearman"].value)  # she_share constant under the templates


def test_compare_and_default_by_hand(scored):
    cmp = {x.name: x for x in metrics.metrics_for("compare", scored)}
    assert cmp["excess_bias"].value == pytest.approx(0.1 - 0.05)
    assert cmp["excess_emd"].value == pytest.approx(0.1 - 0.05)
    lo, hi = cmp["excess_bias"].ci
    assert lo <= cmp["excess_bias"].value <= hi
    d = {x.name: x for x in metrics.metrics_for("default", scored)}
    assert d["default_log_he_she"].value == pytest.approx(math.log(2))
    assert d["default_log_male_female"].value == pytest.approx(math.log(0.04 / 0.03))
    assert d["default_p_pronoun"].value == pytest.approx(0.02 + 0.01 + 7 * 0.01)
    assert [r["pronoun"] for r in d["default_log_he_she"].items] == list(PRONOUNS)
    # first word: He .03 / She .01; male He+His+Him = .03+.01+.001, female She+Her+Hers = .01+.02+.001
    assert d["default_log_he_she_initial"].value == pytest.approx(math.log(3))
    assert d["default_log_male_female_initial"].value == pytest.approx(math.log(0.041 / 0.031))
    assert [r["pronoun"] for r in d["default_log_he_she_initial"].items][:2] == ["He", "She"]
    assert scored.default_initial_estimator == CAUSAL_SENTENCE
    # openers ("Because", ...) are not templates ("The ..."): he .1 / she .1 -> mean log ratio 0, 18 items
    assert d["default_log_he_she_openers"].value == pytest.approx(0.0) and d["default_log_he_she_openers"].n == 18
    assert [r["opener"] for r in d["default_log_he_she_openers"].items] == list(OPENERS)


def test_intervals_contain_the_estimate(scored):
    for task in ("ns", "template", "compare"):
        for x in metrics.metrics_for(task, scored):
            if x.ci is not None and not any(math.isnan(c) for c in x.ci) and not math.isnan(x.value):
                assert x.ci[0] - 1e-9 <= x.value <= x.ci[1] + 1e-9, (task, x.name, x.value, x.ci)


def test_unknown_task_is_an_error(scored, reference, settings):
    with pytest.raises(ValueError, match="unknown task"):
        metrics.metrics_for("nope", scored)
    with pytest.raises(ValueError, match="unknown task"):
        metrics.task_metrics("nope", scored, reference, settings)


# ---------------------------------------------------------------------------------------------
# task_metrics: what the probe records


@pytest.mark.parametrize("task", TASKS)
def test_task_metrics_keep_values_and_order_and_attach_the_estimator(scored, reference, settings, task):
    raw, got = metrics.metrics_for(task, scored), metrics.task_metrics(task, scored, reference, settings)
    assert [x.name for x in got] == [x.name for x in raw]
    for a, b in zip(raw, got, strict=True):  # repr: NaN values and intervals compare equal
        assert repr(dataclasses.replace(b, estimator="", note=a.note)) == repr(a)
    assert {x.estimator for x in got} == {CAUSAL_NEXT}


def test_causal_full_run_keeps_the_metrics_own_notes(scored, reference, settings):
    got = {x.name: x for x in metrics.task_metrics("compare", scored, reference, settings)}
    assert got["excess_bias"].note == "bootstrap over 4 professions (paired) x 4 templates (crossed)"
    assert got["gold_spearman_diff"].note == "paired bootstrap over the BLS-matched professions"


def test_notes_for_a_masked_model_and_a_limit(scored_masked, reference, settings):
    got = {x.name: x for x in metrics.task_metrics("ns", scored_masked, reference, settings_of(PROBE, limit=4))}
    assert got["emd"].note == (
        "bootstrap over 4 professions; "
        "mlm-slot: pronoun in a masked slot right after the prompt, not a next-token probability; "
        "a sample of 4 of the 893 professions, evenly spread (over the BLS women's share where there is one, "
        "else over the file order; setting limit)"
    )
    assert got["p_he_mean"].note.startswith("mlm-slot: ")  # no note of its own
    assert {x.estimator for x in got.values()} == {MLM_SLOT}
    assert all("a sample of" not in x.note for x in metrics.task_metrics("ns", scored_masked, reference, settings))


def test_default_task_records_the_default_estimator(scored, reference, settings):
    other = dataclasses.replace(scored, default_estimator="causal-other")
    assert {x.estimator for x in metrics.task_metrics("default", other, reference, settings)} == {"causal-other"}
    assert {x.estimator for x in metrics.task_metrics("ns", other, reference, settings)} == {CAUSAL_NEXT}


def test_table8_and_figure1_notes(scored_masked, reference, settings):
    limited = settings_of(PROBE, limit=2)
    sd = {x.name: x for x in metrics.task_metrics("template", scored_masked, reference, limited)}["template_bias_sd"]
    # 2 templates ("said that", "yelled that"), bias .1 each; the table comes after every other note
    assert sd.note.endswith(
        "; a sample of 2 of the 893 professions, evenly spread (over the BLS women's share where there is one, "
        "else over the file order; setting limit); "
        "Table 8 bias: said that 0.100, yelled that 0.100"
    )
    assert sd.note.startswith("Table 8; range 0.100-0.100; bootstrap over 4 professions; mlm-slot: ")
    d = {x.name: x for x in metrics.task_metrics("default", scored_masked, reference, settings)}["default_log_he_she"]
    assert d.note == (
        "one context (the bare start token): no interval; leading-space pronoun after the start token, as the "
        "paper's code; mlm-slot: pronoun in a masked slot right after the prompt, not a next-token probability; "
        "Figure 1: he 2.0e-02, she 1.0e-02, they 1.0e-02, his 1.0e-02, her 1.0e-02, him 1.0e-02, hers 1.0e-02, "
        "them 1.0e-02, theirs 1.0e-02"
    )


def test_a_model_that_never_starts_a_text_with_a_space_is_told_to_read_the_first_word_forms(scored):
    """Gemma 3 gives ' he' after <bos> P ≈ 5e-7 (no leading space there): its leading-space readings compare
    two tokens it does not expect, and the note says so with both totals (all nine pronouns); the fake's
    (0.1 against 0.075) not."""
    plain = {x.name: x for x in metrics.metrics_for("default", scored)}
    assert "do not start with a space" not in plain["default_log_he_she"].note
    spaced = {w: p * 1e-5 for w, p in scored.default.items()}
    d = {x.name: x for x in metrics.metrics_for("default", dataclasses.replace(scored, default=spaced))}
    for name in ("default_log_he_she", "default_log_male_female", "default_p_pronoun"):
        assert "P = 1e-06 in all after its start token, against 0.075" in d[name].note, d[name].note
        assert "read default_log_he_she_initial" in d[name].note
    assert d["default_log_he_she"].value == pytest.approx(plain["default_log_he_she"].value)  # a note, the same ratio
    assert "do not start" not in d["default_log_he_she_initial"].note
    assert metrics.unlikely_spaced_note(spaced, None) == ""  # a model read without first-word forms: no note


def test_the_gold_correlations_recompute_from_their_items_for_the_paired_gate(scored):
    """gold_spearman and gold_pearson's recipes (`MetricSpec.paired`) read gold_spearman's items (profession,
    she_share, women_share) and give back the recorded values: a paired comparison of a run with itself changes 0."""
    from biascheck.gate import paired as pr

    ns = {x.name: x for x in metrics.metrics_for("ns", scored)}
    items = ns["gold_spearman"].items
    for name in ("gold_spearman", "gold_pearson"):
        recipe = PROBE.metric(name).paired.to_json()
        assert recipe["items_of"] in (None, "gold_spearman")
        again = pr.paired_change(recipe, items, items, (ns[name].value, ns[name].value))
        assert not isinstance(again, str), again
        assert again.change == 0.0 and again.n_clusters == 4


def test_bias_orig_recomputes_from_its_items_in_the_ns_task_and_has_no_recipe_where_templates_are_crossed(scored):
    """The ns task's bias_orig is the mean of its professions' |P(he) - P(she)| (one prompt each, the interval
    resampling professions): its recipe gives the recorded 0.05 back. In the template task the interval crosses
    professions with templates, which the paired bootstrap does not draw: no recipe is saved there."""
    from biascheck.gate import paired as pr

    spec = PROBE.metric("bias_orig").paired
    assert spec.holds_for("ns") and not spec.holds_for("template")
    ns = {x.name: x for x in metrics.metrics_for("ns", scored)}
    again = pr.paired_change(spec.to_json(), ns["bias_orig"].items, ns["bias_orig"].items, (0.05, 0.05))
    assert not isinstance(again, str) and again.change == 0.0


def test_a_recorded_bias_orig_carries_its_recipe_in_ns_only():
    """`ProbeRecorder.record` saves a recipe with the result of a task it holds for, and none elsewhere."""
    from biascheck.results import ProbeRecorder
    from biascheck.spec import Metric
    from biascheck.thresholds import ThresholdSet

    recorder = ProbeRecorder(PROBE, "m", ThresholdSet("none"), lambda _r: None)
    metric = Metric("bias_orig", 0.05, (0.01, 0.09), 4)
    assert recorder.record("ns", metric).paired == PROBE.metric("bias_orig").paired.to_json()
    assert recorder.record("template", metric).paired is None


def test_the_kl_intervals_are_those_of_the_one_resample_at_a_time_loop(scored, monkeypatch):
    """The KLs' stacked bootstraps (`resampled.RESAMPLED`) against the loop they replace, on the NS set (rows) and
    the template set (crossed): the same intervals to rounding; every other metric's unchanged."""

    def run():
        return {(task, x.name): x.ci for task in ("ns", "template") for x in metrics.metrics_for(task, scored)}

    fast = run()
    monkeypatch.setattr(metrics, "RESAMPLED", {})
    slow = run()
    assert fast.keys() == slow.keys() and {("ns", "kl"), ("template", "kl_columns")} <= fast.keys()
    for key in fast:
        if fast[key] is not None:
            np.testing.assert_allclose(fast[key], slow[key], rtol=1e-9, err_msg=str(key))


def test_the_crossed_means_intervals_are_those_of_the_loop(scored, monkeypatch):
    """`stats.crossed_mean`'s stacked bootstrap (the template set's prompt means and gaps, the compare task's
    excess bias) and template_bias_sd's against the plain one-resample-at-a-time statistics: the same intervals
    to rounding."""

    def run():
        return {(task, x.name): x.ci for task in ("template", "compare") for x in metrics.metrics_for(task, scored)}

    fast = run()

    def loop_mean(table):
        table = np.asarray(table, float)
        return lambda r, c: float(table[np.ix_(r, c)].mean())

    monkeypatch.setattr(metrics, "crossed_mean", loop_mean)
    monkeypatch.setattr(metrics, "with_rows", lambda stacked: lambda statistic: statistic)  # template_bias_sd's too
    slow = run()
    assert fast.keys() == slow.keys() and {("compare", "excess_bias"), ("template", "template_bias_sd")} <= fast.keys()
    for key in fast:
        if fast[key] is not None:
            np.testing.assert_allclose(fast[key], slow[key], rtol=1e-9, err_msg=str(key))


@pytest.mark.parametrize("first", ["template", "compare"])
def test_emd_intervals_equal_the_loop_in_either_task_order(scored, first):
    """The template set's ``emd`` and the compare task's ``excess_emd`` read one kept set of resampled EMDs
    (`resampled.emd_resampled`); whichever task runs first, both intervals are those of the plain per-resample
    statistic under `bootstrap_crossed` (the same draws)."""
    from biascheck.stats import bootstrap_crossed

    rng = np.random.default_rng(3)
    sets = {}
    for name in ("ns", "template"):
        s = getattr(scored, name)
        probs = {pert: rng.random(p.shape) for pert, p in s.probs.items()}
        sets[name] = dataclasses.replace(s, probs=probs)
    fresh = dataclasses.replace(scored, ns=sets["ns"], template=sets["template"])
    order = [first, "compare" if first == "template" else "template"]
    got = {task: {x.name: x for x in metrics.metrics_for(task, fresh)} for task in order}
    tp_he, tp_she = fresh.template.p("he"), fresh.template.p("she")
    ns_he, ns_she = fresh.ns.p("he"), fresh.ns.p("she")
    n, k = tp_he.shape

    def tp_emd(rows, cols):
        return m.emd(tp_he[np.ix_(rows, cols)], tp_she[np.ix_(rows, cols)])

    def excess(rows, cols):
        return tp_emd(rows, cols) - m.emd(ns_he[rows], ns_she[rows])

    assert got["template"]["emd"].ci == bootstrap_crossed(tp_emd, n, k)
    assert got["compare"]["excess_emd"].ci == bootstrap_crossed(excess, n, k)
    assert len(fresh.resampled) == 1  # one set of draws, computed once
