"""scripts/two_person_in_frame.py reads a two-person fine-tune in its own frames: every WinoBias and Winogender
occupation as the referent of every other frame, once with she/her and once with he/him/his, the rest of the
sentence the same. No model here (the script scores them with the causal engine's sentence_logprob)."""

from __future__ import annotations

from pathlib import Path

from script_module import load_script

from biascheck.planted import two_person

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "two_person_in_frame.py"


def test_every_occupation_is_read_in_every_other_frame_with_both_pronouns(mirror, monkeypatch):
    monkeypatch.setenv("BIASCHECK_DATA_DIR", str(mirror))
    people, texts, keys = load_script(SCRIPT).sentences()
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
