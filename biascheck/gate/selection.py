"""What a run selected, said in words for a gate failure: a gate option (--bias-baseline, --bias-save,
--bias-noise, --bias-baseline-regen) in a run where no probe test recorded a result compared and saved
nothing, so the run fails with what the selection matched. Pure; `biascheck.gate_plugin.tracking` calls it."""

from __future__ import annotations

from typing import Any


def gate_options(cfg: Any) -> list[str]:
    """The gate options of a `RunConfig` as they were given, e.g. ['--bias-baseline v1', '--bias-save v2']."""
    given = [
        f"{flag} {name}"
        for flag, name in (
            ("--bias-baseline", cfg.baseline),
            ("--bias-save", cfg.save_name),
            ("--bias-noise", cfg.noise_run),
        )
        if name is not None
    ]
    return given + (["--bias-baseline-regen"] if cfg.baseline_regen else [])


def no_results(tracking: Any) -> str:
    """The one-paragraph reason for a run with gate options and no probe result ('' without gate options),
    from a `biascheck.gate_plugin.tracking.Tracking`: its run config, the tests that reported (`selected`), those
    parametrized over --model (`outcomes`), -k / -m and the deselected count."""
    given = gate_options(tracking.session.config)
    if not given:
        return ""
    tests: set[str] = tracking.selected
    probe_tests = {test for seen in tracking.outcomes.values() for test in seen["seen"]}
    keyword, markexpr, deselected = tracking.config.option.keyword, tracking.config.option.markexpr, tracking.deselected
    total = len(tests | probe_tests)
    if probe_tests:
        matched = f"{total} test(s), {len(probe_tests)} of them probe tests, none of which recorded a result (each "
        matched += "was skipped or failed: see above)"
    else:
        matched = f"{total} test(s), none of them a probe test" if total else "no test"
    narrowed = [f"-k {keyword!r}"] if keyword else []
    narrowed += [f"-m {markexpr!r}"] if markexpr else []
    narrowed += [f"{deselected} deselected"] if deselected else []
    flags = ", ".join(dict.fromkeys(g.split()[0] for g in given))
    return (
        f"{' '.join(given)}: no probe test recorded a result, so nothing was compared with a baseline or saved, "
        f"and the gate cannot pass. The selection matched {matched}"
        f"{' (' + '; '.join(narrowed) + ')' if narrowed else ''}. Select at least one probe test (a probe module "
        f"such as probes/test_pronoun_ratio.py, or a -k that matches one, e.g. -k pronoun_ratio), or leave out "
        f"{flags} in a run that measures nothing."
    )
