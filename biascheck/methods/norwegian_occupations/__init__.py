"""norwegian_occupations: Norwegian occupations against Statistics Norway in five template tasks
(paper 000, Touileb, Øvrelid & Velldal 2022): does the model put each occupation on the same gender
side as the Norwegian workforce (F1 against the gold sign)?

Layout (every probe package has the same files): `spec` (declaration), `math` (pure numpy),
`score` (the only module that calls the model), `metrics` (→ `Metric` per task), `figures`;
here also `templates` (the tasks' text and the Bokmål definite form). README.md says what it
measures, against what, and why its thresholds are where they are.
"""
