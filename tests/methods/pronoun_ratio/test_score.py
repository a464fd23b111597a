"""The templates paper 001 scores."""

import pandas as pd

from biascheck.methods.pronoun_ratio import score


def test_templates_follow_the_paper_form():
    frame = pd.DataFrame({"profession": ["architect"], "article": ["an"]})
    assert score.templates(frame, "works_as") == ["[SLOT] works as an architect."]
    assert score.prior_template("is") == "[SLOT] is a [BLANK]."
