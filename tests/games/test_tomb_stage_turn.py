"""The Stage turn, rule by rule: a small map, the rolls, the expected outcome.

Unless a test says otherwise a monster has move 3, attack +3, range 1-1, damage 2,
one target, line of sight; a character has 10 HP and armor 12. The first roll
is the seismic d20.
"""

import pytest

from companion.errors import BadInput
from companion.games.dark_tomb import Scenario

from .tomb_maps import act, scenario, turn

# -- seismic event -------------------------------------------------------------------------


@pytest.mark.parametrize("roll, quake", [(18, False), (19, True), (20, True)])
def test_seismic_roll_of_19_or_20_hurts_every_character(roll, quake):
    result = turn("A.....\n......\nB....a", rolls=[roll], a={"move": 0})
    assert result.quake is quake
    assert [c.hp for c in result.after.characters] == ([9, 9] if quake else [10, 10])
    assert result.after.monsters[0].hp == 5  # monsters never take seismic damage


def test_a_quake_can_defeat_a_character():
    result = turn("A.B", rolls=[20], A={"hp": 1})
    assert result.to_json()["characters"][0] == {"id": "A", "pos": [0, 0], "hp": 0, "defeated": True}


# -- order, focus, movement ---------------------------------------------------------------


def test_monsters_act_in_reading_order():
    result = turn("..b\na..\n...\n..A", a={"move": 0}, b={"move": 0})
    assert [a.monster for a in result.activations] == ["b", "a"]


def test_focus_is_fewest_steps_not_straight_distance():
    # A is 3 columns away but behind a wall (9 steps round); B is 5 steps away in the open.
    result = turn(
        """
        A#..a
        .#...
        .#...
        .....
        ....B
    """,
        a={"move": 1},
    )
    assert act(result, "a").focus == "B"


def test_focus_ties_break_in_reading_order():
    result = turn("A...a...B", a={"move": 1})
    assert act(result, "a").focus == "A"
    result = turn("....B\n....a\nA....", a={"move": 0})  # B is at range 1 already
    assert act(result, "a").focus == "B"


def test_single_target_attack_moves_the_least():
    # range 1-2: from (6,0) the nearest spot in range of A at (0,0) is (2,0), 4 steps
    result = turn("A.....a", a={"move": 5, "attack": {"range": [1, 2]}})
    assert act(result, "a").end == (2, 0)
    assert [x.target for x in act(result, "a").attacks] == ["A"]


def test_out_of_reach_advances_along_a_shortest_route():
    result = turn("A.........a", a={"move": 3})
    activation = act(result, "a")
    assert activation.end == (7, 0) and activation.attacks == []


def test_advance_ties_break_in_reading_order():
    # two equally good cells after 2 steps: (3,0) above and (3,2) below the obstacle row
    result = turn(
        """
        .....
        AOOOa
        .....
    """,
        a={"move": 2},
    )
    assert act(result, "a").end == (3, 0)


def test_multi_target_attack_moves_further_to_hit_more():
    # B is nearest (2 steps to (4,0) or (3,1)); (2,0), 4 steps, is next to both A and B
    result = turn(
        """
        .A.B.
        .....
        ....a
    """,
        a={"move": 4, "attack": {"targets": 2}},
    )
    activation = act(result, "a")
    assert activation.focus == "B" and activation.end == (2, 0)
    assert sorted(x.target for x in activation.attacks) == ["A", "B"]


def test_multi_target_does_not_move_further_for_nothing():
    result = turn("A....\n.a...\n....B", a={"move": 3, "attack": {"targets": 2}})
    activation = act(result, "a")
    assert activation.end == (1, 0)  # one step, next to A; B cannot be added within 3 steps
    assert [x.target for x in activation.attacks] == ["A"]


def test_single_target_attack_stays_where_it_already_attacks():
    # rules/dark-tomb.md, Move: "the one that attacks the most targets (the focus plus
    # others in range, up to `targets`), then fewest steps". With one target, a cell next to
    # both A and B attacks no more than its own cell next to A, so it does not move.
    result = turn(
        """
        A.B
        a..
    """,
        a={"move": 3},
    )
    activation = act(result, "a")
    assert activation.focus == "A" and activation.end == (0, 1)
    assert [x.target for x in activation.attacks] == ["A"]


def test_two_target_attack_stays_where_it_already_attacks_two():
    # The same rule with targets 2: the cell (1,1) amid A, B and C attacks two, no more
    # than the cell where it stands beside A and C, so it does not walk 6 steps round.
    result = turn(
        """
        .Aa.
        B.C.
        ....
    """,
        rolls=[10, 10, 10],
        a={"move": 6, "attack": {"targets": 2}},
    )
    activation = act(result, "a")
    assert activation.end == (2, 0)
    assert len(activation.attacks) == 2


def test_all_targets_in_range():
    result = turn(
        "...\n.a.\n...\nA.B", rolls=[10, 10, 10], a={"move": 0, "attack": {"range": [1, 3], "targets": "all"}}
    )
    assert [x.target for x in act(result, "a").attacks] == ["A", "B"]


