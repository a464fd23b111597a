"""The paired comparison (`biascheck.gate.paired`): hand calculations, scipy's paired bootstrap, and the rule
in `compare` (paired where both runs carry the same items and a recipe; otherwise the unpaired rule)."""

import math

import numpy as np
import pytest
from scipy import stats

from biascheck.gate import baseline as bl
from biascheck.gate import paired as pr
from biascheck.report import regression
from biascheck.spec import PAIRED_STATISTICS, Paired
from biascheck.stats import SEED, bootstrap_ci

MEAN = {"statistic": "mean", "fields": ["x"], "cluster": "row", "items_of": None}


def items(values, cluster=None, **more):
    return [
        {"row": i, "x": None if v is None else float(v), **({"c": cluster[i]} if cluster is not None else {}), **more}
        for i, v in enumerate(values)
    ]


def test_every_declared_statistic_has_a_function_and_a_recipe_checks_its_fields():
    assert set(PAIRED_STATISTICS) == set(pr.STATISTICS)
    with pytest.raises(ValueError, match="takes 2 fields"):
        Paired(statistic="pearson", fields=("x",), cluster="row")
    with pytest.raises(ValueError, match="use one of"):
        Paired(statistic="mode", fields=("x",), cluster="row")


def test_two_items_hand_calculation():
    """Items a (change 0) and b (change 1): a resample of 2 is aa (0), ab or ba (0.5) or bb (1), each aa and bb
    with probability 1/4, so the 2.5 % and 97.5 % points are 0 and 1: half-width 0.5."""
    found = pr.paired_change(MEAN, items([0.0, 0.0]), items([0.0, 1.0]), n_resamples=4000)
    assert (found.change, found.low, found.high, found.half_width) == (0.5, 0.0, 1.0, 0.5)
    assert (found.n_items, found.n_clusters) == (2, 2)


def test_a_change_every_item_shares_has_no_paired_noise():
    """new = base + 0.1 on every item: every resample's change is 0.1, so the interval is [0.1, 0.1], where the
    unpaired rule sees the items' whole spread twice."""
    base = np.random.default_rng(1).normal(size=100)
    found = pr.paired_change(MEAN, items(base), items(base + 0.1))
    assert found.low == pytest.approx(0.1) and found.high == pytest.approx(0.1) and found.half_width < 1e-12


def expanded(clusters: int) -> float:
    """Step 4's level by scipy.stats: 2 Φ(√(C / (C − 1)) t(C − 1)) − 1 at 95 %."""
    return float(2 * stats.norm.cdf(np.sqrt(clusters / (clusters - 1)) * stats.t.ppf(0.975, clusters - 1)) - 1)


@pytest.mark.parametrize("clusters", [2, 3, 20, 60, 262, 10_000])
def test_the_expanded_level_is_the_t_quantiles_by_scipy(clusters):
    """Hesterberg's expanded percentile interval: wider than 95 % over few clusters (20: 96.8 %), 95 % in the
    limit; one cluster keeps the level asked for."""
    assert pr.expanded_level(0.95, clusters) == pytest.approx(expanded(clusters), abs=1e-12)
    assert pr.expanded_level(0.95, 1) == 0.95
    assert round(pr.expanded_level(0.95, 20), 3) == 0.968


@pytest.mark.parametrize(
    ("statistic", "fields", "function"),
    [
        ("mean_difference", ["x", "y"], lambda x, y, axis=-1: np.mean(x - y, axis=axis)),
        ("share_greater", ["x", "y"], lambda x, y, axis=-1: np.mean(x > y, axis=axis)),
        ("pearson", ["x", "y"], lambda x, y, axis=-1: stats.pearsonr(x, y, axis=axis).statistic),
        ("spearman", ["x", "y"], None),
    ],
)
def test_one_item_per_cluster_is_scipys_paired_bootstrap(statistic, fields, function, monkeypatch):
    """The same seed draws the same resamples as scipy.stats.bootstrap(paired=True): the same interval of
    statistic(new) - statistic(base) (Pearson's jackknife floor, step 5, off: tested below)."""
    monkeypatch.setattr(pr, "JACKKNIFE_FLOOR", frozenset())
    rng = np.random.default_rng(7)
    x0, y = rng.normal(size=60), rng.normal(size=60)
    x1 = x0 + rng.normal(scale=0.3, size=60)
    base = [{"row": i, "x": float(a), "y": float(b)} for i, (a, b) in enumerate(zip(x0, y, strict=True))]
    new = [{"row": i, "x": float(a), "y": float(b)} for i, (a, b) in enumerate(zip(x1, y, strict=True))]
    recipe = {"statistic": statistic, "fields": fields, "cluster": "row"}
    found = pr.paired_change(recipe, base, new)

    def one(x, yy):
        return stats.spearmanr(x, yy).statistic if function is None else function(x, yy)

    def change(a0, a1, b):
        return one(a1, b) - one(a0, b)

    theirs = stats.bootstrap(
        (x0, x1, y), change, paired=True, vectorized=False, n_resamples=1000, method="percentile",
        confidence_level=expanded(60), random_state=np.random.default_rng(SEED),
    ).confidence_interval  # fmt: skip
    assert (found.low, found.high) == (pytest.approx(theirs.low, abs=1e-12), pytest.approx(theirs.high, abs=1e-12))


