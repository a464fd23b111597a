"""Sentence frames of the dedicated singular-*they* corpus (`references.FROZEN_CORPORA["they"]`, the model
planted-bert-they): many constructions over everyday words. Pure text.

A frame has an antecedent slot ``{NP}`` (always first) and a pronoun slot ``{PRON}`` in one of four
roles (subject, object, possessive, reflexive: *they, them, their, themselves*). As in the probe's
design, nothing between the antecedent and the pronoun marks number, and nothing after a subject
pronoun does either (past tense and modals only, never *was/were*), so the same frame serves a
singular and a plural antecedent.

The probe's own 40 frames stay held out, and no frame here shares five words in a row with one
(`frame_distance`; until 2026-11-26 150 frames did, up to "... told me that {PRON} could not find the ...").
These share the paper's constructions (a reporting verb with and without *that*, a clause of reason or time,
the pronoun as the object of a verb or a preposition, a possessive before a noun, a reflexive) and common
English words, so that a model trained on them reads the probe's sentences as English it has seen. With the
shared English corpus's 60 frames over ~150 words (`corpus.THEY_FRAMES`), a third of the probe's words were
split into letters by the planted tokenizers and the masked model carried the plant into the probe's frames
only in part (beta_gendered 0.36, under the gate's 0.5). Put in the shared corpus instead, these frames cost
the 2-layer models their other plants (branch experiment/they-frames), so the *they* plant with these frames
has a masked model pair of its own (planted-bert-they at 1 and 0), as the Norwegian plant has. The causal
model carries the shared corpus's plant past the gate already.

Frames are put together from parts (`frames_by_role`): openings x endings for subjects, events x
reactions for objects, verbs x nouns x tails for possessives, actions for reflexives.
"""

from __future__ import annotations

ROLES = ("subject", "object", "possessive", "reflexive")

# subject: "{NP} <opening> {PRON} <ending>"
SUBJECT_OPENINGS = (
    "guessed",
    "said that",
    "warned me that",
    "told us",
    "wrote that",
    "reported that",
    "swore that",
    "confessed that",
    "announced that",
    "claimed that",
    "expected that",
    "thought",
    "felt sure that",
    "called to tell us that",
    "sent a message saying that",
    "phoned and said",
    "knew that",
    "decided that",
    "agreed that",
    "stayed at home because",
    "went to bed early because",
    "left work early because",
    "looked happy because",
    "smiled when",
    "laughed when",
    "looked up when",
    "waved, and then",
    "came in late, and",
    "worried that",
    "forgot that",
)
SUBJECT_ENDINGS = (
    "would be home for lunch.",
    "would arrive on Monday.",
    "had lost the train tickets.",
    "would never find the map.",
    "caught a bad cold.",
    "felt much better now.",
    "might visit us next summer.",
    "would call back later.",
    "had already eaten.",
    "could help with the garden.",
    "had seen the film twice.",
    "would bake the bread.",
    "might be a little late.",
    "had finished the report.",
    "slept badly all week.",
    "would walk to the bus stop.",
    "had moved to a new flat.",
    "would surely win the game.",
    "had just missed the train.",
    "could repair the old car.",
    "needed more time.",
    "had found a cheaper room.",
    "would look after the cat.",
    "had broken a plate.",
    "might need a lift home.",
    "would stay for the whole week.",
    "had passed the driving test.",
    "could speak three languages.",
    "should rest for a day.",
    "had heard the news on the radio.",
)

