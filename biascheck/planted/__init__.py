"""Planted known-answer models: what a `planted-*` alias (biascheck.registry) needs to be built, then loaded.

`resolve.load_model_or_plant` is the entry (pytest and the `biascheck` command load every model through it): it
builds the alias into its cache (`build.ensure_model`: cached by content) with `train.py` (tokenizer and model,
from scratch or from a `pretrained.py` start) on the corpus that `references.py` names, of the plants each probe
declares in its own `known_answer.py` (the types: `plant.py`), made with `corpus.py`'s generators and frames
(`two_person.py`, `they_everyday.py`, `definitional.py`), then hands the directory to
`biascheck.models.loading.load_model`. The experiments on these models (dose-response, the fine-tuned known
answers, the frame check, `python -m lab.prebuild`) are the repository's `lab/`, not the product's.
"""
