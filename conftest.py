"""Repository-level conftest. The biascheck plugin itself is loaded through its pytest11 entry point
(pip install -e .), so the probes run the same from any checkout. pytester is enabled here because
pytest only accepts `pytest_plugins` in the top-level conftest; biascheck's own plugin tests use it."""

pytest_plugins = ["pytester"]
