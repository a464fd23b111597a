"""Which languages a model covers: --bias-language, the registry, the model card, else English."""

from __future__ import annotations

import pytest

from biascheck.errors import ConfigError
from biascheck.languages import card_front_matter_languages, card_languages, covers, model_languages, parse_languages


def test_codes_are_parsed_and_bad_ones_refused():
    assert parse_languages("en, NO,en") == ("en", "no")
    for bad in ("", "english", "e1", ","):
        with pytest.raises(ConfigError, match="ISO 639-1"):
            parse_languages(bad)


def test_norwegian_codes_stand_for_each_other():
    assert covers(("nb",), "no") and covers(("no",), "nb") and covers(("nn", "en"), "no")
    assert not covers(("en",), "no") and not covers(("nb",), "en")


@pytest.mark.parametrize(
    ("front", "expected"),
    [
        ("---\nlanguage: nb\nlicense: mit\n---\n# x", ("nb",)),
        ("---\nlicense: mit\nlanguage:\n- en\n- 'no'\ntags: [a]\n---\n", ("en", "no")),
        ("---\nlanguage: [fr, es]\n---\n", ("fr", "es")),
        ("# no front matter\nlanguage: en\n", ()),
        ("---\nlicense: mit\n---\n", ()),
    ],
)
def test_a_model_cards_language_field_is_read(front, expected):
    assert card_front_matter_languages(front) == expected


def test_sources_in_order_flag_registry_card_then_english(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    (tmp_path / "README.md").write_text("---\nlanguage:\n- nb\n---\n")
    card_languages.cache_clear()
    assert model_languages((), str(tmp_path)) == (("nb",), "its model card")
    assert model_languages(("no", "nb", "nn"), str(tmp_path))[1] == "its registry entry"
    assert model_languages(("no",), str(tmp_path), ("en", "no")) == (("en", "no"), "--bias-language")
    assert model_languages((), str(tmp_path / "nowhere"))[0] == ("en",)
    assert model_languages((), "someone/unknown-model")[0] == ("en",)  # offline: no card to read
