"""The release gate: what decides, across runs, whether a model may ship.

Inside a pytest run `tracking` ships results from xdist workers, compares the run with a saved
baseline and saves it; outside one, `biascheck compare`, `diff`, `history`, `accept` and
`fluctuation` read the same store. The modules, from the run to the store:

- `tracking`: the pytest plugin object (registered by `biascheck.plugin`): compare, save, fail the run.
- `workers`: under pytest-xdist, one model per worker and every worker's results on the controller.
- `selection`: why a run with gate options and no probe result fails, in words.
- `admit`: which saved runs may take part in a comparison (schema, failed, partial, noise).
- `baseline`: per metric the change, the noise and the verdict, on saved results read once as `Result`s.
- `comparability`: whether two runs may be compared at all (what changes numbers besides the weights).
- `itemdiff`: which items (professions, occupations, ...) moved between two saved runs.
- `power`: what a gate can see at the sample size it ran at.
- `store`: every saved run, by name, in one SQLite file; `history`: the metrics across saved runs.
- `checkpoints`: model lists for sweeps; `sweep`: paper 001's fluctuation over such a sweep.

Importing this package imports nothing: `biascheck.results` takes `power` from here without pytest.
"""
