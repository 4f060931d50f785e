"""Invariants of the Stage turn on random maps (hypothesis)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.dark_tomb import Scenario, run_stage_turn
from companion.games.dark_tomb.grid import MONSTER_WALKS
from companion.games.dark_tomb.paths import distances, manhattan

W, H = 9, 7


@st.composite
def scenarios(draw):
    terrain = draw(st.lists(st.sampled_from("......#O~gG"), min_size=W * H, max_size=W * H))
    rows = ["".join(terrain[y * W : (y + 1) * W]) for y in range(H)]
    floor = [(x, y) for y in range(H) for x in range(W) if rows[y][x] in ".~g"]
    cells = draw(st.lists(st.sampled_from(floor), min_size=2, max_size=8, unique=True)) if len(floor) >= 2 else []
    split = draw(st.integers(1, max(1, len(cells) - 1))) if cells else 0
    characters = [
        {
            "id": f"c{i}",
            "pos": list(p),
            "hp": draw(st.integers(1, 6)),
            "armor": draw(st.integers(5, 15)),
            "stealth": draw(st.booleans()) and draw(st.booleans()),
        }
        for i, p in enumerate(cells[:split])
    ]
    monsters = [
        {
            "id": f"m{i}",
            "pos": list(p),
            "hp": draw(st.integers(1, 4)),
            "move": draw(st.integers(0, 5)),
            "attack": {
                "modifier": draw(st.integers(0, 6)),
                "range": sorted([draw(st.integers(0, 4)), draw(st.integers(1, 4))]),
                "damage": draw(st.integers(1, 3)),
                "kind": draw(st.sampled_from(["line", "corner", "pierce"])),
                "targets": draw(st.sampled_from([1, 2, "all"])),
            },
        }
        for i, p in enumerate(cells[split:])
    ]
    for m in monsters:
        m["attack"]["range"][1] = max(1, m["attack"]["range"][1])
    rolls = draw(st.lists(st.integers(1, 20), max_size=12))
    return Scenario.from_json({"map": rows, "characters": characters, "monsters": monsters, "rolls": rolls})


@settings(max_examples=150, deadline=None)
@given(scenarios(), st.integers(0, 10**6))
def test_monsters_end_on_free_floor_within_their_move(scenario, seed):
    result = run_stage_turn(scenario, random.Random(seed))
    before = {m.id: m for m in scenario.monsters}
    for activation in result.activations:
        monster = before[activation.monster]
        assert manhattan(activation.start, activation.end) <= monster.move
        assert scenario.grid.terrain(activation.end) in MONSTER_WALKS
        if activation.fled_to is not None:
            assert manhattan(activation.end, activation.fled_to) <= 4
    living = [p.pos for p in (*result.after.characters, *result.after.monsters) if p.alive]
    assert len(living) == len(set(living)), "two pieces ended on one cell"
    for piece in result.after.monsters:
        assert scenario.grid.terrain(piece.pos) in MONSTER_WALKS


@settings(max_examples=100, deadline=None)
@given(scenarios(), st.data())
def test_a_path_is_never_shorter_than_manhattan(scenario, data):
    start = data.draw(st.sampled_from(sorted(scenario.grid.monster_floor)))
    for cell, steps in distances([start], scenario.grid.monster_floor).items():
        assert steps >= manhattan(start, cell)


@settings(max_examples=60, deadline=None)
@given(scenarios(), st.integers(0, 1000))
def test_same_rolls_same_turn(scenario, seed):
    a = run_stage_turn(scenario, random.Random(seed)).to_json()
    b = run_stage_turn(scenario, random.Random(seed)).to_json()
    assert a == b
