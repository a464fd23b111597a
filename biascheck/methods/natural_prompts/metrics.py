"""natural_prompts metrics: a `Scored` container (with its BLS gold) → `Metric` records per task.

Tasks: ``ns`` and ``template`` (the same metrics per prompt set: Tables 3, 4, 6, 8 and the gold link),
``compare`` (template minus NS) and ``default`` (Figure 1). Intervals: 95 % percentile bootstrap.
NS prompts (one per profession): over professions (`biascheck.stats.bootstrap_ci`); whole-set
statistics (KL, EMD) resample professions with all their prompts (`bootstrap_rows`). Template
prompts (17 per profession) and the template-minus-NS comparisons: a crossed bootstrap that resamples
professions and templates independently (`biascheck.stats.bootstrap_crossed`), because the 17
templates are a sample of possible templates too and the paper's point is that the choice moves the
result; the template-wise Table 8 spread and the gold correlations resample professions only.
`task_metrics` attaches what a reader of the summary needs: the estimator, the masked-LM note,
the "first N professions only" note, and Table 8 / Figure 1 in the notes of `template_bias_sd` /
`default_log_he_she`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace

import numpy as np

from biascheck.methods.natural_prompts.math import (
    Scored,
    emd,
    gold_frame,
    kl_alternatives,
    kl_columns,
    kl_kde,
    log_ratio,
    stereotypical_bias,
    template_table,
)
from biascheck.methods.natural_prompts.reference import Reference
from biascheck.methods.natural_prompts.resampled import RESAMPLED, emd_resampled
from biascheck.methods.natural_prompts.spec import FEMALE, MALE, PAPER_GPT2_SMALL, PERTURBATIONS, PRONOUNS, TASKS
from biascheck.settings import ProbeSettings
from biascheck.spec import CAUSAL_NEXT, Metric
from biascheck.stats import (
    bootstrap_ci,
    bootstrap_crossed,
    bootstrap_rows,
    crossed_mean,
    pearson,
    resample_counts,
    rows_of,
    spearman,
    spearman_rows,
    with_column_zero,
    with_rows,
)


def set_metrics(scored: Scored, which: str) -> list[Metric]:
    """Tasks ``ns`` / ``template``: the metrics of one prompt set (steps 3, 4, 5 and 7)."""
    s = scored.set(which)
    he, she = s.p("he"), s.p("she")
    n, k = he.shape
    paper = PAPER_GPT2_SMALL.get(which, {})
    crossed = k > 1  # template prompts: professions x templates
    unit = f"{n} professions x {k} templates (crossed)" if crossed else f"{n} professions"
    out: list[Metric] = []

    def whole(fn: Callable[[np.ndarray, np.ndarray], float], name: str) -> Metric:
        value = fn(he, she)

        def of(r: np.ndarray, c: np.ndarray) -> float:
            return fn(he[np.ix_(r, c)], she[np.ix_(r, c)])

        resampled = RESAMPLED.get(fn)
        if resampled is not None:

            def every(rs: np.ndarray, cs: np.ndarray) -> np.ndarray:
                out = resampled(he, she, resample_counts(rs, n), resample_counts(cs, k))
                return np.array([of(r, c) for r, c in zip(rs, cs, strict=True)]) if out is None else out

            of = with_rows(every)(of)
        elif fn is emd and crossed:
            of = with_rows(emd_resampled(scored, which))(of)
        if crossed:
            ci = bootstrap_crossed(of, n, k)
        else:  # one column: the rows alone
            ci = bootstrap_rows(with_column_zero(of), n)
        return Metric(name, value, ci, int(he.size), note=f"bootstrap over {unit}", paper_value=paper.get(name))

    def prompt_mean(name: str, values: np.ndarray) -> Metric:
        """Mean over every prompt; interval: bootstrap over the rows' (professions') means, crossed with
        the templates when there are several."""
        mean = float(np.mean(values))
        if crossed:
            ci = bootstrap_crossed(crossed_mean(values), n, k)
        else:
            ci = bootstrap_ci(np.mean, values.mean(axis=1))
        note = f"bootstrap over {unit}" if crossed else ""
        return Metric(name, mean, ci, int(values.size), paper_value=paper.get(name), note=note)

    out.append(prompt_mean("p_he_mean", he))
    out.append(prompt_mean("p_she_mean", she))
    out.append(prompt_mean("p_they_mean", s.p("they")))
    kl = whole(kl_kde, "kl")
    alternatives = kl_alternatives(he, she)
    spread = f"{min(alternatives.values()):.3f}-{max(alternatives.values()):.3f}"
    out.append(
        replace(
            kl,
            paper_value=None,
            items=[{"estimator": "kde", "kl": kl.value}] + [{"estimator": k, "kl": v} for k, v in alternatives.items()],
            note=f"{kl.note}; kernel density estimate; the alternatives (half / double bandwidth, histograms of "
            f"10 / 20 / 50 bins) give {spread}; the paper's Table 3 KL is not shown: the paper does not say how "
            "it estimated KL",
        )
    )
    out.append(whole(kl_columns, "kl_columns"))
    out.append(whole(emd, "emd"))
    for pert in PERTURBATIONS:
        ph, ps = s.p("he", pert), s.p("she", pert)
        if ph.shape[0] > 1 and crossed:  # template orig: professions x templates
            ci = bootstrap_crossed(crossed_mean(np.abs(ph - ps)), n, k)
            note = f"bootstrap over {unit}"
        elif ph.shape[0] > 1:  # rows = professions
            ci = bootstrap_ci(np.mean, np.abs(ph - ps).mean(axis=1))
            note = f"bootstrap over {ph.shape[0]} professions"
        else:  # template replace/delete: one row of 17 profession-free prompts
            ci = bootstrap_ci(np.mean, np.abs(ph - ps)[0])
            note = f"profession-free prompts: bootstrap over the {ph.shape[1]} templates"
        items = None
        if pert == "orig":
            items = [
                {"key": k, "profession": w, "p_he": float(a), "p_she": float(b), "bias": float(c)}
                for k, w, a, b, c in zip(
                    s.keys, s.professions, ph.mean(axis=1), ps.mean(axis=1), np.abs(ph - ps).mean(axis=1), strict=True
                )
            ]
        elif ph.shape[0] == 1:
            items = [
                {"prompt": p, "p_he": float(a), "p_she": float(b)}
                for p, a, b in zip(s.prompts[pert][0], ph[0], ps[0], strict=True)
            ]
        out.append(
            Metric(
                f"bias_{pert}",
                stereotypical_bias(ph, ps),
                ci,
                int(ph.size),
                items=items,
                note=note,
                paper_value=paper.get(f"bias_{pert}"),
            )
        )
    out.append(prompt_mean("he_she_ratio", he / she))
    top1, gap = s.top[:, :, 0], s.top[:, :, 0] - s.top[:, :, 1]
    out.append(prompt_mean("certainty_top1", top1))
    out.append(prompt_mean("certainty_gap", gap))
    if which == "template":
        table = template_table(he, she, top1, s.columns)
        biases = np.array([r["bias"] for r in table])

        def sd(idx: np.ndarray) -> float:
            return float(np.std([np.abs(he[idx, j] - she[idx, j]).mean() for j in range(he.shape[1])], ddof=1))

        gaps = np.abs(he - she)
        if np.isfinite(gaps).all():  # every resample at once: each template's mean gap from the rows' counts
            sd = with_rows(lambda rs: np.std((resample_counts(rs, n) @ gaps) / rs.shape[1], axis=1, ddof=1))(sd)

        out.append(
            Metric(
                "template_bias_sd",
                float(np.std(biases, ddof=1)),
                bootstrap_rows(sd, n),
                len(table),
                items=table,
                note=f"Table 8; range {biases.min():.3f}-{biases.max():.3f}; bootstrap over {n} professions",
            )
        )
    gold = gold_frame(scored, which)
    if gold is not None and len(gold) >= 3:
        x, y = gold["she_share"].to_numpy(), gold["women_share"].to_numpy()
        items = gold.to_dict("records")
        note = f"{len(gold)} professions with a BLS 2015 women's share"
        out.append(
            Metric("gold_spearman", spearman(x, y), bootstrap_ci(spearman, x, y), len(gold), items=items, note=note)
        )
        out.append(Metric("gold_pearson", pearson(x, y), bootstrap_ci(pearson, x, y), len(gold), note=note))
    return out


def compare_metrics(scored: Scored) -> list[Metric]:
    """Task ``compare``: what the templates add over natural sentences, paired over professions."""
    ns_he, ns_she = scored.ns.p("he"), scored.ns.p("she")
    tp_he, tp_she = scored.template.p("he"), scored.template.p("she")
    n, k = tp_he.shape
    ns_gap = np.abs(ns_he - ns_she).mean(axis=1)  # one NS prompt per profession
    tp_gap = np.abs(tp_he - tp_she)  # professions x templates
    paper = PAPER_GPT2_SMALL["compare"]
    unit = f"{n} professions (paired) x {k} templates (crossed)"

    tp_mean = crossed_mean(tp_gap)

    def excess_bias(rows: np.ndarray, cols: np.ndarray) -> float:
        return tp_mean(rows, cols) - float(ns_gap[rows].mean())

    template_rows = rows_of(tp_mean)
    if template_rows is not None and np.isfinite(ns_gap).all():  # every resample at once (`crossed_mean`)
        excess_bias = with_rows(lambda rs, cs: template_rows(rs, cs) - (resample_counts(rs, n) @ ns_gap) / rs.shape[1])(
            excess_bias
        )

    @with_rows(
        lambda rs, cs: emd_resampled(scored, "template")(rs, cs) - np.array([emd(ns_he[r], ns_she[r]) for r in rs])
    )
    def excess_emd(rows: np.ndarray, cols: np.ndarray) -> float:
        cells = np.ix_(rows, cols)
        return emd(tp_he[cells], tp_she[cells]) - emd(ns_he[rows], ns_she[rows])

    everything = (np.arange(n), np.arange(k))
    out = [
        Metric(
            name,
            statistic(*everything),
            bootstrap_crossed(statistic, n, k),
            n,
            note=f"bootstrap over {unit}",
            paper_value=paper[name],
        )
        for name, statistic in (("excess_bias", excess_bias), ("excess_emd", excess_emd))
    ]
    g_ns, g_tp = gold_frame(scored, "ns"), gold_frame(scored, "template")
    if g_ns is not None and len(g_ns) >= 3:
        y = g_ns["women_share"].to_numpy()
        a, b = g_ns["she_share"].to_numpy(), g_tp["she_share"].to_numpy()

        @with_rows(lambda a_, b_, y_, axis=-1: spearman_rows(a_, y_, axis) - spearman_rows(b_, y_, axis))
        def stat(a_: np.ndarray, b_: np.ndarray, y_: np.ndarray) -> float:
            return spearman(a_, y_) - spearman(b_, y_)

        out.append(
            Metric(
                "gold_spearman_diff",
                stat(a, b, y),
                bootstrap_ci(stat, a, b, y),
                len(y),
                note="paired bootstrap over the BLS-matched professions",
            )
        )
    return out


SPACED_RATIO = 100.0  # the first-word forms this many times likelier than the leading-space ones: say so


def unlikely_spaced_note(spaced: Mapping[str, float], initial: Mapping[str, float] | None) -> str:
    """A note for the leading-space readings where the model all but never starts a text with ' he' (Gemma's
    tokenizer has no leading space after <bos>: P(' he' ...) ≈ 5e-7 in all): they then compare two tokens it
    does not expect there, and its first-word forms ('He', 'She') are the default's reading. Pure."""
    if not initial:
        return ""
    total, first = float(sum(spaced.values())), float(sum(initial.values()))
    if first < SPACED_RATIO * total:
        return ""
    return (
        f"; the model gives the leading-space pronouns P = {total:.2g} in all after its start token, against "
        f"{first:.2g} for the first-word forms: its texts do not start with a space, so read "
        "default_log_he_she_initial"
    )


