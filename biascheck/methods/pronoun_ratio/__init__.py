"""pronoun_ratio: English pronoun ratios over 923 professions (paper 001, Tang & Jiang 2023).

Layout (every probe package has the same files, `biascheck.protocol`): `spec` (declaration), `reference`
(reference data and stimuli), `math` (pure numpy), `score` (the only module that calls the model), `metrics`
(→ `Metric` per task), `figures`; README.md says what it measures, against what, and why its thresholds are
where they are.
"""
