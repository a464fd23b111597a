"""BBQ items from the authors' templates (Parrish et al. 2022): our own rewrite of
``generate_from_template_all_categories.py`` and ``utils.py`` (nyu-mll/BBQ @ bea11bd) for the two categories the
probe reads, Gender_identity and Physical_appearance, with a seeded `random.Random` instead of the global one.

Per template row (rows with an empty ambiguous context are dropped), as the authors' loop does:

1. Words. The category's vocabulary (``vocabulary.csv`` rows whose ``Pilot_include`` is not ``No``), narrowed to the
   row's ``Subcategory`` when it has one; a ``Names`` column (``NAME1: [a, b]; NAME2: [c, d]``) overrides both
   lists. Gender_identity rows with ``Proper_nouns_only == TRUE`` draw 5 female first names
   (``vocabulary_proper_names.csv``, ``first_only``) and, for each, 5 names of the other gender.
2. Pairs. Every word of the first list with every word of the second (without a Names column: every other word
   of the same list); rows with proper names are also written with the two names swapped.
3. Per pair: one word drawn per ``Lexical_diversity`` list (``WORD1``, ``WORD2``), the same for the swapped
   pair; the slots ``{{NAME1}}``, ``{{NAME2}}``, ``{{WORD1}}``, ``{{WORD2}}`` filled, and ``a`` → ``an`` before a
   vowel when a name starts with one (``utils.do_slotting``).
4. Four items per filled pair (``utils.create_templating_dicts``): an unknown answer drawn from the ten wordings,
   the three answers shuffled; (neg, ambig), (neg, disambig), (nonneg, ambig), (nonneg, disambig); the label is
   the unknown answer in ambiguous contexts and the negative / non-negative answer in disambiguated ones.
   ``answer_info`` names each answer's group (the template's ``NAME1_info`` / ``NAME2_info``, a proper name's
   gender, else the word itself) by the slot its answer template names. The mirrored ``utils.py`` finds it by
   substring instead ("tattoos" is in "The individual with no tattoos", "male" in "The female teacher"), which
   gives both answers one group; the authors' published Physical_appearance file has the slot's group in all
   those items (templates 7, 8, 18 and 19), and their metadata script expects 16 items without a single target
   (Gender_identity template 13's boy/man and girl/woman pairs), which the slot rule gives and the substring
   rule exceeds.

What is random (names drawn, lexical words, the unknown wording, the answer order) follows the `seed`; the rest
(pairs per template, conditions, polarities, questions, which answer is correct) does not depend on it, and is
what `tests/data/test_bbq_generate.py` checks against the authors' Physical_appearance file.
"""

from __future__ import annotations

import ast
import random
import re
from itertools import product
from typing import Any

import pandas as pd

UNKNOWN_OPTIONS = (
    "Unknown", "Cannot be determined", "Can't be determined", "Not answerable", "Not known", "Not enough info",
    "Not enough information", "Cannot answer", "Can't answer", "Undetermined",
)  # fmt: skip
TEXT_COLUMNS = (
    "Ambiguous_Context", "Disambiguating_Context", "Question_negative_stereotype", "Question_non_negative",
    "Answer_negative", "Answer_non_negative",
)  # fmt: skip
CATEGORIES = ("Gender_identity", "Physical_appearance")


def word_lists(text: str) -> tuple[list[str], list[str]]:
    """``utils.return_list_from_string``: ``WORD1: [a, b]; WORD2: [c]`` -> (['a', 'b'], ['c']). As upstream, the
    second list is the last ``;`` part's (empty when that part is not the second list)."""
    first: list[str] = []
    second: list[str] = []
    for part in text.split(";"):
        if "WORD1" in part or "NAME1" in part:
            for tag in ("WORD1:", "{{WORD1}}:", "NAME1:", "{{NAME1}}:"):
                part = part.replace(tag, "")
            first = [w.strip() for w in part.strip().replace("[", "").replace("]", "").split(",")]
        if "WORD2" in part or "NAME2" in part:
            for tag in ("WORD2:", "{{WORD2}}:", "NAME2:", "{{NAME2}}:"):
                part = part.replace(tag, "")
            second = [w.strip() for w in part.strip().replace("[", "").replace("]", "").split(",")]
        else:
            second = []
    return first, second


