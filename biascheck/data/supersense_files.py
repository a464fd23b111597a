"""The files `biascheck.data.supersenses` reads (paper 003, S5 Text, Tabs 14-15), with their sha256 (from the
mirror's MANIFEST.json): the adjective supersense labels of Tsvetkov et al. (2014), ytsvetko/adjective_supersense_
classifier @ 5a7c1d3, and the 15 verb lexicographer files of Open English WordNet, globalwordnet/english-wordnet
@ d94538a, ``src/yaml/verb.<class>.yaml``.

Plain keyword dicts, so this module imports nothing from biascheck; `biascheck.data.sources` builds one `Source`
from each.
"""

_TSVETKOV = {
    "owner": "ytsvetko",
    "repo": "adjective_supersense_classifier",
    "commit": "5a7c1d31c974460e7948934db63c22be9d6a17a6",
    "licence": "GPL-2 (LICENSE: GNU General Public License, version 2)",
    "citation": "Tsvetkov, Schneider, Hovy, Bhatia, Faruqui & Dyer (2014), Augmenting English adjective senses "
    "with supersenses (LREC)",
}
_OEWN = {
    "owner": "globalwordnet",
    "repo": "english-wordnet",
    "commit": "d94538ad0df3d7a4c77837bde6af69d7a6592c32",
    "licence": "CC BY 4.0 (LICENSE.md), derived from Princeton WordNet under the WordNet License (WNDB_License.txt)",
    "citation": "McCrae et al. (2019), Open English WordNet; Miller (1995), WordNet",
}

# Verb lexicographer-file classes (paper 003, Tab 15) -> sha256 of src/yaml/verb.<class>.yaml.
_VERB_FILES = (
    ("body", "6e085e60a4527222f9a96e27e082e0e282ca790af8a38bc4a45c9addbefb0fc6"),
    ("change", "126bb92adc1be69c4cf33e9ac1a5a492f6785971d23c527f5d8e0db51a980702"),
    ("cognition", "f8908eedf07920a8489aa2462ce2ec7a83c0ecff1fb48f4456aec100f8c97d37"),
    ("communication", "04a1531082705497ab51316d54dec360273ea896b195dfd2143b99d08d327541"),
    ("competition", "3bdd97919eddbcf4493999d46b981fe4be088beb3a06e49fd1f95de82f91d824"),
    ("consumption", "005042d49b86fd740ec776144b9bfff4e5236c4f856bc89d2cd8b810d0755b07"),
    ("contact", "379ce11e6877c4c87adc1219bc41cf1bb0d31fb5b64fdb294b1b48140b858041"),
    ("creation", "50824d97ffdcecae07f9269f6422f3b781d3a97fb28ec668da0a4a8865dbcd56"),
    ("emotion", "84f5ff45f040634682982263ae314c3bf3673d3031709ac9ba51660cde547ab2"),
    ("motion", "29f0859977bede750239f911afb356885b50597afe9e161e2fc3f584ad86f095"),
    ("perception", "405bc502fd98b268d8c9326567b7935f246415e29fb47c522140892a674a82d3"),
    ("possession", "8a614afadc3f2f8ca7fa62447e60a583e901fbf54caf6c96c3d43e7d5ea2a861"),
    ("social", "d0bc7620c30305592d0f8cf77e4119ab1cf12fcee93f4269341df017acdb4895"),
    ("stative", "04a7c3cc3f4d3b1585b11fa00c6574f4162063328f5f652b867e3a48ff35d346"),
    ("weather", "50853e0c2c60dae522b6e078cb39fa226d8026f8a7b350f0efe172ce6f9b3b47"),
)

SUPERSENSE_FILES: tuple[dict[str, str], ...] = (
    {
        "name": "tsvetkov_adj_seed",
        "path": "data/seed.txt",
        "sha256": "e70dc9b9ee31e4e00b20ad54d3585ff9ca0ae621781c1b4e767cbdb4858eaf51",
        **_TSVETKOV,
    },
    {
        "name": "tsvetkov_adj_mturk",
        "path": "data/MTurk/adjectives+annotations+MACE.txt",
        "sha256": "d99cfaf571f88a7f58ccd3c3991fe5400c3e862e1e16124668aa54b440575c33",
        **_TSVETKOV,
    },
    *(
        {"name": f"oewn_verb_{lexclass}", "path": f"src/yaml/verb.{lexclass}.yaml", "sha256": sha256, **_OEWN}
        for lexclass, sha256 in _VERB_FILES
    ),
)
