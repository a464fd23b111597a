"""The guard's items per language: definitional noun pairs, the frames they are read in, the pronouns.

Each pair is (female, male) nouns whose gender is their meaning, not a stereotype; the noun strings
carry their article where the language needs one. Each frame has ``{n}`` for the noun and `SLOT` for
the pronoun that refers back to it, with nothing after the slot that agrees in gender (no participle or
adjective), so only the noun tells the pronoun's gender. The frames are ours and none is a probe's
template or a planted corpus's frame (`tests/competence/test_items.py` checks both).
"""

from __future__ import annotations

from dataclasses import dataclass

from biascheck.spec import SLOT


@dataclass(frozen=True)
class Items:
    language: str
    pronouns: tuple[str, str]  # (female, male) subject pronouns, read in the slot
    token_words: tuple[str, ...]  # gendered words that must be distinct known tokens
    pairs: tuple[tuple[str, str], ...]  # (female noun, male noun)
    frames: tuple[str, ...]  # "{n}" = the noun, SLOT = the pronoun
    cues: tuple[str, ...] = ()  # per pair: the surface change it shares with other pairs ("": none)

    def templates(self) -> list[str]:
        """Every frame × pair × (female, male) noun, in that order (frame-major)."""
        return [frame.format(n=noun) for frame in self.frames for pair in self.pairs for noun in pair]

    def clusters(self) -> list[int]:
        """Per pair, its cluster by cue alone: pairs that share a cue (mother/grandmother, actress/princess)
        are one cluster, since a model that reads the cue and not the meaning moves them together; every
        pair without a cue is a cluster of its own (`read` also joins pairs by their lengths in tokens)."""
        from biascheck.competence.math import clusters

        return clusters(self.cues or ("",) * len(self.pairs))


EN = Items(
    language="en",
    pronouns=("she", "he"),
    token_words=("she", "he", "her", "him", "his"),
    pairs=(
        ("mother", "father"),
        ("woman", "man"),
        ("sister", "brother"),
        ("daughter", "son"),
        ("aunt", "uncle"),
        ("queen", "king"),
        ("wife", "husband"),
        ("girl", "boy"),
        ("grandmother", "grandfather"),
        ("niece", "nephew"),
        ("bride", "groom"),
        ("actress", "actor"),
        ("mom", "dad"),
        ("girlfriend", "boyfriend"),
        ("lady", "gentleman"),
        ("princess", "prince"),
        ("nun", "monk"),
        ("waitress", "waiter"),
        ("stepmother", "stepfather"),
        ("heroine", "hero"),
    ),
    frames=(
        f"Yesterday the {{n}} said that {SLOT} needed a break.",
        f"When the {{n}} read the letter, {SLOT} smiled.",
        f"This morning the {{n}} called, but {SLOT} said nothing.",
        f"Everyone knows why the {{n}} left and where {SLOT} lives now.",
    ),
    cues=(
        "-mother/-father",
        "",
        "",
        "",
        "",
        "",
        "",
        "girl-/boy-",
        "-mother/-father",
        "",
        "",
        "-ess",
        "",
        "girl-/boy-",
        "",
        "-ess",
        "",
        "-ess",
        "-mother/-father",
        "",
    ),
)

# Norwegian (issue 59): chosen for the clustered sign test, not for any model's reading. The first set (six
# pairs of mor/far: moren, bestemoren, svigermoren, stemoren, bestemor, mor) formed 7 clusters or fewer in
# Gemma 3's, SmolLM2's and bert-base-uncased's tokens once their lengths joined pairs, so the test's smallest
# p was 2^-7 > ALPHA and no model with such a tokenizer could pass however well it read. These 20 (one pair
# per stem, a noun in one pair only, at most three animals, as Spanish and French have) form 14 clusters in
# each of the three tokenizers, chosen by a search over 66 candidate pairs on that count alone (the pool was read
# once on Gemma and SmolLM2 before the search was written; it does not use those readings).
NO = Items(
    language="no",
    pronouns=("hun", "han"),
    token_words=("hun", "han", "henne", "ham"),
    pairs=(
        ("moren", "faren"),
        ("kvinnen", "mannen"),
        ("tvillingsøsteren", "tvillingbroren"),
        ("sønnedatteren", "sønnesønnen"),
        ("tante", "onkel"),
        ("dronningen", "kongen"),
        ("kona", "ektemannen"),
        ("jenta", "gutten"),
        ("niesen", "nevøen"),
        ("bruden", "brudgommen"),
        ("mamma", "pappa"),
        ("kusinen", "fetteren"),
        ("damen", "herren"),
        ("svigerinnen", "svogeren"),
        ("nonnen", "munken"),
        ("husfruen", "husbonden"),
        ("hertuginnen", "hertugen"),
        ("søyen", "væren"),
        ("kuen", "oksen"),
        ("hoppen", "hingsten"),
    ),
    frames=(
        f"I går sa {{n}} at {SLOT} trengte en pause.",
        f"Da {{n}} leste brevet, smilte {SLOT}.",
        f"I morges ringte {{n}}, men {SLOT} sa ingenting.",
        f"Alle vet hvorfor {{n}} dro, og hvor {SLOT} bor nå.",
    ),
    cues=(
        "",
        "-mannen",
        "",
        "",
        "",
        "",
        "-mannen",
        "",
        "",
        "",
        "",
        "",
        "",
        "-innen",
        "",
        "",
        "-innen",
        "",
        "",
        "",
    ),
)

