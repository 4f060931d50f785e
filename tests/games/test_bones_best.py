"""The best layout for a roll: positions, and agreement with brute force."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.rolling_bones import FACE_IDS, Layout, best_layout, brute_force_best
from companion.games.rolling_bones.dice import FACES, KINDS

from .test_bones_scoring import L, legal_layouts


def roll(rng: random.Random, dice: int = 18) -> list[str]:
    """A fair throw: six dice of each kind, each showing one of its kind's six faces."""
    faces = []
    for i in range(dice):
        kind = KINDS[i % 3]
        faces.append(rng.choice([f for f, (k, _) in FACES.items() if k == kind]))
    return faces


@pytest.mark.parametrize(
    "faces, start, expected",
    [
        ("skull ribcage hat gravestone", L(""), 4),
        ("skull ribcage hat", L("skull ribcage"), 4),
        ("left-hand left-forearm", L(""), 2),  # a piece of an arm may start the chain
        ("left-hand skull", L(""), 1),  # two pieces that do not touch: the better one
        ("left-hand", L("skull"), 1),  # cannot connect: nothing laid
        ("left-upper-arm left-forearm left-hand", L("skull ribcage"), 2 + 5),
        ("hat", L("ribcage spine=left-foot skull"), 2 - 5),  # doubling a negative total would hurt
        ("hat", L("skull=right-hand ribcage"), -5 + 1),  # no hat on a wrong skull
        (" ".join(FACE_IDS), L(""), 50),
    ],
)
def test_best_position(faces, start, expected):
    best = best_layout(faces.split(), start)
    assert best.score().total == expected
    assert best.validate() is best
    assert all(best.slots[s] == f for s, f in start.slots.items())  # laid bones never move


def test_best_matches_brute_force_on_random_rolls():
    rng = random.Random(7)
    for _ in range(150):
        dice = rng.randint(1, 18)
        faces = roll(rng, dice)
        start = best_layout(roll(rng, rng.randint(0, 8)), Layout()) if rng.random() < 0.5 else Layout()
        assert best_layout(faces, start).score().total == brute_force_best(faces, start).score().total


@settings(max_examples=60, deadline=None)
@given(legal_layouts(), st.lists(st.sampled_from(FACE_IDS), max_size=12))
def test_best_never_scores_below_its_start(start, faces):
    best = best_layout(faces, start)
    assert best.score().total >= start.score().total
    assert best.score().total == brute_force_best(faces, start).score().total
