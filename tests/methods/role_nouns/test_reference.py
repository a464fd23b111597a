"""The role-noun reference on the real mirror: what the probe module used to assemble by hand, now one
frozen `Reference`, its states chosen by the ``states`` setting; and the package keeps the protocol."""

from pathlib import Path

import pytest

from biascheck.methods.role_nouns.reference import load
from biascheck.methods.role_nouns.spec import PROBE
from biascheck.protocol import protocol_problems
from biascheck.settings import settings_of

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(("states", "expected"), [("1", ("Alabama",)), ("2", ("Alabama", "Wyoming"))])
def test_load_selects_the_states_of_the_setting(real_refdata, states, expected):
    reference = load(real_refdata, settings_of(PROBE, states=states))
    assert reference.states == expected
    assert len(reference.sets) == 54 and len(reference.names) == 24
    assert len(reference.prior_pred) == len(reference.prior) * len(reference.names)
    assert reference.trials["participant"].nunique() == 271


def test_the_package_and_its_probe_module_keep_the_protocol():
    assert protocol_problems(PROBE.name, REPO / "probes") == []
