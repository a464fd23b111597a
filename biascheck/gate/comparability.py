"""Whether two saved runs may be compared at all: everything besides the weights that changes numbers.

A change of biascheck version, threshold profile, tier, batch policy, reference data or probe setting,
or a model loaded another way (family, dtype, device class, context prefix, weights format,
quantisation, tokenizer), moves a metric by itself; a comparison across one would call that a
regression or hide one. The callers (the pytest gate in `biascheck.gate_plugin.tracking`, `biascheck compare`,
a noise run in `biascheck.gate.admit`) refuse such a comparison unless asked for (--bias-allow-mismatch /
--allow-mismatch). Pure: the run-level records of two results.json payloads in, sentences out; models
are paired as `biascheck.gate.baseline.partners` pairs them for the comparison itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from biascheck.devices import device_kind
from biascheck.gate.baseline import partners

# What changes numbers besides the model's weights, per model record.
MODEL_FIELDS = ("family", "dtype", "device_class", "context_prefix", "weights", "quantisation", "tokenizer_sha256")


def model_identity(record: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a saved model record that change numbers besides the weights (`MODEL_FIELDS`)."""
    extra = record.get("extra") or {}
    device = record.get("device")
    return {
        "family": record.get("family"),
        "dtype": record.get("dtype"),
        "device_class": None if device is None else device_kind(device),
        "context_prefix": extra.get("context_prefix"),
        "weights": extra.get("weights"),
        "quantisation": extra.get("quantisation"),
        "tokenizer_sha256": extra.get("tokenizer_sha256"),
    }


def _shown(value: Any) -> str:
    return "not recorded" if value is None else repr(value)


def _paired_models(base: Mapping[str, Any], new: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(baseline model, new model) pairs, by `partners`: a new name is checked against every baseline model
    it is compared with, one or several."""
    base_models = list(base.get("models") or {})
    return [(b, m) for m in new.get("models") or {} for b in partners(m, base_models)]


def mismatches(base: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """Everything besides the weights that differs between two runs and changes numbers: biascheck
    version, threshold profile (its resolved thresholds, `ThresholdSet.digest`, not its name), tier, batch
    policy, data checksums, probe settings (of the probes both ran) and, per paired model, family, dtype,
    device class, context prefix, weights format, quantisation and tokenizer. A run-level field neither or
    one run records is not counted (runs of an older schema are refused before: `biascheck.gate.admit`); a
    model field one model records and its partner does not is a difference (they were loaded differently)."""
    out = []
    for key, label in (("biascheck_version", "biascheck version"), ("batch_size", "batch size")):
        a, b = base.get(key), new.get(key)
        if a is not None and b is not None and a != b:
            out.append(f"{label}: {a} vs {b}")
    base_profile, new_profile = base.get("profile") or {}, new.get("profile") or {}
    a, b = base_profile.get("thresholds_sha256"), new_profile.get("thresholds_sha256")
    if (a is not None or b is not None) and a != b:
        out.append(
            f"threshold profile: {base_profile.get('name')} (thresholds sha256 {str(a)[:12]}…) vs "
            f"{new_profile.get('name')} ({str(b)[:12]}…): the resolved thresholds differ"
        )
    a, b = (base.get("tier") or {}).get("name"), (new.get("tier") or {}).get("name")
    if a and b and a != b:
        out.append(f"tier: {a} vs {b} (a quick run scores a subsample of the items a full run scores)")
    base_data = {d["name"]: d.get("sha256") for d in base.get("data") or []}
    for d in new.get("data") or []:
        if d["name"] in base_data and base_data[d["name"]] != d.get("sha256"):
            old, new_sum = str(base_data[d["name"]])[:12], str(d.get("sha256"))[:12]
            out.append(f"reference data {d['name']}: sha256 {old}… vs {new_sum}…")
    probes = {r["probe"] for r in base.get("results", [])} & {r["probe"] for r in new.get("results", [])}
    base_settings, new_settings = base.get("settings") or {}, new.get("settings") or {}
    for probe in sorted(probes & set(base_settings) & set(new_settings)):
        for name, entry in new_settings[probe].items():
            old = base_settings[probe].get(name)
            if old is not None and old.get("value") != entry.get("value"):
                out.append(f"setting {probe}.{name}: {old.get('value')} vs {entry.get('value')}")
    return out + model_mismatches(base, new.get("models") or {})


def model_mismatches(base: Mapping[str, Any], models: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The per-model part of `mismatches`: how each of `models` (name -> model record, as results.json
    holds them) was loaded differently from the baseline models it is compared with. Known as soon as the
    models load, before any probe runs."""
    out = []
    for base_model, new_model in _paired_models(base, {"models": models}):
        a, b = model_identity(base["models"][base_model]), model_identity(models[new_model])
        against = "" if base_model == new_model else f" (vs baseline model {base_model})"
        for field_name in MODEL_FIELDS:
            if a[field_name] != b[field_name]:
                out.append(f"{new_model} {field_name}: {_shown(a[field_name])} vs {_shown(b[field_name])}{against}")
    return out


def other_model(base: Mapping[str, Any], models: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Pairs that are different models altogether (another architecture or another tokenizer), not the same
    model loaded another way: 'NEW is ARCH, baseline model BASE is ARCH'. Pure."""
    out = []
    for base_model, new_model in _paired_models(base, {"models": models}):
        a, b = base["models"][base_model], models[new_model]
        arch_a, arch_b = a.get("architecture"), b.get("architecture")
        tok_a, tok_b = ((r.get("extra") or {}).get("tokenizer_sha256") for r in (a, b))
        if arch_a != arch_b or (tok_a and tok_b and tok_a != tok_b):
            out.append(
                f"{new_model} is {arch_b or 'an unrecorded architecture'}, baseline model {base_model} is "
                f"{arch_a or 'an unrecorded architecture'}" + (", with another tokenizer" if tok_a != tok_b else "")
            )
    return out