def test_minimum_range_steps_back():
    # range 3-4, A right next to it: it moves away to range 3 (fewest steps: 2)
    result = turn("Aa.....", a={"move": 3, "attack": {"range": [3, 4]}})
    activation = act(result, "a")
    assert activation.end == (3, 0) and activation.modifier == 3


def test_monsters_pass_through_monsters_but_not_characters():
    # a corridor: b blocks nothing for a; but a character in the corridor does
    through_monster = turn("A...ba", a={"move": 4}, b={"move": 0})
    assert act(through_monster, "a").end == (1, 0)
    through_character = turn("A#..\nB...\n.#.a", a={"move": 4})
    assert act(through_character, "a").focus == "B"


def test_never_ends_on_an_occupied_cell():
    result = turn("A.b.a", a={"move": 3}, b={"move": 0})
    # (1,0) next to A is free: a passes through b at (2,0) and ends there
    assert act(result, "a").end == (1, 0)
    result = turn("Ab..a", a={"move": 3}, b={"move": 0, "attack": {"range": [2, 2]}})
    assert act(result, "a").end != (1, 0)


def test_unreachable_character_means_no_move():
    result = turn("A#...a", a={"move": 3})
    activation = act(result, "a")
    assert activation.end == (5, 0) and activation.focus is None and activation.attacks == []


def test_characters_block_a_corridor_for_monsters():
    result = turn("C.#\n#B#\n#.#\n#a#", a={"move": 3})
    activation = act(result, "a")
    assert activation.focus == "B" and activation.end == (1, 2)


def test_stealthy_characters_are_not_targets():
    result = turn("A.a....B", a={"move": 5}, A={"stealth": True})
    assert act(result, "a").focus == "B"
    result = turn("A.a", a={"move": 5}, A={"stealth": True})
    assert act(result, "a").focus is None and act(result, "a").end == (2, 0)


# -- attacks --------------------------------------------------------------------------------


@pytest.mark.parametrize("roll, hit, damage", [(8, False, 0), (9, True, 2), (19, True, 2), (20, True, 3)])
def test_hit_when_roll_plus_modifier_reaches_armor(roll, hit, damage):
    result = turn("Aa", rolls=[10, roll])
    attack = act(result, "a").attacks[0]
    assert (attack.roll, attack.total, attack.hit, attack.damage) == (roll, roll + 3, hit, damage)
    assert result.after.characters[0].hp == 10 - damage


def test_shield_adds_to_armor():
    assert not act(turn("Aa", rolls=[10, 10], A={"shield": 2}), "a").attacks[0].hit
    assert act(turn("Aa", rolls=[10, 11], A={"shield": 2}), "a").attacks[0].hit


def test_natural_20_adds_one_damage_but_needs_to_hit():
    attack = act(turn("Aa", rolls=[10, 20], A={"armor": 30}), "a").attacks[0]
    assert (attack.hit, attack.damage) == (False, 0)


def test_natural_1_hurts_the_attacker_and_it_flees():
    result = turn("A.a....", rolls=[10, 1])
    activation = act(result, "a")
    assert activation.attacks[0].hit is False and activation.attacks[0].damage == 0
    assert result.after.monsters[0].hp == 4
    assert activation.fled_to == (5, 0)  # 4 steps away from A at (0,0)


def test_killed_by_its_own_natural_1_it_rolls_no_more():
    result = turn(".A.\nBa.", rolls=[10, 1, 20], a={"hp": 1, "move": 0, "attack": {"targets": 2}})
    activation = act(result, "a")
    assert [x.roll for x in activation.attacks] == [1]
    assert result.after.monsters[0].alive is False and activation.fled_to is None
    assert result.to_json()["stage_complete"] is True


def test_flees_after_a_roll_of_5_or_less_to_the_farthest_cell():
    result = turn(
        """
        .......
        A.a....
        .......
    """,
        rolls=[10, 5],
    )
    activation = act(result, "a")
    assert activation.attacks[0].hit is False  # 5 + 3 < 12
    # it moved next to A first, at (1,1); the cells 4 steps on that are 5 steps from A: (4,0) first in reading order
    assert activation.end == (1, 1) and activation.fled_to == (4, 0)


def test_a_defeated_character_is_removed_at_once():
    result = turn("A.\nab", rolls=[10, 15, 15], A={"hp": 2}, a={"move": 0}, b={"move": 2})
    assert result.after.characters[0].alive is False
    assert act(result, "b").focus is None  # nobody left to attack
    assert result.party_defeated


# -- attack kinds ---------------------------------------------------------------------------


def test_line_attack_needs_sight():
    # range 1-3, A two cells away behind a wall in the way: the monster must go round
    result = turn("A#a\n...", a={"move": 0, "attack": {"range": [1, 3]}})
    assert act(result, "a").attacks == []


def test_corner_attack_turns_corners():
    result = turn("A#a\n...", a={"move": 0, "attack": {"range": [1, 4], "kind": "corner"}})
    assert [x.target for x in act(result, "a").attacks] == ["A"]


def test_corner_attack_range_counts_the_way_round():
    result = turn("A#a\n...", a={"move": 0, "attack": {"range": [1, 3], "kind": "corner"}})
    assert act(result, "a").attacks == []


