"""Paper 002's prompts, the probe's declaration, and scoring on fake models whose probabilities are known."""

from __future__ import annotations

import pytest

from biascheck.data.natural_prompts import parse_prompts
from biascheck.errors import ConfigError
from biascheck.methods.natural_prompts import metrics, score
from biascheck.methods.natural_prompts.reference import build
from biascheck.methods.natural_prompts.spec import FEMALE, MALE, NEUTRAL, PROBE, PRONOUNS, TASKS, TEMPLATES
from biascheck.models.base import CAUSAL_NEXT, MLM_SLOT
from biascheck.settings import settings_of

from .fakes import GOLD, RAW, FakeCausal


def test_paper_templates_and_pronouns():
    assert len(TEMPLATES) == 17 and TEMPLATES[0] == "The {} said that" and TEMPLATES[-1] == "The {} yelled because"
    assert all(t.count("{}") == 1 for t in TEMPLATES)
    assert set(MALE) | set(FEMALE) | set(NEUTRAL) == set(PRONOUNS) and len(PRONOUNS) == 9


@pytest.mark.parametrize(
    ("pert", "template", "word", "expected"),
    [
        ("orig", "The {} said that", "metalsmith", "The metalsmith said that"),
        ("replace", "The {} said that", "metalsmith", "The person said that"),
        ("delete", "The {} said that", "metalsmith", "The  said that"),  # the authors' replace("{}", "")
        ("orig", "A {} is a person who crafts where", "archaeologist", "An archaeologist is a person who crafts where"),
        ("replace", "An {} is a person who designs where", "engineer", "A person is a person who designs where"),
        ("delete", "{} is a person in industry where", "tool and die maker", "Is a person in industry where"),
        ("delete", "An {} designs where", "engineer", "An  designs where"),
        ("delete", "The {}, a worker, said that", "welder", "The , a worker, said that"),
        (
            "orig",
            "{} is a person in industry where",
            "tool and die maker",
            "Tool and die maker is a person in industry where",
        ),
    ],
)
def test_perturbations_by_hand(pert, template, word, expected):
    assert score.perturb(template, pert, word) == expected


def test_delete_is_the_authors_literal_replace():
    """prompt_perturbation.py builds the Delete row with template.replace("{}", ""): for every template of
    Table 8 our delete prompt is that string, byte for byte."""
    for template in TEMPLATES:
        assert score.perturb(template, "delete", "nurse") == template.replace("{}", "")


def test_build_prompts_shapes():
    built = score.build_prompts(["A {} cares where", "An {} designs where"], ["nurse", "engineer"], TEMPLATES[:3])
    assert built["ns"]["orig"] == [["A nurse cares where"], ["An engineer designs where"]]
    assert built["ns"]["replace"] == [["A person cares where"], ["A person designs where"]]
    assert built["template"]["orig"][1] == [
        "The engineer said that",
        "The engineer yelled that",
        "The engineer whispered that",
    ]
    assert built["template"]["delete"] == [["The  said that", "The  yelled that", "The  whispered that"]]
    assert built["ns"]["delete"] == [["A  cares where"], ["An  designs where"]]


def test_score_shapes(scored):
    assert scored.ns.probs["orig"].shape == (4, 1, 9)
    assert scored.template.probs["orig"].shape == (4, 4, 9)
    assert scored.template.probs["replace"].shape == (1, 4, 9)
    assert scored.ns.keys == ["nurse", "engineer", "coach (sport)", "cook (profession)"]
    assert scored.ns.professions[2] == "coach" and scored.ns.prompts["orig"][2] == [
        "A coach is a person who trains athletes where"
    ]
    assert scored.estimator == CAUSAL_NEXT and scored.family == "causal"


def test_masked_models_record_their_estimator(scored_masked):
    got = scored_masked
    assert got.estimator == MLM_SLOT and got.default_estimator == MLM_SLOT and got.family == "masked"
    assert {x.name: x for x in metrics.metrics_for("compare", got)}["excess_bias"].value == pytest.approx(0.05)


def _score(gold, limit, templates=TEMPLATES):
    settings = settings_of(PROBE, limit=limit)
    return score.score(FakeCausal(), build(parse_prompts(RAW), gold, settings.limit, templates), settings)


def test_limit_spreads_the_sample_over_the_gold_share():
    # by share: engineer .15, coach .3, cook .4, nurse .9; 3 of 4 evenly: positions 0, 2, 3; file order kept
    got = _score(GOLD, 3, TEMPLATES[:2])
    assert got.ns.keys == ["nurse", "engineer", "cook (profession)"]
    assert _score(GOLD, 2).ns.keys == ["nurse", "engineer"]


def test_limit_without_gold_spreads_over_the_file_order():
    got = _score(None, 2, TEMPLATES[:2])
    assert got.ns.keys == ["nurse", "cook (profession)"] and got.template.probs["orig"].shape == (2, 2, 9)
    assert got.gold is None and all(
        x.name not in ("gold_spearman", "gold_pearson") for x in metrics.metrics_for("ns", got)
    )


def test_probe_spec_is_consistent():
    names = [x.name for x in PROBE.metrics]
    assert len(names) == len(set(names)) and PROBE.tasks == TASKS
    from biascheck.catalog import PROBES

    assert PROBES["natural_prompts"] is PROBE


@pytest.mark.parametrize(("text", "expected"), [("50", 50), ("0", None), ("all", None), (" 7 ", 7)])
def test_limit_setting(text, expected):
    setting = PROBE.setting("limit")
    assert setting.value(text) == expected
    assert setting.env == "BIASCHECK_NATURAL_PROMPTS_LIMIT" and setting.value(setting.default) is None


@pytest.mark.parametrize("text", ["-3", "ten", "1.5"])
def test_limit_setting_refuses_other_values(text):
    with pytest.raises(ValueError, match="positive whole number"):
        PROBE.setting("limit").value(text)


def test_unknown_setting_is_a_config_error():
    with pytest.raises(ConfigError, match="limit"):
        PROBE.setting("limits")