def fill(text: str, word1: str, word2: str, lex1: str, lex2: str, has_lex: bool) -> str:
    """``utils.do_slotting`` for one text (step 3)."""
    text = text.replace("{{NAME1}}", word1).replace("{{NAME2}}", word2)
    if has_lex:
        text = text.replace("{{WORD1}}", lex1).replace("{{WORD2}}", lex2)
    if re.search("^[aeiou]", word1.lower()) or re.search("^[aeiou]", word2.lower()):
        text = re.sub(r"(\s[aA])(\s[aAeEiIoOuU])", r"\1n\2", text)
        text = text.replace(" an European", " a European")
    return text


def lexical_options(row: pd.Series) -> list[tuple[str, str]]:
    """Every (WORD1, WORD2) a row's Lexical_diversity allows (one ('', '') without it)."""
    if len(row["Lexical_diversity"]) <= 1:
        return [("", "")]
    first, second = word_lists(row["Lexical_diversity"])
    return list(product(first, second if len(second) > 1 else [""]))


def _filled(row: pd.Series, word1: str, word2: str, lex: tuple[str, str]) -> dict[str, str]:
    has_lex = len(row["Lexical_diversity"]) > 1
    return {c: fill(row[c], word1, word2, lex[0], lex[1], has_lex) for c in TEXT_COLUMNS}


def possible_contexts(row: pd.Series, word1: str, word2: str) -> set[str]:
    """The ambiguous and disambiguated contexts of a pair over every lexical choice (what a seed can give)."""
    out = set()
    for lex in lexical_options(row):
        f = _filled(row, word1, word2, lex)
        out.add(f["Ambiguous_Context"].strip())
        out.add(f"{f['Ambiguous_Context'].strip()} {f['Disambiguating_Context']}".strip())
    return out


def _slot(answer_template: str) -> int:
    """0 when an answer names the {{NAME1}} person, 1 for {{NAME2}}."""
    if "{{NAME1}}" in answer_template:
        return 0
    if "{{NAME2}}" in answer_template:
        return 1
    raise ValueError(f"answer {answer_template!r} names neither {{{{NAME1}}}} nor {{{{NAME2}}}}")


def _answer_info(row: pd.Series, filled: dict[str, str], order: list[str], unknown: str,
                 names: tuple[tuple[str, str], ...]) -> dict[str, list[str]]:  # fmt: skip
    """Each answer's [word, group]: the group of the person its template names (see the module's step 4)."""
    info = {f"ans{i}": ["", ""] for i in range(3)}
    for column in ("Answer_negative", "Answer_non_negative"):
        word, group = names[_slot(row[column])]
        info[f"ans{order.index(filled[column])}"] = [word, group]
    info[f"ans{order.index(unknown)}"] = [unknown, "unknown"]
    return info


def _four_items(rng: random.Random, row: pd.Series, category: str, subcat: str, filled: dict[str, str],
                names: tuple[tuple[str, str], ...], bias_targets: list[str]) -> list[dict[str, Any]]:  # fmt: skip
    """Step 4: the four items of one filled pair."""
    neg, non_neg = filled["Answer_negative"], filled["Answer_non_negative"]
    unknown = rng.choice(UNKNOWN_OPTIONS)
    order = [neg, non_neg, unknown]
    rng.shuffle(order)
    info = _answer_info(row, filled, order, unknown, names)
    ambig = filled["Ambiguous_Context"]
    disambig = f"{ambig.strip()} {filled['Disambiguating_Context']}"
    questions = {"neg": filled["Question_negative_stereotype"], "nonneg": filled["Question_non_negative"]}
    correct = {"neg": order.index(neg), "nonneg": order.index(non_neg)}
    items = []
    for polarity, (condition, context) in product(("neg", "nonneg"), (("ambig", ambig), ("disambig", disambig))):
        items.append(
            {
                "question_index": str(row["Q_id"]),
                "question_polarity": polarity,
                "context_condition": condition,
                "category": category,
                "answer_info": {k: list(v) for k, v in info.items()},
                "subcategory": subcat,
                "stereotyped_groups": list(bias_targets),
                "known_stereotyped_groups": row["Known_stereotyped_groups"],
                "context": context.strip(),
                "question": questions[polarity].strip(),
                "ans0": order[0],
                "ans1": order[1],
                "ans2": order[2],
                "label": order.index(unknown) if condition == "ambig" else correct[polarity],
                "name1": names[0][0],
                "name2": names[1][0],
            }
        )
    return items


