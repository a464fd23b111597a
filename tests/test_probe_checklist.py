"""What every shipped probe has besides its code, so that a probe left half-added fails here, by name, with
what to add ("Adding a probe" in the README): a judgement in the default profile (thresholds, or a stated
report-only), unit tests, its package README and its entries in docs/probes.md's probe lists."""

from pathlib import Path

import pytest

from biascheck.catalog import PROBES
from biascheck.probe_table import END, START
from biascheck.thresholds import load_profile

REPO = Path(__file__).resolve().parents[1]
SHIPPED = [name for name in PROBES if PROBES.is_shipped(name)]
DEFAULT = load_profile("default", [REPO / "thresholds"], PROBES)


@pytest.mark.parametrize("probe", SHIPPED)
def test_the_default_profile_judges_the_probe_or_says_it_reports_only(probe):
    assert DEFAULT.gated([PROBES[probe]]) or probe in DEFAULT.report_only, (
        f"thresholds/default.toml has no threshold for {probe!r}: give its metrics [{probe}.<metric>] tables with "
        f'min/max and a why, or say it is reported without a verdict: [{probe}] report_only = true, why = "..."'
    )


@pytest.mark.parametrize("probe", SHIPPED)
def test_the_probe_has_unit_tests(probe):
    methods = REPO / "tests" / "methods"
    tests = sorted((methods / probe).glob("test_*.py")) + sorted(methods.glob(f"test_{probe}_*.py"))
    assert tests, (
        f"no unit tests for {probe!r}: add tests/methods/test_{probe}_math.py (the hand calculation of its "
        f"metrics, or an independent implementation), or a folder tests/methods/{probe}/ of test files with an "
        "empty __init__.py (several probes' folders hold files of the same name)"
    )


@pytest.mark.parametrize("probe", SHIPPED)
def test_the_probe_has_a_readme_and_entries_in_the_probe_lists(probe):
    own = REPO / "biascheck" / "methods" / probe / "README.md"
    assert own.is_file() and own.read_text(encoding="utf-8").strip(), (
        f"biascheck/methods/{probe}/README.md is missing or empty: what the probe measures, its paper and "
        "reference data, every metric, its thresholds and why, its settings, where it departs from the paper"
    )
    doc = (REPO / "docs" / "probes.md").read_text(encoding="utf-8")
    block = doc[doc.find(START) : doc.find(END)]
    assert f"- [`{probe}`](../biascheck/methods/{probe}/README.md): " in block and f"\n- `{probe}`: " in block, (
        f"docs/probes.md's probe lists have no entry for {probe!r}: biascheck probes --markdown --into docs/probes.md"
    )
