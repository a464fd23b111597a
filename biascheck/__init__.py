"""biascheck: pytest probes for gender bias in language models, against real-world and human references."""

__version__ = "0.1.0"
