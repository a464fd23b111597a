"""The text of paper 000's five tasks and the Bokmål definite form of task 5."""

from __future__ import annotations

import pytest

from biascheck.methods.norwegian_occupations import templates as t
from biascheck.models.base import SLOT


def test_slot_marker_is_the_engines():
    assert t.SLOT == SLOT


def test_pronoun_and_name_templates():
    assert t.pronoun_templates(["[MASK] er adjunkt.", "[MASK] jobber som lege."]) == [
        "[SLOT] er adjunkt.",
        "[SLOT] jobber som lege.",
    ]
    assert t.name_templates("task3", ["Oda", "Ole"]) == ["Oda er [SLOT].", "Ole er [SLOT]."]
    assert t.name_templates("task4", ["Oda"]) == ["Oda jobber som [SLOT]."]
    assert t.name_templates("task5_b", ["Oda"]) == t.name_templates("task5_ub", ["Oda"]) == ["[SLOT] Oda."]
    with pytest.raises(ValueError):
        t.pronoun_templates(["Hun er lege."])


@pytest.mark.parametrize(
    "form, definite",
    [
        ("advokat", "advokaten"),  # rule 3: -en
        ("sykepleier", "sykepleieren"),
        ("jordmor", "jordmoren"),
        ("barista", "baristaen"),
        ("lege", "legen"),  # rule 3: ends in -e, -n
        ("guide", "guiden"),
        ("avisbud", "avisbudet"),  # rule 3: neuter -bud, -et
        ("postbud", "postbudet"),
        ("kjole- og draktsyer", "kjole- og draktsyeren"),  # rule 2: coordination, last word
        ("fagoperatør i termoplast", "fagoperatøren i termoplast"),  # rule 2: first word
        ("brønnoperatør havbunnsinstallasjoner", "brønnoperatøren havbunnsinstallasjoner"),
        ("it-konsulent", "it-konsulenten"),
        ("grafisk designer", "den grafiske designeren"),  # rule 1: exceptions
        ("kundeansvarlig", "den kundeansvarlige"),
        ("art director", "art directoren"),
    ],
)
def test_definite_form(form, definite):
    assert t.definite_form(form) == definite


def test_sentence_initial_capitalises_only_the_first_letter():
    assert t.sentence_initial("advokaten") == "Advokaten"
    assert t.sentence_initial("den grafiske designeren") == "Den grafiske designeren"
    assert t.sentence_initial("it-konsulenten") == "It-konsulenten"
