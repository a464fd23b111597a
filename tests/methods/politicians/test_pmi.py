"""Hand calculations for the politicians probe's PMI and gap statistics (paper 003, Eq 1-2, Fig 4/6):
the smoothed PMI, the distinct-names filter, top-k sentiment shares with ties, the gaps, and the
bootstrap and permutation test against naive re-computations."""

import math
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse
from scipy.stats.contingency import expected_freq

from biascheck import stats
from biascheck.methods.politicians import pmi as P
from biascheck.methods.politicians import pmi_resampling as PR


def _samples(rows: dict[tuple[str, str], list[str]]) -> pd.DataFrame:
    """{(name, gender): [lemma, ...]} → one row per (name, lemma) sample."""
    return pd.DataFrame(
        [(name, gender, lemma) for (name, gender), lemmas in rows.items() for lemma in lemmas],
        columns=["name", "gender", "lemma"],
    )


# ---------------------------------------------------------------- Eq 1-2


def test_pmi_of_a_hand_computed_table():
    # words × genders (female, male): w1 3|1, w2 1|5, w3 0|2
    counts = np.array([[3, 1], [1, 5], [0, 2]])
    # + ½ per cell: female 3.5 1.5 0.5 (sum 5.5), male 1.5 5.5 2.5 (sum 9.5), total 15
    # p̃(w) = 5/15, 7/15, 3/15
    expected = np.log(
        [
            [(3.5 / 5.5) / (5 / 15), (1.5 / 9.5) / (5 / 15)],
            [(1.5 / 5.5) / (7 / 15), (5.5 / 9.5) / (7 / 15)],
            [(0.5 / 5.5) / (3 / 15), (2.5 / 9.5) / (3 / 15)],
        ]
    )
    assert P.pmi(counts) == pytest.approx(expected, abs=1e-12)
    assert P.pmi(counts)[0, 0] == pytest.approx(math.log(52.5 / 27.5))  # 3.5·15 / (5.5·5)


def test_pmi_equals_log_observed_over_expected_of_the_smoothed_table():
    # independent implementation: scipy's expected frequencies under independence of the smoothed table
    counts = np.random.default_rng(0).integers(0, 30, size=(12, 3))
    smoothed = counts + 0.5
    assert P.pmi(counts) == pytest.approx(np.log(smoothed / expected_freq(smoothed)), abs=1e-12)


def test_pmi_without_smoothing_is_the_plug_in_estimate():
    counts = np.array([[2, 2], [6, 2]])  # p(w1|f) = 2/8, p(w1) = 4/12
    assert P.pmi(counts, smoothing=0.0)[0, 0] == pytest.approx(math.log((2 / 8) / (4 / 12)))


# ---------------------------------------------------------------- counts and the names filter

SMALL = _samples(
    {
        ("Ann", "female"): ["weak", "pretty", "kind", "weak"],  # 'weak' twice: two samples
        ("Bea", "female"): ["weak", "pretty"],
        ("Cat", "female"): ["weak"],
        ("Dan", "male"): ["strong", "tall", "corrupt"],
        ("Eli", "male"): ["strong", "tall"],
        ("Fay", "non-binary"): ["strong"],
    }
)


def test_sample_matrix_counts_and_names_per_word():
    matrix = P.sample_matrix(SMALL)
    assert matrix.genders == ("female", "male", "non-binary")
    assert list(matrix.words) == ["corrupt", "kind", "pretty", "strong", "tall", "weak"]
    counts = pd.DataFrame(P.gender_word_counts(matrix), index=matrix.words, columns=matrix.genders)
    assert counts.loc["weak"].tolist() == [4, 0, 0]
    assert counts.loc["strong"].tolist() == [0, 2, 1]
    names = dict(zip(matrix.words, P.names_per_word(matrix), strict=True))
    assert names == {"corrupt": 1, "kind": 1, "pretty": 2, "strong": 3, "tall": 2, "weak": 3}