def _jackknife_by_hand(x0, x1, y):
    """The jackknife standard error of r(x1, y) - r(x0, y), one row left out at a time, by scipy's pearsonr."""
    changes = [
        stats.pearsonr(np.delete(x1, i), np.delete(y, i)).statistic
        - stats.pearsonr(np.delete(x0, i), np.delete(y, i)).statistic
        for i in range(len(y))
    ]
    return np.sqrt((len(y) - 1) / len(y) * np.sum((np.array(changes) - np.mean(changes)) ** 2))


def test_pearsons_interval_is_at_least_its_jackknife_bounds():
    """Step 5: heavy-tailed rows (t with 2 degrees of freedom: a few far out, moving between the runs) make the
    percentile interval of a change of Pearson r narrower than ±1.96 jackknife SEs (0.26 against 0.35 here); the
    gate's interval is then those bounds about the percentile interval's middle, the SE checked against a
    leave-one-out loop over scipy's pearsonr."""
    rng = np.random.default_rng(0)
    y = rng.normal(size=40)
    x0 = y + rng.standard_t(2, size=40)
    x1 = x0 + rng.standard_t(2, size=40)
    base = [{"row": i, "x": float(a), "y": float(b)} for i, (a, b) in enumerate(zip(x0, y, strict=True))]
    new = [{"row": i, "x": float(a), "y": float(b)} for i, (a, b) in enumerate(zip(x1, y, strict=True))]
    recipe = {"statistic": "pearson", "fields": ["x", "y"], "cluster": "row"}
    clusters, before, after = pr.paired_columns(recipe, base, new)
    plain = pr.bootstrap_change(pr.STATISTICS["pearson"], clusters, before, after)
    found = pr.paired_change(recipe, base, new)
    floor = 1.959964 * _jackknife_by_hand(x0, x1, y)
    assert (plain[1] - plain[0]) / 2 < floor  # the case step 5 is for
    assert found.half_width == pytest.approx(floor, rel=1e-5)
    assert (found.low + found.high) / 2 == pytest.approx((plain[0] + plain[1]) / 2)


def test_the_jackknife_floor_never_narrows_and_is_pearsons_only():
    """Where the percentile interval is the wider (well-behaved rows), Pearson's interval is it unchanged; the
    other statistics never get the floor."""
    rng = np.random.default_rng(8)
    x0, y = rng.normal(size=60), rng.normal(size=60)
    x1 = x0 + rng.normal(scale=0.3, size=60)
    columns = pr.paired_columns(
        {"statistic": "pearson", "fields": ["x", "y"], "cluster": "row"},
        [{"row": i, "x": float(a), "y": float(b)} for i, (a, b) in enumerate(zip(x0, y, strict=True))],
        [{"row": i, "x": float(a), "y": float(b)} for i, (a, b) in enumerate(zip(x1, y, strict=True))],
    )
    plain = pr.bootstrap_change(pr.STATISTICS["pearson"], *columns)
    floored = pr.bootstrap_change(pr.STATISTICS["pearson"], *columns, jackknife_floor=True)
    assert (plain[1] - plain[0]) / 2 >= 1.959964 * _jackknife_by_hand(x0, x1, y)
    assert floored == plain
    assert pr.JACKKNIFE_FLOOR == {"pearson"}


