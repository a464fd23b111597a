"""Original singular-*they* stimuli written for biascheck, following the design of Camilliere et al.
(2021) as described in Watson et al. (2023), section 4.1, Table 3 and appendix B.1.

Camilliere et al.'s stimuli and ratings were never published; these sentences are our own.
Design (as in the paper):

* 40 sentence frames × 8 antecedent types = 320 critical items, plus 15 inanimate controls = 335.
* The pronoun is spread evenly over *they* (frames 1-10), *them* (11-20), *their* (21-30) and
  *themselves* (31-40).
* The antecedent always comes before the pronoun, and nothing between them marks number (past
  tense or modals only), so the 8 versions of a frame differ in the antecedent only.
* Antecedent types (Table 3): gendered name (*Sophia*), non-gendered name (*Taylor*), close gendered
  (*my sister*), distant gendered (*the actress*), close non-gendered (*my friend*), distant
  non-gendered (*the dentist*), quantified (*every dentist*), plural (*the dentists*); the last three
  use the same noun within a frame. Names: the 40 gendered and 21 non-gendered names of the paper's
  appendix B.1 (frame i takes gendered name i and non-gendered name i mod 21).
* Controls: a singular inanimate antecedent (*The cup fell and they broke.*).

Row ids: frames ``F01``-``F40``, controls ``C01``-``C15``; a stimulus is (item, condition).
"""

from __future__ import annotations

import pandas as pd

from biascheck.methods.singular_they.spec import (  # noqa: F401  (the design, declared in the spec)
    ALL_CONDITIONS,
    CLOSENESS_GENDER,
    CONDITIONS,
    CONTROL,
    LABELS,
)
from biascheck.spec import SLOT

NP = "{NP}"
PRON = "{PRON}"

GENDERED_NAMES = (
    "Aaron",
    "Adeline",
    "Alice",
    "Amanda",
    "Amelia",
    "Annabella",
    "Bella",
    "Brandon",
    "Bridget",
    "Caleb",
    "Charlotte",
    "Daniel",
    "David",
    "Elena",
    "Elizabeth",
    "Ella",
    "Emily",
    "Emma",
    "Gianna",
    "Grant",
    "Haley",
    "Henry",
    "Isaac",
    "Jacob",
    "John",
    "Joshua",
    "Justin",
    "Lily",
    "Lucas",
    "Maria",
    "Mary",
    "Molly",
    "Nicholas",
    "Penelope",
    "Robert",
    "Scarlett",
    "Vivian",
    "Wyatt",
    "Zach",
    "Zoey",
)
NONGENDERED_NAMES = (
    "Alex",
    "Cameron",
    "Casey",
    "Dakota",
    "Finley",
    "Frankie",
    "Harper",
    "Hayden",
    "Jayden",
    "Jordan",
    "Justice",
    "Landry",
    "Leighton",
    "Marley",
    "Morgan",
    "Pat",
    "Payton",
    "Remi",
    "Sammy",
    "Skyler",
    "Taylor",
)

