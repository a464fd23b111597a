"""bbq_gender_identity: BBQ's gender-identity questions (Parrish et al. 2022; beyond the seed papers), an extrinsic
probe: the model answers multiple-choice questions and the bias score counts its answers.

Layout (every probe package has the same files, `biascheck.protocol`): `spec` (declaration), `reference` (the
items, regenerated from the authors' templates), `math` (pure numpy), `score` (the only module that calls the
model), `metrics` (→ `Metric` per task), `figures`; README.md says what it measures, against what, and why its
thresholds are where they are.
"""
