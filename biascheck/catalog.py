"""Every probe biascheck ships, by name. Importing this is cheap (no torch, no data)."""
from __future__ import annotations

from biascheck.methods import natural_prompts, norwegian_occupations, pronoun_ratio
from biascheck.methods import role_nouns, singular_they
from biascheck.spec import ProbeSpec

PROBES: dict[str, ProbeSpec] = {
    spec.name: spec
    for spec in (
        pronoun_ratio.PROBE,
        role_nouns.PROBE,
        singular_they.PROBE,
        natural_prompts.PROBE,
        norwegian_occupations.PROBE,
    )
}
