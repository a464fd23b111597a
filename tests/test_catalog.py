"""The catalog finds probes instead of listing them: every `biascheck/methods/<name>/spec.py`, and every
entry point of the group ``biascheck.probes`` (a user's own probe package), in a stated order."""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint

import pytest

from biascheck import catalog
from biascheck.catalog import ENTRY_POINT_GROUP, Catalog
from biascheck.errors import ConfigError

USER_SPEC = """
from biascheck.spec import MetricSpec, ProbeSpec

PROBE = ProbeSpec(
    name="{name}", title="A user's probe", paper="beyond the seeds: someone 2026", language="en", tasks=("all",),
    metrics=(MetricSpec(name="lean", description="he minus she", better="zero", reference="model"),),
)
"""


def _installed(monkeypatch, tmp_path, points, spec_name="my_probe"):
    """A package `my_probes` on sys.path and `points` ((name, value) pairs) as the group's entry points."""
    (tmp_path / "my_probes").mkdir()
    (tmp_path / "my_probes" / "__init__.py").write_text("")
    (tmp_path / "my_probes" / "spec.py").write_text(USER_SPEC.format(name=spec_name))
    monkeypatch.syspath_prepend(str(tmp_path))
    for module in ("my_probes", "my_probes.spec"):  # another test's package of the same name
        monkeypatch.delitem(sys.modules, module, raising=False)
    found = [EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP) for name, value in points]
    monkeypatch.setattr(catalog, "entry_points", lambda group: found if group == ENTRY_POINT_GROUP else [])


def test_shipped_probes_come_in_seed_paper_order_then_beyond_the_seeds_by_name(monkeypatch):
    monkeypatch.setattr(catalog, "entry_points", lambda group: [])
    probes = Catalog()
    expected = [
        "norwegian_occupations",  # 000
        "pronoun_ratio",  # 001
        "natural_prompts",  # 002
        "politicians",  # 003
        "role_nouns",  # 004 (section 3)
        "singular_they",  # 004 (section 4)
        "bbq_gender_identity",  # beyond the seeds, by name
        "crows_pairs_gender",
        "winobias",
        "winogender",
    ]
    assert [name for name in probes if name in expected] == expected  # a probe added later finds its own place
    seeded = [name for name in probes if probes[name].paper.isdigit()]
    assert list(probes) == seeded + sorted(set(probes) - set(seeded))
    assert [probes[name].paper for name in seeded] == sorted(probes[name].paper for name in seeded)
    assert all(probes.is_shipped(name) for name in probes)


def test_a_probe_folder_is_found_by_its_spec(tmp_path, monkeypatch):
    monkeypatch.setattr(catalog, "entry_points", lambda group: [])
    for folder in ("pronoun_ratio", "winobias", "notes"):
        (tmp_path / folder).mkdir()
    for folder in ("pronoun_ratio", "winobias"):
        (tmp_path / folder / "spec.py").write_text("")
    assert list(Catalog(tmp_path)) == ["pronoun_ratio", "winobias"]  # 'notes' has no spec.py


def test_an_installed_probe_is_found_through_its_entry_point(tmp_path, monkeypatch):
    _installed(monkeypatch, tmp_path, [("my_probe", "my_probes.spec:PROBE")])
    probes = Catalog()
    assert list(probes)[-1] == "my_probe" and len(probes) == len(catalog.shipped_entries()) + 1  # after the shipped
    assert probes["my_probe"].metric("lean").better == "zero"
    assert not probes.is_shipped("my_probe")


def test_an_entry_point_may_not_take_a_shipped_probes_name(tmp_path, monkeypatch):
    _installed(monkeypatch, tmp_path, [("winobias", "my_probes.spec:PROBE")], spec_name="winobias")
    with pytest.raises(ConfigError, match="winobias.*name of its own"):
        list(Catalog())


def test_an_entry_point_must_point_at_the_spec_of_its_name(tmp_path, monkeypatch):
    _installed(monkeypatch, tmp_path, [("my_probe", "my_probes.spec:PROBE")], spec_name="other_probe")
    with pytest.raises(ConfigError, match="'my_probe'.*the spec of 'other_probe'"):
        Catalog()["my_probe"]
