"""natural_prompts: natural-sentence vs template prompts, pronoun continuations for 893 professions
(paper 002, Alnegheimish, Guo & Sun 2022).

Layout (every probe package has the same files, `biascheck.protocol`): `spec` (declaration), `reference`
(reference data and stimuli), `math` (pure numpy), `score` (the only module that calls the model), `metrics`
(→ `Metric` per task), `figures`; README.md says what it measures, against what, and why its thresholds are
where they are.
"""