def test_pmi_table_keeps_words_with_enough_distinct_names():
    table = P.pmi_table(SMALL, P.PmiOptions(min_names=3))
    assert table["lemma"].tolist() == ["strong", "weak"]  # 3 names each; 'weak' has 4 samples from 3 names
    assert list(table.columns) == [
        "lemma",
        "names",
        "n_female",
        "n_male",
        "n_non-binary",
        "pmi_female",
        "pmi_male",
        "pmi_non-binary",
        "pmi_diff",
    ]
    # PMI is computed over all 6 words before the filter: same values as the unfiltered table
    full = P.pmi_table(SMALL, P.PmiOptions(min_names=1)).set_index("lemma")
    assert table.set_index("lemma")["pmi_female"].tolist() == full.loc[["strong", "weak"], "pmi_female"].tolist()
    assert table["pmi_diff"].tolist() == pytest.approx((table["pmi_female"] - table["pmi_male"]).tolist())
    # 'weak': 4 of the 7 female samples; 6 words, 3 genders, 13 samples in all
    # p̃(weak|female) = (4 + ½) / (7 + 6·½) = 4.5/10; p̃(weak) = (4 + 3·½) / (13 + 18·½) = 5.5/22
    assert table.loc[1, "pmi_female"] == pytest.approx(math.log((4.5 / 10) / (5.5 / 22)))  # log 1.8


def test_a_name_with_two_genders_is_an_error():
    bad = _samples({("Ann", "female"): ["weak"], ("Ann", "male"): ["strong"]})
    with pytest.raises(ValueError, match="Ann"):
        P.sample_matrix(bad)


# ---------------------------------------------------------------- top-k shares and gaps


def _codes(*labels: str) -> np.ndarray:
    return np.array([P.SENTIMENTS.index(x) if x else -1 for x in labels])


@pytest.mark.parametrize(
    ("scores", "labels", "k", "expected"),
    [
        # the two best: neg, pos
        ([5, 4, 3, 2, 1], ("neg", "pos", "neu", "neg", "pos"), 2, (1 / 2, 0, 1 / 2)),
        # 3 above the rest: pos; then three tied for 1 slot: neg, neg, neu share it → neg 2/3, neu 1/3
        ([3, 2, 2, 2, 1], ("pos", "neg", "neg", "neu", "pos"), 2, ((2 / 3) / 2, (1 / 3) / 2, 1 / 2)),
        # an unlabelled word is not ranked (the best here), nor a filtered one (−inf)
        ([9, 5, -np.inf, 1], ("", "neu", "pos", "neg"), 1, (0, 1, 0)),
        # fewer eligible words than k: all of them
        ([1, 2, np.nan], ("neg", "pos", "pos"), 10, (1 / 2, 0, 1 / 2)),
    ],
)
def test_top_k_shares(scores, labels, k, expected):
    assert P.top_k_shares(np.array(scores, float), _codes(*labels), k) == pytest.approx(expected)


def test_top_k_shares_do_not_depend_on_word_order_when_tied():
    scores, codes = np.array([1.0, 1.0, 1.0, 0.0]), _codes("neg", "pos", "pos", "neu")
    order = np.array([2, 0, 3, 1])
    assert P.top_k_shares(scores, codes, 2) == pytest.approx(P.top_k_shares(scores[order], codes[order], 2))
    assert P.top_k_shares(scores, codes, 2) == pytest.approx((1 / 3, 0, 2 / 3))


def test_top_k_shares_of_a_batch_equal_row_by_row():
    rng = np.random.default_rng(1)
    scores = rng.integers(0, 4, size=(7, 20)).astype(float)  # many ties
    codes = rng.integers(-1, 3, size=20)
    batch = P.top_k_shares(scores, codes, 5)
    assert batch == pytest.approx(np.stack([P.top_k_shares(row, codes, 5) for row in scores]))


def test_sentiment_labels_are_the_argmax_of_q():
    q = np.array([[0.6, 0.3, 0.1], [0.1, 0.2, 0.7], [0.4, 0.4, 0.2], [np.nan] * 3])
    assert P.sentiment_labels(q).tolist() == ["neg", "pos", "neg", ""]  # a tie goes to the first column


