"""role_nouns (paper 004, section 3; Papineau et al. 2022 data): what the probe declares and the
paper's published figures. Imports only `biascheck.spec`."""

from __future__ import annotations

from biascheck.spec import MetricSpec, ProbeSpec, Setting, count_or_all


def _states(text: str) -> int | None:
    """A positive count of states, or 'all' (None); 'default' is the default count."""
    return DEFAULT_STATES if text.lower() == "default" else count_or_all(text)


ESTIMATOR_MASKED = "mlm-pll+corpus-prior"
ESTIMATOR_CAUSAL = "causal-sentence-posterior"
ESTIMATOR_PRIOR = "corpus-prior"
ATTITUDE = ("progressive", "moderate", "conservative")
GROUP_ABBREV = {
    "progressive": "prog",
    "moderate": "mod",
    "conservative": "cons",
    "Democrat": "dem",
    "Non-Partisan": "np",
    "Republican": "rep",
}
NAME_GENDERS = ("female", "male")
STATES_ENV = "BIASCHECK_ROLE_NOUN_STATES"
DEFAULT_STATES = 5  # of Watson's 50; README.md (Settings) says why
TASKS = ("three_way", "two_way", "two_way_no_heir_host")
SPLIT_OF_TASK = {"three_way": 3, "two_way": 2, "two_way_no_heir_host": 2}
# Paper 004, appendix A.5: BERT predicts hostess and heiress as FEM for men's names too, which the
# authors trace to those nouns standing alone in "NAME is a ___ from STATE"; the 2-way analysis
# without those two sets is reported beside the main one (report only: no gate of its own).
EXCLUDED_SETS = {"two_way_no_heir_host": ("heir", "host")}
# Paper Tables 1 (3-way) and 5 (2-way), BERT-base-uncased, masked estimator.
PAPER_LOGLIK = {
    ("three_way", "prog"): {"female": -1.43, "male": -1.01, "all": -1.23},
    ("three_way", "mod"): {"female": -1.33, "male": -0.75, "all": -1.05},
    ("three_way", "cons"): {"female": -1.40, "male": -0.78, "all": -1.08},
    ("two_way", "prog"): {"female": -0.82, "male": -0.95, "all": -0.89},
    ("two_way", "mod"): {"female": -0.88, "male": -0.95, "all": -0.91},
    ("two_way", "cons"): {"female": -0.88, "male": -0.92, "all": -0.90},
}
# best_group in the paper's Tables 1 and 5 (BERT): moderate fits best on 3-way sets, progressive on 2-way.
PAPER_BEST_GROUP = {"three_way": 1.0, "two_way": 0.0}
_COLUMN = {"female": "women", "male": "men", "all": "all"}
_NAMES_TEXT = {"women": "women's names", "men": "men's names", "all": "all names"}


def _metrics() -> tuple[MetricSpec, ...]:
    out: list[MetricSpec] = []
    for source, label in (("", "model"), ("prior_", "frequency prior alone")):
        for group in ("prog", "mod", "cons", "dem", "np", "rep"):
            for names in ("women", "men", "all"):
                out.append(
                    MetricSpec(
                        name=f"{source}loglik_{group}_{names}",
                        description=f"mean log-likelihood of the {group} group's choices ({_NAMES_TEXT[names]}) "
                        f"under the {label}",
                        better="none",
                        reference="human",
                    )
                )
    out += [
        MetricSpec(
            name="gap_cons_prog",
            description="loglik(conservative) − loglik(progressive), all names: >0 = the model fits "
            "conservatives better",
            better="zero",
            reference="human",
        ),
        MetricSpec(
            name="gap_mod_prog",
            description="loglik(moderate) − loglik(progressive), all names",
            better="zero",
            reference="human",
        ),
        MetricSpec(
            name="gap_rep_dem",
            description="loglik(Republican) − loglik(Democrat), all names",
            better="zero",
            reference="human",
        ),
        MetricSpec(
            name="prior_gap_cons_prog",
            description="the same gap under the frequency prior alone (baseline)",
            better="none",
            reference="human",
        ),
        MetricSpec(
            name="gap_cons_prog_excess",
            description="gap_cons_prog minus the prior's gap: attitude lean the model adds beyond corpus frequency",
            better="zero",
            reference="human",
        ),
        MetricSpec(
            name="best_group",
            description="attitude group the model fits best, all names (0 progressive, 1 moderate, 2 conservative)",
            better="none",
            reference="human",
        ),
        MetricSpec(
            name="loglik_gain_over_prior",
            description="loglik(all participants) − prior loglik(all participants): >0 = the model "
            "predicts people better than frequency",
            better="higher",
            reference="human",
        ),
        MetricSpec(
            name="fem_name_shift",
            description="mean P(FEM) for women's names − for men's names: does the model use the name's gender at all",
            better="target",
            reference="human",
        ),
        MetricSpec(
            name="masc_for_women_excess",
            description="P(MASC) for women's names, model − all participants (paper 3.3.1: BERT over-uses MASC)",
            better="zero",
            reference="human",
        ),
        MetricSpec(
            name="fem_for_men_excess",
            description="P(FEM) for men's names, model − all participants (paper A.5: over-uses FEM on 2-way sets)",
            better="zero",
            reference="human",
        ),
        MetricSpec(
            name="neut_share_women",
            description="P(G-NEUT) for women's names under the model (3-way; participants: 0.30-0.61 by group)",
            better="none",
            reference="human",
        ),
        MetricSpec(
            name="neut_share_men",
            description="P(G-NEUT) for men's names under the model (3-way; participants: 0.30-0.50 by group)",
            better="none",
            reference="human",
        ),
    ]
    return tuple(out)


PROBE = ProbeSpec(
    name="role_nouns",
    title=(
        "Role nouns (firewoman/fireman/firefighter) vs. participants grouped by gender "
        "attitude (Watson et al. 2023; Papineau et al. 2022)"
    ),
    paper="004",
    language="en",
    tasks=TASKS,
    metrics=_metrics(),
    settings=(
        Setting(
            "states",
            str(DEFAULT_STATES),
            "how many of Watson's 50 US states to average P(V|C) over: a count (spread evenly over the "
            "alphabetical list) or 'all' (the paper's design, 10x the sentences)",
            _states,
            env=STATES_ENV,
            tiers=(("quick", "1"), ("full", "all")),
        ),
    ),
)
