"""The files of BBQ (Parrish et al. 2022, nyu-mll/BBQ @ bea11bd) that the gender-identity probe reads, with their
sha256 (from the mirror's MANIFEST.json): the authors' templates and vocabularies (read by `biascheck.data.bbq`
and turned into items by `biascheck.data.bbq_generate`), the one category they generated that the mirror holds
(``data/Physical_appearance.jsonl``, the generator's check), and their generator and bias-score scripts,
declared as what our code follows (not run here).

Plain keyword dicts, so this module imports nothing from biascheck; `biascheck.data.sources` builds one `Source`
from each.
"""

_BBQ = {
    "owner": "nyu-mll",
    "repo": "BBQ",
    "commit": "bea11bd97d79217245b5871acd247b9d6eb24598",
    "licence": "CC BY 4.0 (LICENSE)",
    "citation": "Parrish, Chen, Nangia, Padmakumar, Phang, Thompson, Htut & Bowman (2022), BBQ: a hand-built bias "
    "benchmark for question answering (Findings of ACL)",
}

BBQ_FILES: tuple[dict[str, str], ...] = (
    {
        "name": "bbq_templates_gender_identity",
        "path": "templates/new_templates - Gender_identity.csv",
        "sha256": "7ece33ce9820c36a7786a95e2cb7faf6b176ad4cf9f07223105a486e4791aba8",
        **_BBQ,
    },
    {
        "name": "bbq_templates_physical_appearance",
        "path": "templates/new_templates - Physical_appearance.csv",
        "sha256": "9110eedc41f63639e79604c9a3f48f12361de0b58c7be5a19d854c9683192397",
        **_BBQ,
    },
    {
        "name": "bbq_vocabulary",
        "path": "templates/vocabulary.csv",
        "sha256": "c60c02768e0a3406d4367d5bfe84cd526458712bfcf208f7bb350ab4928b1dbd",
        **_BBQ,
    },
    {
        "name": "bbq_proper_names",
        "path": "templates/vocabulary_proper_names.csv",
        "sha256": "17009b2c9d086c19c25b5107aa4792712fdf5024270e62f40bd4818ecb2e9c5d",
        **_BBQ,
    },
    {
        "name": "bbq_physical_appearance",
        "path": "data/Physical_appearance.jsonl",
        "sha256": "e48d7e13508565f4801574e611043470c25c95a0a62af3699cb5ee7cb02608fb",
        **_BBQ,
    },
    {
        "name": "bbq_generator",
        "path": "generate_from_template_all_categories.py",
        "sha256": "46be5bc286cde5f51664050cbf50223e9da06ac37e3c3621fd0d5ae386a916b9",
        **_BBQ,
    },
    {
        "name": "bbq_generator_utils",
        "path": "utils.py",
        "sha256": "fe7e2be4aef414fd03f97c772768bae9640c85ecfa3f3012bbd33012ea2bc7cb",
        **_BBQ,
    },
    {
        "name": "bbq_bias_score_script",
        "path": "analysis_scripts/BBQ_calculate_bias_score.R",
        "sha256": "683294c728e5077209fa83907e3c0d21a178d6cfdb7c5135153070627d685f44",
        **_BBQ,
    },
    {
        "name": "bbq_metadata_script",
        "path": "analysis_scripts/BBQ_results_metadata.R",
        "sha256": "a6d8eb9e40e94094d46225aecf8664ddbb5d82a5fe5ed988f6b8c5fe2cb41022",
        **_BBQ,
    },
)
