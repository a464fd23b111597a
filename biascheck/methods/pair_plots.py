"""A figure the pair probes share (crows_pairs_gender, winobias): each pair's score difference (the
stereotyped sentence minus its twin), as overlaid histograms by group; right of 0 = the stereotyped one
preferred. matplotlib is imported on first use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

COLOURS = ("#cc6677", "#4477aa", "#ddaa33", "#117733")


def difference_histogram(diff: np.ndarray, groups: Mapping[str, np.ndarray], xlabel: str, title: str) -> Any:
    """diff: (n,) differences; groups: label -> (n,) bool mask of the pairs in that group."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    diff = np.asarray(diff, dtype=float)
    bins = np.linspace(np.min(diff, initial=-1.0), np.max(diff, initial=1.0), 41).tolist()
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for (label, mask), colour in zip(groups.items(), COLOURS, strict=False):
        part = diff[np.asarray(mask, dtype=bool)]
        share = float(np.mean(part > 0)) if len(part) else float("nan")
        ax.hist(part, bins=bins, alpha=0.6, color=colour, label=f"{label} (n={len(part)}, {share:.0%} > 0)")
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("pairs")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    return fig
