"""Every metric declares which way it is better: higher, lower, toward zero (a signed lean), toward a
target, or none. The kinds are not copied here: the README's probe tables are generated from the specs
(`biascheck probes --markdown`) and must equal that output, so a metric that changes its kind (a lean
going back to 'lower is better', where -0.8 -> -2.0 would look better) shows in the README's diff."""

from pathlib import Path

import pytest

from biascheck.catalog import PROBES
from biascheck.probe_table import END, START, markdown
from biascheck.spec import BETTER, MetricSpec, distance_from_ideal
from biascheck.thresholds import load_profile

REPO = Path(__file__).resolve().parents[1]
REGENERATE = "biascheck probes --markdown --into README.md"


@pytest.mark.parametrize("probe", list(PROBES))
def test_every_metric_declares_a_known_kind(probe):
    for metric in PROBES[probe].metrics:
        assert metric.better in BETTER, metric.name


def test_the_readme_probe_tables_are_the_specs():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    start, end = readme.find(START), readme.find(END)
    assert 0 <= start < end, f"README.md has no {START} ... {END} block; put the markers there and run: {REGENERATE}"
    expected = markdown(PROBES, load_profile("default", [REPO / "thresholds"], PROBES))
    assert readme[start : end + len(END)] + "\n" == expected, (
        f"README.md's probe tables differ from the specs and thresholds/default.toml. Regenerate them: {REGENERATE}"
    )


def test_distance_from_ideal_by_hand():
    assert distance_from_ideal("zero", -2.0) == 2.0 > distance_from_ideal("zero", -0.8)
    assert distance_from_ideal("target", 0.3, 0.5) == pytest.approx(0.2)
    assert distance_from_ideal("higher", 0.7) == -0.7 and distance_from_ideal("lower", 0.7) == 0.7
    assert distance_from_ideal("none", 1.0) is None and distance_from_ideal("target", 1.0) is None


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="better='up'"):
        MetricSpec(name="x", description="", better="up", reference="model")
