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

    def templates(self) -> list[str]:
        """Every frame × pair × (female, male) noun, in that order (frame-major)."""
        return [frame.format(n=noun) for frame in self.frames for pair in self.pairs for noun in pair]


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
)

NO = Items(
    language="no",
    pronouns=("hun", "han"),
    token_words=("hun", "han", "henne", "ham"),
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
    frames=(
        f"I går sa {{n}} at {SLOT} trengte en pause.",
        f"Da {{n}} leste brevet, smilte {SLOT}.",
        f"I morges ringte {{n}}, men {SLOT} sa ingenting.",
        f"Alle vet hvorfor {{n}} dro, og hvor {SLOT} bor nå.",
    ),
)

FR = Items(
    language="fr",
    pronouns=("elle", "il"),
    token_words=("elle", "il", "lui"),
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
)

ES = Items(
    language="es",
    pronouns=("ella", "él"),
    token_words=("ella", "él"),
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
    frames=(
        f"Anoche {{n}} comió rápido porque {SLOT} tenía hambre.",
        f"Cuando {{n}} leyó la carta, {SLOT} sonrió.",
        f"Esta mañana {{n}} llamó, pero {SLOT} no dijo nada.",
        f"Todos saben por qué {{n}} se fue y dónde {SLOT} vive ahora.",
    ),
)

BY_LANGUAGE = {items.language: items for items in (EN, NO, FR, ES)}
NORWEGIAN = ("no", "nb", "nn")


def items_for(language: str) -> Items | None:
    """The guard's items for a probe language (Norwegian codes share one set); None if there are none."""
    return BY_LANGUAGE.get("no" if language in NORWEGIAN else language)