# (template, pronoun, close gendered, distant gendered, close non-gendered, noun, plural noun)
FRAMES: tuple[tuple[str, str, str, str, str, str, str], ...] = (
    # they
    (
        "{NP} said {PRON} would be coming late to dinner.",
        "they",
        "my sister",
        "the actress",
        "my friend",
        "dentist",
        "dentists",
    ),
    (
        "{NP} called to say that {PRON} had missed the last bus.",
        "they",
        "my brother",
        "the policeman",
        "my cousin",
        "plumber",
        "plumbers",
    ),
    (
        "{NP} told me that {PRON} could not find the car keys.",
        "they",
        "my mother",
        "the waitress",
        "my roommate",
        "cashier",
        "cashiers",
    ),
    (
        "{NP} left the party early because {PRON} had a headache.",
        "they",
        "my father",
        "the businessman",
        "my neighbor",
        "lawyer",
        "lawyers",
    ),
    (
        "{NP} promised that {PRON} would bring dessert on Sunday.",
        "they",
        "my aunt",
        "the hostess",
        "my best friend",
        "baker",
        "bakers",
    ),
    (
        "{NP} hoped that {PRON} would win the raffle this year.",
        "they",
        "my uncle",
        "the salesman",
        "my coworker",
        "accountant",
        "accountants",
    ),
    (
        "{NP} mentioned that {PRON} might move to Chicago next spring.",
        "they",
        "my grandmother",
        "the stewardess",
        "my classmate",
        "pharmacist",
        "pharmacists",
    ),
    (
        "{NP} admitted that {PRON} had broken the blue vase.",
        "they",
        "my grandfather",
        "the chairman",
        "my teammate",
        "mechanic",
        "mechanics",
    ),
    (
        "{NP} explained that {PRON} would be out of the office on Friday.",
        "they",
        "my wife",
        "the landlady",
        "my partner",
        "librarian",
        "librarians",
    ),
    (
        "{NP} insisted that {PRON} could fix the leaking sink alone.",
        "they",
        "my husband",
        "the fireman",
        "my housemate",
        "electrician",
        "electricians",
    ),
    # them
    (
        "{NP} lost the umbrella that I had lent {PRON} last week.",
        "them",
        "my niece",
        "the congressman",
        "my colleague",
        "receptionist",
        "receptionists",
    ),
    (
        "{NP} needed a ride, so I drove {PRON} to the station.",
        "them",
        "my nephew",
        "the headmistress",
        "my friend",
        "surgeon",
        "surgeons",
    ),
    (
        "{NP} sent a long letter, and I wrote back to {PRON} the next day.",
        "them",
        "my daughter",
        "the duchess",
        "my cousin",
        "architect",
        "architects",
    ),
    (
        "{NP} looked tired, so I made {PRON} a cup of tea.",
        "them",
        "my son",
        "the mailman",
        "my roommate",
        "journalist",
        "journalists",
    ),
    (
        "{NP} forgot the password, so I reminded {PRON} of it.",
        "them",
        "my girlfriend",
        "the seamstress",
        "my neighbor",
        "professor",
        "professors",
    ),
    (
        "{NP} won the contest, and everyone congratulated {PRON} warmly.",
        "them",
        "my boyfriend",
        "the doorman",
        "my best friend",
        "banker",
        "bankers",
    ),
    (
        "{NP} waited outside, so I waved at {PRON} from the window.",
        "them",
        "my mom",
        "the heiress",
        "my coworker",
        "pilot",
        "pilots",
    ),
    (
        "{NP} seemed lost, so the guard showed {PRON} the way out.",
        "them",
        "my dad",
        "the handyman",
        "my classmate",
        "chef",
        "chefs",
    ),
    (
        "{NP} asked a question, and the speaker thanked {PRON} for it.",
        "them",
        "my stepmother",
        "the princess",
        "my teammate",
        "janitor",
        "janitors",
    ),
    (
        "{NP} dropped a glove, so I handed it back to {PRON} at the door.",
        "them",
        "my stepfather",
        "the cameraman",
        "my partner",
        "translator",
        "translators",
    ),
    # their
    (
        "{NP} forgot {PRON} phone at the restaurant.",
        "their",
        "my sister",
        "the nun",
        "my housemate",
        "photographer",
        "photographers",
    ),
    (
        "{NP} painted {PRON} kitchen a bright yellow.",
        "their",
        "my brother",
        "the monk",
        "my colleague",
        "therapist",
        "therapists",
    ),
    (
        "{NP} could not remember where {PRON} car was parked.",
        "their",
        "my mother",
        "the barmaid",
        "my friend",
        "programmer",
        "programmers",
    ),
    (
        "{NP} sold {PRON} old bicycle to a neighbor.",
        "their",
        "my father",
        "the foreman",
        "my cousin",
        "gardener",
        "gardeners",
    ),
    (
        "{NP} spent the whole weekend cleaning {PRON} garage.",
        "their",
        "my aunt",
        "the governess",
        "my roommate",
        "veterinarian",
        "veterinarians",
    ),
    (
        "{NP} finally finished writing {PRON} first novel.",
        "their",
        "my uncle",
        "the weatherman",
        "my neighbor",
        "scientist",
        "scientists",
    ),
    (
        "{NP} brought {PRON} dog to the picnic.",
        "their",
        "my grandmother",
        "the policewoman",
        "my best friend",
        "painter",
        "painters",
    ),
    (
        "{NP} had to cancel {PRON} trip because of the storm.",
        "their",
        "my grandfather",
        "the fisherman",
        "my coworker",
        "carpenter",
        "carpenters",
    ),
    (
        "{NP} showed me a photo of {PRON} new apartment.",
        "their",
        "my wife",
        "the saleswoman",
        "my classmate",
        "firefighter",
        "firefighters",
    ),
    (
        "{NP} left {PRON} jacket on the back of the chair.",
        "their",
        "my husband",
        "the deliveryman",
        "my teammate",
        "judge",
        "judges",
    ),
    # themselves
    (
        "{NP} taught {PRON} to play the guitar.",
        "themselves",
        "my niece",
        "the businesswoman",
        "my partner",
        "detective",
        "detectives",
    ),
    (
        "{NP} accidentally locked {PRON} out of the house.",
        "themselves",
        "my nephew",
        "the sportsman",
        "my housemate",
        "tourist",
        "tourists",
    ),
    (
        "{NP} bought {PRON} a new watch after the promotion.",
        "themselves",
        "my daughter",
        "the congresswoman",
        "my colleague",
        "editor",
        "editors",
    ),
    (
        "{NP} cut {PRON} while slicing the bread.",
        "themselves",
        "my son",
        "the craftsman",
        "my friend",
        "student",
        "students",
    ),
    (
        "{NP} promised {PRON} a long vacation after the exams.",
        "themselves",
        "my girlfriend",
        "the anchorwoman",
        "my cousin",
        "coach",
        "coaches",
    ),
    (
        "{NP} introduced {PRON} to everyone at the meeting.",
        "themselves",
        "my boyfriend",
        "the stuntman",
        "my roommate",
        "engineer",
        "engineers",
    ),
    (
        "{NP} made {PRON} a sandwich before leaving for work.",
        "themselves",
        "my mom",
        "the spokeswoman",
        "my neighbor",
        "nurse",
        "nurses",
    ),
    (
        "{NP} had trouble forgiving {PRON} for the mistake.",
        "themselves",
        "my dad",
        "the spokesman",
        "my best friend",
        "pianist",
        "pianists",
    ),
    (
        "{NP} hurt {PRON} lifting the heavy boxes.",
        "themselves",
        "my stepmother",
        "the queen",
        "my coworker",
        "lifeguard",
        "lifeguards",
    ),
    (
        "{NP} described {PRON} as a morning person.",
        "themselves",
        "my stepfather",
        "the king",
        "my classmate",
        "author",
        "authors",
    ),
)

