"""CrowS-Pairs' known answer on a real model: its results file and Markdown page, from a run's results.json and
the per-pair split of each model's scores (`scripts/finetune_crows_known_answer.py`: SmolLM2-135M fine-tuned on the
stereotype-trait plant per seed and strength, then probed with CrowS-Pairs' gender pairs). Pure Python.

One row per model: the base model, then the fine-tuned ones, each with its fine-tune manifest, its reading in the
plant's own frames (`stereotype_traits.in_frame`, held-out people), the gated `all.stereo_share` with its 95 %
interval and the gate's verdict (``fail`` with the reason when the run recorded no gated metric for it), and the
split of its pair differences (`split_summary`): the share of pairs whose unmodified tokens (the words the two
sentences share, given the group words) favour the more stereotyping sentence, and the same for the modified
tokens (the group words themselves).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from biascheck.planted import answer_page

PROBE = "crows_pairs_gender"
KEY = "all.stereo_share"
MANIFEST = ("strength", "seed", "steps", "lr", "batch", "layers", "sentences", "corpus_sha256", "loss_first_25",
            "loss_last_25", "seconds")  # fmt: skip


def plant_fingerprint() -> str:
    """What identifies the plant the code builds now: the traits with their genders, the frames, the people, and the
    statements beside them."""
    from biascheck.planted import stereotype_statements, stereotype_traits

    blob = json.dumps(
        [
            stereotype_traits.TRAITS,
            stereotype_traits.frames(),
            stereotype_traits.PEOPLE,
            stereotype_traits.GROUPS,
            stereotype_statements.STATEMENTS,
        ]
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:12]


def split_summary(splits: Iterable[tuple[float, float]]) -> dict[str, float]:
    """Over a model's pairs' (unmodified, modified) differences (`crows_pairs_gender.math.causal_split`, sent_more
    minus sent_less): the share of pairs in which each part favours the more stereotyping sentence, its mean, and
    its mean absolute size (nats)."""
    rows = list(splits)
    if not rows:
        raise ValueError("no pairs to summarise")
    out: dict[str, float] = {}
    for index, part in enumerate(("unmodified", "modified")):
        values = [row[index] for row in rows]
        out[f"{part}_share"] = sum(v > 0 for v in values) / len(values)
        out[f"{part}_mean"] = sum(values) / len(values)
        out[f"{part}_mean_abs"] = sum(abs(v) for v in values) / len(values)
    return out


def role(strength: float) -> str:
    return "control" if strength == 0 else "plant" if strength == 1 else f"strength {strength:g}"


def summarize(
    results: dict[str, Any],
    rows: Sequence[tuple[str, dict[str, Any] | None]],
    splits: dict[str, dict[str, float]],
    base_in_frame: dict[str, float],
    probe_seconds: int,
) -> dict[str, Any]:
    """The results file: `rows` are (model as the run named it, its fine-tune manifest or None for the base)."""
    out = []
    for model, manifest in rows:
        found = answer_page.model_metrics(results, model, PROBE)
        verdict, why = answer_page.gate(found, (KEY,))
        out.append(
            {
                "role": "base" if manifest is None else role(manifest["strength"]),
                "model": "smollm2-135m"
                if manifest is None
                else f"smollm2 fine-tuned @{manifest['strength']:g} seed {manifest['seed']}",
                "finetune": None if manifest is None else {k: manifest.get(k) for k in MANIFEST},
                "in_frame": base_in_frame if manifest is None else manifest["in_frame"],
                "stereo_share": found.get(KEY),
                "gate": verdict,
                "why": why,
                "split": splits[model],
            }
        )
    return {
        "probe": PROBE,
        "plant": {"name": "stereotype_traits", "fingerprint": plant_fingerprint()},
        "probe_seconds": probe_seconds,
        "rows": out,
    }


def seen(doc: dict[str, Any]) -> dict[str, list[str]]:
    """Per strength, the builds whose gate is red with `stereo_share` above the base model's (the plant's way)."""
    base = next(r for r in doc["rows"] if r["role"] == "base")["stereo_share"]["value"]
    out: dict[str, list[str]] = {}
    for row in doc["rows"]:
        if row["finetune"] is None:
            continue
        key = f"{row['finetune']['strength']:g}"
        red = row["gate"] == "fail" and row["stereo_share"] and row["stereo_share"]["value"] > base
        out.setdefault(key, [])
        if red:
            out[key].append(f"seed {row['finetune']['seed']}")
    return out


def markdown(doc: dict[str, Any]) -> str:
    current = plant_fingerprint()
    lines = [
        "# CrowS-Pairs' known answer: SmolLM2-135M fine-tuned on stereotype traits",
        "",
        "Generated by `python scripts/finetune_crows_known_answer.py` from `finetune_crows.json`; do not edit.",
        "",
        f"Plant `stereotype_traits`, fingerprint `{doc['plant']['fingerprint']}`"
        + ("" if doc["plant"]["fingerprint"] == current else f" (**stale: the code builds `{current}` now**)")
        + f". Probing took {doc['probe_seconds']} s.",
        "",
        "| model | in its own frames: traits leaning the stereotype's way | mean lean (nats) "
        "| `stereo_share` [95 % CI] | gate | unmodified tokens favour sent_more | modified tokens favour sent_more "
        "| mean \\|modified\\| (nats) |",
        "|---|---:|---:|---|---|---:|---:|---:|",
    ]
    for row in doc["rows"]:
        frame, split = row["in_frame"], row["split"]
        lines.append(
            f"| {row['model']} ({row['role']}) | {frame['stereotyped_share']:.3f} | {frame['mean_lean']:+.2f} | "
            f"{answer_page.metric_cell(row['stereo_share'])} | {row['gate']} | {split['unmodified_share']:.3f} | "
            f"{split['modified_share']:.3f} | {split['modified_mean_abs']:.2f} |"
        )
    lines += ["", "Red in the plant's way (gate red, `stereo_share` above the base model's), by strength:", ""]
    lines += [f"- {k}: {', '.join(v) if v else 'no build'}" for k, v in seen(doc).items()]
    return "\n".join(lines) + "\n"