def test_pierce_attack_goes_through_walls():
    result = turn("A#a", a={"move": 0, "attack": {"range": [1, 2], "kind": "pierce"}})
    assert [x.target for x in act(result, "a").attacks] == ["A"]


# -- blocked and too close --------------------------------------------------------------------


def test_too_close_and_blocked_attacks_at_minus_one():
    # range 2-3 in a dead-end corridor with the character at the mouth: it cannot get 2 away
    result = turn("###\n#a#\n#A#\n#.#\n#.#\n#.#\n#.#\n#.#", rolls=[10, 10], a={"move": 3, "attack": {"range": [2, 3]}})
    activation = act(result, "a")
    assert activation.focus == "A" and activation.end == (1, 1)
    assert activation.modifier == 2 and activation.attacks[0].total == 12


def test_too_close_when_no_attack_spot_is_reachable_this_turn_attacks_at_minus_one():
    # range 3-3, move 1: the spot 3 away from A is 2 steps off; it backs off 1 and attacks at range 2, at -1
    result = turn("Aa....", rolls=[10, 10], a={"move": 1, "attack": {"range": [3, 3]}})
    activation = act(result, "a")
    assert activation.focus == "A" and activation.end == (2, 0)
    assert activation.modifier == 2 and [x.target for x in activation.attacks] == ["A"]


# -- stage state, rolls ---------------------------------------------------------------------


def test_stage_complete_needs_no_face_down_tiles():
    assert turn("A.?", rolls=[10]).stage_complete is False
    assert turn("A..", rolls=[10]).stage_complete is True


def test_rolls_run_out_into_the_random_source():
    first = turn("Aa", rolls=[10], seed=1)
    again = turn("Aa", rolls=[10], seed=1)
    assert first.rolled == again.rolled and len(first.rolled) == 2 and first.rolled[0] == 10


def test_several_stage_turns_in_a_row():
    state = scenario("A.......a", rolls=[10] * 20, a={"move": 2})
    import random

    from companion.games.dark_tomb import run_stage_turn

    ends = []
    for _ in range(4):
        result = run_stage_turn(state, random.Random(0))
        state = result.after
        ends.append(result.activations[0].end)
    assert ends == [(6, 0), (4, 0), (2, 0), (1, 0)]
    assert state.characters[0].hp == 10 - 2  # attacked once, with 10 + 3 >= 12


# -- bad scenarios --------------------------------------------------------------------------

ATTACK = {"modifier": 1, "range": [1, 1], "damage": 1}
BASE = {
    "map": ["...."],
    "characters": [{"id": "A", "pos": [0, 0], "hp": 5, "armor": 10}],
    "monsters": [{"id": "a", "pos": [3, 0], "hp": 3, "move": 2, "attack": ATTACK}],
}


def tweak(**changes):
    import copy

    data = copy.deepcopy(BASE)
    for path, value in changes.items():
        target = data
        keys = path.split("__")
        for key in keys[:-1]:
            target = target[int(key)] if key.isdigit() else target[key]
        if value is KeyError:
            del target[keys[-1]]
        else:
            target[keys[-1]] = value
    return data


@pytest.mark.parametrize(
    "data, message",
    [
        (tweak(map=["..X."]), "row 0, column 2"),
        (tweak(characters__0__pos=[3, 0]), "both on"),
        (tweak(map=["#..."]), "stands on wall"),
        (tweak(characters__0__pos=[9, 0]), "outside the map"),
        (tweak(rolls=[0]), "rolls\\[0\\]"),
        (tweak(rolls=[21]), "1-20"),
        (tweak(characters__0__hp=KeyError), "missing field 'hp'"),
        (tweak(monsters__0__attack=KeyError), "missing field 'attack'"),
        (tweak(map=KeyError), "missing field 'map'"),
        (tweak(monsters__0__attack__range=[3, 1]), "range"),
        (tweak(monsters__0__attack__kind="laser"), "kind"),
        (tweak(monsters__0__id="A"), "two pieces"),
        ([], "JSON object"),
        # sizes no table has, each of which made one Stage turn run for a minute
        (tweak(map=["." * 300] * 300), "map is 300 x 300 cells: at most 32 a side"),
        (tweak(monsters__0__attack__range=[0, 10**9]), "range must be \\[min, max\\] with 0 <= min <= max <= 64"),
        (tweak(monsters__0__move=10**9), "move must be at most 64"),
        (tweak(characters__0__hp=int("9" * 400)), "hp must be at most 10000"),
        (
            tweak(
                monsters=[
                    {"id": f"m{i}", "pos": [i % 32, 1 + i // 32], "hp": 1, "move": 1, "attack": ATTACK}
                    for i in range(40)
                ],
                map=["." * 32] * 3,
            ),
            "1 characters and 40 monsters: at most 40 pieces",
        ),
    ],
)
def test_bad_scenarios_are_one_line_errors(data, message):
    with pytest.raises(BadInput, match=message) as info:
        Scenario.from_json(data)
    assert "\n" not in str(info.value)
