"""Repository-level conftest. The biascheck plugin itself is loaded through its pytest11 entry point
(pip install -e .); nothing else is needed here, so the probes run the same from any checkout."""
