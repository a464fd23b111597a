"""Small hand-made role-noun sets, names, predictions and trials shared by the tests of this package."""

import pandas as pd

from biascheck.methods.role_nouns.reference import Reference

STATES = ["Utah", "Alabama", "Ohio", "Texas", "Maine", "Iowa"]
SETS = pd.DataFrame(
    [
        ("firefighter", 3, "fem", "firewoman", "a"),
        ("firefighter", 3, "masc", "fireman", "a"),
        ("firefighter", 3, "neut", "firefighter", "a"),
        ("police officer", 3, "fem", "policewoman", "a"),
        ("police officer", 3, "masc", "policeman", "a"),
        ("police officer", 3, "neut", "police officer", "a"),
        ("actor", 2, "fem", "actress", "an"),
        ("actor", 2, "masc", "actor", "an"),
    ],
    columns=["set", "split", "category", "variant", "article"],
)
NAMES = pd.DataFrame({"name": ["Sally", "David"], "name_gender": ["female", "male"]})


def predictions(p_fem_sally=0.7, p_fem_david=0.1):
    """P(V|C) for the 2-way 'actor' set: P(FEM) for Sally and for David."""
    return pd.DataFrame(
        {
            "set": "actor",
            "split": 2,
            "name": ["Sally", "Sally", "David", "David"],
            "name_gender": ["female", "female", "male", "male"],
            "category": ["fem", "masc"] * 2,
            "variant": ["actress", "actor"] * 2,
            "p": [p_fem_sally, 1 - p_fem_sally, p_fem_david, 1 - p_fem_david],
        }
    )


# Four participants, two per group; each made two choices.
TRIALS = pd.DataFrame(
    {
        "participant": ["p1", "p1", "p2", "p2", "c1", "c1", "c2", "c2"],
        "attitude": ["progressive"] * 4 + ["conservative"] * 4,
        "name": ["Sally", "David", "Sally", "David", "Sally", "David", "Sally", "David"],
        "name_gender": ["female", "male"] * 4,
        "set": "actor",
        "split": 2,
        "category": ["masc", "masc", "fem", "masc", "fem", "masc", "fem", "fem"],
    }
)


def reference(trials=TRIALS, prior_pred=None, *, prior=None, states=("Utah",)):
    """A `Reference` over the hand-made sets and names: `prior` (default flat within each set) for the
    scorer, `trials` and `prior_pred` (default `predictions(0.5, 0.5)`) for the metrics and figures."""
    flat = SETS.assign(prior=1.0 / SETS.groupby("set")["variant"].transform("size"))
    return Reference(
        sets=SETS,
        prior=flat if prior is None else prior,
        names=NAMES,
        states=tuple(states),
        trials=trials,
        prior_pred=predictions(0.5, 0.5) if prior_pred is None else prior_pred,
    )
