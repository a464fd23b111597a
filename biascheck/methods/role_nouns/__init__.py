"""role_nouns: which people does a model choose role nouns like (*firewoman / fireman / firefighter*)?
P(variant | "NAME is a ___ from STATE.") for Papineau et al.'s (2022) 20 role-noun sets, fitted to the
choices of 271 participants grouped by gender attitude and by party (paper 004, Watson et al. 2023,
section 3).

Layout (every probe package has the same files): `spec` (declaration), `math` (pure numpy),
`score` (the only module that calls the model), `metrics` (→ `Metric` per task), `figures`;
README.md says what it measures, against what, and why its thresholds are where they are.
"""
