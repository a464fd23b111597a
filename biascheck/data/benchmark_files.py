"""The files of three public gender-bias benchmarks, with their sha256 (from the mirror's MANIFEST.json):
Winogender schemas (rudinger/winogender-schemas @ 1c7f8b4), read by `biascheck.data.winogender`; WinoBias
(uclanlp/corefBias @ 0bce984), read by `biascheck.data.winobias` (its README's occupation table by
`biascheck.data.winobias_readme`); CrowS-Pairs (nyu-mll/crows-pairs @ 8aaac11), read
by `biascheck.data.crows_pairs`, and its authors' scoring script ``metric.py``, declared as an oracle to compare with.

Plain keyword dicts, so this module imports nothing from biascheck; `biascheck.data.sources` builds one `Source`
from each.
"""

_WINOGENDER = {
    "owner": "rudinger",
    "repo": "winogender-schemas",
    "commit": "1c7f8b481ad8a234b41e9f76a424d6e856e13f7f",
    "licence": "MIT (LICENSE)",
    "citation": "Rudinger, Naradowsky, Leonard & Van Durme (2018), Gender bias in coreference resolution (NAACL)",
}
_WINOBIAS = {
    "owner": "uclanlp",
    "repo": "corefBias",
    "commit": "0bce984dd081bbc10b0622f326727a024c607895",
    "licence": "MIT (LICENSE)",
    "citation": "Zhao, Wang, Yatskar, Ordonez & Chang (2018), Gender bias in coreference resolution: evaluation "
    "and debiasing methods (NAACL)",
}
_CROWS = {
    "owner": "nyu-mll",
    "repo": "crows-pairs",
    "commit": "8aaac11c485473159ec9328a65253a5be9a479dc",
    "licence": "CC BY-SA 4.0 (README: License)",
    "citation": "Nangia, Vania, Bhalerao & Bowman (2020), CrowS-Pairs: a challenge dataset for measuring social "
    "biases in masked language models (EMNLP)",
}

# WinoBias sentence files: (stereotype, type, split) -> sha256 of WinoBias/wino/data/<stereotype>_stereotyped_
# type<type>.txt.<split>; source name winobias_<stereotype>_type<type>_<split>.
_WINOBIAS_SENTENCES = (
    ("pro", 1, "dev", "dd55a0d220fe4c0ceb63dd4648223fb4fe1a58d5ad95c116a002ad24b0e292a5"),
    ("pro", 1, "test", "db7838907238a758eeb5779e48f38c013b892910d6fe864456c59f04245c6689"),
    ("pro", 2, "dev", "8f0250de723cea9328e3eaf7169e07936f01aa5909ce7aa580db66eb803f4e86"),
    ("pro", 2, "test", "ea1c1fd94fa612e3cc44d7fa3cc4cb76021bb63fdf94f9826f430051e9052438"),
    ("anti", 1, "dev", "a4e0ebae344e78b56f657a42e8ae684b9db7747d177c5e7149c0907ebb7f3bf6"),
    ("anti", 1, "test", "331db5bd74bfefebf146a60b67645152a4a1991570d2a56f57154103ac361dd2"),
    ("anti", 2, "dev", "763ad829ad724f9a85ead689ba8ca69072020cb1238def6210f0fc6a47b97e59"),
    ("anti", 2, "test", "336571ac1ea8c06cd2aba8e5dd2bd98e00acc0c48da3e4ec5ec7e54eb2633a8f"),
)

BENCHMARK_FILES: tuple[dict[str, str], ...] = (
    {
        "name": "winogender_templates",
        "path": "data/templates.tsv",
        "sha256": "496f2e2dc77296bcebcdd8865a8dc5715ce22b772de9abb5f531d5b3114c48a0",
        **_WINOGENDER,
    },
    {
        "name": "winogender_sentences",
        "path": "data/all_sentences.tsv",
        "sha256": "bd69da16bf228cb8df63fd0843aec2d8b5c36a7f21bf8c7b168bcc83932556c8",
        **_WINOGENDER,
    },
    {
        "name": "winogender_occupations",
        "path": "data/occupations-stats.tsv",
        "sha256": "3f7f37c16381a70571356982ea7fe613ac700ad04a6d3b19b9f2be18248df567",
        **_WINOGENDER,
    },
    *(
        {
            "name": f"winobias_{stereotype}_type{kind}_{split}",
            "path": f"WinoBias/wino/data/{stereotype}_stereotyped_type{kind}.txt.{split}",
            "sha256": sha256,
            **_WINOBIAS,
        }
        for stereotype, kind, split, sha256 in _WINOBIAS_SENTENCES
    ),
    {
        "name": "winobias_female_occupations",
        "path": "WinoBias/wino/data/female_occupations.txt",
        "sha256": "693bff12286c2c1d46c7d4d45a44a631574710c30b39c1a3001bb7bdebb44ed8",
        **_WINOBIAS,
    },
    {
        "name": "winobias_male_occupations",
        "path": "WinoBias/wino/data/male_occupations.txt",
        "sha256": "6b82d88847b69d56d207a0c396e9830b031890de585e916e6b4e9bc50672657e",
        **_WINOBIAS,
    },
    {
        "name": "winobias_readme",
        "path": "README.md",
        "sha256": "db78630bc08e3f38eb60a5ffb12f138e4fef9c9f804a3b18e70eb125dfbf0223",
        **_WINOBIAS,
    },
    {
        "name": "crows_pairs",
        "path": "data/crows_pairs_anonymized.csv",
        "sha256": "dfb36986ce0502abbaf7055b9176da3d08d48e07df1251991b5dfbcbceab9d0c",
        **_CROWS,
    },
    {
        "name": "crows_pairs_metric",
        "path": "metric.py",
        "sha256": "a6d4d6571ac25964e7cf6215092938fe0698900e396e046675dfd89e515d9822",
        **_CROWS,
    },
)
