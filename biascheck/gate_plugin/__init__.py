"""The gate's pytest side, registered by `biascheck.plugin`: it turns a pytest run into a gate verdict.

- `tracking`: the plugin object: checks before the run, compare with the baseline, save, fail the run.
- `before_run`: what is refused before any model loads (baseline, noise run, store) or before any probe runs.
- `outcomes`: which probe tests measured something, which did not, and why.
- `workers`: under pytest-xdist, one model per worker and every worker's results on the controller.
- `ray_pytest`: `--model-list FILE --bias-ray`, each checkpoint's tests as one Ray task.

It reads the gate (`biascheck.gate`) and writes the report (`biascheck.report`); neither imports it.
"""