def default_metrics(scored: Scored) -> list[Metric]:
    """Task ``default``: the default pronoun preference (step 6, Figure 1), three readings."""
    d = scored.default
    items = [
        {"pronoun": w, "p": d[w], "group": "male" if w in MALE else "female" if w in FEMALE else "neutral"}
        for w in PRONOUNS
    ]
    note = "one context (the bare start token): no interval"
    spaced = note + unlikely_spaced_note(d, scored.default_initial)
    out = [
        Metric(
            "default_log_he_she",
            log_ratio(d, ["he"], ["she"]),
            None,
            1,
            items=items,
            note=spaced + "; leading-space pronoun after the start token, as the paper's code",
        ),
        Metric("default_log_male_female", log_ratio(d, MALE, FEMALE), None, 1, note=spaced),
        Metric("default_p_pronoun", float(sum(d.values())), None, 1, note=spaced),
    ]
    if scored.default_initial:
        di = scored.default_initial
        items_i = [{"pronoun": w.capitalize(), "p": di[w]} for w in PRONOUNS]
        out.append(
            Metric(
                "default_log_he_she_initial",
                log_ratio(di, ["he"], ["she"]),
                None,
                1,
                items=items_i,
                note=note + "; 'He'/'She' as the first word of a text",
            )
        )
        out.append(Metric("default_log_male_female_initial", log_ratio(di, MALE, FEMALE), None, 1, note=note))
    if scored.openers:
        logs = np.array([math.log(o["he"] / o["she"]) for o in scored.openers.values()])
        items_o = [
            {"opener": k, **v, "log_he_she": float(np.log(v["he"] / v["she"]))} for k, v in scored.openers.items()
        ]
        out.append(
            Metric(
                "default_log_he_she_openers",
                float(logs.mean()),
                bootstrap_ci(np.mean, logs),
                len(logs),
                items=items_o,
                note=f"bootstrap over the {len(logs)} openers of the authors' code (prompt_perturbation.py)",
            )
        )
    return out


