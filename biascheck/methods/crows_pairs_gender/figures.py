"""crows_pairs_gender figures (matplotlib, imported on first use)."""

from __future__ import annotations

from typing import Any

from biascheck.methods.crows_pairs_gender.reference import Reference
from biascheck.methods.crows_pairs_gender.score import Scored
from biascheck.methods.pair_plots import difference_histogram as _histogram
from biascheck.settings import ProbeSettings
from biascheck.spec import Artifact


def draw(task: str, scored: Scored, reference: Reference, settings: ProbeSettings, model: str) -> list[Artifact]:
    """One histogram over all pairs (stereo and antistereo apart), drawn with the 'all' task."""
    if task != "all":
        return []
    title = f"{model}: CrowS-Pairs gender, more vs less stereotyping sentence"
    return [Artifact("differences", figure=difference_histogram(scored, title))]


def difference_histogram(scored: Scored, title: str) -> Any:
    """score(sent_more) - score(sent_less) per pair, stereo and antistereo pairs apart; right of 0 = the
    more stereotyping sentence preferred."""
    frame = scored.pairs
    groups = {kind: (frame["stereo_antistereo"] == kind).to_numpy() for kind in ("stereo", "antistereo")}
    diff = (frame["score_more"] - frame["score_less"]).to_numpy()
    return _histogram(diff, groups, "score(more stereotyping) - score(less stereotyping), nats", title)
