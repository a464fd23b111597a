"""`--model-arg KEY=VALUE`: how a model is loaded, beyond its name (as lm-evaluation-harness's
``--model_args``). Pure: parsed and checked when pytest starts; used by `biascheck.models.load_model`
and recorded with the model in results.json.

| key | value | passed to |
|---|---|---|
| revision | a branch, tag or commit of a hub repository | ``from_pretrained(revision=...)`` |
| trust_remote_code | true / false (default false: a checkpoint's own code never runs unasked) | ``from_pretrained`` |
| gguf_file | a GGUF file inside the directory or hub repository | ``from_pretrained(gguf_file=...)`` |
| subfolder | a subfolder of the directory or repository | ``from_pretrained(subfolder=...)`` |
| adapter | a PEFT adapter directory, merged into the weights (needs the peft package) | ``PeftModel.from_pretrained`` |
"""

from __future__ import annotations

from biascheck.errors import ConfigError, did_you_mean

KEYS = ("revision", "trust_remote_code", "gguf_file", "subfolder", "adapter")
_BOOLEAN = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def parse_model_arg(text: str) -> tuple[str, str | bool]:
    """'key=value' → (key, value); booleans for trust_remote_code. ConfigError names the bad part."""
    key, sep, value = text.partition("=")
    key, value = key.strip(), value.strip()
    if not sep or not key or not value:
        raise ConfigError(f"--model-arg {text!r}: use KEY=VALUE, e.g. revision=main; keys: {', '.join(KEYS)}.")
    if key not in KEYS:
        raise ConfigError(
            f"--model-arg {text!r}: unknown key {key!r}.{did_you_mean(key, KEYS)} Keys: {', '.join(KEYS)}."
        )
    if key == "trust_remote_code":
        if value.lower() not in _BOOLEAN:
            raise ConfigError(f"--model-arg {text!r}: use trust_remote_code=true or false.")
        return key, _BOOLEAN[value.lower()]
    return key, value


def model_args(pairs: list[tuple[str, str | bool]] | tuple[tuple[str, str | bool], ...]) -> dict[str, str | bool]:
    """The parsed pairs as a dict; a key given twice is an error (which one would win is not obvious)."""
    out: dict[str, str | bool] = {}
    for key, value in pairs:
        if key in out and out[key] != value:
            raise ConfigError(f"--model-arg {key} given twice ({out[key]!r} and {value!r}); give it once.")
        out[key] = value
    return out
