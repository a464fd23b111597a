"""The release gate: what decides, across runs, whether a model may ship. It knows no probe, no model and no
pytest: it reads saved runs (results.json payloads, `biascheck.results.RunPayload`) and words nothing of a report.

- `admit`: which saved runs may take part in a comparison (schema, failed, partial, noise).
- `baseline`: per metric the change, the noise and the verdict, on saved results read once as `Result`s.
- `paired`: the change's interval from the items both runs scored (a paired cluster bootstrap).
- `comparability`: whether two runs may be compared at all (what changes numbers besides the weights).
- `identity`: the items of a saved result, by the keys two runs share.
- `itemdiff`: which items (professions, occupations, ...) moved between two saved runs.
- `selection`: why a run with gate options and no probe result fails, in words.
- `store`: every saved run, by name, in one SQLite file; `history`: the metrics across saved runs.

Above it: `biascheck.gate_plugin` (the pytest side: compare, save, fail the run), `biascheck.gate_commands`
(`biascheck runs / compare / diff / history / accept / power`) and `biascheck.report` (which reads the gate).
Importing this package imports nothing.
"""