def generate(category: str, templates: pd.DataFrame, vocab: pd.DataFrame, names: pd.DataFrame, seed: int):
    """Every item of `category` (steps 1-4), in the authors' order, with example_id counting from 0."""
    if category not in CATEGORIES:
        raise ValueError(f"category {category!r}: this generator covers {', '.join(CATEGORIES)}")
    rng = random.Random(seed)
    vocab = vocab[vocab["Pilot_include"] != "No"]
    rows = templates[templates["Ambiguous_Context"] != ""].reset_index(drop=True)
    firsts = names[names["First_last"] == "first_only"]
    gender_of = dict(zip(firsts["Name"], firsts["gender"], strict=True))
    items: list[dict[str, Any]] = []
    for _, row in rows.iterrows():
        words = vocab[vocab["Category"] == category]
        word_list = words["Name"].unique().tolist()
        bias_targets = ast.literal_eval(row["Known_stereotyped_groups"])
        if len(word_list) > 4:
            word_list = rng.sample(word_list, 5)
        elif len(word_list) < 2:
            word_list = []
        proper = row.get("Proper_nouns_only", "") == "TRUE"
        subcat = row["Subcategory"] if len(row["Subcategory"]) > 1 else "None"
        if subcat != "None":
            word_list = words[words["SubCat"] == subcat]["Name"].unique().tolist()
            if len(word_list) > 5:
                word_list = rng.sample(word_list, 5)
        second_list: list[str] | None = None
        if len(row["Names"]) > 1:
            word_list, second_list = word_lists(row["Names"])
        if proper:
            if category != "Gender_identity":
                raise ValueError(f"{category} row {row['Q_id']}: proper names are generated for Gender_identity only")
            word_list = rng.sample(firsts[firsts["gender"] == "F"]["Name"].tolist(), 5)
        for word in word_list:
            info1 = word
            if second_list is not None:
                others = second_list
            elif proper:
                info1 = gender_of[word]
                others = rng.sample(firsts[firsts["gender"] != info1]["Name"].unique().tolist(), 5)
            else:
                others = [w for w in word_list if w != word]
            for k, other in enumerate(others):
                lex = ("", "")
                if len(row["Lexical_diversity"]) > 1:
                    first, second = word_lists(row["Lexical_diversity"])
                    lex = (rng.choice(first), rng.choice(second) if len(second) > 1 else "")
                if proper:
                    info2 = gender_of.get(other, other)
                    if row["NAME1_info"] != "":
                        info1 = f"{row['NAME1_info']}_{info1}" if k == 0 else info1
                        info2 = f"{row['NAME2_info']}_{info2}"
                elif row.get("NAME1_info", "") != "":
                    info1, info2 = row["NAME1_info"], row["NAME2_info"]
                else:
                    info1, info2 = word, other
                pair = ((word, info1), (other, info2))
                items += _four_items(rng, row, category, subcat, _filled(row, word, other, lex), pair, bias_targets)
                if proper:
                    swapped = (pair[1], pair[0])
                    items += _four_items(
                        rng, row, category, subcat, _filled(row, other, word, lex), swapped, bias_targets
                    )
    for number, item in enumerate(items):
        item["example_id"] = number
    return items