def test_clusters_are_resampled_whole_and_the_same_for_both_runs():
    """Three items per cluster (a template): the mean of a resample of whole clusters of equal size is the mean of
    their cluster means, so the interval is scipy's bootstrap of the clusters' mean changes, draw for draw."""
    rng = np.random.default_rng(3)
    base = rng.normal(size=90)
    new = base + rng.normal(size=30).repeat(3) * 0.2 + rng.normal(size=90) * 0.05
    cluster = np.arange(90) // 3
    found = pr.paired_change({**MEAN, "cluster": "c"}, items(base, cluster), items(new, cluster))
    per_cluster = (new - base).reshape(30, 3).mean(axis=1)
    theirs = stats.bootstrap(
        (per_cluster,), np.mean, n_resamples=1000, method="percentile", confidence_level=expanded(30),
        random_state=np.random.default_rng(SEED),
    ).confidence_interval  # fmt: skip
    assert found.n_clusters == 30 and found.n_items == 90
    assert (found.low, found.high) == (pytest.approx(theirs.low, abs=1e-12), pytest.approx(theirs.high, abs=1e-12))


def test_items_pair_by_identity_not_position():
    base = items([0.0, 1.0, 2.0, 3.0])
    new = items([0.5, 1.0, 2.0, 3.5])
    assert pr.paired_change(MEAN, base, new[::-1]) == pr.paired_change(MEAN, base, new)


FOUR = items([1.0, 2.0, 3.0, 4.0])
IN_TWO = {**MEAN, "cluster": "c"}


@pytest.mark.parametrize(
    ("recipe", "base", "new", "values", "reason"),
    [
        (MEAN, FOUR, items([1.0, 2.0, 3.0]), None, "different items (1 only in the baseline, 0 only in this run)"),
        (IN_TWO, items([1, 2, 3, 4], [0, 0, 1, 1]), items([1, 2, 3, 4], [0, 1, 0, 1]), None, "in another 'c'"),
        (MEAN, FOUR, FOUR, (2.5, 9.0), "the items recompute 2.5 and 2.5, not the recorded 2.5 and 9"),
        (MEAN, FOUR, items([1.0, 2.0, 3.0, None]), None, "lacks its cluster 'row' or a number in x"),
        (MEAN, FOUR, [], None, "a run has no items"),
        ({**MEAN, "statistic": "mode"}, FOUR, FOUR, None, "unknown paired statistic 'mode'"),
        (MEAN, FOUR + FOUR, FOUR + FOUR, None, "no identity that names each once"),
    ],
)
def test_what_cannot_be_paired_is_a_reason(recipe, base, new, values, reason):
    found = pr.paired_change(recipe, base, new, values)
    assert isinstance(found, str) and reason in found


def flips(n=262, share=0.538, flipped=8, seed=0):
    """A CrowS-Pairs-like run: 0/1 per pair (does the model prefer the stereotype), and the same run with
    `flipped` pairs turned from 0 to 1 (a release that moved the share up by flipped / n)."""
    base = np.random.default_rng(seed).permutation((np.arange(n) < round(share * n)).astype(float))
    new = base.copy()
    new[np.flatnonzero(base == 0)[:flipped]] = 1.0
    return base, new


def test_on_correlated_runs_the_paired_interval_is_much_narrower_than_the_quadrature_rule():
    """8 of 262 pairs flip (+0.031): the paired half-width is about 1.96 * sqrt(p (1 - p) / n) with p = 8/262,
    ~0.021, so the change is seen; the unpaired rule adds two half-widths of ~0.06 in quadrature (~0.085)."""
    base, new = flips()
    found = pr.paired_change({**MEAN, "statistic": "share_positive"}, items(base), items(new))
    quadrature = math.hypot(*((hi - lo) / 2 for lo, hi in (bootstrap_ci(np.mean, base), bootstrap_ci(np.mean, new))))
    p = 8 / 262
    assert found.change == pytest.approx(p)
    assert found.half_width == pytest.approx(1.96 * math.sqrt(p * (1 - p) / 262), rel=0.2)
    assert 0.075 < quadrature < 0.095 and found.half_width < 0.3 * quadrature and found.change > found.half_width


def test_on_uncorrelated_runs_the_paired_interval_is_the_quadrature_rule():
    """Two independent scorings of the same 400 items: nothing is shared, and the paired half-width is (within
    Monte Carlo error) the unpaired one, sqrt(h_base² + h_new²)."""
    rng = np.random.default_rng(11)
    base, new = rng.normal(size=400), rng.normal(size=400)
    found = pr.paired_change(MEAN, items(base), items(new))
    quadrature = math.hypot(*((hi - lo) / 2 for lo, hi in (bootstrap_ci(np.mean, base), bootstrap_ci(np.mean, new))))
    assert found.half_width == pytest.approx(quadrature, rel=0.12)


