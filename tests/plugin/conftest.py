# In-process pytester runs restore sys.modules afterwards; C extensions such as numpy cannot be
# imported twice in one process, so import them here, once, before any inner run.
import numpy  # noqa: F401
import pandas  # noqa: F401
import scipy.stats  # noqa: F401
import tabulate  # noqa: F401