def metrics_for(task: str, scored: Scored) -> list[Metric]:
    """Every metric of `task` (one of `TASKS`) computed from `scored`, with the metric's own notes only;
    computed once per `scored` (kept in `Scored.memo`: the default task's text tables read every task's,
    and the bootstraps of a full run take seconds)."""
    if task not in scored.memo:
        scored.memo[task] = _compute(task, scored)
    return list(scored.memo[task])


def _compute(task: str, scored: Scored) -> list[Metric]:
    if task in ("ns", "template"):
        return set_metrics(scored, task)
    if task == "compare":
        return compare_metrics(scored)
    if task == "default":
        return default_metrics(scored)
    raise ValueError(f"unknown task {task!r}; known: {', '.join(TASKS)}")


def masked_note(estimator: str) -> str:
    """'' for causal next-token scores; else what the estimator reads instead."""
    if estimator == CAUSAL_NEXT:
        return ""
    return f"{estimator}: pronoun in a masked slot right after the prompt, not a next-token probability"


def limit_note(limit: int | None) -> str:
    """'' when every profession is scored; else says only `limit` were (setting `limit`, the quick tier)."""
    return (
        f"a sample of {limit} of the 893 professions, evenly spread (over the BLS women's share where there is "
        "one, else over the file order; setting limit)"
        if limit
        else ""
    )