def record(model, value, items_, recipe, metric="stereo_share", ci=0.06):
    return {
        "model": model, "probe": "crows", "task": "all", "metric": metric, "value": value,
        "ci_low": value - ci, "ci_high": value + ci, "better": "target", "target": 0.5, "items": items_,
        "paired": recipe,
    }  # fmt: skip


def test_compare_uses_the_paired_rule_where_both_runs_carry_the_items_and_says_so():
    base, new = flips()
    recipe = {"statistic": "share_positive", "fields": ["x"], "cluster": "row", "items_of": None}
    b, n = record("m", base.mean(), items(base), recipe), record("m", new.mean(), items(new), recipe)
    paired = bl.compare({"results": [b]}, {"results": [n]})[0]
    assert paired.noise_source == "paired" and paired.status == bl.REGRESSED  # 0.538 -> 0.569: further from 0.5
    assert paired.noise == pytest.approx(pr.paired_change(recipe, b["items"], n["items"]).half_width)
    assert "paired" in regression.table([paired])
    for older in ({**b, "items": None}, {**b, "paired": None}):  # a run saved without items, or before recipes
        unpaired = bl.compare({"results": [older]}, {"results": [n]})[0]
        assert unpaired.noise_source == "intervals" and unpaired.status == bl.WITHIN
        assert unpaired.noise == pytest.approx(math.hypot(0.06, 0.06))


def test_a_metric_reads_the_items_of_the_metric_named_by_its_recipe_in_the_same_run():
    base, new = flips()
    own = {"statistic": "share_positive", "fields": ["x"], "cluster": "row", "items_of": None}
    borrowed = {"statistic": "mean", "fields": ["x"], "cluster": "row", "items_of": "stereo_share"}
    runs = [
        {"results": [record("m", v.mean(), items(v), own), record("m", v.mean(), None, borrowed, metric="mean_x")]}
        for v in (base, new)
    ]
    by_metric = {c.key: c for c in bl.compare(*runs)}
    assert by_metric["crows.all.mean_x"].noise_source == "paired"
    assert by_metric["crows.all.mean_x"].noise == pytest.approx(by_metric["crows.all.stereo_share"].noise)


def test_a_rounding_the_items_cannot_show_is_within_the_noise():
    """Scores saved at 4 decimals: two runs that differ only in the 6th decimal have identical items (a paired
    half-width of 0), and their recorded change of 1e-6 is within the noise, not a regression."""
    recipe = {"statistic": "mean", "fields": ["x"], "cluster": "row", "items_of": None}
    values = [round(v, 4) for v in np.linspace(0.1234, 0.9, 24)]  # 24 clusters: enough for the paired rule
    b = record("m", float(np.mean(values)), items(values), {**recipe})
    n = record("m", float(np.mean(values)) + 1e-6, items(values), {**recipe})
    found = bl.compare({"results": [b]}, {"results": [n]})[0]
    assert found.noise_source == "paired" and found.status == bl.WITHIN and found.noise == pytest.approx(1e-6)


def test_a_metric_over_too_few_clusters_keeps_the_unpaired_rule():
    """One item per run (a fake probe's): every resample shares the change, a paired noise of 0 made any
    change a regression; under `MIN_CLUSTERS` the comparison keeps the intervals' rule and says why not."""
    from biascheck.gate import paired

    recipe = {"statistic": "mean", "fields": ["x"], "cluster": "row", "items_of": None}
    b = record("m", 1.0, items([1.0]), {**recipe})
    n = record("m", 1.05, items([1.05]), {**recipe})
    rb, rn = bl.saved_result(b), bl.saved_result(n)
    assert paired.paired_noise([rb], rb, [rn], rn).startswith("only 1 clusters")
    found = bl.compare({"results": [b]}, {"results": [n]})[0]
    assert found.noise_source != "paired"


def test_a_several_model_baseline_keeps_its_fluctuation_band():
    base, new = flips()
    recipe = {"statistic": "share_positive", "fields": ["x"], "cluster": "row", "items_of": None}
    sweep = {"results": [record(f"s{i}", base.mean() + 0.1 * i, items(base), recipe) for i in range(3)]}
    found = bl.compare(sweep, {"results": [record("new", new.mean(), items(new), recipe)]})[0]
    assert found.noise_source == "fluctuation" and found.noise == pytest.approx(1.96 * 0.1)


