"""The two-person known answer's results file and its Markdown page, from a run's results.json
(`lab/scripts/finetune_known_answer.py`: SmolLM2-135M fine-tuned on the two-person plant per seed and strength, then
probed with WinoBias, Winogender and CrowS-Pairs). Pure Python.

One row per model: the base model, then the fine-tuned ones, each with its fine-tune manifest, the key metrics
with their 95 % intervals and, per probe, the default gate's verdict: ``pass`` when every thresholded metric of
the probe passed, ``fail`` when one did not, and ``fail`` too (with the reason) when the run recorded none of the
probe's gated metrics for the model (a model that did not load or an errored test must not read as green).

The file names the plant it was measured on (`plant_fingerprint`: the frames and the order of the share sources);
the page generated from it says so, and says it loudly when that is not the plant the code builds now.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from lab import answer_page, dose

PROBES = ("winobias", "winogender", "crows_pairs_gender")
# probe -> its key metrics (task.metric), shown in this order; the gated ones (thresholds/default.toml) marked.
SHOWN: dict[str, tuple[str, ...]] = {
    "winobias": ("type1.pro_share", "type2.pro_share", "type2.mean_pro_anti"),
    "winogender": ("pronouns.spearman_bls", "pronouns.majority_agreement"),
    "crows_pairs_gender": ("all.stereo_share",),
}
GATED: dict[str, tuple[str, ...]] = {
    "winobias": ("type1.pro_share", "type2.pro_share"),
    "winogender": ("pronouns.majority_agreement",),
    "crows_pairs_gender": ("all.stereo_share",),
}
# probe -> the metric the plant moves (its gated metric on the sentences the plant is about: WinoBias type 2, whose
# pronoun syntax resolves as in the two-person frames), always upwards.
KEY: dict[str, str] = {
    "winobias": "type2.pro_share",
    "winogender": "pronouns.majority_agreement",
    "crows_pairs_gender": "all.stereo_share",
}
FAMILY = "smollm2"
MANIFEST = ("strength", "seed", "steps", "lr", "batch", "layers", "sentences", "corpus_sha256", "loss_first_25",
            "loss_last_25", "seconds")  # fmt: skip


VARIANTS = {  # the plant's name -> what strength 1 gives an occupation's pronoun
    "two_person": "its women's share",
    "two_person_majority": "its majority's pronoun, always (the share rounded)",
}


def plant_fingerprint(
    frames: Sequence[str],
    share_sources: Sequence[str],
    left_out: Sequence[str] = (),
    statements: Sequence[str] = (),
    variant: str = "two_person",
) -> str:
    """What identifies the plant a result was measured on: its frames, the sources of its shares in order, the
    people left out and the stereotype statements (CrowS-Pairs' plant) beside them (neither before 2026-11-26, so
    the old plant's fingerprint is of the first two alone), and the variant when it is not the proportional one."""
    found: dict[str, Any] = {"frames": list(frames), "shares": list(share_sources)}
    if left_out:
        found["left_out"] = sorted(left_out)
    if statements:
        found["statements"] = list(statements)
    if variant != "two_person":
        found["variant"] = variant
    text = json.dumps(found, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def current_plant(variant: str = "two_person") -> dict[str, Any]:
    """The plant the code builds now for `variant` (`VARIANTS`): its fingerprint, frame count and share sources."""
    from biascheck.planted.references import SEX_MARKED, TWO_PERSON_SOURCES
    from biascheck.planted.two_person import FRAMES
    from lab import stereotype_statements

    if variant not in VARIANTS:
        raise ValueError(f"unknown two-person plant {variant!r}; known: {', '.join(VARIANTS)}")
    frames = list(FRAMES)
    statements = stereotype_statements.frames()
    found = {
        "fingerprint": plant_fingerprint(frames, TWO_PERSON_SOURCES, sorted(SEX_MARKED), statements, variant),
        "frames": len(frames),
        "shares": list(TWO_PERSON_SOURCES),
        "statements": len(statements),
    }
    return found if variant == "two_person" else {**found, "variant": variant}


def variant_of(doc: dict[str, Any]) -> str:
    """The plant variant a results file was measured on (files before the variants: the proportional one)."""
    return str(doc["plant"].get("variant", "two_person"))


def against_majority(results: dict[str, Any], model: str) -> list[str] | None:
    """Winogender's occupations whose lean on `model` has the sign of their BLS minority (the ones
    `majority_agreement` counts as misses), from the per-occupation leans the run recorded (`pearson_bls`'s items);
    None when the run has none for the model."""
    mine = [r for r in answer_page.model_rows(results, model, "winogender") if r.get("metric") == "pearson_bls"]
    if not mine or not mine[0].get("items"):
        return None
    import pandas as pd

    from biascheck.methods.winogender.math import majority_agreement

    items = mine[0]["items"]
    index = [item["occupation"] for item in items]
    lean = pd.Series([item["female_lean"] for item in items], index=index)
    agree = majority_agreement(lean, pd.Series([item["bls_pct_female"] for item in items], index=index))
    return sorted(occupation for occupation, hit in zip(index, agree, strict=True) if not hit)


def _row(
    model: str,
    manifest: dict[str, Any] | None,
    results: dict[str, Any],
    probes: Sequence[str],
    base_in_frame: dict[str, Any] | None,
) -> dict:
    by_probe: dict[str, dict[str, Any]] = {}
    for probe in probes:
        found = answer_page.model_metrics(results, model, probe)
        verdict, why = answer_page.gate(found, GATED[probe])
        by_probe[probe] = {"metrics": {k: found[k] for k in SHOWN[probe] if k in found}, "gate": verdict, "why": why}
        if probe == "winogender":
            by_probe[probe]["against_majority"] = against_majority(results, model)
    return {
        **answer_page.identity(manifest, MANIFEST),
        "in_frame": base_in_frame if manifest is None else manifest.get("in_frame"),
        "probes": by_probe,
    }


def as_dose(doc: dict[str, Any]) -> dict[str, Any]:
    """The fine-tuned rows of a results file in `lab.dose`'s shape (one family, each fine-tune a build:
    its key metrics and its default gates), so a gate sees the plant by the planted models' rule: red in the plant's
    direction in all builds of a strength, or all but one, the key metric beyond every control build's value, the
    controls clean."""
    runs = []
    for row in doc["models"]:
        tuned = row["finetune"]
        if not tuned:
            continue
        metrics = {}
        for probe, entry in row["probes"].items():
            found = entry["metrics"].get(KEY[probe])
            if found is not None and found.get("value") is not None:
                task, metric = KEY[probe].split(".")
                metrics[dose.key_name(probe, task, metric)] = {k: found.get(k) for k in ("value", "ci_low", "ci_high")}
        runs.append({
            "model": row["model"], "family": FAMILY, "strength": float(tuned["strength"]), "seed": tuned["seed"],
            "metrics": metrics, "gates": {probe: entry["gate"] == "pass" for probe, entry in row["probes"].items()},
        })  # fmt: skip
    key_metrics = [
        {"probe": probe, "task": KEY[probe].split(".")[0], "metric": KEY[probe].split(".")[1], "direction": 1}
        for probe in doc["probes"]
    ]
    return {"runs": runs, "families": [FAMILY], "plant_passes": [], "key_metrics": key_metrics}


def sensitivity(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per probe: from which strength its default gate sees the plant ('never'; 'control too' when a control build
    is red as well) and in which builds, by strength (`dose.sensitivity` of `as_dose(doc)`)."""
    return {label.split(" ")[0]: row for label, row in dose.sensitivity(as_dose(doc)).items()}


def summarize(
    results: dict[str, Any],
    rows: Sequence[tuple[str, dict[str, Any] | None]],
    *,
    probes: Sequence[str] = PROBES,
    probe_seconds: int | None,
    plant: dict[str, Any] | None = None,
    base_in_frame: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The results file: `rows` are (model as given to the run, fine-tune manifest or None for the base); `plant`
    defaults to `current_plant()` (what the fine-tunes were trained on). Each row's `in_frame` is how the model leans
    in the plant's own frames (`two_person_in_frame.lean_summary`): the fine-tune manifest's, `base_in_frame` for
    the base model; None where it was not measured."""
    doc = {
        "known_answer": "two_person",
        "plant": plant or current_plant(),
        "transcribed_from": None,
        "biascheck_version": results.get("biascheck_version"),
        "created_utc": results.get("created_utc"),
        "probes": list(probes),
        "probe_seconds": probe_seconds,
        "models": [_row(model, manifest, results, probes, base_in_frame) for model, manifest in rows],
    }
    doc["sensitivity"] = sensitivity(doc)
    return doc


def _provenance(doc: dict[str, Any], current: dict[str, Any]) -> list[str]:
    plant = doc["plant"]
    lines = [
        f"Plant: {plant['frames']} two-person frames, shares from {', '.join(plant['shares'])} (first source that "
        f"names an occupation wins)"
        + (" rounded to their majority (`two_person_majority`)" if variant_of(doc) == "two_person_majority" else "")
        + (
            f", and {plant['statements']} stereotype statements (CrowS-Pairs' plant, `lab.stereotype_statements`)"
            if plant.get("statements")
            else ""
        )
        + f"; fingerprint `{plant['fingerprint'][:12]}`."
    ]
    if plant["fingerprint"] != current["fingerprint"]:
        lines += [
            "",
            f"**Not the current plant.** These results were measured on {plant.get('note', 'another plant')}; "
            f"the code now builds {current['frames']} other frames with shares from {', '.join(current['shares'])}"
            + (f" and {current['statements']} stereotype statements" if current.get("statements") else "")
            + f" (fingerprint `{current['fingerprint'][:12]}`). Rerun `python lab/scripts/finetune_known_answer.py` "
            "to measure them.",
        ]
    if doc.get("transcribed_from"):
        lines += ["", f"Transcribed from {doc['transcribed_from']}."]
    return lines


def markdown(doc: dict[str, Any], current: dict[str, Any] | None = None) -> str:
    """The page generated from the results file against `current` (default `current_plant()` of the file's variant);
    `tests/lab/test_two_person_answer.py` checks the committed page is this."""
    current = current or current_plant(variant_of(doc))
    seeds = sorted({row["finetune"]["seed"] for row in doc["models"] if row["finetune"]})
    lines = [
        "# Known answers on a real model: SmolLM2-135M fine-tuned on the two-person plant"
        + (" and stereotype statements" if doc["plant"].get("statements") else ""),
        "",
        f"Written by `python lab/scripts/finetune_known_answer.py` from `finetune_smollm2.json`; biascheck "
        f"{doc['biascheck_version']}, {doc['created_utc']}; seeds {', '.join(map(str, seeds))}"
        + (f"; probing took {doc['probe_seconds']} s for all models" if doc.get("probe_seconds") else "")
        + ". Rows: the base model, then per seed one fine-tuned model per strength (0 = balanced pronouns: the "
        f"control; 1 = for each occupation {VARIANTS[variant_of(doc)]}: the plant). Bold: outside the default "
        "threshold.",
        "",
        *_provenance(doc, current),
    ]
    for probe in doc["probes"]:
        keys = SHOWN[probe]
        lines += ["", f"### {probe}", "", f"| model | {' | '.join(keys)} | default gate |"]
        lines += ["|---|" + "---|" * len(keys) + "---|"]
        for row in doc["models"]:
            entry = row["probes"][probe]
            cells = [answer_page.metric_cell(entry["metrics"].get(key), digits=2) for key in keys]
            verdict = "pass" if entry["gate"] == "pass" else "**fail**"
            lines.append(f"| {row['model']} | {' | '.join(cells)} | {verdict} |")
        if probe == "winogender":
            lines += _against_lines(doc)
    lines += _sensitivity_lines(doc)
    lines += _in_frame_lines(doc)
    tuned = [row for row in doc["models"] if row["finetune"]]
    lines += ["", "Fine-tuning (float32, AdamW, next-token loss on every sentence; top layers or all trained):", ""]
    lines += ["| model | steps | batch | lr | layers | sentences | loss, first → last 25 steps | seconds | corpus |"]
    lines += ["|---|---|---|---|---|---|---|---|---|"]
    for row in tuned:
        f = row["finetune"]
        loss = "—" if f.get("loss_first_25") is None else f"{f['loss_first_25']:.3f} → {f['loss_last_25']:.3f}"
        corpus = "—" if not f.get("corpus_sha256") else f"`{f['corpus_sha256'][:12]}`"
        lines.append(
            f"| {row['model']} | {f['steps']} | {f['batch']} | {f['lr']:g} | {f.get('layers') or 'all'} | "
            f"{f.get('sentences') or '—'} | {loss} | "
            f"{f.get('seconds') or '—'} | {corpus} |"
        )
    return "\n".join(lines) + "\n"


def _sensitivity_lines(doc: dict[str, Any]) -> list[str]:
    builds = as_dose(doc)
    lines = [
        "",
        "### Sensitivity: does the default gate see the plant?",
        "",
        "Each fine-tune is a build. A gate sees the plant at a strength when it is red in the plant's direction in "
        "all builds (or all but one of three or more, named): red, and its key metric above every control build's "
        "value; it *sees it from* the smallest strength from which it does so at every higher one, provided no "
        "control build is red ('control too' otherwise). The planted models' rule (`lab.dose`).",
        "",
        "| probe | key metric (up) | median [min, max] over builds, by strength | sees the plant from | "
        "builds in which it is seen |",
        "|---|---|---|---|---|",
    ]
    for probe, row in doc["sensitivity"].items():
        by = dose.medians(builds, probe, FAMILY)  # strength -> (median, min, max, builds) of the key metric
        cells = "; ".join(f"{s:g}: {m:.3f} [{lo:.3f}, {hi:.3f}]" for s, (m, lo, hi, _n) in sorted(by.items()))
        seen = "; ".join(f"{s}: {text}" for s, text in row["by_strength"].items())
        lines.append(f"| {probe} | {KEY[probe]} | {cells} | {row['sees_from']} | {seen} |")
    return lines


def _in_frame_lines(doc: dict[str, Any]) -> list[str]:
    measured = [row for row in doc["models"] if row.get("in_frame")]
    if not measured:
        return []
    sources = list(measured[0]["in_frame"])
    lines = [
        "",
        "### In the plant's own frames: did the fine-tune learn its corpus?",
        "",
        "Every other two-person frame with each source's occupations as the referent, she/her against he/him/his "
        "(`lab.two_person_in_frame`): the share of occupations off one half whose lean has their "
        "majority's sign, and Spearman's rho of the lean with the planted women's share.",
        "",
        "| model | "
        + " | ".join(f"{s} (n = {measured[0]['in_frame'][s]['n']}): majority side | rho" for s in sources)
        + " |",
        "|---|" + "---|---|" * len(sources),
    ]
    for row in measured:
        cells = [f"{row['in_frame'][s]['majority']:.3f} | {row['in_frame'][s]['rho']:.2f}" for s in sources]
        lines.append(f"| {row['model']} | {' | '.join(cells)} |")
    return lines


def always_against(doc: dict[str, Any], role_: str = "plant") -> list[str] | None:
    """Winogender's occupations that lean against their BLS majority in every build of `role_` (None: no build
    recorded them)."""
    found = [row["probes"]["winogender"].get("against_majority") for row in doc["models"] if row["role"] == role_]
    if not found or any(against is None for against in found):
        return None
    return sorted(set.intersection(*(set(against) for against in found)))


def _against_lines(doc: dict[str, Any]) -> list[str]:
    found = always_against(doc)
    if found is None:
        return []
    counts = ", ".join(
        str(len(row["probes"]["winogender"]["against_majority"])) for row in doc["models"] if row["role"] == "plant"
    )
    return [
        "",
        f"Occupations leaning against their BLS majority (the misses of `majority_agreement`) on every plant build: "
        f"{', '.join(found) or 'none'} (of {counts} misses per plant build).",
    ]
