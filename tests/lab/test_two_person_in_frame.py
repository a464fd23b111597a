"""lab.two_person_in_frame reads a two-person fine-tune in its own frames: every WinoBias and Winogender
occupation as the referent of every other frame, once with she/her and once with he/him/his, the rest of the
sentence the same; the lean summary is a hand calculation. No model here (the causal engine's sentence_logprob
scores the texts); lab/scripts/two_person_in_frame.py, which prints it, answers --help."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from biascheck.planted import two_person
from lab import two_person_in_frame as in_frame

SCRIPT = Path(__file__).resolve().parents[2] / "lab" / "scripts" / "two_person_in_frame.py"


def test_every_occupation_is_read_in_every_other_frame_with_both_pronouns(mirror):
    people, texts, keys = in_frame.stimuli(mirror)
    frames = [f for group in two_person.TWO_PERSON_FRAMES.values() for f in group][::2]
    assert {src for _p, _s, src in people} == {"winogender_occupations", "winobias_readme"}
    assert len(texts) == len(keys) == len(people) * len(frames) * 2
    pronoun_pairs = {("she", "he"), ("her", "him"), ("her", "his")}
    for i in range(0, len(texts), 2):  # one frame and one other person, with each sex's pronouns
        (person, first), (same, second) = keys[i], keys[i + 1]
        assert person == same and {first, second} == {two_person.FEMALE, two_person.MALE}
        she, he = (texts[i], texts[i + 1]) if first == two_person.FEMALE else (texts[i + 1], texts[i])
        assert f"the {person} " in she
        words = [w.strip(".,") for w in she.split()], [w.strip(".,") for w in he.split()]
        differ = {(a, b) for a, b in zip(*words, strict=True) if a != b}
        assert differ and differ <= pronoun_pairs, (she, he)


def test_the_lean_summary_is_a_hand_calculation():
    people = [(f"w{i}", share, "winobias_readme") for i, share in enumerate((0.9, 0.7, 0.5, 0.2))]
    people += [(f"g{i}", share, "winogender_occupations") for i, share in enumerate((0.8, 0.1, 0.3))]
    gaps = {"w0": 2.0, "w1": -0.5, "w2": 9.0, "w3": -1.0, "g0": 0.4, "g1": 0.2, "g2": -3.0}  # she minus he, nats
    keys, logprobs = [], []
    for person, gap in gaps.items():  # two frames each: log P(she text) - log P(he text) = gap in both
        for base in (-10.0, -20.0):
            keys += [(person, two_person.FEMALE), (person, two_person.MALE)]
            logprobs += [base + gap, base]
    found = in_frame.lean_summary(people, keys, logprobs)
    # WinoBias's: leans 2, -0.5, 9, -1 against shares 0.9, 0.7, 0.5, 0.2 (ranks 3 2 4 1 / 4 3 2 1: rho 0.4);
    # the three shares off one half: w0 right, w1 wrong, w3 right
    assert found["winobias_readme"] == {"n": 4, "rho": 0.4, "majority": round(2 / 3, 4)}
    # Winogender's: leans 0.4, 0.2, -3 against 0.8, 0.1, 0.3 (ranks 3 2 1 / 3 1 2: rho 0.5);
    # g0 right, g1 wrong, g2 right
    assert found["winogender_occupations"] == {"n": 3, "rho": 0.5, "majority": round(2 / 3, 4)}


def test_the_script_answers_help():
    done = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "--threads" in done.stdout, done.stderr
