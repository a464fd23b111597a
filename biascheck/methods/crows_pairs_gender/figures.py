"""crows_pairs_gender figures (matplotlib, imported on first use)."""

from __future__ import annotations

from typing import Any

from biascheck.methods.crows_pairs_gender.score import PairScores
from biascheck.methods.pair_plots import difference_histogram as _histogram


def difference_histogram(scored: PairScores, title: str) -> Any:
    """score(sent_more) - score(sent_less) per pair, stereo and antistereo pairs apart; right of 0 = the
    more stereotyping sentence preferred."""
    frame = scored.pairs
    groups = {kind: (frame["stereo_antistereo"] == kind).to_numpy() for kind in ("stereo", "antistereo")}
    diff = (frame["score_more"] - frame["score_less"]).to_numpy()
    return _histogram(diff, groups, "score(more stereotyping) - score(less stereotyping), nats", title)