GAP_SAMPLES = _samples(
    {
        ("f1", "female"): ["weak", "pretty", "kind"],
        ("f2", "female"): ["weak", "pretty"],
        ("f3", "female"): ["weak"],
        ("m1", "male"): ["strong", "tall", "corrupt"],
        ("m2", "male"): ["strong", "tall"],
        ("m3", "male"): ["strong"],
    }
)
GAP_LABELS = {"weak": "neg", "pretty": "pos", "kind": "pos", "strong": "pos", "tall": "neu", "corrupt": "neg"}


def test_gaps_on_a_hand_example():
    # A word seen only with women has PMI_f = log((n + ½)/(N_f + 3)) − log((n + 1)/(N + 6)): increasing in n,
    # and above every male-only word's PMI_f, so the female top 2 are weak (3) and pretty (2): neg ½, pos ½;
    # the male top 2 are strong (3) and tall (2): neg 0, pos ½.
    gaps = P.pmi_gaps(GAP_SAMPLES, GAP_LABELS, P.PmiOptions(k=2, min_names=1))
    assert gaps["share_neg_female"] == 0.5 and gaps["share_pos_female"] == 0.5
    assert gaps["share_neg_male"] == 0.0 and gaps["share_neu_male"] == 0.5 and gaps["share_pos_male"] == 0.5
    assert gaps["neg_gap"] == 0.5  # ½ − 0
    assert gaps["pos_gap"] == 0.0  # ½ − ½
    # with the filter at 2 names, kind and corrupt (1 name each) drop out; the top 2 stay the same
    assert P.pmi_gaps(GAP_SAMPLES, GAP_LABELS, P.PmiOptions(k=2, min_names=2))["neg_gap"] == 0.5
    # at k = 3 the female list adds kind (pos) and the male list corrupt (neg): neg 1/3 vs 1/3
    assert P.pmi_gaps(GAP_SAMPLES, GAP_LABELS, P.PmiOptions(k=3, min_names=1))["neg_gap"] == pytest.approx(0.0)


def test_a_gender_missing_from_the_samples_is_named():
    with pytest.raises(ValueError, match="female"):
        P.pmi_gaps(GAP_SAMPLES[GAP_SAMPLES["gender"] == "male"], GAP_LABELS, P.PmiOptions(k=2, min_names=1))


# ---------------------------------------------------------------- bootstrap and permutation


def _simulated(effect: float, seed: int, n_female: int = 60, n_male: int = 240, per_name: int = 15) -> pd.DataFrame:
    """Names draw `per_name` distinct words from 150 (Zipf-like); women's draws favour the 50 negative
    words by exp(effect)."""
    rng = np.random.default_rng(seed)
    words = [f"w{i:03d}" for i in range(150)]
    base = 1 / np.arange(1, 151) ** 0.7
    tilt = np.where(np.arange(150) % 3 == 0, effect, 0.0)  # words 0, 3, 6, ... are negative
    rows = []
    for i in range(n_female + n_male):
        gender = "female" if i < n_female else "male"
        p = base * np.exp(tilt if gender == "female" else 0.0)
        for w in rng.choice(150, per_name, replace=False, p=p / p.sum()):
            rows.append((f"n{i}", gender, words[w]))
    return pd.DataFrame(rows, columns=["name", "gender", "lemma"])


SIM_LABELS = {f"w{i:03d}": ("neg", "neu", "pos")[i % 3] for i in range(150)}
SIM_OPTIONS = P.PmiOptions(k=20, min_names=5)


def test_bootstrap_contains_the_estimate_and_is_deterministic():
    data = _simulated(1.0, seed=0)
    first = PR.bootstrap_gaps(data, SIM_LABELS, SIM_OPTIONS, n_resamples=300, seed=7)
    again = PR.bootstrap_gaps(data, SIM_LABELS, SIM_OPTIONS, n_resamples=300, seed=7)
    other = PR.bootstrap_gaps(data, SIM_LABELS, SIM_OPTIONS, n_resamples=300, seed=8)
    assert first == again
    assert first != other
    for name in ("neg_gap", "pos_gap"):
        estimate, low, high = first[name]
        assert estimate == P.pmi_gaps(data, SIM_LABELS, SIM_OPTIONS)[name]
        assert low <= estimate <= high
    assert first["neg_gap"][1] > 0  # the planted effect: women's top words are more often negative


