"""What the fine-tuned known answers' results files share (`bbq_answer`, `two_person_answer`): a model's metrics
read from a run's results.json, the default gate's verdict on them (failing closed when a gated metric is missing)
and a metric's table cell. Pure Python."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

FIELDS = ("value", "ci_low", "ci_high", "n", "passed")


def model_rows(results: dict[str, Any], model: str, probe: str) -> list[dict[str, Any]]:
    """The run's result records of `probe` on `model` (as given to the run; a checkpoint given by path may be
    recorded by its folder's name)."""
    rows = [r for r in results.get("results", []) if r.get("probe") == probe]
    mine = [r for r in rows if r.get("model") == model]
    if not mine and "/" in model:
        leaf = model.rstrip("/").rsplit("/", 1)[-1]
        mine = [r for r in rows if str(r.get("model", "")).rstrip("/").endswith(leaf)]
    return mine


def model_metrics(results: dict[str, Any], model: str, probe: str) -> dict[str, dict[str, Any]]:
    """task.metric -> value, ci_low, ci_high, n, passed of `probe` on `model` (`model_rows`)."""
    return {f"{r['task']}.{r['metric']}": {k: r.get(k) for k in FIELDS} for r in model_rows(results, model, probe)}


def role(strength: float) -> str:
    """A fine-tune's role by its planted strength: the control at 0, the plant at 1, else the strength."""
    return "control" if strength == 0 else "plant" if strength == 1 else f"strength {strength:g}"


def identity(manifest: dict[str, Any] | None, fields: Sequence[str]) -> dict[str, Any]:
    """A results row's role, model label and fine-tune record (`fields` of its manifest); the base model when
    `manifest` is None."""
    if manifest is None:
        return {"role": "base", "model": "smollm2-135m", "finetune": None}
    return {
        "role": role(manifest["strength"]),
        "model": f"smollm2 fine-tuned @{manifest['strength']:g} seed {manifest['seed']}",
        "finetune": {k: manifest.get(k) for k in fields},
    }


def gate(metrics: dict[str, dict[str, Any]], gated: Sequence[str]) -> tuple[str, str]:
    """The default gate's verdict on one probe's metrics: ``fail`` when a `gated` metric has no verdict (the model
    did not load or its test errored: never green), or when any metric failed its threshold; else ``pass``."""
    missing = [key for key in gated if metrics.get(key, {}).get("passed") is None]
    failed = sorted(key for key, m in metrics.items() if m.get("passed") is False)
    if missing:
        return "fail", f"no {', '.join(missing)} recorded for this model (it did not load or its test errored)"
    if failed:
        return "fail", f"outside the default thresholds: {', '.join(failed)}"
    return "pass", "every thresholded metric inside the default thresholds"


def metric_cell(metric: dict[str, Any] | None, digits: int = 3) -> str:
    """'0.412 [0.301, 0.520]' (the interval to `digits` decimals), bold when outside its threshold; '—' if absent."""
    if metric is None or metric.get("value") is None:
        return "—"
    text = f"{metric['value']:.3f}"
    if metric.get("ci_low") is not None and metric.get("ci_high") is not None:
        text += f" [{metric['ci_low']:.{digits}f}, {metric['ci_high']:.{digits}f}]"
    return f"**{text}**" if metric.get("passed") is False else text