def test_a_recipe_over_a_subset_reads_only_the_items_that_meet_its_conditions():
    """`where`: a share over the female-majority pairs recomputes from those items alone, by hand: of the three
    such items two are positive (2/3); an item without the field (a run saved before it) meets no condition."""
    own = {"statistic": "share_positive", "fields": ["x"], "cluster": "row", "items_of": None}
    subset = {**own, "items_of": "stereo_share", "where": [["g", "female"]]}
    rows = [{"row": i, "x": x, "g": g} for i, (x, g) in enumerate([(1.0, "female"), (-1.0, "male"), (2.0, "female"),
                                                                  (-3.0, "female"), (4.0, "male")])]  # fmt: skip
    run = [
        bl.saved_result(record("m", 0.6, rows, own)),
        bl.saved_result(record("m", 2 / 3, None, subset, metric="share_female")),
    ]
    found = pr.items_for(run, run[1])
    assert [item["row"] for item in found] == [0, 2, 3]
    assert pr.STATISTICS["share_positive"]([np.array([i["x"] for i in found])]) == pytest.approx(2 / 3)
    older = [bl.saved_result(record("m", 0.6, [{"row": 0, "x": 1.0}], own)), run[1]]
    assert pr.items_for(older, older[1]) == []


def test_a_condition_of_several_values_takes_an_item_with_any_of_them():
    """pronoun_ratio's stereotype_agreement reads the professions stereotyped either way (`where` with a list):
    an item without the field, or with another value, is left out; None takes every item that has the field
    (spearman_bls: the professions with a BLS share)."""
    recipe = {"statistic": "share_positive", "fields": ["x"], "cluster": "row", "items_of": None,
              "where": [["stereotype", ["female", "male"]]]}  # fmt: skip
    rows = [{"row": 0, "x": 1.0, "stereotype": "female"}, {"row": 1, "x": 1.0}, {"row": 2, "x": -1.0,
            "stereotype": "male"}, {"row": 3, "x": 1.0, "stereotype": "neither"}]  # fmt: skip
    run = [bl.saved_result(record("m", 0.5, rows, recipe))]
    assert [item["row"] for item in pr.items_for(run, run[0])] == [0, 2]
    anything = {**recipe, "where": [["stereotype", None]]}  # None: any value, the item has the field
    run = [bl.saved_result(record("m", 2 / 3, rows, anything))]
    assert [item["row"] for item in pr.items_for(run, run[0])] == [0, 2, 3]
    where = (("g", ("a", "b")), ("h", None))
    assert Paired(statistic="mean", fields=("x",), cluster="row", where=where).to_json()["where"] == [
        ["g", ["a", "b"]],
        ["h", None],
    ]


def test_the_f1_statistics_are_sklearns_on_every_row():
    """f1_of_1, f1_of_0 and macro_f1 against sklearn.metrics.f1_score (zero_division=0: a class neither in gold nor
    predicted scores 0, as the Norwegian probe's class F1 does)."""
    from sklearn.metrics import f1_score

    rng = np.random.default_rng(8)
    gold, pred = rng.integers(0, 2, (30, 15)), rng.integers(0, 2, (30, 15))
    gold[0], pred[0] = 0, 0
    columns = [gold.astype(float), pred.astype(float)]
    ours = {name: pr.STATISTICS[name](columns) for name in ("f1_of_1", "f1_of_0", "macro_f1")}
    for i in range(30):
        theirs = f1_score(gold[i], pred[i], labels=[0, 1], average=None, zero_division=0)
        assert (ours["f1_of_1"][i], ours["f1_of_0"][i]) == (pytest.approx(theirs[1]), pytest.approx(theirs[0]))
        assert ours["macro_f1"][i] == pytest.approx(f1_score(gold[i], pred[i], labels=[0, 1], average="macro",
                                                             zero_division=0))  # fmt: skip
    assert ours["f1_of_1"][0] == 0.0


def test_clusters_of_equal_size_are_drawn_in_blocks_with_the_same_items_as_one_at_a_time():
    """`members_of`: where every cluster has as many items, the block path yields, row for row, the items the
    one-resample-at-a-time path concatenates; where sizes differ it takes that path."""
    members = [np.array([0, 1]), np.array([2, 3]), np.array([4, 5])]
    draws = np.random.default_rng(3).integers(0, 3, (250, 3))
    blocks = np.concatenate(list(pr.members_of(draws, members)))
    assert blocks.shape == (250, 6)
    assert all((blocks[i] == np.concatenate([members[c] for c in row])).all() for i, row in enumerate(draws))
    uneven = [np.array([0]), np.array([1, 2]), np.array([3])]
    rows = list(pr.members_of(draws, uneven))
    assert len(rows) == 250 and all(len(r) == sum(len(uneven[c]) for c in d) for r, d in zip(rows, draws, strict=True))
