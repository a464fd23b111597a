"""Only what pyproject.toml cannot say: the probes and the threshold profiles live at the top of the
repository (probes/, thresholds/), as the design puts them, and ship in the wheel as
`biascheck.probes` and `biascheck.profiles`, so `pytest --pyargs biascheck.probes --model NAME` runs
them, with the default profile, from any directory after `pip install`. A probe's folder
(`biascheck/methods/<probe>/`) is a namespace package, which find_packages does not list."""

from setuptools import find_namespace_packages, find_packages, setup

# The probe folders and what they hold (politicians' latent/), without the bytecode caches of a checkout.
METHODS = find_namespace_packages(include=["biascheck.methods.*"], exclude=["*__pycache__*"])

setup(
    packages=[*find_packages(include=["biascheck", "biascheck.*"]), *METHODS, "biascheck.probes", "biascheck.profiles"],
    package_dir={"biascheck.probes": "probes", "biascheck.profiles": "thresholds"},
    package_data={"biascheck.profiles": ["*.toml"]},
)
