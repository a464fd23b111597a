# In-process pytester runs restore sys.modules afterwards; C extensions such as numpy cannot be
# imported twice in one process, so import them here, once, before any inner run.
import numpy  # noqa: F401
import pandas  # noqa: F401
import scipy.stats  # noqa: F401
import tabulate  # noqa: F401

try:  # an inner run settles --bias-tier auto by asking torch for a GPU (biascheck.tiers)
    import torch  # noqa: F401
except ImportError:  # pragma: no cover - torch is a dev dependency
    pass
