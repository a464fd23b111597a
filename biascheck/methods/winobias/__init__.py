"""winobias: WinoBias pro- and anti-stereotypical pairs (Zhao et al. 2018; beyond the seed papers).

Layout (every probe package has the same files): `spec` (declaration), `math` (pure numpy),
`score` (the only module that calls the model), `metrics` (→ `Metric` per task), `figures`;
README.md says what it measures, against what, and why its thresholds are where they are.
"""
