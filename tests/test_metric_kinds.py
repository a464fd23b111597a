"""Every metric declares which way it is better: higher, lower, toward zero (a signed lean), toward a
target, or none. The kinds are not copied here: docs/probes.md's probe lists are generated from the specs
(`biascheck probes --markdown`) and must equal that output, so a metric that changes its kind (a lean
going back to 'lower is better', where -0.8 -> -2.0 would look better) shows in that file's diff."""

from pathlib import Path

import pytest

from biascheck.catalog import PROBES
from biascheck.probe_table import END, START, link_base, markdown
from biascheck.spec import BETTER, MetricSpec, distance_from_ideal
from biascheck.thresholds import load_profile

REPO = Path(__file__).resolve().parents[1]
REGENERATE = "biascheck probes --markdown --into docs/probes.md"
PROBE_DOC = REPO / "docs" / "probes.md"


@pytest.mark.parametrize("probe", list(PROBES))
def test_every_metric_declares_a_known_kind(probe):
    for metric in PROBES[probe].metrics:
        assert metric.better in BETTER, metric.name


def test_the_documented_probe_lists_are_the_specs():
    doc = PROBE_DOC.read_text(encoding="utf-8")
    start, end = doc.find(START), doc.find(END)
    assert 0 <= start < end, f"docs/probes.md has no {START} ... {END} block; put the markers there, run: {REGENERATE}"
    expected = markdown(PROBES, load_profile("default", [REPO / "thresholds"], PROBES), link_base(PROBE_DOC))
    assert doc[start : end + len(END)] + "\n" == expected, (
        f"docs/probes.md's probe lists differ from the specs and thresholds/default.toml. Regenerate them: {REGENERATE}"
    )


def test_distance_from_ideal_by_hand():
    assert distance_from_ideal("zero", -2.0) == 2.0 > distance_from_ideal("zero", -0.8)
    assert distance_from_ideal("target", 0.3, 0.5) == pytest.approx(0.2)
    assert distance_from_ideal("higher", 0.7) == -0.7 and distance_from_ideal("lower", 0.7) == 0.7
    assert distance_from_ideal("none", 1.0) is None and distance_from_ideal("target", 1.0) is None


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="better='up'"):
        MetricSpec(name="x", description="", better="up", reference="model")
