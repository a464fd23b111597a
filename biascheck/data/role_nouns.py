"""Role nouns (paper 004, section 3 and appendix A): role-noun sets, corpus counts, names, states,
and the Papineau et al. (2022) participants rebuilt from their three merged production files.

Sources (declared in `biascheck.data.sources`):

* ``papineau_prod_lexemes``: the 20 critical role-noun sets (``type == 'critical'``). Columns
  opt1 = gender-neutral variant (``SKIP`` for the 6 two-way sets), opt2 = feminine, opt3 = masculine
  (for two-way sets: the masculine/neutral form, e.g. *actor*); the article comes from the sentence
  (``NAME is an _____ from STATE.``).
* ``watson_wiki_counts`` + ``watson_bookcorpus_counts``: unigram counts of the 54 variants.
* ``watson_stimuli``: the 24 names (12 women's, 12 men's, *Kalya* as in the experiment) and 50 states.
* ``papineau_prod_all``, ``papineau_prod_dems_men``, ``papineau_prod_reps_men``: participant trials
  plus their Social Roles Questionnaire answers and party alignment.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from biascheck.data import ReferenceData
from biascheck.errors import DataError

CATEGORIES = ("fem", "masc", "neut")  # FEM / MASC (for two-way sets: MASC-or-G-NEUT) / G-NEUT
ATTITUDE_GROUPS = ("progressive", "moderate", "conservative")
PARTY_GROUPS = ("Democrat", "Non-Partisan", "Republican")
PRODUCTION_SOURCES = ("papineau_prod_all", "papineau_prod_dems_men", "papineau_prod_reps_men")
# Paper appendix A.2: progressive s < 12.51, moderate 12.51 <= s < 26.20, conservative s >= 26.20.
PAPER_CUTPOINTS = (12.51, 26.20)
_SRQ_TRANSCENDENCE = [f"subject_information.gender_q{i}" for i in range(1, 6)]  # agree = open-minded
_SRQ_LINKING = [f"subject_information.gender_q{i}" for i in range(6, 14)]  # agree = rigid


def role_noun_sets(refdata: ReferenceData) -> pd.DataFrame:
    """One row per variant of the 20 critical sets (54 rows).

    Columns: set (the lexeme key, e.g. 'firefighter'), split (3 or 2), category ('fem', 'masc',
    'neut'; two-way sets have 'fem' and 'masc', where 'masc' is the MASC/G-NEUT form), variant
    ('firewoman'), article ('a'/'an').
    """
    frame = pd.read_csv(refdata.path("papineau_prod_lexemes"))
    needed = {"type", "lexeme", "opt1", "opt2", "opt3", "sentence"}
    if not needed <= set(frame.columns):
        raise DataError(f"papineau_prod_lexemes: expected columns {sorted(needed)}, found {list(frame.columns)}.")
    critical = frame[frame["type"] == "critical"]
    rows = []
    for rec in critical.itertuples(index=False):
        sentence = str(rec.sentence)
        if " is an " in sentence:
            article = "an"
        elif " is a " in sentence:
            article = "a"
        else:
            raise DataError(f"papineau_prod_lexemes: no article in {sentence!r} (set {rec.lexeme!r}).")
        neutral = None if str(rec.opt1) == "SKIP" else str(rec.opt1)
        split = 2 if neutral is None else 3
        variants = [("fem", str(rec.opt2)), ("masc", str(rec.opt3))] + ([("neut", neutral)] if neutral else [])
        for category, variant in variants:
            rows.append((str(rec.lexeme), split, category, variant, article))
    out = pd.DataFrame(rows, columns=["set", "split", "category", "variant", "article"])
    n_sets = out["set"].nunique()
    if n_sets != 20:
        raise DataError(f"papineau_prod_lexemes: expected 20 critical role-noun sets, found {n_sets}.")
    return out


def corpus_counts(refdata: ReferenceData) -> pd.DataFrame:
    """Columns: variant, wiki, bookcorpus, count (= wiki + bookcorpus), one row per counted term."""
    wiki = pd.read_csv(refdata.path("watson_wiki_counts")).rename(columns={"term": "variant", "count": "wiki"})
    books = pd.read_csv(refdata.path("watson_bookcorpus_counts")).rename(
        columns={"term": "variant", "count": "bookcorpus"}
    )
    merged = wiki.merge(books, on="variant", how="outer")
    if merged[["wiki", "bookcorpus"]].isna().any().any():
        missing = merged.loc[merged[["wiki", "bookcorpus"]].isna().any(axis=1), "variant"].tolist()
        raise DataError(f"watson counts: terms counted in only one corpus: {missing}.")
    merged["count"] = merged["wiki"] + merged["bookcorpus"]
    return merged[["variant", "wiki", "bookcorpus", "count"]]


def frequency_prior(refdata: ReferenceData) -> pd.DataFrame:
    """`role_noun_sets` plus count and prior = count / (sum of counts in the set) (paper eq. 1, A.3)."""
    sets = role_noun_sets(refdata)
    merged = sets.merge(corpus_counts(refdata), on="variant", how="left")
    if merged["count"].isna().any():
        raise DataError(f"watson counts: no count for {merged.loc[merged['count'].isna(), 'variant'].tolist()}.")
    merged["prior"] = merged["count"] / merged.groupby("set")["count"].transform("sum")
    return merged


def names_and_states(refdata: ReferenceData) -> tuple[pd.DataFrame, list[str]]:
    """Names (columns name, name_gender 'female'/'male', in file order) and the 50 states (file order)."""
    frame = pd.read_csv(refdata.path("watson_stimuli"))
    names = frame[["name", "gender"]].drop_duplicates()
    names = names.assign(name_gender=names["gender"].map({"woman": "female", "man": "male"}))[["name", "name_gender"]]
    if names["name_gender"].isna().any() or len(names) != 24:
        raise DataError(f"watson_stimuli: expected 24 names labelled woman/man, found {len(names)}.")
    states = list(dict.fromkeys(frame["state"].tolist()))
    if len(states) != 50:
        raise DataError(f"watson_stimuli: expected 50 states, found {len(states)}.")
    return names.reset_index(drop=True), states


def _production_rows(refdata: ReferenceData) -> pd.DataFrame:
    frames = []
    for source in PRODUCTION_SOURCES:
        frame = pd.read_csv(refdata.path(source), low_memory=False)
        # Worker ids restart in every file: keep workers from different files distinct.
        frame["participant"] = source.removeprefix("papineau_prod_") + ":" + frame["workerid"].astype(str)
        frame["source"] = source
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def srq_score(answers: pd.DataFrame) -> pd.Series:
    """Social Roles Questionnaire score (appendix A.2): mean(100 - mean(q1-q5), mean(q6-q13)), 0-100.

    0 = maximally open-minded about gender. Scores are multiples of 1/80, rounded to 1e-6 so that
    comparisons with cut points are exact.
    """
    transcendence = 100.0 - answers[_SRQ_TRANSCENDENCE].astype(float).mean(axis=1)
    linking = answers[_SRQ_LINKING].astype(float).mean(axis=1)
    return ((transcendence + linking) / 2.0).round(6)


def attitude_thirds(scores: pd.Series, cutpoints: tuple[float, float] | None = None) -> pd.Series:
    """Progressive s < c1, moderate c1 <= s < c2, conservative s >= c2.

    Default cut points: the 1/3 and 2/3 quantiles of the scores (numpy linear interpolation),
    rounded to 1e-6; on the 271 participants they are 12.5125 and 26.2 and give the paper's
    90 / 90 / 91 (the paper's rounded 12.51 / 26.20, `PAPER_CUTPOINTS`, give the same groups).
    """
    values = scores.astype(float).to_numpy()
    if cutpoints is None:
        low, high = (round(float(q), 6) for q in np.quantile(values, [1 / 3, 2 / 3]))
    else:
        low, high = cutpoints
    labels = np.where(values < low, "progressive", np.where(values < high, "moderate", "conservative"))
    return pd.Series(labels, index=scores.index, name="attitude")


def party_group(alignment: pd.Series) -> pd.Series:
    """Party alignment 1-2 Republican, 3 Non-Partisan, 4-5 Democrat."""
    values = alignment.astype(float)
    out = pd.Series(
        np.where(values <= 2, "Republican", np.where(values >= 4, "Democrat", "Non-Partisan")), index=alignment.index
    )
    return out.rename("party")


def participants(refdata: ReferenceData, min_attention: float = 0.8) -> pd.DataFrame:
    """The 271 participants (data README, "Papineau participants").

    1. Concatenate the three merged production files; a participant is (file, workerid).
    2. Attention accuracy = mean `correct` over rows with name == 'attention'; keep >= `min_attention`.
    3. Keep participants with non-missing age and party alignment who have critical trials.
    4. Party from alignment (`party_group`); SRQ score (`srq_score`); attitude thirds (`attitude_thirds`).
    Columns: participant, source, workerid, age, party_alignment, party, srq, attitude, n_critical.
    """
    rows = _production_rows(refdata)
    attention = rows[rows["name"] == "attention"].groupby("participant")["correct"].mean()
    keep = attention[attention >= min_attention].index
    critical = rows[rows["participant"].isin(keep) & (rows["type"] == "critical")]
    critical = critical.dropna(subset=["subject_information.age", "subject_information.party_alignment"])
    first = critical.groupby("participant", sort=True).first()
    out = pd.DataFrame(
        {
            "participant": first.index,
            "source": first["source"].to_numpy(),
            "workerid": first["workerid"].to_numpy(),
            "age": first["subject_information.age"].to_numpy(),
            "party_alignment": first["subject_information.party_alignment"].astype(float).to_numpy(),
        }
    )
    out["party"] = party_group(out["party_alignment"]).to_numpy()
    answers = first[_SRQ_TRANSCENDENCE + _SRQ_LINKING]
    if answers.isna().any().any():
        raise DataError("papineau production: some kept participants lack Social Roles Questionnaire answers.")
    out["srq"] = srq_score(answers).to_numpy()
    out["attitude"] = attitude_thirds(out["srq"]).to_numpy()
    out["n_critical"] = critical.groupby("participant", sort=True).size().to_numpy()
    return out


def production_trials(refdata: ReferenceData) -> pd.DataFrame:
    """Critical trials of the kept participants, one row per (participant, role-noun set).

    Columns: participant, name, name_gender ('female'/'male'), set, response (the variant chosen),
    category ('fem'/'masc'/'neut'), split, attitude, party.
    """
    people = participants(refdata)
    rows = _production_rows(refdata)
    critical = rows[(rows["type"] == "critical") & rows["participant"].isin(people["participant"])]
    sets = role_noun_sets(refdata)
    trials = pd.DataFrame(
        {
            "participant": critical["participant"].to_numpy(),
            "name": critical["name"].to_numpy(),
            "name_gender": critical["gender"].to_numpy(),
            "set": critical["lexeme"].to_numpy(),
            "response": critical["response"].to_numpy(),
        }
    )
    merged = trials.merge(
        sets[["set", "variant", "category", "split"]],
        left_on=["set", "response"],
        right_on=["set", "variant"],
        how="left",
    )
    if merged["category"].isna().any():
        bad = merged.loc[merged["category"].isna(), ["set", "response"]].drop_duplicates().values.tolist()
        raise DataError(f"papineau production: responses that are not variants of their set: {bad[:5]}.")
    if not set(merged["name_gender"]) <= {"female", "male"}:
        raise DataError(f"papineau production: unexpected name genders {sorted(set(merged['name_gender']))}.")
    merged = merged.drop(columns="variant").merge(people[["participant", "attitude", "party"]], on="participant")
    return merged.reset_index(drop=True)
