"""One validated object per pytest run: the options, read once, the run's state and its metadata.

The options are parsed and checked in `biascheck.run_config` (a bad value is reported with its option
name before anything is loaded). Heavy work (thresholds, data,
models) happens on first use, so that installing biascheck costs nothing to unrelated test runs.
The session lives in ``config.stash[SESSION_KEY]``; the plugin and the tracking plugin both read
it from there (neither imports the other).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

from biascheck import __version__, tiers
from biascheck import model_args as model_args_module
from biascheck.data import ReferenceData
from biascheck.errors import BiascheckError, ConfigError
from biascheck.languages import covers, model_languages
from biascheck.registry import resolve_model_name
from biascheck.results import PLOTS_STAGING, SCHEMA_VERSION, ProbeRecorder, Result, RunPayload
from biascheck.run_config import RunConfig, check_data_env, check_report_dir, check_store_path
from biascheck.settings import ProbeSettings
from biascheck.settings import resolve as resolve_settings
from biascheck.spec import ProbeSpec
from biascheck.thresholds import ThresholdSet, load_profile

if TYPE_CHECKING:
    from biascheck.models.base import LanguageModel


@dataclass
class BiasSession:
    config: RunConfig
    results: list[Result] = field(default_factory=list)
    timings: list[dict[str, Any]] = field(default_factory=list)  # {model, probe, test, stage, seconds}
    models: dict[str, LanguageModel] = field(default_factory=dict)
    load_errors: dict[str, str] = field(default_factory=dict)
    settings_by_tier: dict[str, dict[str, ProbeSettings]] = field(default_factory=dict)  # by check_settings
    model_args: dict[str, Any] = field(default_factory=dict)  # --model-arg, parsed by check_settings
    done: set[tuple[str, str, str]] = field(
        default_factory=set
    )  # ProbeRecorder._first_time (artifacts drawn once per model)
    competences: dict[tuple[str, str], Any] = field(default_factory=dict)  # (model, language) -> Competence
    guarded: set[tuple[str, str, str]] = field(default_factory=set)  # (model, probe, task) with a competence result
    released: dict[str, Any] = field(default_factory=dict)  # name -> ModelInfo of a model list's models let go
    kept: dict[tuple[str, str], Any] = field(default_factory=dict)  # (probe, name) -> the plugin's `kept` fixture's
    memo_stored: bool = False  # the memo's on-disk store is on for this run (`store_memo` ends it)
    _tier: tuple[str, str] | None = None  # (tier, why), resolved when first needed
    _thresholds: ThresholdSet | None = None
    _refdata: ReferenceData | None = None

    def check_settings(self) -> None:
        """Resolve every probe's settings (--bias-set, environment, defaults) and check the model arguments
        and the report directory; ConfigError if one is bad."""
        from biascheck.catalog import PROBES

        requested = self.config.tier or tiers.default_tier()
        candidates = tiers.TIERS if requested == "auto" else (requested,)
        # Both tiers' values are checked now; which one runs ('auto' asks torch whether a GPU is there) is
        # settled when a probe first needs it, so a run without probes never imports torch.
        self.settings_by_tier = {t: resolve_settings(PROBES, self.config.settings, tier=t) for t in candidates}
        self.model_args = model_args_module.model_args(self.config.model_args)  # a key twice: ConfigError
        check_report_dir(self.config.report_dir)
        check_data_env(self.config.data_dir)
        from biascheck.models import memo_store

        memo_store.directory()  # a bad $BIASCHECK_MEMO_STORE: ConfigError
        if self.config.save_name is not None or self.config.baseline is not None:
            check_store_path(self.config.store_path)
        if self.config.noise_run is not None and self.config.baseline is None:
            raise ConfigError(
                f"--bias-noise {self.config.noise_run} needs --bias-baseline NAME: the noise band judges a "
                "comparison with a baseline, and without one nothing would use it."
            )

    @property
    def tier(self) -> str:
        """quick or full (biascheck.tiers): --bias-tier, $BIASCHECK_TIER, else auto by the device."""
        if self._tier is None:
            devices = [str(m.info.device) for m in self.models.values()]  # the first model decides 'auto'
            device = devices[0] if devices else self.config.device
            self._tier = tiers.resolve_tier(self.config.tier or tiers.default_tier(), device)
        return self._tier[0]

    @property
    def probe_settings(self) -> dict[str, ProbeSettings]:
        """Every probe's resolved settings in this run's tier."""
        return self.settings_by_tier[self.tier] if self.settings_by_tier else {}

    @property
    def thresholds(self) -> ThresholdSet:
        if self._thresholds is None:
            from biascheck.catalog import PROBES

            self._thresholds = load_profile(self.config.profile, self.config.threshold_dirs(), PROBES)
        return self._thresholds

    def check_gates(self, probes: list[ProbeSpec]) -> None:
        """The selected probes must have a threshold somewhere in the profile, or the run judges nothing
        and its green means unmeasured; ConfigError, before any model loads. With --bias-baseline the
        comparison is the gate (a regression-only profile is a choice, not a mistake)."""
        if not probes or self.config.baseline is not None or self.thresholds.gated(probes):
            return
        files = self.thresholds.files
        extends = f" (and {', '.join(files[:-1])}, which it extends)" if len(files) > 1 else ""
        raise ConfigError(
            f"{files[-1] if files else self.config.profile}{extends}: profile {self.thresholds.profile!r} gates "
            f"nothing in this run: none of the metrics of the selected probes ({', '.join(p.name for p in probes)}) "
            "has a threshold (each is switched off with off = true, or none is set), so every result would pass "
            'unjudged. Give at least one of their metrics a min or max with a why (extends = "default" starts '
            "from the shipped thresholds), select probes the profile gates, or make a baseline the gate: "
            "--bias-baseline NAME (the first run of a regression-only gate: add --bias-baseline-regen)."
        )

    @property
    def refdata(self) -> ReferenceData:
        if self._refdata is None:
            self._refdata = ReferenceData(mirror=self.config.data_dir)
        return self._refdata

    def add_timings(self, model: str, probe: str, test: str, seconds: dict[str, float]) -> None:
        """One `timings` row per stage of a probe test (`biascheck.timing`)."""
        self.timings.extend(
            {"model": model, "probe": probe, "test": test, "stage": name, "seconds": round(value, 4)}
            for name, value in seconds.items()
        )

    def kept_value(self, probe: str, name: str, build: Callable[[], Any]) -> Any:
        """``build()`` the first time `probe` asks for `name` in this run, the same object after: the work that
        does not depend on the model (a probe's reference data and stimuli). With several models (a model list,
        a baseline's) pytest runs every probe of one model before the next, tearing a module's fixtures down
        between them, so a module-scoped `reference` read its data once per checkpoint (BBQ's items 1.4 s, the
        politicians probe's four languages 4.6 s, on 2 cores)."""
        if (probe, name) not in self.kept:
            self.kept[(probe, name)] = build()
        return self.kept[(probe, name)]

    def model(self, name: str) -> LanguageModel:
        """Load `name` once per run; a failure is remembered and re-raised, not retried per test. The memo of what
        its texts become is read from the machine's store when its tokenizer is first met (`models.memo`)."""
        if name in self.load_errors:
            raise BiascheckError(self.load_errors[name])
        if name not in self.models:
            from biascheck.models import memo, memo_store
            from biascheck.planted.resolve import load_model_or_plant

            self._release_models()
            if not self.memo_stored:
                memo.use_store(memo_store.directory())
                self.memo_stored = True

            try:
                self.models[name] = load_model_or_plant(
                    name,
                    device=self.config.device,
                    dtype=self.config.dtype,
                    batch_size=self.config.batch_size,
                    model_args=self.model_args or None,
                    data_dir=self.config.data_dir,
                )
            except BiascheckError as exc:
                self.load_errors[name] = str(exc)
                raise
            memo.meet((getattr(self.models[name].info, "extra", None) or {}).get("tokenizer_sha256"))
        return self.models[name]

    def store_memo(self, exitstatus: int) -> None:
        """At the end of a run that loaded a model: what the run added to the memo goes to the machine's store
        (not when the run was interrupted: ^C stops at once, and a later run builds what was not stored)."""
        if not self.memo_stored:
            return
        from biascheck.models import memo

        if exitstatus != pytest.ExitCode.INTERRUPTED:
            memo.save()
        memo.use_store(None)
        self.memo_stored = False

    def guard(
        self, probe: ProbeSpec, lm: LanguageModel, task: str | None, recorder: ProbeRecorder | None = None
    ) -> str:
        """The competence guard for one probe test (`biascheck.competence.verdict.judge`): '' when `lm` can
        be measured in the probe's language (`recorder`, the test's, then records its result), else the red
        verdict's reason."""
        from biascheck.competence.verdict import judge

        recorder = recorder or self.recorder(probe, lm.info.name)
        return judge(self.competences, self.guarded, recorder, lm, task)

    def skip_reason(self, probe: ProbeSpec, model: str, task: str | None = None) -> str:
        """Why `probe` (its `task`, for a multilingual probe) does not run on `model` by its registry
        entry (family, language), or ''."""
        spec = resolve_model_name(model)
        if spec.family and spec.family not in probe.families:
            return f"{probe.name} needs a {' or '.join(probe.families)} model; {model} is {spec.family}"
        if self.config.any_language:
            return ""
        language = probe.language_of(task)
        covered, source = model_languages(spec.languages, spec.hub_id, self.config.languages)
        if not covers(covered, language):
            what = f"{probe.name}[{task}]" if probe.task_languages else probe.name
            return (
                f"{what} is a '{language}' probe and {model} covers {', '.join(covered)} ({source}); "
                f"pass --bias-language {language} (or --bias-any-language) to run it"
            )
        return ""

    def recorder(self, probe: ProbeSpec, model: str) -> ProbeRecorder:
        """The `bias` fixture's object: records go into this session's results."""
        report = self.config.report_dir
        return ProbeRecorder(
            probe=probe,
            model=model,
            thresholds=self.thresholds,
            sink=self.results.append,
            figure_dir=None if report is None else report / PLOTS_STAGING,
            draws=self.config.draws,
            done=self.done,
            tier=self.tier,
        )

    def _release_models(self) -> None:
        """A model list holds one model in memory at a time: pytest runs every probe of a model before the next,
        so the one loaded before is done (its `ModelInfo` is kept for results.json; should a test ask for it
        again, it loads again). Every checkpoint of a 700-step sweep kept in memory would not fit any machine."""
        from biascheck.models.work import note_work

        if self.config.checkpoints:
            for other in list(self.models):
                note_work(self.models[other])
                self.released[other] = self.models.pop(other).info

    def model_records(self) -> dict[str, dict[str, Any]]:
        """Every loaded model's `ModelInfo` as JSON (name → record), in the run's model order."""
        from biascheck.models.work import note_work

        for model in self.models.values():
            note_work(model)
        infos = {**self.released, **{name: model.info for name, model in self.models.items()}}
        order = [m for m in self.config.models if m in infos] + [m for m in infos if m not in self.config.models]
        return {name: model_record(infos[name]) for name in order}

    def data_records(self) -> list[dict[str, Any]]:
        return self.refdata.provenance() if self._refdata is not None else []

    def metadata(self, exitstatus: int) -> RunPayload:
        """What results.json says about the run besides the results (this process's view)."""
        thresholds = self._thresholds
        return {
            "schema_version": SCHEMA_VERSION,
            "biascheck_version": __version__,
            "created_utc": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            "exit_status": int(exitstatus),
            "profile": {
                "name": self.config.profile,
                "files": thresholds.files if thresholds else [],
                "thresholds_sha256": thresholds.digest() if thresholds else None,
            },
            "batch_size": self.config.batch_size or "auto",
            "tier": {"name": self.tier, "why": self._tier[1] if self._tier else ""},
            "settings": {name: s.as_json() for name, s in self.probe_settings.items() if s.values},
            "models": self.model_records(),
            "data": self.data_records(),
            "timings": list(self.timings),
        }


def model_record(info: Any) -> dict[str, Any]:
    return {**vars(info), "languages": list(info.languages)}


SESSION_KEY = pytest.StashKey[BiasSession]()