# (sentence with {PRON}, pronoun, antecedent): singular inanimate antecedents, where *they* is not licensed.
CONTROLS: tuple[tuple[str, str, str], ...] = (
    ("The cup fell off the table and {PRON} broke.", "they", "the cup"),
    ("The old laptop overheated because {PRON} had been left in the sun.", "they", "the old laptop"),
    ("The kettle whistled loudly when {PRON} started to boil.", "they", "the kettle"),
    ("The bridge was closed after {PRON} started to crack.", "they", "the bridge"),
    ("The vase was so beautiful that I bought {PRON} at once.", "them", "the vase"),
    ("The book was heavy, so I carried {PRON} in both hands.", "them", "the book"),
    ("The bicycle was rusty, so I painted {PRON} green.", "them", "the bicycle"),
    ("The letter arrived late, so I read {PRON} that evening.", "them", "the letter"),
    ("The table wobbled because one of {PRON} legs was short.", "their", "the table"),
    ("The car stopped when {PRON} engine failed.", "their", "the car"),
    ("The tree lost most of {PRON} leaves in October.", "their", "the tree"),
    ("The house looked new after {PRON} roof was repaired.", "their", "the house"),
    ("The door closed by {PRON} in the wind.", "themselves", "the door"),
    ("The machine switched {PRON} off after an hour.", "themselves", "the machine"),
    ("The clock reset {PRON} during the power cut.", "themselves", "the clock"),
)


def _antecedent(frame_index: int, condition: str) -> str:
    _template, _pron, close_g, distant_g, close_ng, noun, plural = FRAMES[frame_index]
    return {
        "gendered_name": GENDERED_NAMES[frame_index],
        "nongendered_name": NONGENDERED_NAMES[frame_index % len(NONGENDERED_NAMES)],
        "close_gendered": close_g,
        "distant_gendered": distant_g,
        "close_nongendered": close_ng,
        "distant_nongendered": f"the {noun}",
        "quantified": f"every {noun}",
        "plural": f"the {plural}",
    }[condition]


def _place(template: str, antecedent: str, pronoun: str) -> str:
    text = template.replace(NP, antecedent).replace(PRON, pronoun)
    return text[0].upper() + text[1:]


def they_stimuli(slot: str = SLOT) -> pd.DataFrame:
    """All 335 stimuli. Columns: item, condition, antecedent, pronoun, sentence (filled), template
    (the pronoun replaced by `slot`), prompt (the text before the pronoun, no trailing space),
    close, gendered (0/1 for the four Table 2 cells, else NA)."""
    rows = []
    for i, frame in enumerate(FRAMES):
        template, pronoun = frame[0], frame[1]
        for condition in CONDITIONS:
            antecedent = _antecedent(i, condition)
            rows.append((f"F{i + 1:02d}", condition, antecedent, pronoun, template))
    for j, (template, pronoun, antecedent) in enumerate(CONTROLS):
        rows.append((f"C{j + 1:02d}", CONTROL, antecedent, pronoun, template))
    out = []
    for item, condition, antecedent, pronoun, template in rows:
        sentence = _place(template, antecedent, pronoun)
        with_slot = _place(template, antecedent, slot)
        prompt = with_slot[: with_slot.index(slot)].rstrip()
        close, gendered = CLOSENESS_GENDER.get(condition, (None, None))
        out.append((item, condition, antecedent, pronoun, sentence, with_slot, prompt, close, gendered))
    frame = pd.DataFrame(
        out,
        columns=["item", "condition", "antecedent", "pronoun", "sentence", "template", "prompt", "close", "gendered"],
    )
    frame["close"] = frame["close"].astype("Int64")
    frame["gendered"] = frame["gendered"].astype("Int64")
    return frame