# French and Spanish nouns follow a determiner that does not agree with them (notre, su), so the female
# and male noun of a pair differ in the noun alone: with la/le (el) before them, 19 of 20 pairs differed
# by the same article and a random model's lean, which follows that token, moved all of them one way.
FR = Items(
    language="fr",
    pronouns=("elle", "il"),
    token_words=("elle", "il", "lui"),
    pairs=(
        ("notre mère", "notre père"),
        ("notre sœur", "notre frère"),
        ("notre fille", "notre fils"),
        ("notre tante", "notre oncle"),
        ("notre reine", "notre roi"),
        ("notre femme", "notre mari"),
        ("notre nièce", "notre neveu"),
        ("notre maman", "notre papa"),
        ("notre grand-mère", "notre grand-père"),
        ("notre actrice", "notre acteur"),
        ("notre serveuse", "notre serveur"),
        ("notre princesse", "notre prince"),
        ("notre duchesse", "notre duc"),
        ("notre héroïne", "notre héros"),
        ("notre épouse", "notre époux"),
        ("notre nonne", "notre moine"),
        ("notre copine", "notre copain"),
        ("notre marraine", "notre parrain"),
        ("notre mamie", "notre papi"),
        ("notre jument", "notre étalon"),
    ),
    frames=(
        f"Hier soir, {{n}} a mangé vite, car {SLOT} avait faim.",
        f"Quand {{n}} a lu la lettre, {SLOT} a souri.",
        f"Ce matin, {{n}} a téléphoné, mais {SLOT} n'a rien dit.",
        f"Tout le monde sait pourquoi {{n}} a pleuré et où {SLOT} habite.",
    ),
    cues=(
        "mère/père",
        "",
        "",
        "",
        "",
        "",
        "",
        "ma-/pa-",
        "mère/père",
        "-eur",
        "-eur",
        "-esse",
        "-esse",
        "",
        "",
        "",
        "-ine/-ain",
        "-ine/-ain",
        "ma-/pa-",
        "",
    ),
)

ES = Items(
    language="es",
    pronouns=("ella", "él"),
    token_words=("ella", "él"),
    pairs=(
        ("su madre", "su padre"),
        ("su mujer", "su marido"),
        ("su hermana", "su hermano"),
        ("su hija", "su hijo"),
        ("su reina", "su rey"),
        ("su nuera", "su yerno"),
        ("su abuela", "su abuelo"),
        ("su actriz", "su actor"),
        ("su mamá", "su papá"),
        ("su señora", "su señor"),
        ("su princesa", "su príncipe"),
        ("su monja", "su monje"),
        ("su madrina", "su padrino"),
        ("su heroína", "su héroe"),
        ("su duquesa", "su duque"),
        ("su yegua", "su caballo"),
        ("su vaca", "su toro"),
        ("su emperatriz", "su emperador"),
        ("su gallina", "su gallo"),
        ("su dama", "su caballero"),
    ),
    frames=(
        f"Anoche {{n}} comió rápido porque {SLOT} tenía hambre.",
        f"Cuando {{n}} leyó la carta, {SLOT} sonrió.",
        f"Esta mañana {{n}} llamó, pero {SLOT} no dijo nada.",
        f"Todos saben por qué {{n}} se fue y dónde {SLOT} vive ahora.",
    ),
    cues=(
        "ma-/pa-",
        "",
        "-a/-o",
        "-a/-o",
        "",
        "",
        "-a/-o",
        "-triz/-tor",
        "ma-/pa-",
        "",
        "-esa",
        "",
        "ma-/pa-",
        "",
        "-esa",
        "caballo",
        "",
        "-triz/-tor",
        "",
        "caballo",
    ),
)

BY_LANGUAGE = {items.language: items for items in (EN, NO, FR, ES)}
NORWEGIAN = ("no", "nb", "nn")


def items_for(language: str) -> Items | None:
    """The guard's items for a probe language (Norwegian codes share one set); None if there are none."""
    return BY_LANGUAGE.get("no" if language in NORWEGIAN else language)
