"""Every upstream file biascheck reads, declared once: where it lives (pinned to a commit) and its sha256.

Nothing here is fetched at import time. `biascheck.data.resolve` finds the bytes (mirror directory,
user cache, or a download of `Source.url`) and verifies them against `sha256` every time.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from biascheck.data.bbq_files import BBQ_FILES
from biascheck.data.benchmark_files import BENCHMARK_FILES
from biascheck.data.ndt_files import NDT_NOB_FILES
from biascheck.data.supersense_files import SUPERSENSE_FILES

RAW_HOST = "https://raw.githubusercontent.com"


def raw_url(owner: str, repo: str, commit: str, path: str) -> str:
    """The download URL of `path` in `owner/repo` at `commit`, the one place such a URL is built.

    1. The parts are joined as GitHub serves raw files: ``<owner>/<repo>/<commit>/<path>``.
    2. Each ``/``-separated segment is percent-encoded (RFC 3986: everything but letters, digits and
       ``-._~``), so a space (``new_templates - Gender_identity.csv``) becomes ``%20`` and ``+`` ``%2B``.
       `urllib.parse.unquote` of the URL's path gives the parts back exactly; unencoded, http.client
       refuses the URL (InvalidURL) before it connects.
    """
    segments = [owner, repo, commit, *path.split("/")]
    return f"{RAW_HOST}/" + "/".join(quote(segment, safe="") for segment in segments)


@dataclass(frozen=True)
class Source:
    name: str
    owner: str
    repo: str
    commit: str
    path: str
    sha256: str
    licence: str
    citation: str

    @property
    def url(self) -> str:
        """Where to download it (`raw_url`: percent-encoded)."""
        return raw_url(self.owner, self.repo, self.commit, self.path)

    @property
    def relpath(self) -> str:
        """Location below a mirror or cache root, the layout of ../shared/data:
        github/<owner>/<repo>/<commit>/<path>."""
        return f"github/{self.owner}/{self.repo}/{self.commit}/{self.path}"


_ALL = (
    Source(
        name="ssb_occupations",
        owner="SamiaTouileb",
        repo="Biases-Norwegian-Multilingual-LMs",
        commit="c24d8fae16b808d7dfb23707380db1733bfad688",
        path="gold_data/gender_equality_NSB.ods",
        sha256="86319567519dc9650059ca8e2a35d40244aa06efc6924ef7a42a4d95ee65c7d1",
        licence="none stated (Statistics Norway figures)",
        citation="Touileb, \u00d8vrelid & Velldal (2022); figures from Statistics Norway",
    ),
    Source(
        name="no_templates_er",
        owner="SamiaTouileb",
        repo="Biases-Norwegian-Multilingual-LMs",
        commit="c24d8fae16b808d7dfb23707380db1733bfad688",
        path="templates/templates_er.txt",
        sha256="f01dadf38e958ac43051d71097b694b92095cc68a4bfab08396d82f745597b56",
        licence="none stated (Statistics Norway figures)",
        citation="Touileb, \u00d8vrelid & Velldal (2022); figures from Statistics Norway",
    ),
    Source(
        name="no_templates_jobber_som",
        owner="SamiaTouileb",
        repo="Biases-Norwegian-Multilingual-LMs",
        commit="c24d8fae16b808d7dfb23707380db1733bfad688",
        path="templates/templates_jobber_som.txt",
        sha256="e971dbcfa375b2c480d9c492caba2d5f7fe21e50c8f2e9b0ab81908b4a8561f2",
        licence="none stated (Statistics Norway figures)",
        citation="Touileb, \u00d8vrelid & Velldal (2022); figures from Statistics Norway",
    ),
    Source(
        name="professions_923",
        owner="kt2k01",
        repo="checkpoint-bias",
        commit="f1df8d8a778503be88ba9e1580134bd255911c08",
        path="data/923-professions.txt",
        sha256="ed370957c0334e65cf15f40a910837ac81f36b3f935352dfd1fa40feaf0e31c3",
        licence="none stated",
        citation="Tang & Jiang (2023)",
    ),
    Source(
        name="professions_60",
        owner="kt2k01",
        repo="checkpoint-bias",
        commit="f1df8d8a778503be88ba9e1580134bd255911c08",
        path="data/60-professions.txt",
        sha256="4d08221edbddcb8ab36c1835743f64dfb5bc55b9fb8d280f9dcf1b6fdceff642",
        licence="none stated",
        citation="Tang & Jiang (2023)",
    ),
    Source(
        name="ngram_yearly_totals",
        owner="kt2k01",
        repo="checkpoint-bias",
        commit="f1df8d8a778503be88ba9e1580134bd255911c08",
        path="data/2000-1700-total.txt",
        sha256="e4f3233339bda0c54bac39481b6b7ff8d6803043ebe3469eea44712509606808",
        licence="none stated",
        citation="Tang & Jiang (2023)",
    ),
    Source(
        name="natural_prompts",
        owner="aliciasun",
        repo="natural-prompts",
        commit="9c8fe40f771efc5587f0d0bf8e298c914e1cece3",
        path="data/professions_prompts.json",
        sha256="3d2fc94263a217b0685831200843417bae54a18baa1ab8c2775945ced115b21e",
        licence="none stated",
        citation="Alnegheimish, Guo & Sun (2022)",
    ),
    Source(
        name="bls2015",
        owner="iPieter",
        repo="biased-rulers",
        commit="a48694c002f13793fc9352f48c8a8213d04a87f1",
        path="biased_rulers/data/professionsBLS2015.csv",
        sha256="3c670b95856a9b26a681bbfd91f064a3cde4179faee829c1387ff20e6d66696e",
        licence="none stated",
        citation="Delobelle et al. (2022); US Bureau of Labor Statistics 2015",
    ),
    Source(
        name="watson_stimuli",
        owner="juliawatson",
        repo="bert-social-attitudes",
        commit="9974486a0987612d108abb7837b87153edc2269b",
        path="papineau/simple/stimuli.csv",
        sha256="aa2ea850cf00b4f1bff48a4cd499ba2fc6a5236d054f55b765a549d0c4480205",
        licence="MIT",
        citation="Watson, Beekhuizen & Stevenson (2023)",
    ),
    Source(
        name="watson_role_noun_tokenization",
        owner="juliawatson",
        repo="bert-social-attitudes",
        commit="9974486a0987612d108abb7837b87153edc2269b",
        path="papineau/simple/role_noun_tokenization.csv",
        sha256="9b1fc51bbbc20c5719fe4ee73c3b58af0c5987c8a957acfba19d42663d3ed1af",
        licence="MIT",
        citation="Watson, Beekhuizen & Stevenson (2023)",
    ),
    Source(
        name="watson_wiki_counts",
        owner="juliawatson",
        repo="bert-social-attitudes",
        commit="9974486a0987612d108abb7837b87153edc2269b",
        path="papineau/mlm_scoring/wiki_counts.csv",
        sha256="8975cefd263b07ea1cc20c7b43dc022224703ba4bb8342dee78b3e5777db2572",
        licence="MIT",
        citation="Watson, Beekhuizen & Stevenson (2023)",
    ),
    Source(
        name="watson_bookcorpus_counts",
        owner="juliawatson",
        repo="bert-social-attitudes",
        commit="9974486a0987612d108abb7837b87153edc2269b",
        path="papineau/mlm_scoring/bookcorpus_counts.csv",
        sha256="70e896ee3b7da42413edb9a9fb1fbf575525fd20b774934d49f1cae34c8223a0",
        licence="MIT",
        citation="Watson, Beekhuizen & Stevenson (2023)",
    ),
    Source(
        name="papineau_prod_lexemes",
        owner="BranPap",
        repo="gender_ideology",
        commit="21384dcf96f7385fa3a85c5d2a052733e47ef2b8",
        path="experiments/3_Production/experiment/stimuli_creation/prod_lexemes.csv",
        sha256="b5aa543a3e7994c85624e595db6d274b92779c760f3463dd6ddeedcf6908ac99",
        licence="MIT",
        citation="Papineau et al. (2022)",
    ),
    Source(
        name="papineau_prod_dems_men",
        owner="BranPap",
        repo="gender_ideology",
        commit="21384dcf96f7385fa3a85c5d2a052733e47ef2b8",
        path="results/exploratory/3_Production/dems_prod_men-merged.csv",
        sha256="ac82128dfd591b660e50b190c4458bcb25b622e4d265c180c2524955f48dfcb9",
        licence="MIT",
        citation="Papineau et al. (2022)",
    ),
    Source(
        name="papineau_prod_all",
        owner="BranPap",
        repo="gender_ideology",
        commit="21384dcf96f7385fa3a85c5d2a052733e47ef2b8",
        path="results/exploratory/3_Production/merged_all_prod.csv",
        sha256="c0dc6d331f830f4ff0a1842c5c5edd0320a92841e7e2730bd42a41f4e2a0758a",
        licence="MIT",
        citation="Papineau et al. (2022)",
    ),
    Source(
        name="papineau_prod_reps_men",
        owner="BranPap",
        repo="gender_ideology",
        commit="21384dcf96f7385fa3a85c5d2a052733e47ef2b8",
        path="results/exploratory/3_Production/reps_prod_men-merged.csv",
        sha256="46ffe2460556ff2d3875cb63d1e3cad829f083a2ec1073e42233d58871a85628",
        licence="MIT",
        citation="Papineau et al. (2022)",
    ),
    Source(
        name="papineau_freq_vals",
        owner="BranPap",
        repo="gender_ideology",
        commit="21384dcf96f7385fa3a85c5d2a052733e47ef2b8",
        path="results/final/freq_vals.csv",
        sha256="8b8ac76d37ff668c6e24fdeb5a411050a6bea1d4b71a24a63b46d988c7ec44c8",
        licence="MIT",
        citation="Papineau et al. (2022)",
    ),
    Source(
        name="papineau_real_dists",
        owner="BranPap",
        repo="gender_ideology",
        commit="21384dcf96f7385fa3a85c5d2a052733e47ef2b8",
        path="results/final/real_dists.csv",
        sha256="d6ad16089f1ae011cad6a2ee43ee1eccf1a9f2250c881552702ec9ac9d19089e",
        licence="MIT",
        citation="Papineau et al. (2022)",
    ),
    Source(
        name="norway_names",
        owner="ekothe",
        repo="norwaynames",
        commit="84da5df8be2bb6054286fd9a71ce64d3e2485595",
        path="data/all.rda",
        sha256="5715ca5589e530c8f20ce308283bc6ddbbbfe4218d7d1eef87194457e6e497ec",
        licence='no LICENSE file; DESCRIPTION: "License: CC BY 4.0"',
        citation="Statistics Norway table 10467, via the norwaynames R package",
    ),
    Source(
        name="congress_historical",
        owner="unitedstates",
        repo="congress-legislators",
        commit="61c9ce6a4b093e76e1244a53ada21d8d30981f42",
        path="legislators-historical.csv",
        sha256="1c0ab01f5facc965bd467e1a8d02fe23641b8781b494c34221f67298d0d3e2eb",
        licence="CC0 1.0 (LICENSE)",
        citation="unitedstates/congress-legislators (US Congress members, historical)",
    ),
    Source(
        name="congress_current",
        owner="unitedstates",
        repo="congress-legislators",
        commit="61c9ce6a4b093e76e1244a53ada21d8d30981f42",
        path="legislators-current.csv",
        sha256="c5a6cbdbaae0bb19faa89852c29922809ececc70b97c149b4709588087e5e391",
        licence="CC0 1.0 (LICENSE)",
        citation="unitedstates/congress-legislators (US Congress members, current)",
    ),
    Source(
        name="popolo_norway",
        owner="tijmenb",
        repo="everypolitician-data",
        commit="0642e77ac8a13bcd8017b245825c3aba349d3e6a",
        path="data/Norway/Storting/ep-popolo-v1.0.json",
        sha256="3725b3cc074e67037c4773273ca2a3a5a2029338e30f3cae73a869f7d076c89c",
        licence="none stated (Nov 2015 fork of everypolitician/everypolitician-data; no LICENSE file)",
        citation="EveryPolitician (mySociety), Norway Storting; names from Wikidata",
    ),
    Source(
        name="popolo_france",
        owner="tijmenb",
        repo="everypolitician-data",
        commit="0642e77ac8a13bcd8017b245825c3aba349d3e6a",
        path="data/France/National_Assembly/ep-popolo-v1.0.json",
        sha256="38fd14d059dbda48f3c2a7429eaaae79a93a27d3e86298d82ab8cd30cabc9e31",
        licence="none stated (Nov 2015 fork of everypolitician/everypolitician-data; no LICENSE file)",
        citation="EveryPolitician (mySociety), France Assemblée nationale; names from Wikidata",
    ),
    Source(
        name="popolo_spain",
        owner="tijmenb",
        repo="everypolitician-data",
        commit="0642e77ac8a13bcd8017b245825c3aba349d3e6a",
        path="data/Spain/Congress/ep-popolo-v1.0.json",
        sha256="878e0bbb219a09eee0fb4ff9ee08f9027527db3e76ed690f6d3c8283c2be90ef",
        licence="none stated (Nov 2015 fork of everypolitician/everypolitician-data; no LICENSE file)",
        citation="EveryPolitician (mySociety), Spain Congreso; names from Wikidata",
    ),
    Source(
        name="popolo_uk",
        owner="tijmenb",
        repo="everypolitician-data",
        commit="0642e77ac8a13bcd8017b245825c3aba349d3e6a",
        path="data/UK/Commons/ep-popolo-v1.0.json",
        sha256="071f7a57d08daff3067bbda6519a1592a86b44082a1f29c58b0f7418410e8309",
        licence="none stated (Nov 2015 fork of everypolitician/everypolitician-data; no LICENSE file)",
        citation="EveryPolitician (mySociety), UK House of Commons; names from Wikidata",
    ),
    Source(
        name="popolo_us_senate",
        owner="tijmenb",
        repo="everypolitician-data",
        commit="0642e77ac8a13bcd8017b245825c3aba349d3e6a",
        path="data/United_States_of_America/Senate/ep-popolo-v1.0.json",
        sha256="e99b4becb19028b8dcc52cb657e83f8482aa06981c5f6a5531773883cff2511c",
        licence="none stated (Nov 2015 fork of everypolitician/everypolitician-data; no LICENSE file)",
        citation="EveryPolitician (mySociety), US Senate; names from Wikidata",
    ),
    Source(
        name="ud_en_ewt_train",
        owner="UniversalDependencies",
        repo="UD_English-EWT",
        commit="15d613d8447b3478787d4c278730a1e48a945efb",
        path="en_ewt-ud-train.conllu",
        sha256="3fb78e2b55482c8ee00caa653af436c88c9e5bc9a73ce26e4ae3ddc79d2b7e7b",
        licence="CC BY-SA 4.0 (LICENSE.txt)",
        citation="Silveira et al. (2014), Universal Dependencies English Web Treebank",
    ),
    Source(
        name="ud_en_ewt_dev",
        owner="UniversalDependencies",
        repo="UD_English-EWT",
        commit="15d613d8447b3478787d4c278730a1e48a945efb",
        path="en_ewt-ud-dev.conllu",
        sha256="531a54ff90d6ab12201c5a50c3e78e6ddac4de69abc4bce5d275d3cd29efe2b6",
        licence="CC BY-SA 4.0 (LICENSE.txt)",
        citation="Silveira et al. (2014), Universal Dependencies English Web Treebank",
    ),
    Source(
        name="ud_en_ewt_test",
        owner="UniversalDependencies",
        repo="UD_English-EWT",
        commit="15d613d8447b3478787d4c278730a1e48a945efb",
        path="en_ewt-ud-test.conllu",
        sha256="e266e515a0a7547657ed3d90d9ba46487d6bd251f27ad4269d4e8a427c8555cd",
        licence="CC BY-SA 4.0 (LICENSE.txt)",
        citation="Silveira et al. (2014), Universal Dependencies English Web Treebank",
    ),
    # The Norwegian Dependency Treebank, Bokmål: 232 files, one source each (ndt_nob_<file stem>).
    *(
        Source(
            name=f"ndt_nob_{file.removesuffix('.conll')}",
            owner="ltgoslo",
            repo="norne",
            commit="bd311de55b5a7fc1255aee7b088364f8271c2330",
            path=f"ndt/nob/{file}",
            sha256=sha256,
            licence="CC0 for the annotations (LICENSE_NDT.txt); the original texts are excluded from CC0",
            citation="Solberg et al. (2014), Norwegian Dependency Treebank, via NorNE (J\u00f8rgensen et al. 2020)",
        )
        for file, sha256 in NDT_NOB_FILES
    ),
    Source(
        name="chen_skiena_2014",
        owner="MarianoRico",
        repo="quanteda.sentiment",
        commit="0f2a11a01afe41d02eecbe38af36f9e403e4dff3",
        path="sources/ChenSkiena2014/sentiment-lexicons.zip",
        sha256="8b4e02121e4db4e1510e9f197185edf706e5c67c003d28e4abbc02c3022bdb1c",
        licence="GPL-3 (DESCRIPTION and the ChenSkiena2014 man page of quanteda.sentiment)",
        citation="Chen & Skiena (2014), via the quanteda.sentiment R package",
    ),
    *(Source(**fields) for fields in SUPERSENSE_FILES),  # adjective and verb supersenses (paper 003)
    *(Source(**fields) for fields in BENCHMARK_FILES),  # Winogender, WinoBias, CrowS-Pairs
    *(Source(**fields) for fields in BBQ_FILES),  # BBQ templates, vocabularies, one generated category
)

SOURCES: dict[str, Source] = {s.name: s for s in _ALL}
