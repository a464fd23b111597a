"""natural_prompts' known answer: pronoun_ratio's plant (the BLS 2015 women's shares of the professions, planted
as pronouns in the English corpus), read through the paper's prompts; it owns no plant of its own."""

from __future__ import annotations

from biascheck.planted.plant import KnownAnswer, Moved

KNOWN_ANSWER = KnownAnswer(
    moves=(
        Moved("en", "template", "gold_spearman"),
        # In natural sentences the plant shows in planted-bert's three builds; planted-gpt's seed-0 build misses it
        # (ρ 0.02 against its control's 0.10), and the mean bias lies within its controls' in two builds of three
        # of either family (docs/known_answers/dose_response_en.md).
        Moved("en", "ns", "gold_spearman", found_by=("planted-bert",)),
        Moved("en", "ns", "bias_orig", found_by=()),
    ),
    # Bias in natural sentences: the one a pronoun-profession plant moves. The template-excess gate asks whether
    # templates exaggerate bias (it failed every control build, 0.14-0.25), the default-preference gate reads the
    # model's he/she prior after openers: neither is set by the plant.
    gates=(("ns", "bias_orig"),),
)