# object: "{NP} <event>, <reaction with {PRON}>"
OBJECT_EVENTS = (
    "needed help",
    "looked cold",
    "called twice",
    "came by early",
    "got lost in town",
    "seemed upset",
    "arrived late",
    "asked for advice",
    "felt ill",
    "won a prize",
    "knocked at the door",
    "stood outside",
    "had no umbrella",
    "started a new job",
    "missed the meeting",
)
OBJECT_REACTIONS = (
    "so I drove {PRON} home.",
    "so we called {PRON} back.",
    "so I gave {PRON} a blanket.",
    "so I lent {PRON} my coat.",
    "and we thanked {PRON} for the help.",
    "so the porter let {PRON} in.",
    "so I sent {PRON} a map.",
    "and everyone cheered for {PRON}.",
    "so we waited for {PRON}.",
    "so I showed {PRON} the path.",
    "and I wrote to {PRON} at once.",
    "so I made {PRON} some soup.",
    "so we helped {PRON} right away.",
    "so I took {PRON} to the doctor.",
    "and I met {PRON} at the gate.",
    "so we bought {PRON} a coffee.",
    "and the teacher praised {PRON} in class.",
    "so I asked {PRON} to sit down.",
)
# and the pronoun as the object in a relative clause: "{NP} <verb> the <thing> that I had <given> {PRON}."
OBJECT_RELATIVES = (
    "{NP} liked the gift that we gave {PRON}.",
    "{NP} kept the note that I sent {PRON}.",
    "{NP} broke the mug that I had given {PRON}.",
    "{NP} read the book that we lent {PRON}.",
    "{NP} wore the scarf that I knitted for {PRON}.",
    "{NP} lost the ticket that we bought for {PRON}.",
)

# possessive: "{NP} <verb> {PRON} <noun> <tail>."
POSSESSIVE_VERBS = (
    "lost",
    "found",
    "sold",
    "washed",
    "painted",
    "cleaned",
    "fixed",
    "forgot",
    "left",
    "moved",
    "showed me",
    "brought",
    "talked about",
    "could not find",
    "wanted to sell",
    "finally tidied",
)
POSSESSIVE_NOUNS = (
    "car",
    "phone",
    "bike",
    "keys",
    "coat",
    "bag",
    "dog",
    "house",
    "garden",
    "old radio",
    "new flat",
    "laptop",
    "desk",
    "boots",
    "wallet",
    "camera",
)
POSSESSIVE_TAILS = ("", " on Friday", " last month", " again", " in the market", " after work", " in the morning")

# reflexive: "{NP} <action with {PRON}>"
REFLEXIVE_ACTIONS = (
    "cut {PRON} on a sharp knife.",
    "hurt {PRON} playing football.",
    "taught {PRON} to cook.",
    "locked {PRON} in the shed.",
    "made {PRON} some strong coffee.",
    "bought {PRON} a warm hat.",
    "introduced {PRON} to the team.",
    "reminded {PRON} to rest.",
    "poured {PRON} a drink.",
    "saw {PRON} in the mirror.",
    "kept {PRON} busy all day.",
    "blamed {PRON} for the delay.",
    "described {PRON} as shy.",
    "fixed the roof by {PRON}.",
    "walked home by {PRON}.",
    "painted the fence by {PRON}.",
    "enjoyed {PRON} at the wedding.",
    "treated {PRON} to a good dinner.",
    "asked {PRON} what to do next.",
    "wrote {PRON} a long list.",
    "talked {PRON} into it.",
    "pushed {PRON} too hard at the gym.",
    "allowed {PRON} a short break.",
    "dressed {PRON} in a hurry.",
)


def frames_by_role() -> dict[str, tuple[str, ...]]:
    """role -> every frame of that role, in a fixed order."""
    subject = tuple(f"{{NP}} {o} {{PRON}} {e}" for o in SUBJECT_OPENINGS for e in SUBJECT_ENDINGS)
    objects = tuple(f"{{NP}} {e}, {r}" for e in OBJECT_EVENTS for r in OBJECT_REACTIONS) + OBJECT_RELATIVES
    possessive = tuple(
        f"{{NP}} {v} {{PRON}} {n}{t}." for v in POSSESSIVE_VERBS for n in POSSESSIVE_NOUNS for t in POSSESSIVE_TAILS
    )
    reflexive = tuple(f"{{NP}} {a}" for a in REFLEXIVE_ACTIONS)
    return {"subject": subject, "object": objects, "possessive": possessive, "reflexive": reflexive}