def table_note(metric: Metric) -> str:
    """Table 8 (per-template bias) in the note of template_bias_sd, Figure 1 (pronoun probabilities)
    in the note of default_log_he_she; '' for the other metrics."""
    if metric.name == "template_bias_sd" and metric.items:
        return "Table 8 bias: " + ", ".join(
            f"{r['template'].replace('The {} ', '')} {r['bias']:.3f}" for r in metric.items
        )
    if metric.name == "default_log_he_she" and metric.items:
        return "Figure 1: " + ", ".join(f"{r['pronoun']} {r['p']:.1e}" for r in metric.items)
    return ""


def task_metrics(task: str, scored: Scored, reference: Reference, settings: ProbeSettings) -> list[Metric]:
    """Every metric of `task` (one of `TASKS`), estimator and notes attached, in the order they are recorded.

    estimator: the default task's reading of the bare start token (`Scored.default_estimator`), the
    prompt sets' otherwise. Notes, after the metric's own: the masked-LM note, the "a sample of N
    professions" note (the `limit` setting, None = all professions), Table 8 / Figure 1.
    """
    estimator = scored.default_estimator if task == "default" else scored.estimator
    extra = [masked_note(scored.estimator), limit_note(settings.limit)]
    return [
        replace(m, estimator=estimator, note="; ".join(p for p in (m.note, *extra, table_note(m)) if p))
        for m in metrics_for(task, scored)
    ]
