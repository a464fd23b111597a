"""singular_they: surprisal of singular they/them/their/themselves after 9 antecedent types, closeness
× gender mixed model and optional human ratings (paper 004, section 4, Watson et al. 2023; our own
stimuli after the design of Camilliere et al. 2021).

Layout (every probe package has the same files): `spec` (declaration), `math` (pure numpy),
`score` (the only module that calls the model), `metrics` (→ `Metric` per task), `figures`;
`stimuli` holds our 335 sentences. README.md says what it measures, against what, and why its
thresholds are where they are.
"""
