"""Sweeps over many checkpoints, outside the gate: `fluctuation` (`biascheck fluctuation`: paper 001's
pronoun-ratio fluctuation over checkpoints and seeds) and `on_ray` (one Ray task a checkpoint, for the
fluctuation command and for `pytest --model-list FILE --bias-ray`). Importing this package imports nothing.
"""
