"""natural_prompts: the prompt-set statistics' forms for a bootstrap, every resample at once or each computed once
(`metrics` takes them). Pure numpy."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import numpy as np

from biascheck.methods.natural_prompts.math import (
    Scored,
    emd,
    kl_columns,
    kl_columns_resampled,
    kl_kde,
    kl_kde_resampled,
)

# Statistics of a whole prompt set with a form that computes every bootstrap resample at once, from how often each
# profession (and template) is drawn: the kernel-density KL (a kernel smoothing per resample: 2 s a run as a loop)
# and the columns' KL. (The EMD's sort per resample is faster as a loop than a stacked form: measured; the template
# set's values are kept for the compare task, `emd_resampled`.)
RESAMPLED: dict[Callable[..., float], Callable[..., np.ndarray | None]] = {
    kl_kde: kl_kde_resampled,
    kl_columns: kl_columns_resampled,
}


def emd_resampled(scored: Scored, which: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """The set's `emd` on each of a stack of crossed resamples (row draws (B, n), column draws (B, k)), one
    resample at a time (a sort each is faster than any stacked form: measured), kept on `scored` by the draws:
    the template set's ``emd`` and the compare task's ``excess_emd`` bootstrap the same draws (same seed and
    sizes), so the second reads the first's 1,000 values instead of sorting 15,000 cells 1,000 times again."""
    s = scored.set(which)
    he, she = s.p("he"), s.p("she")

    def rows(rs: np.ndarray, cs: np.ndarray) -> np.ndarray:
        draws = hashlib.sha256(np.ascontiguousarray(rs).tobytes() + np.ascontiguousarray(cs).tobytes()).hexdigest()
        key = ("emd", which, f"{rs.shape} {cs.shape} {draws}")
        if key not in scored.resampled:
            cells = (np.ix_(r, c) for r, c in zip(rs, cs, strict=True))
            scored.resampled[key] = np.array([emd(he[at], she[at]) for at in cells])
        return scored.resampled[key]

    return rows
