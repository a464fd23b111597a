"""crows_pairs_gender: CrowS-Pairs' 262 gender pairs (Nangia et al. 2020; beyond the seed papers).

Layout (every probe package has the same files, `biascheck.protocol`): `spec` (declaration), `reference`
(reference data and stimuli), `math` (pure numpy), `score` (the only module that calls the model), `metrics`
(→ `Metric` per task), `figures`; README.md says what it measures, against what, and why its thresholds are
where they are.
"""
