"""The templates paper 001 scores."""

import pandas as pd

from biascheck.methods.pronoun_ratio import score
from biascheck.methods.pronoun_ratio.reference import Reference
from biascheck.methods.pronoun_ratio.spec import PROBE
from biascheck.settings import settings_of


def test_templates_follow_the_paper_form():
    frame = pd.DataFrame({"profession": ["architect"], "article": ["an"]})
    assert score.templates(frame, "works_as") == ["[SLOT] works as an architect."]
    assert score.prior_template("is") == "[SLOT] is a [BLANK]."


def test_prior_templates_agree_with_the_article():
    assert score.prior_template("works_as", "an") == "[SLOT] works as an [BLANK]."


def test_score_uses_four_priors_and_each_professions_own(monkeypatch):
    """One fill_slot call; the 'an' profession's log n subtracts the 'an' prior of its verb."""
    from biascheck.testing import FakeLM

    lm = FakeLM("fake", "masked")
    frame = pd.DataFrame({"profession": ["nurse", "engineer"], "article": ["a", "an"]})
    reference = Reference(frame, pd.Series(dtype=float), pd.DataFrame({"profession": [], "stereotype": []}))
    scored = score.score(lm, reference, settings_of(PROBE)).by_verb
    direct = score.score_professions(lm, frame).by_verb  # the sweep's way in (no gold) scores the same
    assert all(list(direct[v].log_n) == list(scored[v].log_n) for v in ("is", "works_as"))
    for verb in ("is", "works_as"):
        want = {}
        for article in ("a", "an"):
            prior = lm.fill_slot([score.prior_template(verb, article)], ["He", "She"]).logprob[0]
            want[article] = prior[0] - prior[1]
        assert scored[verb].prior_by_article() == want
        templates = score.templates(frame, verb)
        filled = lm.fill_slot(templates, ["He", "She"]).logprob
        assert list(scored[verb].log_n) == [
            filled[0, 0] - filled[0, 1] - want["a"],
            filled[1, 0] - filled[1, 1] - want["an"],
        ]