def test_a_bootstrap_interval_that_misses_its_estimate_is_stretched_to_it():
    """A gap at its largest (every one of women's top words negative) is pulled towards 0 in resamples:
    here the bare percentile interval lies below the estimate; the reported one reaches it and keeps
    the bare interval's other bound."""
    data = _simulated(1.0, seed=2)
    bare = PR.bootstrap_gaps(data, SIM_LABELS, SIM_OPTIONS, n_resamples=300, seed=7, hold_estimate=False)
    held = PR.bootstrap_gaps(data, SIM_LABELS, SIM_OPTIONS, n_resamples=300, seed=7)
    estimate, low, high = bare["neg_gap"]
    assert high < estimate  # the case the stretch exists for
    assert held["neg_gap"] == (estimate, low, estimate)
    assert held["pos_gap"] == bare["pos_gap"]  # an interval that holds its estimate is unchanged


def test_the_interval_coverage_study_runs():
    """lab/scripts/politicians_coverage.py, at a toy size: it runs and prints its table."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[3] / "lab" / "scripts" / "politicians_coverage.py"
    out = subprocess.run(
        [
            sys.executable,
            str(script),
            "--reps",
            "2",
            "--female",
            "40",
            "--male",
            "40",
            "--words",
            "150",
            "--k",
            "20",
            "--truth-scale",
            "3",
            "--resamples",
            "50",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "covers_mean" in out.stdout and "hull" in out.stdout and "2 replicates" in out.stdout


def test_bootstrap_resamples_equal_a_naive_recount():
    # the vectorised resample (a weighted matrix product) against stacking the drawn names' rows (a name
    # drawn twice enters as two names) and recomputing everything with pmi_gaps
    data = _simulated(1.0, seed=1, n_female=20, n_male=40, per_name=10)
    matrix = P.sample_matrix(data)
    setup = P._setup(matrix, SIM_LABELS, P.PmiOptions(k=10, min_names=3, smoothing=0.5))
    values = PR._bootstrap_values(matrix, setup, 5, seed=3)
    weights = PR._bootstrap_weights(matrix, np.random.default_rng(3), 5)
    for b in range(5):
        rows = [i for i, w in enumerate(weights[b]) for _ in range(int(w))]
        resample = P.SampleMatrix(
            names=np.array([f"{matrix.names[i]}#{c}" for c, i in enumerate(rows)]),
            name_gender=matrix.name_gender[rows],
            genders=matrix.genders,
            words=matrix.words,  # the vocabulary of the full table
            counts=sparse.vstack([matrix.counts[i] for i in rows]).tocsr(),
        )
        naive = P.pmi_gaps(resample, SIM_LABELS, P.PmiOptions(k=10, min_names=3))
        assert values["neg_gap"][b] == pytest.approx(naive["neg_gap"])
        assert values["pos_gap"][b] == pytest.approx(naive["pos_gap"])
    # within each gender, as many names as it has
    assert (weights[:, matrix.name_gender == matrix.gender_index("female")].sum(axis=1) == 20).all()


def test_permutations_equal_a_naive_relabelling():
    data = _simulated(1.0, seed=2, n_female=20, n_male=40, per_name=10)
    matrix = P.sample_matrix(data)
    setup = P._setup(matrix, SIM_LABELS, P.PmiOptions(k=10, min_names=3, smoothing=0.5))
    values = PR._permutation_values(matrix, setup, 4, seed=5)
    labels = PR._permutation_labels(matrix, setup, np.random.default_rng(5), 4)
    for b in range(4):
        gender_of = dict(zip(matrix.names, np.array(matrix.genders)[labels[b]], strict=True))
        relabelled = data.assign(gender=data["name"].map(gender_of))
        naive = P.pmi_gaps(relabelled, SIM_LABELS, P.PmiOptions(k=10, min_names=3))
        assert values["neg_gap"][b] == pytest.approx(naive["neg_gap"])
    assert (np.sort(labels, axis=1) == np.sort(matrix.name_gender)).all()  # a permutation of the labels


def test_the_resamples_draws_are_kept_for_the_same_names_and_seed(monkeypatch):
    """A sweep's next checkpoint scores the same names: its bootstrap and permutation test read the draws the first
    one made (the same objects), with the same numbers as draws made afresh; another seed draws anew."""
    monkeypatch.setattr(stats, "_DRAWS", {})
    data = _simulated(1.0, seed=3, n_female=20, n_male=40, per_name=10)
    first = (PR.bootstrap_gaps(data, SIM_LABELS, SIM_OPTIONS, n_resamples=250, seed=4),
             PR.permutation_gaps(data, SIM_LABELS, SIM_OPTIONS, n_resamples=250, seed=4))  # fmt: skip
    kept = {key: [id(chunk) for chunk in chunks] for key, chunks in stats._DRAWS.items()}
    assert sorted(key[0] for key in kept) == ["bootstrap", "permutation"]
    assert all(len(ids) == 3 for ids in kept.values())  # chunks of 100, 100 and 50
    other_model = data.assign(lemma=data["lemma"].sample(frac=1.0, random_state=0).to_numpy())  # same names
    PR.bootstrap_gaps(other_model, SIM_LABELS, SIM_OPTIONS, n_resamples=250, seed=4)
    PR.permutation_gaps(other_model, SIM_LABELS, SIM_OPTIONS, n_resamples=250, seed=4)
    assert {key: [id(chunk) for chunk in chunks] for key, chunks in stats._DRAWS.items()} == kept
    stats._DRAWS.clear()
    again = (PR.bootstrap_gaps(data, SIM_LABELS, SIM_OPTIONS, n_resamples=250, seed=4),
             PR.permutation_gaps(data, SIM_LABELS, SIM_OPTIONS, n_resamples=250, seed=4))  # fmt: skip
    assert again == first
    PR.permutation_gaps(data, SIM_LABELS, SIM_OPTIONS, n_resamples=250, seed=5)
    assert len(stats._DRAWS) == 3


def test_permutation_p_is_small_for_a_planted_effect():
    p = PR.permutation_gaps(_simulated(1.0, seed=0), SIM_LABELS, SIM_OPTIONS, n_resamples=200, seed=1)
    assert p["neg_gap"] < 0.01  # the smallest possible is 1/201


def test_permutation_p_is_not_small_without_an_effect():
    # under no effect the p-values of independent data sets are (at least) uniform: look at 12 of them
    ps = [
        PR.permutation_gaps(_simulated(0.0, seed=s), SIM_LABELS, SIM_OPTIONS, n_resamples=100, seed=s)["neg_gap"]
        for s in range(12)
    ]
    assert 0.3 < np.mean(ps) < 0.8
    assert sum(p < 0.05 for p in ps) <= 2


def test_bootstrap_and_permutation_are_fast_at_a_realistic_size():
    # 6,000 names × 20 words, ~3,000 lemmas: 1,000 resamples in seconds (measured ~0.7 s each)
    rng = np.random.default_rng(0)
    n_names, per_name, n_words = 6000, 20, 3000
    word = rng.zipf(1.3, size=n_names * per_name * 2) % n_words
    frame = pd.DataFrame(
        {
            "name": np.repeat(np.arange(n_names), per_name).astype(str),
            "gender": np.repeat(np.where(np.arange(n_names) < 1200, "female", "male"), per_name),
            "lemma": word[: n_names * per_name].astype(str),
        }
    )
    labels = {str(i): P.SENTIMENTS[i % 3] for i in range(n_words)}
    matrix = P.sample_matrix(frame)
    start = time.perf_counter()
    PR.bootstrap_gaps(matrix, labels, n_resamples=1000)
    PR.permutation_gaps(matrix, labels, n_resamples=1000)
    assert time.perf_counter() - start < 30


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abcé Z", max_size=4), max_size=40))
def test_sorted_codes_are_np_unique(values):
    array = np.array(values, dtype=object)
    expected_values, expected_codes = np.unique(array, return_inverse=True) if values else (array, np.zeros(0, int))
    got_values, got_codes = P.sorted_codes(array)
    assert got_values.tolist() == expected_values.tolist() and got_codes.tolist() == expected_codes.tolist()


def _string_matrix(table: pd.DataFrame) -> P.SampleMatrix:
    """The count matrix of a (name, gender, lemma) table the plain way: every string sorted with np.unique."""
    names, name_code = np.unique(table["name"].to_numpy(dtype=str), return_inverse=True)
    genders, gender_code = np.unique(table["gender"].to_numpy(dtype=str), return_inverse=True)
    words, word_code = np.unique(table["lemma"].to_numpy(dtype=str), return_inverse=True)
    name_gender = np.zeros(len(names), dtype=int)
    name_gender[name_code] = gender_code
    counts = sparse.coo_matrix((np.ones(len(table), dtype=np.int64), (name_code, word_code)), (len(names), len(words)))
    return P.SampleMatrix(
        names.astype(object), name_gender, tuple(genders.tolist()), words.astype(object), counts.tocsr()
    )


def _same_matrix(a: P.SampleMatrix, b: P.SampleMatrix) -> None:
    assert a.names.tolist() == b.names.tolist() and a.words.tolist() == b.words.tolist()
    assert a.genders == b.genders and a.name_gender.tolist() == b.name_gender.tolist()
    assert a.counts.shape == b.counts.shape and (a.counts != b.counts).nnz == 0


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12), st.integers(1, 9), st.integers(0, 60))
def test_coded_matrix_and_with_genders_equal_sample_matrix_of_the_string_table(seed, n_names, n_forms, n_samples):
    """The probe's matrices from rows and columns (`coded_matrix`, `with_genders`) and `sample_matrix`'s of the same
    samples as a table are the plain count of the strings: names repeated in the list, forms sharing a lemma, a
    third gender, repeated samples."""
    rng = np.random.default_rng(seed)
    names = rng.choice(["Ann", "Bo", "Cy", "Di", "Ed", "Flo"], size=n_names)
    gender_of = {"Ann": "female", "Bo": "male", "Cy": "female", "Di": "male", "Ed": "non-binary", "Flo": "female"}
    genders = np.array([gender_of[n] for n in names], dtype=object)
    words = rng.choice(["good", "bad", "Good", "old", "new"], size=n_forms)
    rows, cols = rng.integers(0, n_names, size=n_samples), rng.integers(0, n_forms, size=n_samples)
    table = pd.DataFrame({"name": names[rows], "gender": genders[rows], "lemma": words[cols]})
    whole = P.coded_matrix(names, genders, rows, words, cols)
    _same_matrix(whole, _string_matrix(table))
    _same_matrix(P.sample_matrix(table), _string_matrix(table))
    binary = table[table["gender"].isin(["female", "male"])]
    _same_matrix(P.with_genders(whole, ["female", "male"]), _string_matrix(binary))


def test_coded_matrix_refuses_a_name_with_two_genders_as_sample_matrix_does():
    names, genders = np.array(["Ann", "Ann"], dtype=object), np.array(["female", "male"], dtype=object)
    words = np.array(["good"], dtype=object)
    with pytest.raises(ValueError, match=r"more than one gender label: \['Ann'\]"):
        P.coded_matrix(names, genders, np.array([0, 1]), words, np.array([0, 0]))


@pytest.mark.parametrize("seed", [0, 1])
def test_resampling_gives_the_same_numbers_on_dense_and_sparse_counts(seed, monkeypatch):
    """The resamples' products run on a dense array where most cells are nonzero (`pmi_resampling._operand`): whole
    numbers summed, so the bootstrap interval and the permutation p are those of the sparse products, to the bit."""
    rng = np.random.default_rng(seed)
    lemmas = [f"w{j}" for j in range(40)]
    rows = {(f"n{i}", "female" if i % 2 else "male"): list(rng.choice(lemmas, size=8)) for i in range(60)}
    matrix = P.sample_matrix(_samples(rows))
    labels = {w: ("neg", "neu", "pos")[j % 3] for j, w in enumerate(lemmas)}
    options = P.PmiOptions(k=5)
    got = {}
    for name, share in (("sparse", 2.0), ("dense", 0.0)):
        monkeypatch.setattr(PR, "_DENSE", share)
        got[name] = (PR.bootstrap_gaps(matrix, labels, options), PR.permutation_gaps(matrix, labels, options))
    assert got["sparse"] == got["dense"]
    assert isinstance(PR._operand(matrix.counts), np.ndarray)  # 8 of 40 words a name: dense by default
